package engine

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// TestSparseMMAKernelsMatchH100 runs clang's PTX of
// testdata/tensor/sp_probe.cu (one mma.sp per warp, the sparsity selector
// chosen per warp by a branch over its immediate forms) on the recorded
// inputs and compares every output register with the H100's: lowering of the
// metadata and selector operands, gathering and arithmetic together.
func TestSparseMMAKernelsMatchH100(t *testing.T) {
	for _, v := range []struct {
		name    string
		nin, nd int
	}{
		{"ord_m16n8k32_f32_f16_f16_f32", 13, 4},
		{"ord_m16n8k16_f16_f16_f16_f16", 7, 2},
		{"ord_m16n8k16_f32_tf32_tf32_f32", 13, 4},
		{"ord_m16n8k64_s32_s8_s8_s32_satfinite", 13, 4},
		{"ord_m16n8k64_f32_e4m3_e4m3_f32", 13, 4},
		{"plain_m16n8k32_s32_s8_s8_s32", 9, 4},
		{"ord_m16n8k64_s32_s4_u4_s32", 9, 4},
		{"plain_m16n8k128_s32_s4_s4_s32_satfinite", 13, 4},
	} {
		t.Run(v.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(tensorRec, "ptx", "sp_"+v.name+".ptx"))
			if err != nil {
				t.Fatal(err)
			}
			in := readWords(t, filepath.Join(tensorRec, "in", "sp_"+v.name+".bin"))
			want := readWords(t, filepath.Join(tensorRec, "out", "sp_"+v.name+".bin"))
			T := len(in) / (32 * v.nin)
			if T == 0 || len(want) != T*32*v.nd {
				t.Fatalf("recording sizes %d/%d do not fit %d+%d words per lane", len(in), len(want), v.nin, v.nd)
			}
			m := testModule(t, string(src))
			din := m.buffer(t, 4*len(in))
			dout := m.buffer(t, 4*len(want))
			m.setU32s(t, din, in)
			params := binary.LittleEndian.AppendUint32(u64p(din, dout), uint32(T))
			if _, _, err := m.launchTest(t, run{kernel: "_Z5probePKjPji", grid: [3]uint32{uint32(T+3) / 4, 1, 1}, block: [3]uint32{128, 1, 1}, params: params}); err != nil {
				t.Fatal(err)
			}
			got := m.u32s(t, dout, len(want))
			bad := 0
			for i := range want {
				if got[i] != want[i] {
					if bad < 3 {
						t.Errorf("word %d (case %d): got %#08x, H100 %#08x", i, i/(32*v.nd), got[i], want[i])
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d words differ", bad, len(want))
			}
		})
	}
}
