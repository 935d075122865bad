package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestIntegerWGMMAMatchesH100 runs clang's PTX of
// testdata/tensor/wgmma_int_probe.cu (one integer or b1 wgmma.mma_async
// m64n8kK per warpgroup, operands in shared memory through no-swizzle
// descriptors, scale-d 0 for every eighth case) on the recorded inputs and
// compares D with the H100's: s8/u8 in all four sign pairings, .satfinite
// (near the int32 limits), and b1 .and.popc.
func TestIntegerWGMMAMatchesH100(t *testing.T) {
	const caseIn = 64*32 + 8*32 + 64*8*4 // A | B | C per case; the recording appends D
	for v, name := range []string{"m64n8k32_s32_s8_s8", "m64n8k32_s32_u8_u8", "m64n8k32_s32_s8_u8", "m64n8k32_s32_u8_s8",
		"m64n8k32_satfinite_s32_s8_s8", "m64n8k32_satfinite_s32_u8_s8", "m64n8k256_s32_b1_b1_and_popc"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", fmt.Sprintf("wgmma_int_probe_v%d.ptx", v)))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "wgmma_int_"+name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			cases := len(rec) / (caseIn + 2048)
			if cases == 0 || len(rec) != cases*(caseIn+2048) {
				t.Fatalf("recording of %d bytes is not whole cases", len(rec))
			}
			var in, want []byte
			for c := 0; c < cases; c++ {
				r := rec[c*(caseIn+2048):]
				in = append(in, r[:caseIn]...)
				want = append(want, r[caseIn:caseIn+2048]...)
			}
			m := testModule(t, string(src))
			din := m.buffer(t, len(in))
			b, _ := m.Mem.Bytes(din, uint64(len(in)))
			copy(b, in)
			dout := m.buffer(t, len(want))
			params := binary.LittleEndian.AppendUint32(u64p(din, dout), 1)
			if _, _, err := m.launchTest(t, run{kernel: "_Z5probePKhPii", grid: [3]uint32{uint32(cases), 1, 1}, block: [3]uint32{128, 1, 1}, params: params}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(dout, uint64(len(want)))
			if !bytes.Equal(got, want) {
				n := 0
				for i := 0; i < len(want); i += 4 {
					if !bytes.Equal(got[i:i+4], want[i:i+4]) {
						if n < 3 {
							t.Errorf("case %d element %d: %#08x, H100 %#08x", i/2048, i%2048/4, binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:]))
						}
						n++
					}
				}
				t.Errorf("%d of %d outputs differ", n, len(want)/4)
			}
		})
	}
}
