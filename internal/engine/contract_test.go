package engine

import (
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestMulAddRoundsOnce checks the contracted multiply and sub (mulAdd) on
// operands whose product needs rounding, so a fused result and a twice-rounded
// one differ. Expected values by hand:
//   - f32: a = b = 1+2⁻¹², a·b = 1 + 2⁻¹¹ + 2⁻²⁴ exactly (the rounded product
//     is 1 + 2⁻¹¹, the tie going to even); with c = 1 the fused a·b − c is
//     2⁻¹¹·(1+2⁻¹³) = 0x3a000400 (twice rounded: 2⁻¹¹ = 0x3a000000), c − a·b
//     its negation 0xba000400.
//   - f64: a = b = 1+2⁻²⁷ (0x3ff0000002000000), a·b − 1 = 2⁻²⁶·(1+2⁻²⁸) = 0x3e50000001000000.
//   - f16: a = b = 1+2⁻⁶, a·b − 1 = 2⁻⁵·(1+2⁻⁷) = 0x2808 (twice rounded:
//     0x2800); f16x2 the same in each half.
//   - mode 0 with c = −1 is the add a·b + (−1): the same as a·b − 1.
func TestMulAddRoundsOnce(t *testing.T) {
	cases := []struct {
		name    string
		typ     ptx.Type
		a, b, c uint64
		mode    uint8
		want    uint64
	}{
		{"f32 a·b - c", ptx.F32, 0x3f800800, 0x3f800800, 0x3f800000, 2, 0x3a000400},
		{"f32 c - a·b", ptx.F32, 0x3f800800, 0x3f800800, 0x3f800000, 1, 0xba000400},
		{"f32 a·b + c", ptx.F32, 0x3f800800, 0x3f800800, 0xbf800000, 0, 0x3a000400},
		{"f64 a·b - c", ptx.F64, 0x3ff0000002000000, 0x3ff0000002000000, 0x3ff0000000000000, 2, 0x3e50000001000000},
		{"f64 c - a·b", ptx.F64, 0x3ff0000002000000, 0x3ff0000002000000, 0x3ff0000000000000, 1, 0xbe50000001000000},
		{"f16 a·b - c", ptx.F16, 0x3c10, 0x3c10, 0x3c00, 2, 0x2808},
		{"f16x2 c - a·b", ptx.F16x2, 0x3c103c10, 0x3c103c10, 0x3c003c00, 1, 0xa808a808},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mulAdd(c.typ, c.a, c.b, c.c, false, c.mode); got != c.want {
				t.Errorf("got %#x, want %#x", got, c.want)
			}
		})
	}
}
