package scalar

import (
	"fmt"
	"testing"
)

// Hand-derived bit patterns from the IEEE-754 rules and the package's
// documented conventions (canonical NaN, ftz, sat).
const (
	pZero           = 0x00000000
	nZero           = 0x80000000
	pOne            = 0x3f800000
	nOne            = 0xbf800000
	pTwo            = 0x40000000
	pInf            = 0x7f800000
	nInf            = 0xff800000
	maxF            = 0x7f7fffff
	nMaxF           = 0xff7fffff
	minSub          = 0x00000001
	minNor          = 0x00800000
	qNaN            = 0x7fc00000
	nNaN            = 0xffc00001
	cNaN            = 0x7fffffff
	pHalf           = 0x3f000000
	onePlusUlp      = 0x3f800001 // 1 + 2^-23
	oneMinusHalfUlp = 0x3f7fffff // 1 - 2^-24
)

func TestF32Specials(t *testing.T) {
	tests := []struct {
		name    string
		op      string
		a, b, c uint32
		r       Rounding
		ftz     bool
		sat     bool
		want    uint32
	}{
		{"nan+1", "add", qNaN, pOne, 0, RN, false, false, cNaN},
		{"1+negnan", "add", pOne, nNaN, 0, RZ, false, false, cNaN},
		{"inf-inf", "add", pInf, nInf, 0, RN, false, false, cNaN},
		{"inf-inf sat", "add", pInf, nInf, 0, RN, false, true, pZero},
		{"inf+inf", "add", pInf, pInf, 0, RM, false, false, pInf},
		{"-0+-0", "add", nZero, nZero, 0, RN, false, false, nZero},
		{"+0+-0 rn", "add", pZero, nZero, 0, RN, false, false, pZero},
		{"+0+-0 rm", "add", pZero, nZero, 0, RM, false, false, nZero},
		{"+0++0 rm", "add", pZero, pZero, 0, RM, false, false, pZero},
		{"1-1 rn", "sub", pOne, pOne, 0, RN, false, false, pZero},
		{"1-1 rm", "sub", pOne, pOne, 0, RM, false, false, nZero},
		{"1-1 rp", "sub", pOne, pOne, 0, RP, false, false, pZero},
		{"max+max rn", "add", maxF, maxF, 0, RN, false, false, pInf},
		{"max+max rz", "add", maxF, maxF, 0, RZ, false, false, maxF},
		{"max+max rm", "add", maxF, maxF, 0, RM, false, false, maxF},
		{"-max-max rm", "add", nMaxF, nMaxF, 0, RM, false, false, nInf},
		{"-max-max rp", "add", nMaxF, nMaxF, 0, RP, false, false, nMaxF},
		{"1+2^-24 tie rn", "add", pOne, 0x33800000, 0, RN, false, false, pOne},
		{"1+2^-24 tie rna", "add", pOne, 0x33800000, 0, RNA, false, false, onePlusUlp},
		{"1+2^-24 rp", "add", pOne, 0x33800000, 0, RP, false, false, onePlusUlp},
		{"1-2^-25 rm", "add", pOne, 0xb3000000, 0, RM, false, false, oneMinusHalfUlp},
		{"1-2^-25 rz", "add", pOne, 0xb3000000, 0, RZ, false, false, oneMinusHalfUlp},
		{"1-2^-25 rn", "add", pOne, 0xb3000000, 0, RN, false, false, pOne},
		{"minsub+minsub", "add", minSub, minSub, 0, RN, false, false, 0x00000002},
		{"minsub+minsub ftz", "add", minSub, minSub, 0, RN, true, false, pZero},
		{"-sub ftz keeps sign", "add", 0x80000005, nZero, 0, RN, true, false, nZero},
		{"subnormal result ftz", "sub", 0x00800001, minNor, 0, RN, true, false, pZero},
		{"subnormal result", "sub", 0x00800001, minNor, 0, RN, false, false, minSub},
		{"sat 2", "add", pOne, pOne, 0, RN, false, true, pOne},
		{"sat -1", "sub", pZero, pOne, 0, RN, false, true, pZero},
		{"sat -0", "add", nZero, nZero, 0, RN, false, true, pZero},
		{"sat 0.5", "add", 0x3e800000, 0x3e800000, 0, RN, false, true, pHalf},
		{"0*inf", "mul", pZero, pInf, 0, RN, false, false, cNaN},
		{"-0*5", "mul", nZero, 0x40a00000, 0, RP, false, false, nZero},
		{"minsub*0.5 rn tie", "mul", minSub, pHalf, 0, RN, false, false, pZero},
		{"minsub*0.5 rp", "mul", minSub, pHalf, 0, RP, false, false, minSub},
		{"-minsub*0.5 rm", "mul", minSub | 0x80000000, pHalf, 0, RM, false, false, 0x80000001},
		{"3*minsub*0.5 rn", "mul", 3, pHalf, 0, RN, false, false, 2},
		{"minnorm*0.5 ftz", "mul", minNor, pHalf, 0, RN, true, false, pZero},
		{"1/0", "div", pOne, pZero, 0, RN, false, false, pInf},
		{"-1/0 rz", "div", nOne, pZero, 0, RZ, false, false, nInf},
		{"0/0", "div", pZero, pZero, 0, RP, false, false, cNaN},
		{"1/3 rn", "div", pOne, 0x40400000, 0, RN, false, false, 0x3eaaaaab},
		{"1/3 rz", "div", pOne, 0x40400000, 0, RZ, false, false, 0x3eaaaaaa},
		{"-1/3 rm", "div", nOne, 0x40400000, 0, RM, false, false, 0xbeaaaaab},
		{"sqrt -1", "sqrt", nOne, 0, 0, RN, false, false, cNaN},
		{"sqrt -0", "sqrt", nZero, 0, 0, RM, false, false, nZero},
		{"sqrt 2 rn", "sqrt", pTwo, 0, 0, RN, false, false, 0x3fb504f3},
		{"sqrt 2 rz", "sqrt", pTwo, 0, 0, RZ, false, false, 0x3fb504f3},
		{"sqrt 2 rp", "sqrt", pTwo, 0, 0, RP, false, false, 0x3fb504f4},
		{"sqrt inf", "sqrt", pInf, 0, 0, RZ, false, false, pInf},
		// fma: one rounding. (1+2^-23)(1-2^-24) = 1 + 2^-24 - 2^-47; adding
		// 2^-47(1+2^-23) gives 1 + 2^-24 + 2^-70, just above the midpoint
		// between 1 and 1+2^-23. A float64 sum rounds that onto the
		// midpoint, and a second rounding to f32 would give 1.0.
		{"fma double rounding rn", "fma", onePlusUlp, oneMinusHalfUlp, 0x28000001, RN, false, false, onePlusUlp},
		{"fma double rounding rz", "fma", onePlusUlp, oneMinusHalfUlp, 0x28000001, RZ, false, false, pOne},
		{"fma double rounding rp", "fma", onePlusUlp, oneMinusHalfUlp, 0x28000001, RP, false, false, onePlusUlp},
		// the same with c = 2^-47(1-2^-24): exact 1 + 2^-24 - 2^-71, below the midpoint
		{"fma below midpoint rn", "fma", onePlusUlp, oneMinusHalfUlp, 0x27ffffff, RN, false, false, pOne},
		// midpoint between 1+2^-23 (odd) and 1+2^-22 (even), approached from below:
		// (1+2^-23)^2 = 1 + 2^-22 + 2^-46; c = -(2^-24 + 2^-46 + 2^-70)... is not an
		// f32, so use c = -2^-24(1+2^-22) = 0xb3800002: exact 1 + 3·2^-24 + 2^-46 - 2^-46 = tie → even
		{"fma exact tie to even", "fma", onePlusUlp, onePlusUlp, 0xb3800002, RN, false, false, 0x3f800002},
		{"fma exact tie rna", "fma", onePlusUlp, onePlusUlp, 0xb3800002, RNA, false, false, 0x3f800002},
		{"fma x*y-x*y rm", "fma", pTwo, 0x40400000, 0xc0c00000, RM, false, false, nZero},
		{"fma x*y-x*y rn", "fma", pTwo, 0x40400000, 0xc0c00000, RN, false, false, pZero},
		{"fma -0*1+-0", "fma", nZero, pOne, nZero, RN, false, false, nZero},
		{"fma 0*1+-0 rp", "fma", pZero, pOne, nZero, RP, false, false, pZero},
		{"fma inf*0+1", "fma", pInf, pZero, pOne, RN, false, false, cNaN},
		{"fma inf*1-inf", "fma", pInf, pOne, nInf, RN, false, false, cNaN},
		{"fma 1*1+nan", "fma", pOne, pOne, qNaN, RN, false, false, cNaN},
		{"fma overflow rz", "fma", maxF, pTwo, pZero, RZ, false, false, maxF},
		{"fma ftz subnormal c", "fma", pOne, pOne, minSub, RN, true, false, pOne},
		{"fma ftz result", "fma", minNor, pHalf, pZero, RN, true, false, pZero},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := runF32(tc.op, tc.a, tc.b, tc.c, tc.r, tc.ftz, tc.sat); got != tc.want {
				t.Errorf("%s.%v(%#08x, %#08x, %#08x) ftz=%v sat=%v = %#08x, want %#08x", tc.op, tc.r, tc.a, tc.b, tc.c, tc.ftz, tc.sat, got, tc.want)
			}
		})
	}
}

