package tensor

import (
	"strings"
	"testing"
)

// TestMMARecordings runs every recorded mma.sync variant on the recorded
// register inputs and compares every output register, bit for bit, with
// the H100's (testdata/tensor/out, made by testdata/tensor/run.sh).
func TestMMARecordings(t *testing.T) {
	for _, name := range []string{
		"m16n8k16_f32_f16_f16_f32", "m16n8k16_f16_f16_f16_f16", "m16n8k16_f32_bf16_bf16_f32",
		"m16n8k8_f32_f16_f16_f32", "m16n8k8_f32_bf16_bf16_f32", "m16n8k8_f32_tf32_tf32_f32", "m16n8k4_f32_tf32_tf32_f32",
		"m16n8k32_f32_e4m3_e4m3_f32", "m16n8k32_f32_e5m2_e5m2_f32", "m16n8k32_f32_e4m3_e5m2_f32",
		"m8n8k4_f64_f64_f64_f64",
		"m16n8k32_s32_s8_s8_s32", "m16n8k32_s32_s8_s8_s32_satfinite", "m16n8k32_s32_u8_u8_s32",
		"m16n8k32_s32_u8_u8_s32_satfinite", "m16n8k32_s32_s8_u8_s32", "m16n8k32_s32_s8_u8_s32_satfinite",
		"m16n8k16_s32_s8_s8_s32", "m8n8k16_s32_s8_s8_s32", "m16n8k64_s32_s4_s4_s32", "m16n8k64_s32_u4_u4_s32_satfinite",
		"m16n8k256_s32_b1_b1_s32_xor_popc", "m16n8k256_s32_b1_b1_s32_and_popc",
	} {
		t.Run(name, func(t *testing.T) {
			f := strings.Split(name, "_")
			sat := len(f) > 5 && f[5] == "satfinite"
			bitop := ""
			if len(f) == 7 && f[6] == "popc" {
				bitop = f[5]
			}
			el := func(s string) Elem {
				e, ok := ParseElem(s)
				if !ok {
					t.Fatalf("type %s", s)
				}
				return e
			}
			m, err := NewMMA(f[0], "row", "col", el(f[1]), el(f[2]), el(f[3]), el(f[4]), sat, bitop)
			if err != nil {
				t.Fatal(err)
			}
			w := 1
			if m.A == F64 {
				w = 2
			}
			r := loadRec(t, name, (m.NA+m.NB+m.NC)*w, m.ND*w)
			bad, total := 0, 0
			for tc := 0; tc < r.T; tc++ {
				in, out := r.lanes(tc)
				var a, b, c, d Regs
				for l := 0; l < 32; l++ {
					word := func(i int) uint64 {
						if w == 2 {
							return uint64(in[l][2*i]) | uint64(in[l][2*i+1])<<32
						}
						return uint64(in[l][i])
					}
					for i := 0; i < m.NA; i++ {
						a[l][i] = word(i)
					}
					for i := 0; i < m.NB; i++ {
						b[l][i] = word(m.NA + i)
					}
					for i := 0; i < m.NC; i++ {
						c[l][i] = word(m.NA + m.NB + i)
					}
				}
				m.Exec(&a, &b, &c, &d)
				for l := 0; l < 32; l++ {
					for i := 0; i < m.ND; i++ {
						want := uint64(out[l][i*w])
						if w == 2 {
							want |= uint64(out[l][i*w+1]) << 32
						}
						total++
						if d[l][i] != want {
							if bad < 5 {
								t.Errorf("case %d lane %d d%d: got %#x, H100 %#x", tc, l, i, d[l][i], want)
							}
							bad++
						}
					}
				}
			}
			if bad > 0 {
				t.Errorf("%s: %d of %d registers differ from the H100", m.Name, bad, total)
			}
		})
	}
}
