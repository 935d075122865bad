package scalar

import "math"

// The .approx instructions run on the SFU (MUFU), whose results are not
// specified bit for bit. The engine takes almost all of them from
// internal/libdevice, which reproduces the H100 bit for bit from tables of
// the GPU's own results (see internal/engine/sfu.go): rcp, sqrt, rsqrt, ex2,
// lg2, sin and cos.approx{.ftz}.f32, div.approx{.ftz}.f32,
// div.full{.ftz}.f32, rcp.approx.ftz.f64, rsqrt.approx{.ftz}.f64 and
// tanh.approx.f16/f16x2/bf16/bf16x2. (They cannot live here:
// internal/libdevice imports this package.) This file keeps only the models
// of the instructions with no recorded table; the "vs H100" column is the
// agreement with testdata/conformance/approx (4096 inputs per row, checked
// by TestAgainstH100Recordings against tolerance.json, which keeps every
// zero, infinity and NaN exact).
//
//	instruction                 PTX ISA bound   model here                   vs H100 (exact/4096, worst)
//	tanh.approx.f32             rel. 2^-11      RN(tanh x) via f64           2502, rel. 1.1e-5
//	ex2.approx{.ftz}.f16{x2}    1 ulp           as the H100 (Ex2ApproxF16)   4096
//	ex2.approx.ftz.bf16{x2}                     RN(2^x) via f64              (not recorded)

// TanhApproxF32 is tanh.approx.f32, modelled as tanh rounded to nearest.
func TanhApproxF32(a uint32) uint32 { return bitsF32(float32(math.Tanh(f32(a)))) }

// approx applies fn in float64 to a and rounds the result to nearest in
// k's format, with ftz on input and result.
func (k halfKind) approx(a uint16, ftz bool, fn func(float64) float64) uint16 {
	if ftz {
		a = k.flush(a)
	}
	return k.finish(k.round(fn(k.value(a)), RN), ftz, false)
}

// Ex2ApproxF16 is ex2.approx{.ftz}.f16 as the H100's results show
// (testdata/conformance/approx ex2): the f32 MUFU.EX2 on x, which truncates
// |x| to 23 fractional bits (so 2^-24 gives exactly 1 and 2^-23 does not),
// 2^x rounded to f32, then to f16 toward zero (2^-23.16 → 0x0001, 2^-24.34
// → 0), +inf from 2^16 up. ftz changes nothing.
func Ex2ApproxF16(a uint16, ftz bool) uint16 {
	x := math.Trunc(kindF16.value(a)*0x1p23) * 0x1p-23
	y := float64(float32(math.Exp2(x)))
	if y >= 0x1p16 {
		return 0x7c00
	}
	return kindF16.round(y, RZ)
}

// Ex2ApproxF16x2 is ex2.approx{.ftz}.f16x2.
func Ex2ApproxF16x2(a uint32, ftz bool) uint32 {
	return uint32(Ex2ApproxF16(uint16(a), ftz)) | uint32(Ex2ApproxF16(uint16(a>>16), ftz))<<16
}

// Ex2ApproxBF16 is ex2.approx.ftz.bf16.
func Ex2ApproxBF16(a uint16, ftz bool) uint16 { return kindBF16.approx(a, ftz, math.Exp2) }

// Ex2ApproxBF16x2 is ex2.approx.ftz.bf16x2.
func Ex2ApproxBF16x2(a uint32, ftz bool) uint32 {
	return uint32(Ex2ApproxBF16(uint16(a), ftz)) | uint32(Ex2ApproxBF16(uint16(a>>16), ftz))<<16
}
