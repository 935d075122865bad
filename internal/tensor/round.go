package tensor

import "math/bits"

// ifmt is an IEEE-style binary interchange format for results.
type ifmt struct{ ebits, mbits, bias int }

var (
	fmtF16 = ifmt{5, 10, 15}
	fmtF32 = ifmt{8, 23, 127}
)

// round encodes (-1)^neg * mag * 2^exp in format f, rounding to nearest even
// when rne is set and toward zero otherwise. A zero magnitude gives a zero
// of sign neg. A result beyond the largest finite value is infinite when
// rounding to nearest or when ovfInf is set, else the largest finite value.
func round(f ifmt, neg bool, mag uint64, exp int, rne, ovfInf bool) uint64 {
	sign := uint64(0)
	if neg {
		sign = 1 << (f.ebits + f.mbits)
	}
	if mag == 0 {
		return sign
	}
	n := bits.Len64(mag)
	emin := 1 - f.bias - f.mbits // exponent of the subnormal unit
	lead := exp + n - 1
	shift := n - (f.mbits + 1)
	if lead < 1-f.bias { // subnormal result
		shift = emin - exp
	}
	var q uint64
	if shift > 0 {
		if shift >= 64 {
			q = 0
			if rne && shift == 64 && mag > 1<<63 {
				q = 1
			}
		} else {
			q = mag >> shift
			rem := mag & (1<<shift - 1)
			half := uint64(1) << (shift - 1)
			if rne && (rem > half || rem == half && q&1 == 1) {
				q++
			}
		}
	} else {
		q = mag << -shift
	}
	eu := exp + shift
	if q == 1<<(f.mbits+1) {
		q >>= 1
		eu++
	}
	maxB := uint64(1)<<f.ebits - 1
	var biased int
	if q < 1<<f.mbits {
		biased = 0
	} else {
		biased = eu + f.mbits + f.bias
	}
	if biased >= int(maxB) {
		if rne || ovfInf {
			return sign | maxB<<f.mbits
		}
		return sign | (maxB-1)<<f.mbits | (1<<f.mbits - 1)
	}
	if biased == 0 {
		return sign | q
	}
	return sign | uint64(biased)<<f.mbits | q&(1<<f.mbits-1)
}

// F32ToF16 converts an f32 bit pattern to f16, rounding to nearest even
// (NaN becomes the canonical 0x7fff).
func F32ToF16(f uint32) uint16 {
	t := decode(F32, uint64(f))
	switch {
	case t.nan:
		return 0x7fff
	case t.inf:
		if t.neg {
			return 0xfc00
		}
		return 0x7c00
	}
	return uint16(round(fmtF16, t.neg, t.mant, int(t.exp), true, false))
}
