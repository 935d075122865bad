package engine

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

const tensorRec = "../../testdata/tensor"

func readWords(t *testing.T, p string) []uint32 {
	t.Helper()
	b, err := testenv.ReadRecording(p)
	if err != nil {
		t.Fatalf("recording missing: %v", err)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// mmaProbePTX is the PTX of testdata/tensor/probe_mma.cu's kernel for one
// variant: each lane loads its registers, runs the instruction, stores D.
func mmaProbePTX(instr string, nd, na, nb, nc int, f64 bool) string {
	var b strings.Builder
	w := 4
	reg, ld := "%r", "b32"
	if f64 {
		w, reg, ld = 8, "%rd", "b64"
	}
	nin := na + nb + nc
	fmt.Fprintf(&b, ".visible .entry probe(.param .u64 pin, .param .u64 pout) {\n.reg .b32 %%r<64>;\n.reg .b64 %%rd<64>;\n.reg .b64 %%x<8>;\n")
	b.WriteString("ld.param.u64 %x1, [pin];\nld.param.u64 %x2, [pout];\nmov.u32 %r60, %tid.x;\nmov.u32 %r61, %ctaid.x;\nmad.lo.u32 %r62, %r61, 32, %r60;\n")
	fmt.Fprintf(&b, "mul.wide.u32 %%x3, %%r62, %d;\nadd.u64 %%x4, %%x1, %%x3;\n", nin*w)
	fmt.Fprintf(&b, "mul.wide.u32 %%x3, %%r62, %d;\nadd.u64 %%x5, %%x2, %%x3;\n", nd*w)
	for i := 0; i < nin; i++ {
		fmt.Fprintf(&b, "ld.global.%s %s%d, [%%x4+%d];\n", ld, reg, 20+i, i*w)
	}
	list := func(base, n int) string {
		var s []string
		for i := 0; i < n; i++ {
			s = append(s, fmt.Sprintf("%s%d", reg, base+i))
		}
		return "{" + strings.Join(s, ", ") + "}"
	}
	fmt.Fprintf(&b, "%s %s, %s, %s, %s;\n", instr, list(0, nd), list(20, na), list(20+na, nb), list(20+na+nb, nc))
	for i := 0; i < nd; i++ {
		fmt.Fprintf(&b, "st.global.%s [%%x5+%d], %s%d;\n", ld, i*w, reg, i)
	}
	b.WriteString("ret;\n}\n")
	return b.String()
}

// TestMMAKernelsMatchH100 runs raw mma.sync kernels through the engine on
// the recorded inputs and compares every output register with the H100's
// (testdata/tensor/run.sh): lowering, fragment gathering and arithmetic
// together.
func TestMMAKernelsMatchH100(t *testing.T) {
	for _, v := range []struct {
		name, instr    string
		nd, na, nb, nc int
	}{
		{"m16n8k16_f32_f16_f16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 4, 2, 4},
		{"m16n8k16_f16_f16_f16_f16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 2, 4, 2, 2},
		{"m16n8k16_f32_bf16_bf16_f32", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 4, 4, 2, 4},
		{"m16n8k8_f32_tf32_tf32_f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, 4, 2, 4},
		{"m16n8k32_f32_e4m3_e4m3_f32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 4, 2, 4},
		{"m16n8k32_s32_s8_s8_s32_satfinite", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", 4, 4, 2, 4},
		{"m8n8k4_f64_f64_f64_f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 2, 1, 1, 2},
	} {
		t.Run(v.name, func(t *testing.T) {
			f64 := strings.Contains(v.name, "f64")
			w := 1
			if f64 {
				w = 2
			}
			in := readWords(t, filepath.Join(tensorRec, "in", v.name+".bin"))
			want := readWords(t, filepath.Join(tensorRec, "out", v.name+".bin"))
			T := len(in) / (32 * (v.na + v.nb + v.nc) * w)
			m := testModule(t, mmaProbePTX(v.instr, v.nd, v.na, v.nb, v.nc, f64))
			din := m.buffer(t, 4*len(in))
			dout := m.buffer(t, 4*len(want))
			m.setU32s(t, din, in)
			if _, _, err := m.launchTest(t, run{kernel: "probe", grid: [3]uint32{uint32(T), 1, 1}, block: [3]uint32{32, 1, 1}, params: u64p(din, dout)}); err != nil {
				t.Fatal(err)
			}
			got := m.u32s(t, dout, len(want))
			bad := 0
			for i := range want {
				if got[i] != want[i] {
					if bad < 3 {
						t.Errorf("word %d (case %d): got %#08x, H100 %#08x", i, i/(32*v.nd*w), got[i], want[i])
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
