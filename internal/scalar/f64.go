package scalar

import (
	"math"
	"math/big"
)

const signF64 = 0x8000000000000000

// bitsF64 converts a float64 result to bits, canonicalizing NaN.
func bitsF64(z float64) uint64 {
	if z != z {
		return CanonicalNaNF64
	}
	return math.Float64bits(z)
}

func isNaNF64(a uint64) bool { return a&^signF64 > 0x7ff0000000000000 }

// quietF64 sets the quiet bit of a NaN.
func quietF64(a uint64) uint64 { return a | 1<<51 }

// nanOperand returns, quieted, the first NaN among the operands (the PTX
// ISA: "NaN payloads are supported for double-precision instructions"),
// with its sign: the H100 propagates a NaN operand's sign and payload and
// sets the quiet bit (testdata/conformance/f64_arith, nvcc variant). NaNs
// that an operation creates (inf-inf, 0*inf, sqrt(-1)) are CanonicalNaNF64.
//
// Which NaN wins when several are NaN follows the operand order of the
// SASS instruction, which ptxas may permute for commutative operations:
// the nvcc recording has add/sub/mul/div/min/max taking a's NaN and fma
// taking a's, then c's, then b's, while the clang recording of the same
// PTX (registers allocated differently) takes b's for add, mul and fma.
// The PTX order is modelled; no rule can reproduce both.
func nanOperand(a, b uint64) uint64 {
	if isNaNF64(a) {
		return quietF64(a)
	}
	return quietF64(b)
}

func isFinite(x float64) bool { return x-x == 0 }

// safeTiny bounds the magnitudes above which the error terms of products
// and quotients are exactly representable (no underflow inside FMA).
const safeTiny = 0x1p-900

func bigOf(x float64) *big.Float { return new(big.Float).SetFloat64(x) }

// AddF64 is add{.rnd}.f64.
func AddF64(a, b uint64, r Rounding) uint64 {
	if isNaNF64(a) || isNaNF64(b) {
		return nanOperand(a, b)
	}
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	s := x + y
	if r == RN {
		return bitsF64(s)
	}
	if !isFinite(s) {
		if s != s || !isFinite(x) || !isFinite(y) {
			return bitsF64(s)
		}
		return math.Float64bits(overflow64(s < 0, r))
	}
	if s == 0 {
		return math.Float64bits(exactZeroSum(x, y, r))
	}
	e := twoSumErr(x, y, s)
	if r == RNA {
		return math.Float64bits(roundBigF64(new(big.Float).SetPrec(2200).Add(bigOf(x), bigOf(y)), r))
	}
	return math.Float64bits(step64(s, sign(e), r))
}

// SubF64 is sub{.rnd}.f64.
func SubF64(a, b uint64, r Rounding) uint64 {
	if isNaNF64(a) || isNaNF64(b) {
		return nanOperand(a, b)
	}
	return AddF64(a, b^signF64, r)
}

// MulF64 is mul{.rnd}.f64.
func MulF64(a, b uint64, r Rounding) uint64 {
	if isNaNF64(a) || isNaNF64(b) {
		return nanOperand(a, b)
	}
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	p := x * y
	if r == RN {
		return bitsF64(p)
	}
	if !isFinite(p) {
		if p != p || !isFinite(x) || !isFinite(y) {
			return bitsF64(p)
		}
		return math.Float64bits(overflow64(p < 0, r))
	}
	if x == 0 || y == 0 {
		return math.Float64bits(p)
	}
	if math.Abs(p) < safeTiny || r == RNA {
		return math.Float64bits(roundBigF64(new(big.Float).SetPrec(106).Mul(bigOf(x), bigOf(y)), r))
	}
	return math.Float64bits(step64(p, sign(math.FMA(x, y, -p)), r))
}

// nanOperand3 is nanOperand for fma: the recorded DFMA takes a's NaN, then
// c's, then b's (testdata/conformance/f64_arith fma_rn, nvcc variant).
func nanOperand3(a, b, c uint64) uint64 {
	switch {
	case isNaNF64(a):
		return quietF64(a)
	case isNaNF64(c):
		return quietF64(c)
	}
	return quietF64(b)
}