func TestF64Specials(t *testing.T) {
	const (
		one   = 0x3ff0000000000000
		two   = 0x4000000000000000
		three = 0x4008000000000000
		inf   = 0x7ff0000000000000
		ninf  = 0xfff0000000000000
		max   = 0x7fefffffffffffff
		nmax  = 0xffefffffffffffff
		nzero = 0x8000000000000000
		nan   = 0x7ff8000000000000
		cnan  = 0xfff8000000000000 // recorded: testdata/conformance/f64_arith (inf-inf, 0*inf, 0/0, sqrt(-1))
		tiny  = 0x0000000000000001
	)
	tests := []struct {
		name    string
		op      string
		a, b, c uint64
		r       Rounding
		want    uint64
	}{
		// NaN operands keep their payload (quieted), first operand first
		// (fma: a, then c, then b); NaNs created by an invalid operation are
		// canonical. Patterns as recorded in testdata/conformance/f64_arith
		// (nvcc variant).
		{"nan", "add", nan, one, 0, RN, nan},
		{"nan rz", "mul", one, nan | 1<<63, 0, RZ, nan | 1<<63},
		{"snan quieted", "add", 0x7ff0000000000001, one, 0, RN, 0x7ff8000000000001},
		{"first nan wins", "mul", 0x7ff8000000000002, 0x7ff8000000000003, 0, RN, 0x7ff8000000000002},
		{"sub nan b", "sub", one, 0xfff8000000000005, 0, RM, 0xfff8000000000005},
		{"fma nan c", "fma", one, one, 0x7ff8000000000007, RP, 0x7ff8000000000007},
		{"fma nan c before b", "fma", one, 0x7ff8000000000009, 0x7ff8000000000007, RN, 0x7ff8000000000007},
		{"fma snan c before qnan b", "fma", 0x3fe0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, RN, 0x7ff8000000000001},
		{"fma nan a before c", "fma", nan, one, 0xfff8000000000000, RN, nan},
		{"fma nan a before b", "fma", 0xfff8000000000000, nan, nmax, RN, 0xfff8000000000000},
		{"div nan", "div", 0x7ff4000000000000, one, 0, RZ, 0x7ffc000000000000},
		{"sqrt nan", "sqrt", 0xfff8000000000011, 0, 0, RN, 0xfff8000000000011},
		{"0*inf", "mul", 0, inf, 0, RN, cnan},
		{"0/0 rz", "div", 0, 0, 0, RZ, cnan},
		{"sqrt -1", "sqrt", one | 1<<63, 0, 0, RN, cnan},
		{"fma inf*0+1", "fma", inf, 0, one, RM, cnan},
		{"inf-inf rp", "add", inf, ninf, 0, RP, cnan},
		{"1-1 rm", "sub", one, one, 0, RM, nzero},
		{"1-1 rz", "sub", one, one, 0, RZ, 0},
		{"max+max rz", "add", max, max, 0, RZ, max},
		{"max+max rp", "add", max, max, 0, RP, inf},
		{"-max*2 rp", "mul", nmax, two, 0, RP, nmax},
		{"-max*2 rm", "mul", nmax, two, 0, RM, ninf},
		{"1/3 rn", "div", one, three, 0, RN, 0x3fd5555555555555},
		{"1/3 rp", "div", one, three, 0, RP, 0x3fd5555555555556},
		{"-1/3 rz", "div", one | 1<<63, three, 0, RZ, 0xbfd5555555555555},
		{"tiny*0.5 rn tie", "mul", tiny, 0x3fe0000000000000, 0, RN, 0},
		{"tiny*0.5 rp", "mul", tiny, 0x3fe0000000000000, 0, RP, tiny},
		{"tiny/2 rna", "div", tiny, two, 0, RNA, tiny},
		{"tiny/3 rp", "div", tiny, three, 0, RP, tiny},
		{"sqrt 2 rp", "sqrt", two, 0, 0, RP, 0x3ff6a09e667f3bcd},
		{"sqrt 2 rz", "sqrt", two, 0, 0, RZ, 0x3ff6a09e667f3bcc},
		{"sqrt tiny rm", "sqrt", tiny, 0, 0, RM, 0x1e60000000000000},
		{"sqrt -0", "sqrt", nzero, 0, 0, RP, nzero},
		{"fma 2*3-6 rm", "fma", two, three, 0xc018000000000000, RM, nzero},
		{"fma tiny product rz", "fma", tiny, tiny, one, RZ, one},
		{"fma tiny product rp", "fma", tiny, tiny, one, RP, one + 1},
		{"fma -tiny product rm", "fma", tiny | 1<<63, tiny, one, RM, 0x3fefffffffffffff},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := runF64(tc.op, tc.a, tc.b, tc.c, tc.r); got != tc.want {
				t.Errorf("%s.%v(%#016x, %#016x, %#016x) = %#016x, want %#016x", tc.op, tc.r, tc.a, tc.b, tc.c, got, tc.want)
			}
		})
	}
}

