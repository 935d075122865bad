package tensor

import "math/bits"

// Model is the arithmetic of one output element of a floating-point MMA:
// D = C + sum_k A[k]*B[k], computed in steps of Group products. In each step
// the exact products and the running accumulator are aligned to the largest
// of them, every term keeping Frac bits below that leading bit (the rest
// dropped: toward zero, or toward minus infinity with Floor), summed exactly,
// and the sum rounded to the accumulator format (to nearest even with RNE,
// else toward zero). docs/tensor-cores.md gives the measurements behind the
// parameters of each instruction.
type Model struct {
	Group int
	Frac  int
	Floor bool
	RNE   bool
	Out   ifmt // accumulator format between steps and of the result
	// NegZeroSum: the sign of an exactly zero sum of nonzero terms is negative
	// (unused by the H100 models: such a sum is +0).
	NegZeroSum bool
	// AlignExp: align to the largest exponent (a product's exponent is the
	// sum of its factors' exponents, its significand in [1,4)) rather than
	// to the largest leading bit.
	AlignExp bool
	// OutFrac, when not zero, truncates each step's f32 result to that many
	// fraction bits (the H100's fp8 wgmma keeps 13).
	OutFrac int
}

const canonNaN32 = 0x7fffffff

// dot computes one output element. a and b hold K terms, c the accumulator.
func (m *Model) dot(a, b []term, c term) uint64 {
	acc := c
	k := len(a)
	g := m.Group
	if g <= 0 || g > k {
		g = k
	}
	var out uint64
	for s := 0; s < k; s += g {
		if s > 0 {
			acc = decodeFmt(m.Out, out)
		}
		out = m.step(a[s:s+g], b[s:s+g], acc)
	}
	return out
}

func decodeFmt(f ifmt, b uint64) term {
	if f == fmtF16 {
		return decode(F16, b)
	}
	return decode(F32, b)
}

func nanOf(f ifmt) uint64 {
	if f == fmtF16 {
		return 0x7fff
	}
	return canonNaN32
}

// aligned is the signed value of a term (-1)^neg * mant * 2^sh in units of
// a step's last kept bit: the bits below it dropped toward zero, or toward
// minus infinity with floor.
func aligned(neg bool, mant uint64, sh int, floor bool) int64 {
	var v uint64
	switch {
	case sh >= 0:
		v = mant << sh
	case sh <= -64:
		if neg && floor {
			v = 1
		}
	default:
		v = mant >> -sh
		if neg && floor && mant&(1<<-sh-1) != 0 {
			v++
		}
	}
	if neg {
		return -int64(v)
	}
	return int64(v)
}

// step is one fused step: acc + sum of the products a[i]*b[i].
func (m *Model) step(a, b []term, acc term) uint64 {
	return m.stepWith(a, b, acc, false)
}

// dotZeros is dot for K terms a and b whose products are all zero and
// finite (one side all zeros, the other with no infinity or NaN), which
// only their signs tell apart (the sign of an exactly zero sum): neg has
// bit k set where product k is negative. K is at most 32.
func (m *Model) dotZeros(k int, neg uint32, c term) uint64 {
	acc := c
	g := m.Group
	if g <= 0 || g > k {
		g = k
	}
	var out uint64
	for s := 0; s < k; s += g {
		if s > 0 {
			acc = decodeFmt(m.Out, out)
		}
		group := uint32((uint64(1)<<min(s+g, k) - 1) &^ (uint64(1)<<s - 1))
		out = m.stepWith(nil, nil, acc, ^neg&group != 0)
	}
	return out
}

// termsSummary is what dotZeros needs of a row or column of K terms (K at
// most 32): whether every term is a finite zero, whether one is an
// infinity or a NaN, and their signs (bit k: term k's).
type termsSummary struct {
	zero, special bool
	neg           uint32
}

func summarize(t []term) termsSummary {
	var mant uint64
	var flags uint8
	var neg uint32
	for k := range t {
		mant |= t[k].mant
		flags |= t[k].flags
		neg |= uint32(t[k].flags&termNeg) << k
	}
	special := flags&termSpecial != 0
	return termsSummary{zero: mant == 0 && !special, special: special, neg: neg}
}

