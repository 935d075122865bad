package scalar

import (
	"math"
	"math/big"
)

// The oracle rounds an exactly known (or exactly comparable) value by
// searching the positive bit patterns of the target format, which are
// ordered like their values, and comparing with big.Float: it shares no
// rounding code with the package.

// tfmt is a target format for the oracle: positive patterns 0..inf, and
// how to read one.
type tfmt struct {
	name    string
	inf     uint64 // pattern of +inf
	signBit uint64
	value   func(p uint64) *big.Float // exact value of a finite positive pattern
	// beyond is the value standing for "the next pattern after max finite"
	// (2^(emax+1)): IEEE rounds as if the exponent range were unbounded.
	beyond *big.Float
}

func pow2(e int) *big.Float { return new(big.Float).SetMantExp(big.NewFloat(1), e) }

// ieeeValue decodes a positive pattern of a format with the given field
// widths by the textbook formula, independently of the package's decoders.
func ieeeValue(p uint64, fracBits, expBits uint) *big.Float {
	bias := 1<<(expBits-1) - 1
	e := int(p >> fracBits)
	frac := new(big.Float).SetUint64(p & (1<<fracBits - 1))
	if e == 0 {
		return frac.SetMantExp(frac, 1-bias-int(fracBits))
	}
	m := new(big.Float).SetUint64(1<<fracBits | p&(1<<fracBits-1))
	return m.SetMantExp(m, e-bias-int(fracBits))
}

func newFmt(name string, fracBits, expBits uint) tfmt {
	bias := 1<<(expBits-1) - 1
	return tfmt{
		name:    name,
		inf:     (1<<expBits - 1) << fracBits,
		signBit: 1 << (fracBits + expBits),
		value:   func(p uint64) *big.Float { return ieeeValue(p, fracBits, expBits) },
		beyond:  pow2(bias + 1),
	}
}

var (
	oF16  = newFmt("f16", 10, 5)
	oBF16 = newFmt("bf16", 7, 8)
	oF32  = newFmt("f32", 23, 8)
	oF64  = newFmt("f64", 52, 11)
)

func (f tfmt) val(p uint64) *big.Float {
	if p == f.inf {
		return f.beyond
	}
	return f.value(p)
}

// oracleRound rounds the value v described by cmpMag (the sign of |v| - m
// for a candidate magnitude m) and its sign neg, to format f in mode r.
// v must be nonzero.
func oracleRound(cmpMag func(m *big.Float) int, neg bool, f tfmt, r Rounding) uint64 {
	// largest p in [0, inf-1] with val(p) <= |v|
	lo, hi := uint64(0), f.inf-1
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if cmpMag(f.val(mid)) >= 0 {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	p := lo
	var d uint64
	if cmpMag(f.val(p)) == 0 {
		d = p
	} else {
		q := p + 1
		switch r {
		case RZ:
			d = p
		case RM:
			d = p
			if neg {
				d = q
			}
		case RP:
			d = q
			if neg {
				d = p
			}
		default:
			m := new(big.Float).SetPrec(2000).Add(f.val(p), f.val(q))
			m.Quo(m, big.NewFloat(2))
			c := cmpMag(m)
			switch {
			case c > 0:
				d = q
			case c < 0:
				d = p
			case r == RNA || p&1 != 0:
				d = q
			default:
				d = p
			}
		}
	}
	if neg {
		d |= f.signBit
	}
	return d
}

// exactCmp turns an exact big.Float into (cmpMag, neg).
func exactCmp(x *big.Float) (func(m *big.Float) int, bool) {
	ax := new(big.Float).Abs(x)
	return func(m *big.Float) int { return ax.Cmp(m) }, x.Signbit()
}

func oracleExact(x *big.Float, f tfmt, r Rounding) uint64 {
	c, neg := exactCmp(x)
	return oracleRound(c, neg, f, r)
}

const bigPrec = 4000 // enough for any exact sum or product of f64 values

func bf(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func exactAdd(x, y float64) *big.Float { return new(big.Float).SetPrec(bigPrec).Add(bf(x), bf(y)) }
func exactMul(x, y float64) *big.Float { return new(big.Float).SetPrec(bigPrec).Mul(bf(x), bf(y)) }
func exactFma(x, y, z float64) *big.Float {
	return new(big.Float).SetPrec(bigPrec).Add(exactMul(x, y), bf(z))
}

// oracleDiv rounds x/y (finite, nonzero) by comparing |x| with m·|y|.
func oracleDiv(x, y float64, f tfmt, r Rounding) uint64 {
	ax, ay := bf(math.Abs(x)), bf(math.Abs(y))
	return oracleRound(func(m *big.Float) int {
		return ax.Cmp(new(big.Float).SetPrec(bigPrec).Mul(m, ay))
	}, (x < 0) != (y < 0), f, r)
}

// oracleSqrt rounds sqrt(x) (x > 0) by comparing x with m².
func oracleSqrt(x float64, f tfmt, r Rounding) uint64 {
	bx := bf(x)
	return oracleRound(func(m *big.Float) int {
		return bx.Cmp(new(big.Float).SetPrec(bigPrec).Mul(m, m))
	}, false, f, r)
}
