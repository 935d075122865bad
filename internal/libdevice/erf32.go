package libdevice

// Error functions and friends, single precision.

var (
	erfSmall = [...]uint32{0x38b1e96a, 0xba574d20, 0x3baad5ea, 0xbcdc1be7, 0x3de718af, 0xbec093ac, 0x3e0375d3}
	// erfLarge approximates log2(1-erf(t))/(-t) - 1 for 1.0029 ≤ t.
	erfLarge = [...]uint32{0x38eb4c3a, 0xbaae005b, 0x3c09919f, 0xbd24d99a, 0x3e235519, 0x3f69b4f9, 0x3f210a14}
	erfcCoef = [...]uint32{0x3a69a091, 0x3be6e05b, 0xbc81fb4b, 0x3d15373b, 0xbd887c5a, 0x3dc021d5, 0xbdced424,
		0x3d8b74de, 0x3c7bf170, 0xbe0ef8d4, 0x3f9dd2c9}
)

func erff(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	large := ax >= f32(0x3f8060fe)
	t, c, s := m.mul(x, x), erfSmall[:], x
	if large {
		t, c, s = ax, erfLarge[:], neg32(ax)
	}
	r := m.fma(m.horner(c, t), s, s)
	if !large {
		return r
	}
	return copysign32(m.sub(1, ex2Approx(r, true)), x)
}

// expNegSquare returns e^(-x²) for x = |x| ≥ 0 as erfcf forms it: 2^(-x²·log2e)
// with an fma correction for the rounding of x².
func (m mode) expNegSquare(ax float32) float32 {
	x2 := m.mul(ax, ax)
	nx2 := neg32(x2)
	j := truncF32(m.mul(nx2, f32(0x3fb8aa3b)))
	if absF32(m, j) > 126 {
		j = copysign32(126, j)
	}
	r := m.fma(j, f32(0xbf317218), nx2)
	r = m.fma(j, f32(0x3102e308), r)
	e := m.mul(ex2Approx(m.mul(r, f32(0x3fb8aa3b)), true), f32(b32(m.add(j, f32(0x4b40007f)))<<23))
	return m.fma(e, m.fma(neg32(ax), ax, x2), e)
}

func erfcf(m mode, x float32) float32 {
	x = m.flush(x)
	r := m.mul(m.erfcxCore(absF32(m, x)), m.expNegSquare(absF32(m, x)))
	if absF32(m, x) > f32(0x4120e148) {
		r = 0
	}
	if x < 0 {
		return m.sub(2, r)
	}
	return r
}

// erfcxCore is e^(x²)·erfc(x) for 0 ≤ ax < 10.06: a polynomial in
// t = (ax-4)/(ax+4) divided by 1+2ax (both reciprocals from the SFU, refined).
func (m mode) erfcxCore(ax float32) float32 {
	r4 := rcpApprox(m.add(ax, 4), true)
	q := m.mul(m.add(ax, -4), r4)
	e := m.fma(-4, m.add(q, 1), ax)
	e = m.fma(neg32(q), ax, e)
	t := m.fma(r4, e, q)
	p := m.horner(erfcCoef[:], t)
	rd := rcpApprox(m.fma(2, ax, 1), true)
	y := m.mul(p, rd)
	d := m.sub(m.fma(ax, m.mul(y, -2), p), y)
	return m.fma(d, rd, y)
}

func normcdff(m mode, x float32) float32 {
	x = m.flush(x)
	c := x
	if absF32(m, x) > 14.5 {
		c = copysign32(14.5, x)
	}
	h := m.mul(c, f32(0xbf3504f3))
	l := m.fma(c, f32(0xb24fe77a), m.fma(c, f32(0xbf3504f3), neg32(h)))
	t := m.add(h, l)
	at := absF32(m, t)
	r := m.mul(m.erfcxCore(at), m.expNegSquare(at))
	if at > f32(0x4120e148) {
		r = 0
	}
	if t < 0 {
		r = m.sub(2, r)
	}
	if c < -1 {
		d := m.add(m.sub(h, t), l)
		r = m.fma(m.mul(m.mul(t, -2), r), d, r)
	}
	return m.mul(r, 0.5)
}

func erfcxf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	var r float32
	if ax < f32(0x4120e148) {
		r = m.erfcxCore(ax)
	} else {
		t := divApprox(0.25, m.mul(ax, 0.25), m.ftz)
		t2 := m.mul(t, t)
		p := m.fma(f32(0x40d20000), t2, f32(0xbff00000))
		p = m.fma(p, t2, f32(0x3f400000))
		p = m.fma(p, t2, -0.5)
		p = m.fma(p, t2, 1)
		r = m.mul(m.mul(t, f32(0x3f106ebb)), p)
	}
	if !(x < 0) {
		return r
	}
	h := m.fmaR(ax, ax, 0, rz) // mul.rz
	if m.ftz {
		h = m.flush(h)
	}
	l := m.fma(ax, ax, neg32(h))
	j := m.fmaR(satF32(m.fma(h, f32(0x3bbb989d), 0.5)), f32(0x437c0000), f32(0x4b400001), rm)
	e := m.fma(h, f32(0x3fb8aa3b), neg32(m.add(j, f32(0xcb40007f))))
	e = m.fma(h, f32(0x32a57060), e)
	s := ex2Approx(e, true)
	sc := f32(b32(j) << 23)
	e2 := m.fma(s, sc, m.mul(s, sc))
	v := m.sub(m.fma(e2, l, e2), r)
	if e2 == f32(0x7f800000) {
		return e2
	}
	return v
}

