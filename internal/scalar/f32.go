package scalar

import "math"

const (
	signF32 = 0x80000000
	expF32  = 0x7f800000
	oneF32  = 0x3f800000
)

// FlushF32 is the input flush of .ftz (setp.ftz.f32, slct.ftz …): a
// subnormal f32 becomes a zero of the same sign.
func FlushF32(a uint32) uint32 { return flushF32(a) }

// FlushF16 is the input flush of .ftz for f16 (setp.ftz.f16 …).
func FlushF16(a uint16) uint16 { return kindF16.flush(a) }

// flushF32 replaces a subnormal f32 by a zero of the same sign.
func flushF32(a uint32) uint32 {
	if a&expF32 == 0 {
		return a & signF32
	}
	return a
}

func isNaNF32(a uint32) bool { return a&^signF32 > expF32 }

// satF32 clamps to [+0, 1]; NaN becomes +0.
func satF32(a uint32) uint32 {
	switch {
	case a&signF32 != 0 || a > expF32: // negative (incl. -0 and -NaN) or +NaN
		return 0
	case a > oneF32:
		return oneF32
	}
	return a
}

// roundFtzF32 rounds x (exact, or rounded to odd) to f32 in mode r as .ftz
// results are rounded on the H100: to 24 bits as if the exponent range were
// unbounded, then flushed to a signed zero if below 2^-126. A value just
// under 2^-126 that rounds up to it is kept; one that rounds to 2^-126 only
// on the coarser subnormal grid is flushed (testdata/conformance/f32_arith
// mul_ftz: (1-2^-24)·2^-126 gives +0, not 2^-126). Only a bounded result of
// exactly ±2^-126 can differ, so only that case is re-rounded, scaled into
// the normal range.
func roundFtzF32(x float64, r Rounding) uint32 {
	d := fromOddF32(x, r)
	if d&^signF32 == 0x00800000 && fromOddF32(x*0x1p64, r)&^signF32 < 0x00800000+64<<23 {
		return d & signF32
	}
	return flushF32(d)
}

// finishF32 applies result flushing and saturation to a rounded result.
func finishF32(d uint32, ftz, sat bool) uint32 {
	if ftz {
		d = flushF32(d)
	}
	if sat {
		d = satF32(d)
	}
	return d
}

// bitsF32 converts a float32 result to bits, canonicalizing NaN.
func bitsF32(z float32) uint32 {
	if z != z {
		return CanonicalNaNF32
	}
	return math.Float32bits(z)
}

// fromOddF32 rounds a round-to-odd (or exact) float64 to f32 bits in mode
// r: the hardware conversion gives RN, and the directed modes step from it
// by one ulp when it lies on the wrong side of x. (x is exactly halfway
// between two f32 values only if the exact value is.)
func fromOddF32(x float64, r Rounding) uint32 {
	if x != x {
		return CanonicalNaNF32
	}
	f := float32(x)
	d := math.Float32bits(f)
	fx := float64(f)
	if r == RN || fx == x {
		return d
	}
	away := func() uint32 { return d + 1 } // one ulp up in magnitude (d not ±inf here)
	toward := func() uint32 { return d - 1 }
	neg := d&signF32 != 0
	switch r {
	case RZ:
		if math.Abs(fx) > math.Abs(x) {
			return toward()
		}
	case RM:
		if fx > x {
			if neg {
				return away()
			}
			return toward()
		}
	case RP:
		if fx < x {
			if neg {
				return toward()
			}
			return away()
		}
	case RNA:
		if math.Abs(fx) < math.Abs(x) { // RN went toward zero: was it a tie?
			other := float64(math.Float32frombits(d + 1))
			if d&^signF32 == expF32-1 {
				other = math.Copysign(0x1p128, x)
			}
			if fx+other == 2*x {
				return away()
			}
		}
	}
	return d
}

func f32(a uint32) float64 { return float64(math.Float32frombits(a)) }

// AddF32 is add{.rnd}{.ftz}{.sat}.f32.
func AddF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if r == RN && !ftz && !sat {
		return bitsF32(math.Float32frombits(a) + math.Float32frombits(b))
	}
	return addF32(a, b, r, ftz, sat)
}

func addF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if ftz {
		a, b = flushF32(a), flushF32(b)
	}
	if r == RN {
		return finishF32(bitsF32(math.Float32frombits(a)+math.Float32frombits(b)), ftz, sat)
	}
	x, y := f32(a), f32(b)
	s := oddSum(x, y)
	if s == 0 {
		s = exactZeroSum(x, y, r)
	}
	return finishF32(fromOddF32(s, r), ftz, sat)
}

