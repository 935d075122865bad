package libdevice

// Bessel functions of the first kind, orders 0 and 1, single precision:
// below 8 a polynomial in the distance to the first zeros (times the other
// zero factors); beyond, the Hankel asymptotic form amplitude·cos(phase),
// the phase reduced like sinf and then shifted by -π/4 (j0) or -3π/4 (j1).

var (
	j0Small = [...]uint32{0xa6b3b8e7, 0xa9aca9b3, 0x2c3f0e18, 0xacd41781, 0xafe90f38, 0x3020305b, 0x33797143,
		0x30f76f85, 0xb6b6dfc6, 0xb6f665c9, 0x399e2deb, 0x3a4ae334, 0xbbeeaa1b, 0xbcda7747}
	j1Small = [...]uint32{0x29af3463, 0x2b81bf42, 0xade21ec1, 0xaf5ddeff, 0x319b0c9d, 0x32e81173, 0xb50f8dc8,
		0xb61e653d, 0x382cd9c5, 0x38f9eb10, 0xbaeceb9c, 0xbb276ffd, 0x3d073993}
)

// besselCos returns cos(phase - shift) where shift is (2k+1)π/4 given as
// the f32 constant c = -(shift), with libdevice's two-stage reduction.
func (m mode) besselCos(phase float32, c uint32) float32 {
	r, q := m.trigReduce(phase)
	s := m.add(r, m.fma(float32(uint32(q)&3), f32(0x3fc90fdb), f32(c)))
	n := f32roundEven(m.mul(s, f32(0x3f22f983)))
	nq := int32(n)
	s = m.fma(n, f32(0xbfc90fda), s)
	s = m.fma(n, f32(0xb3a22168), s)
	return m.sinCosPoly(s, nq+1)
}

func j0f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	if !(a > 8) {
		t := m.add(m.add(a, f32(0xc019e8a9)), f32(0xb3e971b3))
		p := m.mul(t, m.horner(j0Small[:], t))
		p = m.mul(m.add(m.add(a, f32(0xc0b0a47b)), f32(0x339a7a37)), p)
		return m.mul(m.add(m.add(a, f32(0xc10a75ab)), f32(0xb4cccded)), p)
	}
	if a == f32(0x7f800000) {
		return 0
	}
	r := rcpApprox(a, true)
	r2 := m.mul(r, r)
	amp := m.fma(f32(0x4056fe93), r2, f32(0xbf03b7c2))
	amp = m.fma(amp, r2, f32(0x3dd3b3f3))
	amp = m.fma(amp, r2, f32(0xbd7fffb6))
	amp = m.fma(amp, r2, 1)
	ph := m.fma(f32(0x3f91e009), r2, f32(0xbe52412d))
	ph = m.fma(ph, r2, f32(0x3d854ed1))
	ph = m.fma(ph, r2, f32(0xbdffffff))
	phase := m.fma(ph, r, a)
	amp = m.mul(amp, m.mul(rsqrtApprox(a, m.ftz), f32(0x3f4c422a)))
	return m.mul(amp, m.besselCos(phase, 0xbf490fdb))
}

func j1f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	var v float32
	switch {
	case !(a > 8):
		t := m.add(m.add(a, f32(0xc0753aac)), f32(0x33a5090f))
		p := m.horner(j1Small[:], t)
		p = m.mul(m.add(m.add(a, f32(0xc0e07fb0)), f32(0x3444b8db)), p)
		v = m.mul(a, m.mul(t, p))
	case a == f32(0x7f800000):
		v = 0
	default:
		r := rcpApprox(a, true)
		r2 := m.mul(r, r)
		ph := m.fma(f32(0xbfca3ba2), r2, f32(0x3eb914ad))
		ph = m.fma(ph, r2, f32(0xbe27f2ec))
		ph = m.fma(ph, r2, f32(0x3ebffffd))
		c := m.besselCos(m.fma(ph, r, a), 0xc016cbe4)
		amp := m.fma(f32(0xc082cb37), r2, f32(0x3f3ff7e9))
		amp = m.fma(amp, r2, f32(0xbe458bae))
		amp = m.fma(amp, r2, f32(0x3e3fff8b))
		amp = m.fma(amp, r2, 1)
		v = m.mul(m.mul(amp, m.mul(rsqrtApprox(a, m.ftz), f32(0x3f4c422a))), c)
	}
	if x < 0 {
		v = neg32(v)
	}
	if a < f32(0x0da24260) {
		return copysign32(v, x)
	}
	return v
}