func TestHalfSpecials(t *testing.T) {
	tests := []struct {
		name string
		got  uint16
		want uint16
	}{
		{"f16 1+1", AddF16(0x3c00, 0x3c00, RN, false, false), 0x4000},
		{"f16 65504+8 rn (below tie)", AddF16(0x7bff, 0x4800, RN, false, false), 0x7bff},
		{"f16 65504+16 rn (tie, odd → inf)", AddF16(0x7bff, 0x4c00, RN, false, false), 0x7c00},
		{"f16 65504+32 rn (above tie)", AddF16(0x7bff, 0x5000, RN, false, false), 0x7c00},
		{"f16 65504+32 rz", AddF16(0x7bff, 0x5000, RZ, false, false), 0x7bff},
		{"f16 nan", AddF16(0x7e00, 0x3c00, RN, false, false), 0x7fff},
		{"f16 inf-inf", AddF16(0x7c00, 0xfc00, RN, false, false), 0x7fff},
		{"f16 1-1 rm", SubF16(0x3c00, 0x3c00, RM, false, false), 0x8000},
		{"f16 sat", AddF16(0x3c00, 0x3c00, RN, false, true), 0x3c00},
		{"f16 sat nan", AddF16(0x7e00, 0x3c00, RN, false, true), 0x0000},
		{"f16 subnormal ftz", AddF16(0x0001, 0x0001, RN, true, false), 0x0000},
		{"f16 subnormal", AddF16(0x0001, 0x0001, RN, false, false), 0x0002},
		{"f16 mul subnormal tie rn", MulF16(0x0001, 0x3800, RN, false, false), 0x0000},
		{"f16 mul subnormal rp", MulF16(0x0001, 0x3800, RP, false, false), 0x0001},
		{"f16 fma relu neg", FmaReluF16(0x3c00, 0xbc00, 0x0000, RN, false), 0x0000},
		{"f16 fma relu nan", FmaReluF16(0x7c00, 0x0000, 0x0000, RN, false), 0x7fff},
		{"f16 fma relu pos", FmaReluF16(0x3c00, 0x3c00, 0x3c00, RN, false), 0x4000},
		{"bf16 1+1", AddBF16(0x3f80, 0x3f80, RN, false, false), 0x4000},
		{"bf16 1+2^-8 tie", AddBF16(0x3f80, 0x3b80, RN, false, false), 0x3f80},
		{"bf16 1+2^-8 rna", AddBF16(0x3f80, 0x3b80, RNA, false, false), 0x3f81},
		{"bf16 nan", MulBF16(0x7fc0, 0x3f80, RN, false, false), 0x7fff},
		{"bf16 fma relu -0", FmaReluBF16(0x8000, 0x3f80, 0x8000, RN, false), 0x0000},
		{"cvt f16 1/3 rn", F32ToF16(0x3eaaaaab, RN, false, false), 0x3555},
		{"cvt f16 1/3 rp", F32ToF16(0x3eaaaaab, RP, false, false), 0x3556},
		{"cvt f16 70000 rn", F32ToF16(0x4788b800, RN, false, false), 0x7c00},
		{"cvt f16 70000 satfinite", F32ToF16(0x4788b800, RN, false, true), 0x7bff},
		{"cvt f16 -inf satfinite", F32ToF16(0xff800000, RN, false, true), 0xfbff},
		{"cvt f16 nan satfinite", F32ToF16(0x7fc00000, RN, false, true), 0x7fff},
		{"cvt f16 -1 relu", F32ToF16(0xbf800000, RN, true, false), 0x0000},
		{"cvt f16 -0 relu", F32ToF16(0x80000000, RN, true, false), 0x0000},
		{"cvt f16 70000 rz", F32ToF16(0x4788b800, RZ, false, false), 0x7bff},
		{"cvt f16 2^-25 rn tie", F32ToF16(0x33000000, RN, false, false), 0x0000},
		{"cvt f16 2^-25(1+2^-23) rn", F32ToF16(0x33000001, RN, false, false), 0x0001},
		{"cvt bf16 rn", F32ToBF16(0x3f808000, RN, false, false), 0x3f80},
		{"cvt bf16 rn odd tie", F32ToBF16(0x3f818000, RN, false, false), 0x3f82},
		{"cvt bf16 rz", F32ToBF16(0x3f81ffff, RZ, false, false), 0x3f81},
		{"cvt bf16 max rn", F32ToBF16(0x7f7fffff, RN, false, false), 0x7f80},
		{"cvt bf16 max rn satfinite", F32ToBF16(0x7f7fffff, RN, false, true), 0x7f7f},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %#04x, want %#04x", tc.name, tc.got, tc.want)
		}
	}
	// packed: element 0 in the low half; cvt.f16x2.f32 d, a, b puts a high
	if got := F32x2ToF16x2(0x3f800000, 0x40000000, RN, false, false); got != 0x3c004000 {
		t.Errorf("cvt.rn.f16x2.f32(1, 2) = %#08x, want 0x3c004000", got)
	}
	if got := F32x2ToBF16x2(0x3f800000, 0xc0000000, RN, true, false); got != 0x3f800000 {
		t.Errorf("cvt.rn.relu.bf16x2.f32(1, -2) = %#08x, want 0x3f800000", got)
	}
	if got := AddF16x2(0x3c004000, 0x3c00bc00, RN, false, false); got != 0x40003c00 {
		t.Errorf("add.f16x2 = %#08x, want 0x40003c00", got)
	}
	if got := FmaF16x2(0x40003c00, 0x40003c00, 0xbc000000, RN, false, false); got != 0x42003c00 {
		t.Errorf("fma.f16x2 (2*2-1, 1*1+0) = %#08x, want 0x42003c00", got)
	}
	if got := MulBF16x2(0x40003f80, 0x3f804000, RN, false, false); got != 0x40004000 {
		t.Errorf("mul.bf16x2 = %#08x, want 0x40004000", got)
	}
	if got := CvtF32ToTF32(0x3f801000, RNA, false, false); got != 0x3f802000 {
		t.Errorf("cvt.rna.tf32.f32(1+2^-11) = %#08x, want 0x3f802000", got)
	}
	if got := CvtF32ToTF32(0x3f801000, RN, false, false); got != 0x3f800000 {
		t.Errorf("cvt.rn.tf32.f32(1+2^-11) = %#08x, want 0x3f800000", got)
	}
	if got := CvtF32ToTF32(0x7f7fffff, RNA, false, true); got != 0x7f7fe000 {
		t.Errorf("cvt.rna.satfinite.tf32.f32(max) = %#08x, want 0x7f7fe000", got)
	}
}

