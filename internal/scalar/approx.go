package scalar

import "math"

// The .approx instructions run on the SFU (MUFU), whose results are not
// specified bit for bit. Each function below models one; the "vs H100"
// column is the agreement with testdata/conformance/approx (4096 inputs per
// row, checked by TestAgainstH100Recordings against tolerance.json, which
// keeps every zero, infinity and NaN exact).
//
//	instruction               PTX ISA bound                     model here                     vs H100 (exact/4096, worst)
//	rcp.approx{.ftz}.f32      1 ulp                             RN(1/x)                        3755, 1 ulp
//	sqrt.approx{.ftz}.f32     rel. 2^-23                        RN(sqrt x)                     3672, 1 ulp
//	rsqrt.approx{.ftz}.f32    rel. 2^-22.9                      RN(1/sqrt x) via f64           3449, 1 ulp
//	ex2.approx{.ftz}.f32      2 ulp from correctly rounded      RN(2^x) via f64                3101, 2 ulp
//	lg2.approx{.ftz}.f32      abs. 2^-22 on (0.5, 2), else rel. RN(log2 x) via f64             2964, abs. 7.6e-6
//	sin/cos.approx{.ftz}.f32  abs. 2^-20.5 on [-2π, 2π]         FMUL.RZ by 1/2π, 25-bit fixed- 2341, abs. 1.8e-7,
//	                                                            point angle (sinCosApproxF32)  every zero exact
//	tanh.approx.f32           rel. 2^-11                        RN(tanh x) via f64             2502, rel. 1.1e-5
//	div.approx{.ftz}.f32      2 ulp for |b| in [2^-126, 2^126]  RN(a·RN(1/b)), subnormal b     3779, 2 ulp
//	                                                            scaled without .ftz
//	div.full{.ftz}.f32        2 ulp                             RN(a/b)                        3312, 2 ulp
//	rcp.approx.ftz.f64        upper word in 1.11.20 only        RN of 1/hi(a) to 1.11.20       2478, rel. 9.6e-7
//	rsqrt.approx.ftz.f64      likewise                          RN of 1/sqrt(hi(a)), 1.11.20   3219, rel. 9.6e-7
//	rsqrt.approx.f64          (software)                        1/RN(sqrt x)                   3509, 1 ulp
//	ex2.approx.f16            1 ulp                             as the H100 (Ex2ApproxF16)     4096
//	tanh.approx.f16           1 ulp                             RN(tanh x)                     3513, 1 ulp
//	ex2/tanh bf16 and x2 forms                                  RN of the f64 function         (not recorded)
//
// The H100's MUFU.EX2, RCP and RSQ are reproduced bit for bit by the tables
// helper H recorded (internal/libdevice: Ex2ApproxFtzF32, Ex2ApproxF32,
// RcpApproxFtzF32, RsqrtApproxFtzF32, RcpApproxFtzF64, RsqrtApproxF64 …,
// which match every ex2, ex2_ftz and rcp_ftz element of the recording).
// They cannot be used here: internal/libdevice imports this package.

// approxF32 applies fn in float64 to an f32 input and rounds to nearest,
// with ftz on input and result.
func approxF32(a uint32, ftz bool, fn func(float64) float64) uint32 {
	if ftz {
		a = flushF32(a)
	}
	d := bitsF32(float32(fn(f32(a))))
	if ftz {
		d = flushF32(d)
	}
	return d
}

// RcpApproxF32 is rcp.approx{.ftz}.f32.
func RcpApproxF32(a uint32, ftz bool) uint32 {
	return approxF32(a, ftz, func(x float64) float64 { return 1 / x })
}

// SqrtApproxF32 is sqrt.approx{.ftz}.f32.
func SqrtApproxF32(a uint32, ftz bool) uint32 { return approxF32(a, ftz, math.Sqrt) }

// RsqrtApproxF32 is rsqrt.approx{.ftz}.f32.
func RsqrtApproxF32(a uint32, ftz bool) uint32 {
	return approxF32(a, ftz, func(x float64) float64 { return 1 / math.Sqrt(x) })
}

