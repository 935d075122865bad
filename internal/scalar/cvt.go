package scalar

import (
	"math"
	"math/bits"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// intWidth returns the bit width of an integer (or bit) type and whether it
// is signed; 0 for non-integer types.
func intWidth(t ptxtype.Type) (width uint, signed bool) {
	switch t {
	case ptxtype.U8, ptxtype.B8:
		return 8, false
	case ptxtype.S8:
		return 8, true
	case ptxtype.U16, ptxtype.B16:
		return 16, false
	case ptxtype.S16:
		return 16, true
	case ptxtype.U32, ptxtype.B32:
		return 32, false
	case ptxtype.S32:
		return 32, true
	case ptxtype.U64, ptxtype.B64:
		return 64, false
	case ptxtype.S64:
		return 64, true
	}
	return 0, false
}

// FloatValue returns the exact value of a float bit pattern of type t (F16,
// BF16, F32, TF32 or F64; any other type reads as F64).
func FloatValue(v uint64, t ptxtype.Type) float64 {
	switch t {
	case ptxtype.F16:
		return F16ToF64(uint16(v))
	case ptxtype.BF16:
		return BF16ToF64(uint16(v))
	case ptxtype.F32, ptxtype.TF32:
		return f32(uint32(v))
	}
	return math.Float64frombits(v)
}

// isSubnormalF32 reports whether the low 32 bits of v are a subnormal f32.
func isSubnormalF32(v uint64) bool { return v&expF32 == 0 && v&(1<<23-1) != 0 }

// roundToIntegral rounds x to an integer in mode r, keeping the sign of zero.
func roundToIntegral(x float64, r Rounding) float64 {
	switch r {
	case RZ:
		return math.Trunc(x)
	case RM:
		return math.Floor(x)
	case RP:
		return math.Ceil(x)
	case RNA:
		return math.Round(x)
	}
	return math.RoundToEven(x)
}

// CvtFloatToInt is cvt.irnd{.ftz}{.sat}.itype.ftype: float → integer with
// integer rounding r. It always saturates to the destination's range, so
// sat changes nothing. ftz flushes an f32 subnormal source first. A signed
// result is sign-extended to 64 bits, an unsigned one zero-extended.
//
// NaN: the PTX ISA says 0, the H100 does that only for f32 (f16, bf16)
// sources and destinations up to 32 bits; see nanToInt.
func CvtFloatToInt(v uint64, srcType, dstType ptxtype.Type, r Rounding, sat, ftz bool) uint64 {
	w, signed := intWidth(dstType)
	if w == 0 {
		w, signed = 64, false
	}
	x := FloatValue(v, srcType)
	if x != x {
		return nanToInt(srcType, w, signed)
	}
	if ftz && srcType == ptxtype.F32 && isSubnormalF32(v) {
		x = 0
	}
	x = roundToIntegral(x, r)
	if signed {
		lim := math.Ldexp(1, int(w)-1)
		switch {
		case x >= lim:
			return uint64(1)<<(w-1) - 1
		case x < -lim:
			return uint64(math.MaxUint64) << (w - 1)
		}
		return uint64(int64(x))
	}
	lim := math.Ldexp(1, int(w))
	switch {
	case x >= lim:
		return math.MaxUint64 >> (64 - w)
	case x <= 0:
		return 0
	}
	return uint64(x)
}

// nanToInt is what the H100 writes for a NaN converted to a w-bit integer
// (testdata/conformance/conversions and half_bf16): f32, f16 and bf16
// sources give 0 for 8- to 32-bit destinations and the sign bit alone
// (0x8000000000000000) for 64-bit ones; f64 sources give the destination's
// sign bit alone for every width (0x80000000 for s32 and u32, 0x8000 for
// s16), signed or unsigned. The bf16 and 8-bit cases are not recorded and
// follow their neighbours. A signed result is sign-extended like any other.
func nanToInt(srcType ptxtype.Type, w uint, signed bool) uint64 {
	if srcType != ptxtype.F64 && w < 64 {
		return 0
	}
	if signed {
		return math.MaxUint64 << (w - 1)
	}
	return 1 << (w - 1)
}

// oddF64FromU64 returns m (a magnitude) as a float64, rounded to odd when
// it has more than 53 significant bits.
func oddF64FromU64(m uint64) float64 {
	n := bits.Len64(m)
	if n <= 53 {
		return float64(m)
	}
	shift := uint(n - 53)
	kept := m >> shift
	if m&(1<<shift-1) != 0 {
		kept |= 1
	}
	return float64(kept) * float64(uint64(1)<<shift)
}

// CvtIntToFloat is cvt.frnd.ftype.itype: integer → F16, BF16, F32 or F64
// bits, correctly rounded in mode r.
func CvtIntToFloat(v uint64, srcType, dstType ptxtype.Type, r Rounding) uint64 {
	w, signed := intWidth(srcType)
	if w == 0 {
		w = 64
	}
	neg := false
	m := v
	if w < 64 {
		m &= 1<<w - 1
	}
	if signed && m>>(w-1) != 0 {
		neg = true
		m = -(m | math.MaxUint64<<(w-1)) // two's complement magnitude; 2^63 for INT64_MIN
	}
	if dstType == ptxtype.F64 {
		var x float64
		if n := bits.Len64(m); n <= 53 {
			x = float64(m)
		} else {
			shift := n - 53
			x = float64(shiftRound(m, shift, neg, r)) * float64(uint64(1)<<uint(shift))
		}
		if neg {
			x = -x
		}
		return math.Float64bits(x)
	}
	x := oddF64FromU64(m)
	if neg {
		x = -x
	}
	return roundToType(x, dstType, r)
}

// roundToType rounds x (exact or rounded to odd) to a float type's bits.
func roundToType(x float64, t ptxtype.Type, r Rounding) uint64 {
	switch t {
	case ptxtype.F16:
		return uint64(kindF16.round(x, r))
	case ptxtype.BF16:
		return uint64(kindBF16.round(x, r))
	case ptxtype.F32:
		return uint64(fromOddF32(x, r))
	case ptxtype.TF32:
		if x != x {
			return uint64(CanonicalNaNF32)
		}
		return roundF64(x, fmtTF32, r) << 13
	}
	return bitsF64(x)
}

// nanToF64 widens a NaN to f64 keeping its sign and payload, quieted (f64
// instructions support NaN payloads).
func nanToF64(v uint64, t ptxtype.Type) uint64 {
	var s, frac uint64
	switch t {
	case ptxtype.F16:
		s, frac = v>>15&1, (v&0x3ff)<<42
	case ptxtype.BF16:
		s, frac = v>>15&1, (v&0x7f)<<45
	case ptxtype.F32, ptxtype.TF32:
		s, frac = v>>31&1, (v&0x7fffff)<<29
	default:
		s, frac = v>>63, v&(1<<52-1)
	}
	return quietF64(s<<63 | 0x7ff<<52 | frac)
}

// canonicalNaN returns the canonical NaN of a float type.
func canonicalNaN(t ptxtype.Type) uint64 {
	switch t {
	case ptxtype.F16, ptxtype.BF16:
		return uint64(CanonicalNaNF16)
	case ptxtype.F32, ptxtype.TF32:
		return uint64(CanonicalNaNF32)
	}
	return CanonicalNaNF64
}

// nanFromF64 narrows an f64 NaN keeping its sign and the top of its
// payload, quieted, as the H100's f64 → f32/f16 conversion does
// (testdata/conformance: conversions d2f_*, 0x7ff0000000000001 →
// 0x7fc00000, 0xfff8… → 0xffc00000; half_bf16 f16_from_f64, 0xfff8… →
// 0xfe00). bf16 is not recorded and is assumed to behave alike.
func nanFromF64(v uint64, t ptxtype.Type) uint64 {
	s := v >> 63
	switch t {
	case ptxtype.F16:
		return s<<15 | 0x7e00 | v>>42&0x1ff
	case ptxtype.BF16:
		return s<<15 | 0x7fc0 | v>>45&0x3f
	}
	return s<<31 | 0x7fc00000 | v>>29&0x3fffff
}

// cvtNaN is the result of converting a NaN between float types, as
// recorded on the H100 (testdata/conformance conversions, half_bf16,
// f32_arith, f64_arith): to f64 the sign and payload are kept, quieted;
// from f64 they are kept as far as they fit (nanFromF64); bf16 → f32 is a
// plain 16-bit shift, which keeps even a signaling NaN as it is; every
// other conversion (f32 → f16/bf16, f16 → f32, f32 → f32 …) gives the
// canonical NaN.
func cvtNaN(v uint64, srcType, dstType ptxtype.Type) uint64 {
	switch {
	case dstType == ptxtype.F64:
		return nanToF64(v, srcType)
	case srcType == ptxtype.F64:
		return nanFromF64(v, dstType)
	case srcType == ptxtype.BF16 && dstType == ptxtype.F32:
		return v & 0xffff << 16
	}
	return canonicalNaN(dstType)
}

// CvtFloatToFloat is cvt{.frnd|.irnd}{.ftz}{.sat}.ftype.ftype for F16, BF16,
// F32 and F64. With intRound the value is first rounded to an integer in
// mode r (cvt.rni.f32.f32 …) and then converted to nearest-even; otherwise
// it is converted with rounding r (a widening conversion is exact). ftz
// flushes subnormal f32 sources and results (results as roundFtzF32
// does); sat clamps to [0, 1] with NaN → +0. NaNs: cvtNaN.
func CvtFloatToFloat(v uint64, srcType, dstType ptxtype.Type, r Rounding, intRound bool, ftz, sat bool) uint64 {
	x := FloatValue(v, srcType)
	if x != x {
		if sat {
			return 0
		}
		return cvtNaN(v, srcType, dstType)
	}
	if ftz && srcType == ptxtype.F32 && isSubnormalF32(v) {
		x = math.Copysign(0, x)
	}
	if intRound {
		x = roundToIntegral(x, r)
		r = RN
	}
	var d uint64
	if ftz && dstType == ptxtype.F32 {
		d = uint64(roundFtzF32(x, r))
	} else {
		d = roundToType(x, dstType, r)
	}
	switch dstType {
	case ptxtype.F32:
		return uint64(finishF32(uint32(d), ftz, sat))
	case ptxtype.F16:
		return uint64(kindF16.finish(uint16(d), false, sat))
	case ptxtype.BF16:
		return uint64(kindBF16.finish(uint16(d), false, sat))
	case ptxtype.F64:
		if sat {
			return satF64(d)
		}
	}
	return d
}

// satF64 clamps to [+0, 1]; NaN becomes +0.
func satF64(a uint64) uint64 {
	switch {
	case a&signF64 != 0 || isNaNF64(a):
		return 0
	case a > 0x3ff0000000000000:
		return 0x3ff0000000000000
	}
	return a
}

// CvtIntToInt is cvt{.sat}.itype.itype: the source (its low bits, sign- or
// zero-extended by its type) converted to the destination width, truncated,
// or with sat clamped to the destination's range. A signed result is
// sign-extended to 64 bits, an unsigned one zero-extended (PTX extends a
// result to a wider destination register by the instruction type).
func CvtIntToInt(v uint64, srcType, dstType ptxtype.Type, sat bool) uint64 {
	sw, ss := intWidth(srcType)
	dw, ds := intWidth(dstType)
	if sw == 0 {
		sw = 64
	}
	if dw == 0 {
		dw = 64
	}
	// the source value as a 65-bit quantity: x (two's complement) and its sign
	x := v
	neg := false
	if sw < 64 {
		x &= 1<<sw - 1
		if ss && x>>(sw-1) != 0 {
			x |= math.MaxUint64 << sw
		}
	}
	if ss && int64(x) < 0 {
		neg = true
	}
	if sat {
		var lo, hi uint64 // destination range, as two's complement 64-bit values
		if ds {
			lo, hi = math.MaxUint64<<(dw-1), 1<<(dw-1)-1
		} else {
			lo, hi = 0, math.MaxUint64>>(64-dw)
		}
		switch {
		case neg && (!ds || int64(x) < int64(lo)):
			x = lo
		case !neg && x > hi:
			x = hi
		}
	}
	if dw < 64 {
		x &= 1<<dw - 1
		if ds && x>>(dw-1) != 0 {
			x |= math.MaxUint64 << dw
		}
	}
	return x
}