func TestMinMax(t *testing.T) {
	tests := []struct {
		name string
		got  uint32
		want uint32
	}{
		{"min 1 2", MinF32(pOne, pTwo, false, false), pOne},
		{"max 1 2", MaxF32(pOne, pTwo, false, false), pTwo},
		{"min -0 +0", MinF32(pZero, nZero, false, false), nZero},
		{"max -0 +0", MaxF32(nZero, pZero, false, false), pZero},
		{"min nan 1", MinF32(qNaN, pOne, false, false), pOne},
		{"max 1 nan", MaxF32(pOne, nNaN, false, false), pOne},
		{"min nan nan", MinF32(qNaN, nNaN, false, false), cNaN},
		{"min.NaN nan 1", MinF32(qNaN, pOne, false, true), cNaN},
		{"max.NaN 1 nan", MaxF32(pOne, qNaN, false, true), cNaN},
		{"min -inf 1", MinF32(nInf, pOne, false, false), nInf},
		{"min sub ftz", MinF32(0x80000001, pOne, true, false), nZero},
		{"min sub", MinF32(0x80000001, nZero, false, false), 0x80000001},
		{"max -1 -2", MaxF32(nOne, 0xc0000000, false, false), nOne},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %#08x, want %#08x", tc.name, tc.got, tc.want)
		}
	}
	tests64 := []struct {
		name      string
		got, want uint64
	}{
		{"min -0 +0", MinF64(0, 1<<63, false), 1 << 63},
		{"max -0 +0", MaxF64(1<<63, 0, false), 0},
		{"min nan 1", MinF64(0x7ff8000000000000, 0x3ff0000000000000, false), 0x3ff0000000000000},
		{"min.NaN", MinF64(0x7ff8000000000000, 0x3ff0000000000000, true), 0x7ff8000000000000},
		// recorded (f64_arith max, nvcc): the first NaN, quieted
		{"max nan nan", MaxF64(0x7ff8000000000000, 0xfff8000000000000, false), 0x7ff8000000000000},
		{"max snan qnan", MaxF64(0x7ff0000000000001, 0xfff8000000000000, false), 0x7ff8000000000001},
		{"min qnan snan", MinF64(0xfff8000000000000, 0x7ff0000000000001, false), 0xfff8000000000000},
		{"max -1 -2", MaxF64(0xbff0000000000000, 0xc000000000000000, false), 0xbff0000000000000},
	}
	for _, tc := range tests64 {
		if tc.got != tc.want {
			t.Errorf("f64 %s = %#016x, want %#016x", tc.name, tc.got, tc.want)
		}
	}
	tests16 := []struct {
		name      string
		got, want uint16
	}{
		{"f16 min -0 +0", MinF16(0, 0x8000, false, false), 0x8000},
		{"f16 max 1 nan", MaxF16(0x3c00, 0x7e00, false, false), 0x3c00},
		{"f16 max.NaN", MaxF16(0x3c00, 0x7e00, false, true), 0x7fff},
		{"f16 min ftz sub", MinF16(0x8001, 0x3c00, true, false), 0x8000},
		{"bf16 min -1 1", MinBF16(0xbf80, 0x3f80, false), 0xbf80},
		{"bf16 max nan nan", MaxBF16(0x7fc0, 0x7fc1, false), 0x7fff},
	}
	for _, tc := range tests16 {
		if tc.got != tc.want {
			t.Errorf("%s = %#04x, want %#04x", tc.name, tc.got, tc.want)
		}
	}
	if got := MinF16x2(0x3c00bc00, 0x4000c000, false, false); got != 0x3c00c000 {
		t.Errorf("min.f16x2 = %#08x, want 0x3c00c000", got)
	}
	if got := MaxBF16x2(0x3f80bf80, 0x4000c000, false); got != 0x4000bf80 {
		t.Errorf("max.bf16x2 = %#08x, want 0x4000bf80", got)
	}
}