// Ex2ApproxF32 is ex2.approx{.ftz}.f32.
func Ex2ApproxF32(a uint32, ftz bool) uint32 { return approxF32(a, ftz, math.Exp2) }

// Lg2ApproxF32 is lg2.approx{.ftz}.f32.
func Lg2ApproxF32(a uint32, ftz bool) uint32 { return approxF32(a, ftz, math.Log2) }

// invTwoPiF32 is 1/(2π) rounded to f32 (0x3e22f983), the constant the SASS
// for sin/cos.approx multiplies by.
const invTwoPiF32 = 0x3e22f983

// sinCosApproxF32 models sin/cos.approx.f32 as recorded on the H100
// (testdata/conformance/approx): t = x·f32(1/2π) in one FMUL.RZ.FTZ, then
// MUFU.SIN/COS, which works on |t| in fixed point: the fraction of a
// revolution truncated to 25 bits (so |t| < 2^-25 gives ±0, and any t of
// 2^0 or more whose f32 fraction is zero gives ±0). The fixed-point angle
// is folded into a quadrant and a 23-bit position in it, mirrored by one's
// complement in odd quadrants (so sin at a quarter turn less 2^-25 is
// exactly 0, and cos at a quarter turn is -0); cos is sin a quarter turn on;
// sin takes t's sign. The hardware's interpolation is not modelled: the
// quadrant function is evaluated exactly and rounded, which leaves the
// recorded results within 1.8e-7 absolute (the PTX ISA bounds 2^-20.5),
// with every exactly-zero result and its sign reproduced. Subnormal inputs
// are flushed with or without .ftz (the FMUL flushes them).
func sinCosApproxF32(a uint32, cos bool) uint32 {
	if a&^signF32 >= expF32 {
		return CanonicalNaNF32
	}
	t := MulF32(a, invTwoPiF32, RZ, true, false)
	s := revolutionFraction25(t &^ signF32)
	if cos {
		s = (s + 1<<23) & (1<<25 - 1)
	}
	q, u := s>>23, s&(1<<23-1)
	if q&1 != 0 {
		u = 1<<23 - 1 - u
	}
	d := math.Float32bits(float32(math.Sin(math.Pi / 2 * float64(u) * 0x1p-23)))
	if q >= 2 {
		d ^= signF32
	}
	if !cos {
		d ^= t & signF32
	}
	return d
}

// revolutionFraction25 returns the fraction of the non-negative f32 t (in
// revolutions), truncated to 25 bits, as an integer in [0, 2^25).
func revolutionFraction25(t uint32) uint32 {
	e := int(t >> 23)
	if e == 0 {
		return 0 // zero (the FMUL flushed subnormals)
	}
	m := uint64(t&(1<<23-1) | 1<<23) // t = m·2^(e-150)
	sh := e - 125                    // t·2^25 = m·2^sh
	switch {
	case sh >= 25:
		return 0
	case sh >= 0:
		return uint32(m << uint(sh) & (1<<25 - 1))
	case sh > -32:
		return uint32(m >> uint(-sh))
	}
	return 0
}

// SinApproxF32 is sin.approx{.ftz}.f32 (see sinCosApproxF32; ftz changes
// nothing, subnormal inputs are flushed either way).
func SinApproxF32(a uint32, ftz bool) uint32 { return sinCosApproxF32(a, false) }

// CosApproxF32 is cos.approx{.ftz}.f32 (see sinCosApproxF32).
func CosApproxF32(a uint32, ftz bool) uint32 { return sinCosApproxF32(a, true) }

// TanhApproxF32 is tanh.approx.f32.
func TanhApproxF32(a uint32) uint32 { return approxF32(a, false, math.Tanh) }

