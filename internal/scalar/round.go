package scalar

import (
	"math"
	"math/big"
	"math/bits"
)

// format describes a binary floating-point format no wider than binary32
// (and tf32), with IEEE subnormals and infinities.
type format struct {
	fracBits uint // stored fraction bits (precision - 1)
	expBits  uint
}

var (
	fmtF16  = format{fracBits: 10, expBits: 5}
	fmtBF16 = format{fracBits: 7, expBits: 8}
	fmtTF32 = format{fracBits: 10, expBits: 8} // encoded here in 19 bits; callers shift it into f32's layout
)

func (f format) signBit() uint64 { return 1 << (f.fracBits + f.expBits) }
func (f format) infBits() uint64 { return (1<<f.expBits - 1) << f.fracBits }

// shiftRound returns m / 2^shift rounded to an integer in mode r, where neg
// is the sign of the value m stands for (it matters for RM and RP).
func shiftRound(m uint64, shift int, neg bool, r Rounding) uint64 {
	if shift <= 0 {
		return m << uint(-shift)
	}
	var kept, rem, half uint64
	switch {
	case shift < 64:
		kept, rem, half = m>>uint(shift), m&(1<<uint(shift)-1), 1<<uint(shift-1)
	case shift == 64:
		kept, rem, half = 0, m, 1<<63
	default: // everything is below half an ulp
		kept, rem, half = 0, 1, 2
		if m == 0 {
			rem = 0
		}
	}
	if rem != 0 && roundsUp(kept, rem, half, neg, r) {
		kept++
	}
	return kept
}

// roundsUp says whether a truncated magnitude kept, with a nonzero discarded
// part rem (in units where half an ulp of kept is half), is incremented.
func roundsUp(kept, rem, half uint64, neg bool, r Rounding) bool {
	switch r {
	case RN:
		return rem > half || rem == half && kept&1 != 0
	case RNA:
		return rem >= half
	case RM:
		return neg
	case RP:
		return !neg
	}
	return false // RZ
}

// overflowBits is the result of rounding a value too large for f: infinity
// or the largest finite number, by mode and sign.
func overflowBits(f format, neg bool, r Rounding) uint64 {
	inf := f.infBits()
	s := uint64(0)
	if neg {
		s = f.signBit()
	}
	toInf := r == RN || r == RNA || r == RM && neg || r == RP && !neg
	if toInf {
		return s | inf
	}
	return s | (inf - 1)
}

// roundF64 rounds x to format f in mode r and returns f's bit pattern. x must
// be the exact value or a round-to-odd approximation of it with at least two
// more bits than f; NaN maps to f's quiet NaN with x's sign dropped (callers
// substitute the canonical NaN themselves).
func roundF64(x float64, f format, r Rounding) uint64 {
	b := math.Float64bits(x)
	neg := b>>63 != 0
	var s uint64
	if neg {
		s = f.signBit()
	}
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	if exp == 0x7ff {
		if frac != 0 {
			return f.infBits() | (1<<f.fracBits - 1)
		}
		return s | f.infBits()
	}
	if exp == 0 {
		if frac == 0 {
			return s
		}
		exp = 1
	} else {
		frac |= 1 << 52
	}
	e0 := exp - 1075 // x = frac * 2^e0
	bias := 1<<(f.expBits-1) - 1
	emin := 1 - bias
	lead := e0 + bits.Len64(frac) - 1
	q := max(lead, emin) - int(f.fracBits) // exponent of one ulp of the result
	kept := shiftRound(frac, q-e0, neg, r)
	if kept == 0 {
		return s
	}
	if kept>>(f.fracBits+1) != 0 { // rounding carried into a new binade
		kept >>= 1
		q++
	}
	if kept>>f.fracBits == 0 { // subnormal
		return s | kept
	}
	biased := q + int(f.fracBits) + bias
	if biased >= 1<<f.expBits-1 {
		return overflowBits(f, neg, r)
	}
	return s | uint64(biased)<<f.fracBits | kept&(1<<f.fracBits-1)
}

// twoSumErr returns the exact error a+b-s of s = RN(a+b) (Knuth's TwoSum);
// valid when s is finite.
func twoSumErr(a, b, s float64) float64 {
	bb := s - a
	return (a - (s - bb)) + (b - bb)
}

