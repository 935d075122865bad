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

func init() {
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

func init() {
	regF1("__nv_cyl_bessel_i0f", cylBesselI0f)
	regF1("__nv_cyl_bessel_i1f", cylBesselI1f)
}
