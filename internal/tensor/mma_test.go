package tensor

import (
	"fmt"
	"math"
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

// TestMMAF64Sm90Shapes: mma.sync m16n8k4/8/16 with f64 (sm_90) place A, B,
// C and D as the PTX ISA's fragment figures do (A[i][k] in lane
// 4(i%8)+k%4, register i/8+2(k/4); B[k][j] in lane 4j+k%4, register k/4;
// C/D[i][j] in lane 4(i%8)+j/2, register 2(i/8)+j%2) — checked with small
// integers, whose products and sums are exact — and each D element is one
// chain of fused multiply-adds in K order: 2^53 + 1 + 1 - 2^53 is 0 (each +1
// rounds back to 2^53), where an exact dot product would give 2.
func TestMMAF64Sm90Shapes(t *testing.T) {
	f := math.Float64bits
	for _, k := range []int{4, 8, 16} {
		m, err := NewMMA(fmt.Sprintf("m16n8k%d", k), "row", "col", F64, F64, F64, F64, false, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.NA != k/2 || m.NB != k/4 || m.NC != 4 || m.ND != 4 {
			t.Fatalf("k=%d: registers %d %d %d %d", k, m.NA, m.NB, m.NC, m.ND)
		}
		A := func(i, kk int) float64 { return float64((i*7+kk*3)%11 - 5) }
		B := func(kk, j int) float64 { return float64((kk*5+j*2)%9 - 4) }
		C := func(i, j int) float64 { return float64(i*8 + j) }
		var a, b, c, d Regs
		for i := 0; i < 16; i++ {
			for kk := 0; kk < k; kk++ {
				a[4*(i%8)+kk%4][i/8+2*(kk/4)] = f(A(i, kk))
			}
			for j := 0; j < 8; j++ {
				c[4*(i%8)+j/2][2*(i/8)+j%2] = f(C(i, j))
			}
		}
		for kk := 0; kk < k; kk++ {
			for j := 0; j < 8; j++ {
				b[4*j+kk%4][kk/4] = f(B(kk, j))
			}
		}
		m.Exec(&a, &b, &c, &d)
		for i := 0; i < 16; i++ {
			for j := 0; j < 8; j++ {
				want := C(i, j)
				for kk := 0; kk < k; kk++ {
					want += A(i, kk) * B(kk, j)
				}
				if got := math.Float64frombits(d[4*(i%8)+j/2][2*(i/8)+j%2]); got != want {
					t.Errorf("k=%d D[%d][%d] = %g, want %g", k, i, j, got, want)
				}
			}
		}
		// the chain: row 0 of A is (2^53, 1, 1, -1 at k-1), column 0 of B is
		// (1, 1, 1, ..., 2^53 at k-1); other products are 0
		a, b, c = Regs{}, Regs{}, Regs{}
		a[0][0], a[1][0], a[2][0] = f(1<<53), f(1), f(1)
		b[0][0], b[1][0], b[2][0] = f(1), f(1), f(1)
		a[4*0+(k-1)%4][2*((k-1)/4)] = f(-1)
		b[4*0+(k-1)%4][(k-1)/4] = f(1 << 53)
		m.Exec(&a, &b, &c, &d)
		if got := math.Float64frombits(d[0][0]); got != 0 {
			t.Errorf("k=%d: 2^53+1+1-2^53 = %g, want 0 (one FMA chain in K order)", k, got)
		}
	}
}