// zeroProducts reports whether every product of two rows of terms,
// summarized as sa and sb, is a finite zero: then dotZeros gives dot's
// bits without looking at each product (the microbenchmarks multiply
// memory they never wrote).
func zeroProducts(sa, sb *termsSummary) bool {
	return sa.zero && !sb.special || sb.zero && !sa.special
}

// stepWith is step, with zeroPos saying that products left out of a and
// b (all zero and finite) include one of positive sign.
func (m *Model) stepWith(a, b []term, acc term, zeroPos bool) uint64 {
	var (
		nan, pinf, ninf bool
		lead            = -1 << 30
		allNegZero      = acc.neg && acc.mant == 0 && !zeroPos
	)
	// specials and the leading bit
	if acc.nan {
		nan = true
	} else if acc.inf {
		if acc.neg {
			ninf = true
		} else {
			pinf = true
		}
	} else if acc.mant != 0 {
		allNegZero = false
		lead = int(acc.exp) + bits.Len64(acc.mant) - 1
		if m.AlignExp {
			lead = int(acc.exp + acc.mb)
		}
	}
	b = b[:len(a)]
	alignExp := m.AlignExp
	for i := range a {
		x, y := &a[i], &b[i]
		if x.mant != 0 && y.mant != 0 {
			// A finite nonzero product (NaN and infinity terms have no
			// mantissa: decode), the common case, tested first.
			allNegZero = false
			var l int
			if alignExp {
				l = int(x.exp + x.mb + y.exp + y.mb)
			} else {
				l = int(x.exp+y.exp) + bits.Len64(x.mant*y.mant) - 1
			}
			lead = max(lead, l)
			continue
		}
		neg := x.neg != y.neg
		switch {
		case x.nan || y.nan:
			nan = true
		case x.inf || y.inf:
			if (x.inf && !y.inf && y.mant == 0) || (y.inf && !x.inf && x.mant == 0) {
				nan = true
			} else if neg {
				ninf = true
			} else {
				pinf = true
			}
		default: // a zero product
			if !neg {
				allNegZero = false
			}
		}
	}
	f := m.Out
	if nan || (pinf && ninf) {
		return nanOf(f)
	}
	if pinf || ninf {
		s := uint64(0)
		if ninf {
			s = 1 << (f.ebits + f.mbits)
		}
		return s | (1<<f.ebits-1)<<f.mbits
	}
	if lead == -1<<30 { // every term zero
		if allNegZero {
			return 1 << (f.ebits + f.mbits)
		}
		return 0
	}
	unit := lead - m.Frac
	floor := m.Floor
	var sum int64
	if !acc.inf && !acc.nan && acc.mant != 0 {
		sum = aligned(acc.neg, acc.mant, int(acc.exp)-unit, floor)
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if p := x.mant * y.mant; p != 0 {
			sum += aligned(x.neg != y.neg, p, int(x.exp+y.exp)-unit, floor)
		}
	}
	return m.rounded(sum, unit)
}

// rounded is a step's result: sum, in units of 2^unit, rounded to the
// accumulator format.
func (m *Model) rounded(sum int64, unit int) uint64 {
	f := m.Out
	neg := sum < 0
	mag := uint64(sum)
	if neg {
		mag = uint64(-sum)
	}
	if mag == 0 {
		neg = m.NegZeroSum
	}
	r := round(f, neg, mag, unit, m.RNE, true)
	if m.OutFrac > 0 && f == fmtF32 && r&0x7f800000 != 0x7f800000 {
		r &^= 1<<(23-m.OutFrac) - 1
	}
	if r&^(1<<(f.ebits+f.mbits)) == 0 {
		// a nonzero sum too small for the format is +0, whatever its sign
		// (wgmma with scale-d 0 on tiny bf16/tf32/f16 products:
		// testdata/tensor/wgmmatypes)
		return 0
	}
	return r
}
