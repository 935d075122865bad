package scalar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The special values of the models kept here (the SFU instructions the H100
// answers from recorded tables are tested in internal/libdevice). Expected
// values are the exact functions' values at those points.
func TestApproxSpecials(t *testing.T) {
	checkU32(t, []u32case{
		{"tanh 0", TanhApproxF32(pZero), pZero},
		{"tanh -0", TanhApproxF32(nZero), nZero},
		{"tanh 20", TanhApproxF32(0x41a00000), pOne},
		{"tanh inf", TanhApproxF32(pInf), pOne},
		{"tanh -inf", TanhApproxF32(nInf), nOne},
		{"tanh nan", TanhApproxF32(qNaN), cNaN},
	})
	for _, tc := range []struct {
		name      string
		got, want uint32
	}{
		{"ex2.approx.f16(1)", uint32(Ex2ApproxF16(0x3c00, false)), 0x4000},
		{"ex2.approx.f16x2(2, 1)", Ex2ApproxF16x2(0x3c004000, false), 0x40004400},
		{"ex2.approx.ftz.bf16(-inf)", uint32(Ex2ApproxBF16(0xff80, true)), 0},
		{"ex2.approx.ftz.bf16x2(1, 2)", Ex2ApproxBF16x2(0x3f804000, true), 0x40004080},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
}

// tanh.approx.f32 stays within the PTX ISA's documented relative error bound
// (2^-10.987) of the true function (computed in float64).
func TestApproxWithinDocumentedBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for i := 0; i < 20000; i++ {
		s := float32((rng.Float64()*2 - 1) * math.Pi)
		if got := f32(TanhApproxF32(math.Float32bits(s))); math.Abs(got-math.Tanh(float64(s))) > math.Abs(math.Tanh(float64(s)))*math.Exp2(-10.987) {
			t.Fatalf("tanh(%g) = %g", s, got)
		}
	}
}