func TestSignOps(t *testing.T) {
	tests := []struct {
		name      string
		got, want uint32
	}{
		{"abs -1", AbsF32(nOne, false), pOne},
		{"abs -nan canonical", AbsF32(nNaN, false), cNaN},
		{"neg nan canonical", NegF32(qNaN, false), cNaN},
		{"abs -inf", AbsF32(nInf, true), pInf},
		{"neg +0", NegF32(pZero, false), nZero},
		{"abs -sub ftz", AbsF32(0x80000001, true), pZero},
		{"neg sub ftz", NegF32(0x00000001, true), nZero},
		{"neg sub", NegF32(0x00000001, false), 0x80000001},
		{"copysign(-1, 2)", CopysignF32(nOne, pTwo), 0xc0000000},
		{"copysign(+0, -nan)", CopysignF32(pZero, nNaN), 0x7fc00001},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s = %#08x, want %#08x", tc.name, tc.got, tc.want)
		}
	}
	if AbsF64(0x8000000000000001) != 1 || NegF64(0) != 1<<63 || CopysignF64(1<<63, 0x3ff0000000000000) != 0xbff0000000000000 {
		t.Error("f64 abs/neg/copysign")
	}
	// recorded (f64_arith abs, neg): a NaN comes back quieted, its sign untouched
	if AbsF64(0xfff0000000000001) != 0xfff8000000000001 || AbsF64(0xfff8000000000000) != 0xfff8000000000000 ||
		NegF64(0x7ff8000000000001) != 0x7ff8000000000001 || NegF64(0x7ff0000000000001) != 0x7ff8000000000001 ||
		NegF64(0xfff8000000000000) != 0xfff8000000000000 {
		t.Error("f64 abs/neg of NaN")
	}
	if AbsF16(0xbc00, false) != 0x3c00 || NegF16(0x0001, true) != 0x8000 || NegF16(0x0001, false) != 0x8001 || AbsBF16(0xff80) != 0x7f80 || NegBF16(0x3f80) != 0xbf80 {
		t.Error("f16/bf16 abs/neg")
	}
	if AbsF16(0xfe01, false) != 0x7fff || NegBF16(0x7fc1) != 0x7fff {
		t.Error("f16/bf16 abs/neg of NaN must be canonical")
	}
	if AbsF16x2(0xbc00fc00, false) != 0x3c007c00 || NegF16x2(0x00013c00, true) != 0x8000bc00 || AbsBF16x2(0xbf80c000) != 0x3f804000 || NegBF16x2(0x3f800000) != 0xbf808000 {
		t.Error("x2 abs/neg")
	}
}