func registerBessel32A() {
	regF1("__nv_j0f", j0f)
	regF1("__nv_j1f", j1f)
}

var (
	i0Small = [...]uint32{0x20372901, 0x2385ab76, 0x28408812, 0x2c244edb, 0x30020914, 0x33918d5a, 0x36e3919c,
		0x39e38df6, 0x3c800002, 0x3e800000, 0x3f800000}
	i0Large = [...]uint32{0x3eb28ba6, 0xbbb2cb0d, 0x3d089707, 0x3ce477e2, 0x3d4c4525, 0x3ecc4229}
	i1Small = [...]uint32{0x224d7bdd, 0x25c54ac1, 0x2a370c80, 0x2e11c2c5, 0x31c296ae, 0x3535fffe, 0x38638f95,
		0x3b2aaa97, 0x3d800001}
	i1Large = [...]uint32{0xbf00bcd4, 0x3ce93d2e, 0xbd47a025, 0xbd3e1ea9, 0xbe19334b, 0x3ecc422b}
)

// besselIExp is amp(1/a)/sqrt(a)·e^a for large a, with e^a as (e^(a/2))²
// from expm1f: amp·(em1·(em1+2)) + amp.
func (m mode) besselIExp(a float32, c []uint32) float32 {
	amp := m.mul(m.horner(c, rcpApprox(a, true)), rsqrtApprox(a, true))
	em1 := expm1f(m, m.mul(a, 0.5))
	return m.add(m.mul(m.mul(amp, em1), m.add(em1, 2)), amp)
}

func cylBesselI0f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	if a >= 9 && a < f32(0x7f800000) {
		return m.besselIExp(a, i0Large[:])
	}
	return m.horner(i0Small[:], m.mul(a, a))
}

func cylBesselI1f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	if a >= f32(0x41015c29) && a < f32(0x7f800000) {
		return copysign32(m.besselIExp(a, i1Large[:]), x)
	}
	x2 := m.mul(x, x)
	return m.fma(x, m.mul(x2, m.horner(i1Small[:], x2)), m.mul(x, 0.5))
}

func registerBessel32B() {
	regF1("__nv_cyl_bessel_i0f", cylBesselI0f)
	regF1("__nv_cyl_bessel_i1f", cylBesselI1f)
}

var (
	y0Tiny = [...]uint32{0x33dbe5ac, 0xb71f49b6, 0x3a0d3100, 0xbc83ad8e, 0x3e35de5a, 0xbd9726b5}
	y0Z1   = [...]uint32{0x3cddc8b3, 0xbe02574c, 0x3e7f2cc9, 0xbe8bf29b, 0x3e5bce93, 0xbe38c4ff, 0x3e42774d,
		0xbe525cb2, 0x3e60f43d, 0xbe679145, 0x3e61d24a, 0xbefbf1ad, 0x3f6121bb}
	y0Z2 = [...]uint32{0xb449dd3f, 0xb45e2607, 0xb6857064, 0x38554610, 0x394aced7, 0xbb0f1a0c, 0xbbe07f2e,
		0x3d6fb6b5, 0x3d504df1, 0xbece1a13}
	y0Z3 = [...]uint32{0x3510cebe, 0x3629da6c, 0xb84054c0, 0xb91318ab, 0x3b0e9921, 0x3b5974d5, 0xbd44b4d7,
		0xbcad7799, 0x3e99a665}
)

