package tensor

import "testing"

// TestDotZerosMatchesDot: where zeroProducts allows the shortcut (every
// product a finite zero), dotZeros' bits are dot's, product by product, for
// every model of the H100's MMAs: signed zeros on either side, the other
// side zeros, subnormals, normals, or with an infinity or NaN (no
// shortcut), and accumulators of either sign, zero, finite, infinite and
// NaN.
func TestDotZerosMatchesDot(t *testing.T) {
	models := []struct {
		name string
		m    Model
	}{
		{"wgmma f32", Model{Group: 16, Frac: 25, Out: fmtF32, AlignExp: true}},
		{"wgmma f16", Model{Group: 16, Frac: 25, RNE: true, Out: fmtF16, AlignExp: true}},
		{"wgmma fp8", Model{Group: 32, Frac: 13, Out: fmtF32, AlignExp: true, OutFrac: 13}},
		{"sparse k/2", Model{Group: 8, Frac: 25, Out: fmtF32, AlignExp: true}},
		{"grouped by 4", Model{Group: 4, Frac: 24, Floor: true, Out: fmtF32, NegZeroSum: true}},
	}
	zeros := []uint64{0x0000, 0x8000}
	others := []uint64{0x0000, 0x8000, 0x0001, 0x8001, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00}
	accs := []uint64{0x00000000, 0x80000000, 0x3f800000, 0xbf800001, 0x00000001, 0x7f800000, 0xff800000, 0x7fc00000}
	seed := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	shortcuts := 0
	for _, mc := range models {
		name, m := mc.name, mc.m
		for _, k := range []int{8, 16, 32} {
			for trial := 0; trial < 400; trial++ {
				a, b := make([]term, k), make([]term, k)
				zeroSide, otherSide := a, b
				if trial%2 == 1 {
					zeroSide, otherSide = b, a
				}
				for i := 0; i < k; i++ {
					zeroSide[i] = decode(F16, zeros[next()%uint64(len(zeros))])
					// mostly finite, now and then an infinity or a NaN
					o := others[next()%uint64(len(others)-3)]
					if next()%16 == 0 {
						o = others[next()%uint64(len(others))]
					}
					otherSide[i] = decode(F16, o)
					if next()%4 == 0 {
						a[i].negate()
					}
				}
				if trial%5 == 0 { // every product of the same sign
					for i := range a {
						a[i], b[i] = decode(F16, 0x8000), decode(F16, 0)
					}
				}
				c := decode(F32, accs[next()%uint64(len(accs))])
				sa, sb := summarize(a), summarize(b)
				if !zeroProducts(&sa, &sb) {
					continue
				}
				shortcuts++
				if got, want := m.dotZeros(k, sa.neg^sb.neg, c), m.dot(a, b, c); got != want {
					t.Fatalf("%s, K=%d, trial %d: dotZeros %#x, dot %#x", name, k, trial, got, want)
				}
			}
		}
	}
	if shortcuts < 1000 {
		t.Errorf("only %d of the cases took the shortcut", shortcuts)
	}
}

// TestSummarize checks summarize's three answers on hand-made rows.
func TestSummarize(t *testing.T) {
	row := func(bits ...uint64) []term {
		var ts []term
		for _, b := range bits {
			ts = append(ts, decode(F16, b))
		}
		return ts
	}
	for _, c := range []struct {
		name          string
		terms         []term
		zero, special bool
		neg           uint32
	}{
		{"zeros", row(0, 0x8000, 0, 0x8000), true, false, 0b1010},
		{"a subnormal", row(0, 1, 0), false, false, 0},
		{"an infinity", row(0, 0xfc00), false, true, 0b10},
		{"a NaN", row(0x7e00, 0), false, true, 0},
	} {
		s := summarize(c.terms)
		if s.zero != c.zero || s.special != c.special || s.neg != c.neg {
			t.Errorf("%s: %+v, want zero %v special %v neg %#b", c.name, s, c.zero, c.special, c.neg)
		}
	}
	ts := row(0, 0x8000)
	ts[0].negate()
	ts[1].negate()
	if s := summarize(ts); s.neg != 0b01 || !ts[0].neg || ts[1].neg {
		t.Errorf("negated: %+v (neg %v %v), want signs 0b01", s, ts[0].neg, ts[1].neg)
	}
}