// DivApproxF32 is div.approx{.ftz}.f32: a times the approximate reciprocal
// of b; for 2^126 < |b| < 2^128 the result is 0 (NaN when a is infinite).
// Without .ftz a subnormal divisor is first scaled, with a, by 2^24, as the
// H100's results show (testdata/conformance/approx div: 0/2^-149 = 0,
// 2^-149/2^-149 = 1, (2^-126-2^-149)/2^-149 = 2^23-1).
func DivApproxF32(a, b uint32, ftz bool) uint32 {
	if ftz {
		a, b = flushF32(a), flushF32(b)
	} else if b&expF32 == 0 && b&^signF32 != 0 {
		const two24 = 0x4b800000
		a, b = MulF32(a, two24, RN, false, false), MulF32(b, two24, RN, false, false)
	}
	if mag := b &^ signF32; mag > 0x7e800000 && mag < expF32 {
		if a&^signF32 == expF32 {
			return CanonicalNaNF32
		}
		if isNaNF32(a) {
			return CanonicalNaNF32
		}
		return (a ^ b) & signF32
	}
	return MulF32(a, RcpApproxF32(b, ftz), RN, ftz, false)
}

// DivFullF32 is div.full{.ftz}.f32, modelled as correctly rounded.
func DivFullF32(a, b uint32, ftz bool) uint32 { return DivF32(a, b, RN, ftz, false) }

// flushF64 replaces a subnormal f64 by a zero of the same sign.
func flushF64(a uint64) uint64 {
	if a&0x7ff0000000000000 == 0 {
		return a & signF64
	}
	return a
}

// fmtHiF64 is the "1.11.20" format of the upper word of an f64, in which
// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 work.
var fmtHiF64 = format{fracBits: 20, expBits: 11}

// canonicalNaNHiF64 is the NaN those two instructions return for a NaN input.
const canonicalNaNHiF64 = 0x7fffffff00000000

// hiWordApprox models rcp/rsqrt.approx.ftz.f64 as the PTX ISA specifies
// them: the upper 32 bits of a (low word ignored, subnormals flushed), the
// function of that value rounded to nearest in 1.11.20, in the upper word
// of d with the low word zero; subnormal results flushed.
func hiWordApprox(a uint64, fn func(float64) float64) uint64 {
	a &= 0xffffffff00000000 // a NaN whose payload is all in the low word reads as ±inf (recorded: 0x7ff0000000000001 → 0)
	if isNaNF64(a) {
		return canonicalNaNHiF64
	}
	x := math.Float64frombits(flushF64(a))
	y := fn(x)
	if y != y {
		return canonicalNaNHiF64
	}
	return flushF64(roundF64(y, fmtHiF64, RN) << 32)
}

// RcpApproxFtzF64 is rcp.approx.ftz.f64.
func RcpApproxFtzF64(a uint64) uint64 {
	return hiWordApprox(a, func(x float64) float64 { return 1 / x })
}

// RsqrtApproxF64 is rsqrt.approx.f64 (ftz false: emulated in software,
// modelled as correctly rounded, NaN payloads propagated) and
// rsqrt.approx.ftz.f64 (ftz true: the upper-word approximation).
func RsqrtApproxF64(a uint64, ftz bool) uint64 {
	if ftz {
		return hiWordApprox(a, func(x float64) float64 { return 1 / math.Sqrt(x) })
	}
	if isNaNF64(a) {
		return quietF64(a)
	}
	return bitsF64(1 / math.Sqrt(math.Float64frombits(a)))
}

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

// TanhApproxF16 is tanh.approx.f16.
func TanhApproxF16(a uint16) uint16 { return kindF16.approx(a, false, math.Tanh) }

// TanhApproxF16x2 is tanh.approx.f16x2.
func TanhApproxF16x2(a uint32) uint32 {
	return uint32(TanhApproxF16(uint16(a))) | uint32(TanhApproxF16(uint16(a>>16)))<<16
}

// TanhApproxBF16 is tanh.approx.bf16.
func TanhApproxBF16(a uint16) uint16 { return kindBF16.approx(a, false, math.Tanh) }

// TanhApproxBF16x2 is tanh.approx.bf16x2.
func TanhApproxBF16x2(a uint32) uint32 {
	return uint32(TanhApproxBF16(uint16(a))) | uint32(TanhApproxBF16(uint16(a>>16)))<<16
}
