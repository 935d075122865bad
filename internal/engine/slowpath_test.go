package engine

import "testing"

// TestSlowPathKinds checks which of ptxas's out-of-line paths each operand
// of div.rn.f32 and sqrt.rn.f32 takes: the kinds the H100 timed apart
// (testdata/triton3/study/slow), the operands it kept inline, and the
// bounds of sqrt's range check, read off its SASS (0x0d000000: 2^-101).
func TestSlowPathKinds(t *testing.T) {
	const (
		one, half, inf, nan, sub = 0x3f800000, 0x3f000000, 0x7f800000, 0x7fc00000, 0x000b5e3f
		neg                      = 0x80000000
	)
	p := func(e int) uint32 { return uint32(127+e) << 23 }
	for _, c := range []struct {
		name string
		a, b uint32
		want int
	}{
		{"normal", one, half, -1},
		{"quotient 2^120", p(100), p(-20), -1},
		{"quotient 2^-120", p(-100), p(20), -1},
		{"NaN dividend", nan, one, SlowDivNaN},
		{"NaN divisor", one, nan | neg, SlowDivNaN},
		{"Inf/x", inf, one, SlowDivInfNum},
		{"-Inf/0", inf | neg, 0, SlowDivInfNum},
		{"x/Inf", one, inf, SlowDivInfDen},
		{"x/0", one, 0, SlowDivZeroDen},
		{"x/-0", one, neg, SlowDivZeroDen},
		{"0/x", 0, one, SlowDivZeroNum},
		{"0/0", neg, 0, SlowDivZeroZero},
		{"subnormal/x", sub, one, SlowDivSubNum},
		{"x/subnormal", one, sub, SlowDivSubDen},
		{"1/2^127", one, p(127), SlowDivBigDen},
		{"quotient 2^130", p(120), p(-10), SlowDivOverflow},
		{"2^-125/1.5", p(-125), 0x3fc00000, SlowDivSmall},
		{"quotient 2^-130", p(-120), p(10), SlowDivUnderflow},
	} {
		if got := divSlowPath(c.a, c.b); got != c.want {
			t.Errorf("div %s (%#x/%#x): path %d, want %d", c.name, c.a, c.b, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		x    uint32
		want int
	}{
		{"normal", one, -1},
		{"2^-99", p(-99), -1},
		{"2^-101", 0x0d000000, -1},
		{"just below 2^-101", 0x0cffffff, SlowSqrtTiny},
		{"largest finite", 0x7f7fffff, -1},
		{"2^-103", p(-103), SlowSqrtTiny},
		{"+0", 0, SlowSqrtZero},
		{"-0", neg, SlowSqrtZero},
		{"-2", 0xc0000000, SlowSqrtNeg},
		{"-Inf", inf | neg, SlowSqrtNeg},
		{"NaN", nan, SlowSqrtNaN},
		{"+Inf", inf, SlowSqrtInf},
		{"subnormal", sub, SlowSqrtSub},
	} {
		if got := sqrtSlowPath(c.x); got != c.want {
			t.Errorf("sqrt %s (%#x): path %d, want %d", c.name, c.x, got, c.want)
		}
	}
}