// y0f: (2/π)·log(x)·J0(x) plus a polynomial near 0, polynomials around the
// first three zeros, and the Hankel form (a sine) beyond 8.65. NaN for x < 0.
func y0f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	near := func(z0, z1 uint32, c []uint32) float32 {
		t := m.add(m.add(a, f32(z0)), f32(z1))
		return m.mul(t, m.horner(c, t))
	}
	var r float32
	switch {
	case !(a > f32(0x3ee4c176)):
		l := m.mul(logf(m, a), f32(0x3f22f983))
		if m.flush(a) == 0 {
			l = f32(0xff800000)
		}
		r = m.fma(l, j0f(m, a), m.horner(y0Tiny[:], m.mul(a, a)))
	case !(a > f32(0x3ff67af8)):
		r = near(0xbf64c176, 0x32657d03, y0Z1[:])
	case !(a > f32(0x40b0b31e)):
		r = near(0xc07d4a9a, 0xb3d9856a, y0Z2[:])
	case !(a > f32(0x410a7798)):
		r = near(0xc0e2c0ee, 0xb39ce420, y0Z3[:])
	case a == f32(0x7f800000):
		r = 0
	default:
		rc := rcpApprox(a, true)
		r2 := m.mul(rc, rc)
		amp := m.fma(f32(0xbecc69f3), r2, f32(0x3dd0d5f0))
		amp = m.fma(amp, r2, f32(0xbd7ff855))
		amp = m.fma(amp, r2, 1)
		ph := m.fma(f32(0x3f8ccd61), r2, f32(0xbe50d31c))
		ph = m.fma(ph, r2, f32(0x3d854783))
		ph = m.fma(ph, r2, f32(0xbdfffffb))
		amp = m.mul(amp, m.mul(rsqrtApprox(a, m.ftz), f32(0x3f4c422a)))
		r = m.mul(amp, m.besselCos(m.fma(ph, rc, a), 0xc016cbe4))
	}
	if x < 0 {
		return f32(nanF32)
	}
	return r
}

func registerBessel32C() { regF1("__nv_y0f", y0f) }

var (
	y1Tiny = [...]uint32{0x321462cc, 0xb58527da, 0x38963e95, 0xbb41adcb, 0x3d5e9cbb, 0xbe48c331}
	y1Z1   = [...]uint32{0xb789e29d, 0x39064a88, 0xb9f0ab0d, 0x3a8f6102, 0xbb2c7045, 0x3bf35df7, 0xbb9d097c,
		0xbd06968a, 0xbdf2b7df, 0x3f055242}
	y1Z2 = [...]uint32{0x32be57d0, 0xb508a416, 0xb63f8a14, 0x38427e02, 0x3919bb1c, 0xbb0df1fd, 0xbb885189,
		0x3d50aec1, 0x3d005cfc, 0xbeae3e2b}
	y1Z3 = [...]uint32{0x350cf383, 0x3602902e, 0xb8375f71, 0xb8d9faa8, 0x3b03d19a, 0x3b1e736d, 0xbd31cae5,
		0xbc8159b6, 0x3e8afcca}
)

// y1f: -2/(πx) below the normal range; (2/π)(J1(x)·log(x) - 1/x) plus x times
// a polynomial up to 1.7; polynomials around the first three zeros; the
// Hankel form beyond 10.17. NaN for x < 0.
func y1f(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	near := func(z0, z1 uint32, c []uint32) float32 {
		t := m.add(m.add(a, f32(z0)), f32(z1))
		return m.mul(t, m.horner(c, t))
	}
	var r float32
	switch {
	case a < 0x1p-126:
		r = m.div(f32(0xbf22f983), a)
	case !(a > f32(0x3fd96ac4)):
		j := j1f(m, a)
		l := logf(m, a)
		if a == 0 {
			l = f32(0xff800000)
		}
		v := m.mul(m.fma(j, l, m.div(-1, a)), f32(0x3f22f983))
		r = m.fma(m.horner(y1Tiny[:], m.mul(a, a)), a, v)
	case !(a > f32(0x40740eee)):
		r = near(0xc00c9df7, 0x33b200dc, y1Z1[:])
	case !(a > f32(0x40e06937)):
		r = near(0xc0adbff2, 0xb4687b03, y1Z2[:])
	case !(a > f32(0x4122c2e3)):
		r = near(0xc109893d, 0xb4e6169b, y1Z3[:])
	case a == f32(0x7f800000):
		r = 0
	default:
		rc := rcpApprox(a, true)
		r2 := m.mul(rc, rc)
		amp := m.fma(f32(0x3f267f60), r2, f32(0xbe44ab90))
		amp = m.fma(amp, r2, f32(0x3e3ffebf))
		amp = m.fma(amp, r2, 1)
		ph := m.fma(f32(0xbfe4e1ab), r2, f32(0x3ebb73ab))
		ph = m.fma(ph, r2, f32(0xbe27fb6e))
		ph = m.fma(ph, r2, f32(0x3ebfffff))
		amp = m.mul(amp, m.mul(rsqrtApprox(a, m.ftz), f32(0x3f4c422a)))
		r = m.mul(amp, m.besselCos(m.fma(ph, rc, a), 0xc07b53d1))
	}
	if x < 0 {
		return f32(nanF32)
	}
	return r
}

func registerBessel32D() { regF1("__nv_y1f", y1f) }