func TestTestp(t *testing.T) {
	type in struct {
		bits uint64
		f64  bool
	}
	values := map[string]in{
		"f32 +0": {0, false}, "f32 -0": {nZero, false}, "f32 1": {pOne, false}, "f32 sub": {minSub, false}, "f32 inf": {nInf, false}, "f32 nan": {nNaN, false},
		"f64 +0": {0, true}, "f64 1": {0x3ff0000000000000, true}, "f64 sub": {1, true}, "f64 inf": {0x7ff0000000000000, true}, "f64 nan": {0x7ff0000000000001, true},
	}
	// expected: finite infinite number notanumber normal subnormal. The
	// PTX ISA: "As a special case, positive and negative zero are considered
	// normal numbers."
	want := map[string][6]bool{
		"f32 +0": {true, false, true, false, true, false}, "f32 1": {true, false, true, false, true, false},
		"f32 -0":  {true, false, true, false, true, false},
		"f32 sub": {true, false, true, false, false, true}, "f32 inf": {false, true, true, false, false, false},
		"f32 nan": {false, false, false, true, false, false},
		"f64 +0":  {true, false, true, false, true, false}, "f64 1": {true, false, true, false, true, false},
		"f64 sub": {true, false, true, false, false, true}, "f64 inf": {false, true, true, false, false, false},
		"f64 nan": {false, false, false, true, false, false},
	}
	for name, v := range values {
		typ := f32T
		if v.f64 {
			typ = f64T
		}
		for op := TestpFinite; op <= TestpSubnormal; op++ {
			if got := Testp(op, v.bits, typ); got != want[name][op] {
				t.Errorf("testp op %d %s = %v, want %v", op, name, got, want[name][op])
			}
		}
	}
	if Testp(TestpOp(99), 0, f32T) {
		t.Error("unknown testp op must be false")
	}
}

func ExampleFmaF32() {
	// (1+2^-23)(1-2^-24) + 2^-47(1+2^-23): one rounding gives 1+2^-23.
	fmt.Printf("%#08x\n", FmaF32(0x3f800001, 0x3f7fffff, 0x28000001, RN, false, false))
	// Output: 0x3f800001
}

func TestFlush(t *testing.T) {
	if FlushF32(0x807fffff) != 0x80000000 || FlushF32(0x00800000) != 0x00800000 || FlushF32(0x7fc00000) != 0x7fc00000 {
		t.Error("FlushF32")
	}
	if FlushF16(0x83ff) != 0x8000 || FlushF16(0x0400) != 0x0400 {
		t.Error("FlushF16")
	}
}