// FmaF64 is fma.rnd.f64 (and mad.rnd.f64): a*b+c with one rounding. A NaN
// operand is propagated (a's, then c's, then b's; see nanOperand). Directed roundings use an
// error-free transformation of the FMA; operands or results near the
// underflow or overflow thresholds, and RNA, go through an exact big.Float
// evaluation (which allocates).
func FmaF64(a, b, c uint64, r Rounding) uint64 {
	if isNaNF64(a) || isNaNF64(b) || isNaNF64(c) {
		return nanOperand3(a, b, c)
	}
	x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
	s := math.FMA(x, y, z)
	if r == RN || s != s {
		return bitsF64(s)
	}
	if !isFinite(x) || !isFinite(y) || !isFinite(z) {
		return bitsF64(s)
	}
	if x == 0 || y == 0 {
		p := x * y // a signed zero
		if z == 0 {
			return math.Float64bits(exactZeroSum(p, z, r))
		}
		return math.Float64bits(z)
	}
	if sg, ok := fmaErrSign(x, y, z, s); ok && r != RNA {
		if s == 0 {
			return math.Float64bits(exactZeroSum(1, -1, r))
		}
		return math.Float64bits(step64(s, sg, r))
	}
	prod := new(big.Float).SetPrec(106).Mul(bigOf(x), bigOf(y))
	sum := new(big.Float).SetPrec(3400).Add(prod, bigOf(z)) // exact: exponents span < 3300 bits
	if sum.Sign() == 0 {
		return math.Float64bits(exactZeroSum(1, -1, r))
	}
	return math.Float64bits(roundBigF64(sum, r))
}

// DivF64 is div.rnd.f64 (IEEE division).
func DivF64(a, b uint64, r Rounding) uint64 {
	if isNaNF64(a) || isNaNF64(b) {
		return nanOperand(a, b)
	}
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	q := x / y
	if r == RN {
		return bitsF64(q)
	}
	if !isFinite(q) {
		if q != q || !isFinite(x) || y == 0 {
			return bitsF64(q)
		}
		return math.Float64bits(overflow64(q < 0, r))
	}
	if x == 0 || !isFinite(y) {
		return math.Float64bits(q)
	}
	if math.Abs(x) < safeTiny || math.Abs(q) < 0x1p-1000 || r == RNA {
		n := new(big.Float).SetPrec(200).SetMode(big.ToZero).Quo(bigOf(x), bigOf(y))
		return math.Float64bits(roundBigF64(stickyBig(n), r))
	}
	rem := math.FMA(-q, y, x) // exact: x - q*y
	return math.Float64bits(step64(q, sign(rem)*sign(y), r))
}

// RcpF64 is rcp.rnd.f64 (IEEE reciprocal).
func RcpF64(a uint64, r Rounding) uint64 {
	return DivF64(math.Float64bits(1), a, r)
}

// SqrtF64 is sqrt.rnd.f64 (IEEE square root).
func SqrtF64(a uint64, r Rounding) uint64 {
	if isNaNF64(a) {
		return quietF64(a)
	}
	x := math.Float64frombits(a)
	s := math.Sqrt(x)
	if r == RN || !isFinite(s) || s == 0 {
		return bitsF64(s)
	}
	if r == RNA { // a square root is never exactly halfway: RNA = RN
		return bitsF64(s)
	}
	if x < safeTiny { // scale into the range where x - s*s is representable
		xs := x * 0x1p256
		ss := math.Sqrt(xs)
		return math.Float64bits(step64(ss, sign(math.FMA(-ss, ss, xs)), r) * 0x1p-128)
	}
	return math.Float64bits(step64(s, sign(math.FMA(-s, s, x)), r))
}

// fmaErrSign returns the sign of x*y+z - r, where r = RN(x*y+z), using the
// error-free transformation of an FMA by Boldo and Muller ("Exact and
// approximated error of the FMA", IEEE TC 2011): x*y+z = r + e2 + e3
// exactly, with |e3| ≤ ulp(e2)/2. ok is false where that theorem's no-
// underflow/no-overflow hypotheses may fail; callers then evaluate exactly.
func fmaErrSign(x, y, z, r float64) (sg int, ok bool) {
	const lo, hi = 0x1p-900, 0x1p1000
	u1 := x * y
	au1, az, ar := math.Abs(u1), math.Abs(z), math.Abs(r)
	if au1 < lo || au1 > hi || az > hi || ar > hi || z != 0 && az < lo || r != 0 && ar < lo {
		return 0, false
	}
	u2 := math.FMA(x, y, -u1)
	a1 := z + u2
	a2 := twoSumErr(z, u2, a1)
	b1 := u1 + a1
	b2 := twoSumErr(u1, a1, b1)
	g := (b1 - r) + b2
	e2 := g + a2
	e3 := twoSumErr(g, a2, e2)
	if e2 != 0 {
		return sign(e2), true
	}
	return sign(e3), true
}
