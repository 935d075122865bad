package scalar

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestApproxSpecials(t *testing.T) {
	checkU32(t, []u32case{
		{"rcp 0", RcpApproxF32(pZero, false), pInf},
		{"rcp -0", RcpApproxF32(nZero, false), nInf},
		{"rcp inf", RcpApproxF32(pInf, false), pZero},
		{"rcp -inf", RcpApproxF32(nInf, false), nZero},
		{"rcp 2", RcpApproxF32(pTwo, false), pHalf},
		{"rcp nan", RcpApproxF32(qNaN, false), cNaN},
		{"rcp.ftz sub", RcpApproxF32(minSub, true), pInf},
		{"rcp.ftz 2^127 → subnormal flushed", RcpApproxF32(0x7f000000, true), pZero},
		{"rcp 2^127", RcpApproxF32(0x7f000000, false), 0x00400000},
		{"sqrt 4", SqrtApproxF32(0x40800000, false), pTwo},
		{"sqrt -1", SqrtApproxF32(nOne, false), cNaN},
		{"sqrt -0", SqrtApproxF32(nZero, false), nZero},
		{"sqrt inf", SqrtApproxF32(pInf, false), pInf},
		{"rsqrt 4", RsqrtApproxF32(0x40800000, false), pHalf},
		{"rsqrt 0", RsqrtApproxF32(pZero, false), pInf},
		{"rsqrt -0", RsqrtApproxF32(nZero, false), nInf},
		{"rsqrt inf", RsqrtApproxF32(pInf, false), pZero},
		{"rsqrt -1", RsqrtApproxF32(nOne, false), cNaN},
		{"ex2 0", Ex2ApproxF32(pZero, false), pOne},
		{"ex2 -0", Ex2ApproxF32(nZero, false), pOne},
		{"ex2 -inf", Ex2ApproxF32(nInf, false), pZero},
		{"ex2 inf", Ex2ApproxF32(pInf, false), pInf},
		{"ex2 10", Ex2ApproxF32(0x41200000, false), 0x44800000},
		{"ex2 -149", Ex2ApproxF32(0xc3150000, false), minSub},
		{"ex2.ftz -149", Ex2ApproxF32(0xc3150000, true), pZero},
		{"ex2.ftz -sub", Ex2ApproxF32(0x80000001, true), pOne},
		{"lg2 0", Lg2ApproxF32(pZero, false), nInf},
		{"lg2 -0", Lg2ApproxF32(nZero, false), nInf},
		{"lg2 1", Lg2ApproxF32(pOne, false), pZero},
		{"lg2 -1", Lg2ApproxF32(nOne, false), cNaN},
		{"lg2 inf", Lg2ApproxF32(pInf, false), pInf},
		{"lg2 minsub", Lg2ApproxF32(minSub, false), 0xc3150000},
		{"lg2.ftz minsub", Lg2ApproxF32(minSub, true), nInf},
		{"sin 0", SinApproxF32(pZero, false), pZero},
		{"sin -0", SinApproxF32(nZero, false), nZero},
		{"sin inf", SinApproxF32(pInf, false), cNaN},
		{"cos 0", CosApproxF32(pZero, false), pOne},
		{"cos -inf", CosApproxF32(nInf, false), cNaN},
		{"tanh 0", TanhApproxF32(pZero), pZero},
		{"tanh 20", TanhApproxF32(0x41a00000), pOne},
		{"tanh -inf", TanhApproxF32(nInf), nOne},
		{"div.approx 1/2", DivApproxF32(pOne, pTwo, false), pHalf},
		{"div.approx b=2^127", DivApproxF32(pOne, 0x7f000000, false), pZero},
		{"div.approx -1/b=2^127", DivApproxF32(nOne, 0x7f000000, false), nZero},
		{"div.approx inf/2^127", DivApproxF32(pInf, 0x7f000000, false), cNaN},
		{"div.approx 1/2^126", DivApproxF32(pOne, 0x7e800000, false), 0x00800000},
		{"div.full 1/3", DivFullF32(pOne, 0x40400000, false), 0x3eaaaaab},
	})
	for _, tc := range []struct {
		name      string
		got, want uint64
	}{
		{"rcp.approx.ftz.f64(2)", RcpApproxFtzF64(0x4000000000000000), 0x3fe0000000000000},
		{"rcp.approx.ftz.f64(3): 1.11.20 result", RcpApproxFtzF64(0x4008000000000000), 0x3fd5555500000000},
		{"rcp.approx.ftz.f64 ignores the low word", RcpApproxFtzF64(0x40080000ffffffff), 0x3fd5555500000000},
		{"rcp.approx.ftz.f64(-subnormal)", RcpApproxFtzF64(0x8000000000000001), 0xfff0000000000000},
		{"rcp.approx.ftz.f64(+0)", RcpApproxFtzF64(0), 0x7ff0000000000000},
		{"rcp.approx.ftz.f64(-inf)", RcpApproxFtzF64(0xfff0000000000000), 0x8000000000000000},
		{"rcp.approx.ftz.f64(nan)", RcpApproxFtzF64(0x7ff8000000000001), 0x7fffffff00000000},
		{"rcp.approx.ftz.f64 subnormal result flushed", RcpApproxFtzF64(0x7fe8000000000000), 0},
		{"rsqrt.approx.ftz.f64(4)", RsqrtApproxF64(0x4010000000000000, true), 0x3fe0000000000000},
		{"rsqrt.approx.ftz.f64(+subnormal)", RsqrtApproxF64(1, true), 0x7ff0000000000000},
		{"rsqrt.approx.ftz.f64(-0)", RsqrtApproxF64(0x8000000000000000, true), 0xfff0000000000000},
		{"rsqrt.approx.ftz.f64(-inf)", RsqrtApproxF64(0xfff0000000000000, true), 0x7fffffff00000000},
		{"rsqrt.approx.ftz.f64(+inf)", RsqrtApproxF64(0x7ff0000000000000, true), 0},
		{"rsqrt.approx.f64(4)", RsqrtApproxF64(0x4010000000000000, false), 0x3fe0000000000000},
		{"rsqrt.approx.f64(nan) keeps payload", RsqrtApproxF64(0x7ff0000000000001, false), 0x7ff8000000000001},
		{"rsqrt.approx.f64(-1)", RsqrtApproxF64(0xbff0000000000000, false), CanonicalNaNF64},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
	// rsqrt.approx.f64(2): within one ulp of 1/sqrt(2) = 0x3fe6a09e667f3bcd (correctly rounded)
	if got := RsqrtApproxF64(0x4000000000000000, false); got != 0x3fe6a09e667f3bcd && got != 0x3fe6a09e667f3bcc && got != 0x3fe6a09e667f3bce {
		t.Errorf("rsqrt.approx.f64(2) = %#x", got)
	}
	if got := Ex2ApproxF16(0x3c00, false); got != 0x4000 {
		t.Errorf("ex2.approx.f16(1) = %#x", got)
	}
	if got := Ex2ApproxF16x2(0x3c004000, false); got != 0x40004400 {
		t.Errorf("ex2.approx.f16x2(2, 1) = %#x", got)
	}
	if got := Ex2ApproxBF16x2(0x3f804000, true); got != 0x40004080 {
		t.Errorf("ex2.approx.ftz.bf16x2(1, 2) = %#x", got)
	}
	if got := TanhApproxF16x2(0x0000fc00); got != 0x0000bc00 {
		t.Errorf("tanh.approx.f16x2(0, -inf) = %#x", got)
	}
	if got := TanhApproxBF16x2(0x7f800000); got != 0x3f800000 {
		t.Errorf("tanh.approx.bf16x2(inf, 0) = %#x", got)
	}
}

// ulpDiff counts f32 ulps between two finite patterns of the same sign.
func ulpDiff(a, b uint32) int64 {
	k := func(x uint32) int64 { return int64(orderedKey(uint64(x), signF32)) }
	d := k(a) - k(b)
	if d < 0 {
		d = -d
	}
	return d
}

// The models stay within the PTX ISA's documented error bounds of the true
// function (computed in float64).
func TestApproxWithinDocumentedBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for i := 0; i < 20000; i++ {
		a := uint32(100+rng.IntN(60))<<23 | rng.Uint32()&0x7fffff
		x := f32(a)
		for _, c := range []struct {
			name  string
			got   uint32
			exact float64
			ulps  int64
		}{
			{"rcp", RcpApproxF32(a, false), 1 / x, 1},
			{"sqrt", SqrtApproxF32(a, false), math.Sqrt(x), 1},
			{"rsqrt", RsqrtApproxF32(a, false), 1 / math.Sqrt(x), 2},
			{"lg2", Lg2ApproxF32(a, false), math.Log2(x), 2},
			{"div.full", DivFullF32(a, 0x40400000, false), x / 3, 2},
			{"div.approx", DivApproxF32(a, 0x40400000, false), x / 3, 2},
		} {
			want := math.Float32bits(float32(c.exact))
			if c.name == "lg2" && math.Abs(c.exact) < 1 { // absolute bound near 1
				if math.Abs(float64(f32(c.got))-c.exact) > 0x1p-22 {
					t.Fatalf("%s(%#x) = %#x, exact %g", c.name, a, c.got, c.exact)
				}
				continue
			}
			if ulpDiff(c.got, want) > c.ulps {
				t.Fatalf("%s(%#x) = %#x, want within %d ulp of %#x", c.name, a, c.got, c.ulps, want)
			}
		}
		// ex2 on [-126, 127], sin/cos on [-π, π] (absolute bound 2^-20.9)
		e := float32(rng.Float64()*253 - 126)
		if got, want := Ex2ApproxF32(math.Float32bits(e), false), math.Float32bits(float32(math.Exp2(float64(e)))); ulpDiff(got, want) > 2 {
			t.Fatalf("ex2(%g) = %#x, want ~%#x", e, got, want)
		}
		s := float32((rng.Float64()*2 - 1) * math.Pi)
		if got := f32(SinApproxF32(math.Float32bits(s), false)); math.Abs(got-math.Sin(float64(s))) > math.Exp2(-20.9) {
			t.Fatalf("sin(%g) = %g", s, got)
		}
		if got := f32(CosApproxF32(math.Float32bits(s), false)); math.Abs(got-math.Cos(float64(s))) > math.Exp2(-20.9) {
			t.Fatalf("cos(%g) = %g", s, got)
		}
		if got := f32(TanhApproxF32(math.Float32bits(s))); math.Abs(got-math.Tanh(float64(s))) > math.Abs(math.Tanh(float64(s)))*math.Exp2(-10.987) {
			t.Fatalf("tanh(%g) = %g", s, got)
		}
	}
}
