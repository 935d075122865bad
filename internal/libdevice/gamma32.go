package libdevice

var (
	tgammaSmall = [...]uint32{0xba8c9f66, 0x3be903d7, 0xbc1e00b0, 0xbd2cc522, 0x3e2a89b3, 0xbd2c0c05,
		0xbf27e7a2, 0x3f13c468}
	stirling32 = [...]uint32{0x388f7971, 0xb8543ed8, 0xb9dda6be, 0x3a820abe, 0xb9920afd, 0xbb2f4d64,
		0x3b638732, 0x3daaaaac}
)

// tgammaf: 1/Γ by a polynomial near 0 for |x| < 1.5; Stirling's formula in
// double-f32 arithmetic beyond, with the reflection formula for x < 0.
func tgammaf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	var r float32
	if !(ax >= 1.5) {
		t := x
		if x != 0 {
			t = m.sub(x, f32rint(x))
		}
		a := float32(1)
		if x < -0.5 {
			a = x
		}
		b := a
		if x <= 0.5 {
			b = m.mul(a, t)
		}
		p := m.horner(tgammaSmall[:], t)
		r = divApprox(1, m.fma(m.fma(p, b, 0), t, b), m.ftz)
		if !(x < 0) {
			return r
		}
	} else {
		neg := x < 0
		c := x
		if ax > f32(0x42246666) {
			c = f32(0x42246666)
		}
		a := absF32(m, c)
		lh, ll := m.log2DF(a, false)
		am := m.add(a, -0.5)
		ph := m.mul(lh, am)
		pl := m.fma(ll, am, m.fma(lh, am, neg32(ph)))
		const log2e = 0x3fb8aa3b
		eh := m.mul(f32(log2e), a)
		el := m.fma(f32(0x32a57060), a, m.fma(f32(log2e), a, neg32(eh)))
		s := m.add(ph, neg32(eh))
		s2 := m.add(s, eh)
		e1 := m.add(s, neg32(s2))
		e2 := m.add(ph, neg32(s2))
		err := m.add(e2, m.add(neg32(eh), neg32(e1)))
		lo := m.add(m.sub(pl, el), err)
		huge := a > 33
		if neg {
			off := f32(0x80000000)
			if huge {
				off = 48
			}
			s = m.sub(off, s)
			lo = neg32(lo)
		}
		n := f32rint(s)
		g := m.mul(m.exp2Split(n, m.add(m.sub(s, n), lo)), f32(0x40206c99))
		rc := rcpApprox(a, true)
		corr := m.mul(rc, m.horner(stirling32[:], rc))
		if !neg {
			return m.fma(corr, g, g)
		}
		n2 := f32rint(m.add(a, a))
		sp := m.sinCosPi(m.fma(n2, -0.5, a), cvtRziS32(n2))
		d := m.fma(corr, c, c)
		dh := m.mul(d, sp)
		dl := m.fma(d, sp, neg32(dh))
		inv := divApprox(1, dh, m.ftz)
		v := m.fma(g, inv, neg32(m.mul(g, m.mul(dl, m.mul(inv, inv)))))
		r = m.mul(v, 0.5)
		if huge {
			r = m.mul(r, 0x1p-48)
		}
	}
	if truncF32(x) == x {
		return f32(nanF32)
	}
	if x >= f32(0xc2246666) {
		return r
	}
	if cvtRziS32(x)&1 == 1 {
		return 0
	}
	return r
}

func registerGamma32A() { regF1("__nv_tgammaf", tgammaf) }

var (
	lgammaTiny  = [...]uint32{0x3b6b1c86, 0xbbb34878, 0xbd36caef, 0x3e2b5555, 0xbd2c96c7, 0xbf27e6eb, 0x3f13c463}
	lgammaNear1 = [...]uint32{0x3d3bef76, 0x3dd47577, 0x3dfb8079, 0x3e0295b5, 0x3e12a765, 0x3e2d6867, 0x3e5462bf,
		0x3e8a8a72, 0x3ecd26a4, 0x3f528d32, 0x3f13c468}
	lgammaNear2 = [...]uint32{0x385007fa, 0xb967a002, 0x3a0de6fc, 0xba9de0e2, 0x3b3d05b7, 0xbbf1eb10, 0x3ca89a28,
		0xbd89f01a, 0x3ea51a66, 0x3ed87730}
	lgammaNum3 = [...]uint32{0xc43b38fb, 0xc640f6f8, 0xc7206560, 0xc73cb6aa, 0xc80bae5a}
)

// lgammaf: polynomials and a rational function on [0, 7.8), Stirling beyond,
// the reflection formula for negative x.
func lgammaf(m mode, x float32) float32 {
	x = m.flush(x)
	a := absF32(m, x)
	var r float32
	switch {
	case !(a >= 0.7):
		p := m.horner(lgammaTiny[:], a)
		r = neg32(logf(m, m.fma(m.mul(a, p), a, a)))
	case !(a >= 1.5):
		t := m.sub(1, a)
		r = m.mul(t, m.horner(lgammaNear1[:], t))
	case !(a >= 3):
		t := m.add(a, -2)
		r = m.mul(t, m.horner(lgammaNear2[:], t))
	case !(a >= f32(0x40f9999a)):
		t := m.add(a, -3)
		num := m.horner(lgammaNum3[:], t)
		d := m.add(t, f32(0xc381a020))
		d = m.fma(d, t, f32(0xc62864b8))
		d = m.fma(d, t, f32(0xc7b50686))
		d = m.fma(d, t, f32(0xc8498465))
		r = m.fma(num, rcpApprox(d, true), t)
	default:
		l := logf(m, a)
		rc := rcpApprox(a, true)
		rc2 := m.mul(rc, rc)
		h := m.mul(l, 0.5)
		lh := m.mul(h, m.add(a, -0.5))
		p := m.fma(f32(0x3a4be755), rc2, f32(0xbb360953))
		p = m.fma(p, rc2, f32(0x3daaaaa3))
		p = m.fma(p, rc, f32(0x3f6b3f8e))
		r = m.add(m.sub(lh, a), m.add(lh, p))
		if a == f32(0x7f800000) {
			r = a
		}
	}
	if x >= 0 {
		return r
	}
	if floorF32(a) == a {
		return f32(0x7f800000)
	}
	if a < f32(0x1fec1e4a) {
		return neg32(logf(m, a))
	}
	n := f32rint(m.add(a, a))
	s := m.sinCosPoly(m.mul(m.fma(neg32(n), 0.5, a), f32(0x40490fdb)), cvtRziS32(n))
	v := m.mul(a, absF32(m, s))
	lv := logf(m, v)
	t := m.sub(f32(0x3f928682), lv)
	if m.flush(v) == 0 {
		t = f32(0x7f800000)
	}
	return m.fma(t, 1, neg32(r))
}

func registerGamma32B() { regF1("__nv_lgammaf", lgammaf) }