// SubF32 is sub{.rnd}{.ftz}{.sat}.f32.
func SubF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if isNaNF32(b) {
		return finishF32(CanonicalNaNF32, false, sat)
	}
	return AddF32(a, b^signF32, r, ftz, sat)
}

// MulF32 is mul{.rnd}{.ftz}{.sat}.f32. The product of two f32 values is
// exact in float64, so one rounding of it is the IEEE result.
func MulF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if r == RN && !ftz && !sat {
		return bitsF32(math.Float32frombits(a) * math.Float32frombits(b))
	}
	return mulF32(a, b, r, ftz, sat)
}

func mulF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if ftz {
		a, b = flushF32(a), flushF32(b)
		return finishF32(roundFtzF32(f32(a)*f32(b), r), false, sat)
	}
	return finishF32(fromOddF32(f32(a)*f32(b), r), false, sat)
}

// FmaF32 is fma{.rnd}{.ftz}{.sat}.f32 (and mad.rnd.f32): a*b+c with one
// rounding. a*b is exact in float64; the sum is taken to odd there (TwoSum),
// then rounded once to f32.
func FmaF32(a, b, c uint32, r Rounding, ftz, sat bool) uint32 {
	if r == RN && !ftz && !sat {
		return FmaRnF32(a, b, c)
	}
	if ftz {
		a, b, c = flushF32(a), flushF32(b), flushF32(c)
	}
	p := float64(f32(a) * f32(b))
	z := f32(c)
	s := oddSum(p, z)
	if s == 0 && r != RN {
		s = exactZeroSum(p, z, r)
	}
	if ftz {
		return finishF32(roundFtzF32(s, r), false, sat)
	}
	return finishF32(fromOddF32(s, r), false, sat)
}

// FmaRnF32 is fma.rn.f32 without ftz/sat: the exact product (float64),
// plus c rounded to odd, then rounded once to f32.
func FmaRnF32(a, b, c uint32) uint32 {
	p := float64(f32(a) * f32(b))
	z := f32(c)
	s := p + z
	if s-s == 0 && s != 0 {
		s = toOdd(s, twoSumErr(p, z, s))
	}
	return bitsF32(float32(s))
}

// DivF32 is div.rnd{.ftz}{.sat}.f32 (IEEE division).
func DivF32(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	if ftz {
		a, b = flushF32(a), flushF32(b)
	}
	if r == RN && !ftz {
		return finishF32(bitsF32(math.Float32frombits(a)/math.Float32frombits(b)), false, sat)
	}
	x, y := f32(a), f32(b)
	q := x / y
	if q-q == 0 && q != 0 { // finite, nonzero: the remainder x - q*y is exact
		rem := math.FMA(-q, y, x)
		q = toOdd(q, float64(sign(rem)*sign(y)))
	}
	if ftz {
		return finishF32(roundFtzF32(q, r), false, sat)
	}
	return finishF32(fromOddF32(q, r), false, sat)
}

// RcpF32 is rcp.rnd{.ftz}.f32 (IEEE reciprocal).
func RcpF32(a uint32, r Rounding, ftz bool) uint32 {
	return DivF32(oneF32, a, r, ftz, false)
}

// SqrtF32 is sqrt.rnd{.ftz}.f32 (IEEE square root).
func SqrtF32(a uint32, r Rounding, ftz bool) uint32 {
	if ftz {
		a = flushF32(a)
	}
	x := f32(a)
	s := math.Sqrt(x)
	if r == RN {
		return finishF32(bitsF32(float32(s)), ftz, false)
	}
	if s-s == 0 && s != 0 {
		s = toOdd(s, float64(sign(math.FMA(-s, s, x))))
	}
	return finishF32(fromOddF32(s, r), ftz, false)
}

// AddRnF32 is add.rn.f32 without ftz/sat: AddF32's fast path, small enough
// for the compiler to inline into the engine's lane loop.
func AddRnF32(a, b uint32) uint32 {
	return bitsF32(math.Float32frombits(a) + math.Float32frombits(b))
}

// MulRnF32 is mul.rn.f32 without ftz/sat, inlinable.
func MulRnF32(a, b uint32) uint32 {
	return bitsF32(math.Float32frombits(a) * math.Float32frombits(b))
}
