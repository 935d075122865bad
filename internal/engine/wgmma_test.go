package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestWGMMAMatchesH100 runs clang's PTX of testdata/tensor/wgmma_probe.cu
// (one wgmma.mma_async m64n8kK per warpgroup on adversarial inputs, operands
// in shared memory through no-swizzle descriptors) and compares D with the
// H100's, for f16, bf16, tf32, e4m3 and e5m2.
func TestWGMMAMatchesH100(t *testing.T) {
	for v, name := range []string{"m64n8k16_f32_f16_f16", "m64n8k16_f32_bf16_bf16", "m64n8k8_f32_tf32_tf32", "m64n8k32_f32_e4m3_e4m3", "m64n8k32_f32_e5m2_e5m2"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", fmt.Sprintf("wgmma_probe_v%d.ptx", v)))
			if err != nil {
				t.Fatal(err)
			}
			in, err := testenv.ReadRecording(filepath.Join(tensorRec, "in", "wgmma_"+name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "wgmma_"+name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			cases := len(want) / (512 * 4)
			m := testModule(t, string(src))
			din := m.buffer(t, len(in))
			b, _ := m.Mem.Bytes(din, uint64(len(in)))
			copy(b, in)
			dout := m.buffer(t, len(want))
			if _, _, err := m.launchTest(t, run{kernel: "_Z5probePKhPf", grid: [3]uint32{uint32(cases), 1, 1}, block: [3]uint32{128, 1, 1}, params: u64p(din, dout)}); err != nil {
				t.Fatal(err)
			}
			got, _ := m.Mem.Bytes(dout, uint64(len(want)))
			if !bytes.Equal(got, want) {
				n := 0
				for i := 0; i < len(want); i += 4 {
					if !bytes.Equal(got[i:i+4], want[i:i+4]) {
						if n < 3 {
							t.Errorf("element %d: %#08x, H100 %#08x", i/4, binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:]))
						}
						n++
					}
				}
				t.Errorf("%d of %d outputs differ", n, len(want)/4)
			}
		})
	}
}

// TestBulkCopyProgramMatchesH100: cp.async.bulk global->shared completing
// on an mbarrier over two phases and a bulk shared->global store
// (testdata/tensor/bulk_prog.cu); the printed output is the H100's.
func TestBulkCopyProgramMatchesH100(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", "bulk_prog.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := testenv.ReadRecording(filepath.Join(tensorRec, "out", "bulk_prog.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m := testModule(t, string(src))
	in := make([]uint32, 512)
	for i := range in {
		in[i] = math.Float32bits(float32((i*613)%211)*0.25 - 20)
	}
	din, dout := m.buffer(t, 2048), m.buffer(t, 1024)
	m.setU32s(t, din, in)
	if _, _, err := m.launchTest(t, run{kernel: "_Z4bulkPKfPf", block: [3]uint32{256, 1, 1}, params: u64p(din, dout), its: true, steps: 2000000}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i, x := range m.u32s(t, dout, 256) {
		sep := " "
		if i%8 == 7 {
			sep = "\n"
		}
		fmt.Fprintf(&out, "%.9g%s", float64(math.Float32frombits(x)), sep)
	}
	if out.String() != string(want) {
		t.Errorf("output differs from the H100's:\n%s", out.String()[:200])
	}
}