var erfinvCoef = [...]uint32{0xaf8a6370, 0x3221f645, 0xb4016fda, 0x3468f846, 0x370742aa, 0xb804db4d, 0xba4afea1,
	0x3bb5c027, 0x3e24ae0f, 0x3f62dfc4}

func erfinvf(m mode, x float32) float32 {
	x = m.flush(x)
	l := lg2Approx(m.fma(x, neg32(x), 1), true)
	nl := neg32(l)
	r := m.mul(x, m.horner(erfinvCoef[:], nl))
	if l >= f32(0xc1033333) || l != l {
		return r
	}
	y := rsqrtApprox(nl, true)
	p := m.fma(f32(0xbf1704a1), y, f32(0xbf29baa5))
	p = m.fma(p, y, f32(0x3fcc6adc))
	p = m.fma(p, y, f32(0xbf2cdaed))
	p = m.fma(p, y, f32(0xbdc30537))
	p = m.fma(p, y, f32(0x3f55d9b9))
	v := m.mul(m.mul(y, nl), p)
	if l == f32(0xff800000) {
		v = nl
	}
	return copysign32(v, x)
}

func cbrtf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	l := lg2Approx(ax, false)
	y := ex2Approx(m.mul(l, f32(0xbf2aaaab)), true) // |x|^(-1/3)
	c := m.mul(ax, y)                               // |x|^(2/3)·… ≈ cbrt
	e := m.fma(c, neg32(m.mul(y, c)), 1)
	c = m.fma(c, m.mul(e, f32(0x3eaaaaab)), c)
	if x < 0 {
		c = neg32(c)
	}
	if xx := m.add(x, x); xx == x {
		return xx
	}
	return c
}

func hypotf(m mode, x, y float32) float32 {
	x, y = m.flush(x), m.flush(y)
	ax, ay := b32(absF32(m, x)), b32(absF32(m, y))
	lo := f32(uint32(min(int32(ax), int32(ay))))
	hi := f32(uint32(max(int32(ax), int32(ay))))
	e := uint32(max(int32(ax), int32(ay))) & 0xfe000000
	scale := f32(0x7e800000 - e)
	a, b := m.mul(lo, scale), m.mul(hi, scale)
	s := m.sqrt(m.fma(b, b, m.mul(a, a)))
	r := m.mul(s, f32(e|0x00800000))
	if lo == 0 {
		r = hi
	}
	if lo == f32(0x7f800000) {
		r = lo
	}
	return r
}

func registerErf32A() {
	regF1("__nv_erff", erff)
	regF1("__nv_erfcf", erfcf)
	regF1("__nv_normcdff", normcdff)
	regF1("__nv_erfcxf", erfcxf)
	regF1("__nv_erfinvf", erfinvf)
	regF1("__nv_cbrtf", cbrtf)
	regF2("__nv_hypotf", hypotf)
}

var erfcinvTail = [...]uint32{0xc27c73f1, 0x42fef829, 0xc2e4361c, 0x42714d9b, 0xc1ae51b3, 0x40cef504, 0xbfea9e05,
	0xbcf871f4, 0x3f553775}

// erfcinvf inverts erfc: erfinvf's polynomial on log2(x(2-x)) in the middle,
// a polynomial in 1/sqrt(-log2) for the tails.
func erfcinvf(m mode, x float32) float32 {
	x = m.flush(x)
	t := m.add(2, neg32(x))
	if x >= f32(0x3b5ed289) && x <= f32(0x3fff9097) {
		p := m.horner(erfinvCoef[:], neg32(lg2Approx(m.mul(t, x), true)))
		return m.fma(p, neg32(x), p)
	}
	upper := x > 1
	v := x
	if upper {
		v = t
	}
	l := lg2Approx(v, false)
	nl := neg32(l)
	y := rsqrtApprox(nl, true)
	p := m.horner(erfcinvTail[:], y)
	s := m.mul(y, nl)
	if l == f32(0xff800000) {
		s = nl
	}
	if upper {
		s = neg32(s)
	}
	return m.mul(p, s)
}

func normcdfinvf(m mode, x float32) float32 {
	x = m.flush(x)
	return m.fma(f32(0xbfb504f3), erfcinvf(m, m.add(x, x)), 0)
}

func registerErf32B() {
	regF1("__nv_erfcinvf", erfcinvf)
	regF1("__nv_normcdfinvf", normcdfinvf)
}