// toOdd turns x = RN(v) into the round-to-odd value of v, given sign(v-x) as
// the sign of err: if v is not x and x's last bit is even, x moves one ulp
// toward v. x must be finite and nonzero when err is nonzero.
func toOdd(x, err float64) float64 {
	if err == 0 {
		return x
	}
	b := math.Float64bits(x)
	if b&1 != 0 {
		return x
	}
	if (err > 0) == (x > 0) {
		b++
	} else {
		b--
	}
	return math.Float64frombits(b)
}

// oddSum returns a+b rounded to odd (a, b finite or not).
func oddSum(a, b float64) float64 {
	s := a + b
	if s-s != 0 || s == 0 { // not finite, or an exact zero
		return s
	}
	return toOdd(s, twoSumErr(a, b, s))
}

// exactZeroSign fixes the sign of an exact zero sum x+y (both finite) for
// mode r: IEEE gives -0 in RM unless both addends are +0, which RN float64
// arithmetic does not.
func exactZeroSum(x, y float64, r Rounding) float64 {
	if r == RM && (x != 0 || y != 0 || math.Signbit(x) || math.Signbit(y)) {
		return math.Copysign(0, -1)
	}
	return x + y
}

// step64 moves the RN result s of an f64 operation to the directed result
// for mode r, given the sign of (exact - s). r is RN, RZ, RM or RP.
func step64(s float64, errSign int, r Rounding) float64 {
	if errSign == 0 {
		return s
	}
	b := math.Float64bits(s)
	up := func() float64 { // toward +inf
		if s > 0 {
			return math.Float64frombits(b + 1)
		}
		return math.Float64frombits(b - 1)
	}
	down := func() float64 {
		if s > 0 {
			return math.Float64frombits(b - 1)
		}
		return math.Float64frombits(b + 1)
	}
	switch r {
	case RZ:
		if s > 0 && errSign < 0 {
			return down()
		}
		if s < 0 && errSign > 0 {
			return up()
		}
	case RM:
		if errSign < 0 {
			return down()
		}
	case RP:
		if errSign > 0 {
			return up()
		}
	}
	return s
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// overflow64 is the f64 result for an exact value beyond the finite range.
func overflow64(neg bool, r Rounding) float64 {
	return math.Float64frombits(overflowBits(format{fracBits: 52, expBits: 11}, neg, r))
}

// roundBigF64 rounds an exact big.Float to binary64 in mode r, subnormals
// included. It is the slow path for cases the error-term methods cannot
// handle (directed f64 fma, results near or below the subnormal range).
func roundBigF64(x *big.Float, r Rounding) float64 {
	if x.Sign() == 0 {
		if x.Signbit() {
			return math.Copysign(0, -1)
		}
		return 0
	}
	if x.IsInf() {
		return math.Inf(x.Sign())
	}
	neg := x.Signbit()
	exp := x.MantExp(nil) // |x| in [2^(exp-1), 2^exp)
	prec := min(53, exp+1074)
	if prec <= 0 {
		// |x| < 2^-1074: 0 or the smallest subnormal.
		var tiny bool
		switch r {
		case RN:
			// above half the smallest subnormal only when in [2^-1075, 2^-1074) and not exactly 2^-1075
			tiny = prec == 0 && new(big.Float).Abs(x).Cmp(new(big.Float).SetMantExp(big.NewFloat(1), -1075)) > 0
		case RNA:
			tiny = prec == 0
		case RM:
			tiny = neg
		case RP:
			tiny = !neg
		}
		v := 0.0
		if tiny {
			v = math.SmallestNonzeroFloat64
		}
		if neg {
			v = -v
		}
		return v
	}
	var mode big.RoundingMode
	switch r {
	case RN:
		mode = big.ToNearestEven
	case RNA:
		mode = big.ToNearestAway
	case RZ:
		mode = big.ToZero
	case RM:
		mode = big.ToNegativeInf
	case RP:
		mode = big.ToPositiveInf
	}
	z := new(big.Float).SetMode(mode).SetPrec(uint(prec)).Set(x)
	if z.MantExp(nil) > 1024 {
		return overflow64(neg, r)
	}
	v, _ := z.Float64()
	return v
}

// stickyBig makes an inexact, truncated-toward-zero big.Float q carry the
// information "slightly more than q" in one extra low bit, so a later
// rounding to far fewer bits is correct (round to odd).
func stickyBig(q *big.Float) *big.Float {
	if q.Acc() == big.Exact || q.Sign() == 0 {
		return q
	}
	p := q.Prec()
	e := q.MantExp(nil)
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), e-int(p)-1)
	if q.Sign() < 0 {
		tiny.Neg(tiny)
	}
	return new(big.Float).SetPrec(p+2).Add(q, tiny)
}
