package tensor

import (
	"strings"
	"testing"
)

// TestSparseMMARecordings runs every recorded mma.sp variant
// (testdata/tensor/sp_probe.cu, run3.sh and run4.sh: 512 warps each, inputs in
// in/sp_<name>.bin, sparsity selector tc % (number of valid selectors)) and
// compares every output register with the H100's, bit for bit.
func TestSparseMMARecordings(t *testing.T) {
	for _, name := range []string{
		"ord_m16n8k16_f32_f16_f16_f32", "ord_m16n8k16_f16_f16_f16_f16", "ord_m16n8k32_f32_f16_f16_f32",
		"ord_m16n8k32_f16_f16_f16_f16", "ord_m16n8k16_f32_bf16_bf16_f32", "ord_m16n8k32_f32_bf16_bf16_f32",
		"ord_m16n8k8_f32_tf32_tf32_f32", "ord_m16n8k16_f32_tf32_tf32_f32",
		"ord_m16n8k32_s32_s8_s8_s32", "ord_m16n8k32_s32_u8_u8_s32_satfinite", "ord_m16n8k64_s32_s8_u8_s32",
		"ord_m16n8k64_s32_s8_s8_s32_satfinite",
		"ord_m16n8k64_f32_e4m3_e4m3_f32", "ord_m16n8k64_f32_e5m2_e5m2_f32", "ord_m16n8k64_f32_e4m3_e5m2_f32",
		"plain_m16n8k16_f32_f16_f16_f32", "plain_m16n8k32_s32_s8_s8_s32", "plain_m16n8k8_f32_tf32_tf32_f32",
		// run4.sh: 4-bit integers
		"ord_m16n8k64_s32_s4_s4_s32", "ord_m16n8k64_s32_u4_u4_s32_satfinite", "ord_m16n8k64_s32_s4_u4_s32",
		"ord_m16n8k128_s32_s4_s4_s32", "ord_m16n8k128_s32_u4_s4_s32_satfinite",
		"plain_m16n8k64_s32_u4_u4_s32", "plain_m16n8k128_s32_s4_s4_s32_satfinite",
	} {
		t.Run(name, func(t *testing.T) {
			f := strings.Split(name, "_")
			el := func(s string) Elem {
				e, ok := ParseElem(s)
				if !ok {
					t.Fatalf("type %s", s)
				}
				return e
			}
			sat := len(f) > 6 && f[6] == "satfinite"
			var ms []*MMA
			for sel := 0; sel < 4; sel++ {
				m, err := NewSparseMMA(f[1], "row", "col", el(f[2]), el(f[3]), el(f[4]), el(f[5]), sat, f[0] == "ord", sel)
				if err != nil {
					if sel == 0 {
						t.Fatal(err)
					}
					break
				}
				ms = append(ms, m)
			}
			m0 := ms[0]
			r := loadRec(t, "sp_"+name, m0.NA+m0.NB+m0.NC+1, m0.ND)
			bad, total := 0, 0
			for tc := 0; tc < r.T; tc++ {
				m := ms[tc%len(ms)]
				in, out := r.lanes(tc)
				var a, b, c, d Regs
				var e [32]uint64
				for l := 0; l < 32; l++ {
					for i := 0; i < m.NA; i++ {
						a[l][i] = uint64(in[l][i])
					}
					for i := 0; i < m.NB; i++ {
						b[l][i] = uint64(in[l][m.NA+i])
					}
					for i := 0; i < m.NC; i++ {
						c[l][i] = uint64(in[l][m.NA+m.NB+i])
					}
					e[l] = uint64(in[l][m.NA+m.NB+m.NC])
				}
				m.ExecMeta(&a, &b, &c, &d, &e)
				for l := 0; l < 32; l++ {
					for i := 0; i < m.ND; i++ {
						total++
						if d[l][i] != uint64(out[l][i]) {
							if bad < 3 {
								t.Errorf("case %d (selector %d) lane %d d%d: got %#x, H100 %#x", tc, m.Sel, l, i, d[l][i], out[l][i])
							}
							bad++
						}
					}
				}
			}
			if bad > 0 {
				t.Errorf("%s: %d of %d registers differ from the H100", m0.Name, bad, total)
			}
		})
	}
}
