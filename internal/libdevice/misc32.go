package libdevice

// Inverse hyperbolic functions (all on log1pf's core) and sinpi/cospi.

func asinhf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	h := m.fma(x, x, 1)
	s := m.fma(h, rsqrtApprox(h, true), 1) // 1 + sqrt(1+x²)
	t := m.fma(ax, m.mul(ax, rcpApprox(s, true)), ax)
	big := ax > 0x1p23
	if big {
		t = ax
	}
	r := log1pf(m, t)
	if big {
		r = m.add(r, f32(0x3f317218))
	}
	if ax <= f32(0x7f800000) {
		return copysign32(r, x)
	}
	return r
}

func acoshf(m mode, x float32) float32 {
	x = m.flush(x)
	xm1 := m.sub(x, 1)
	big := b32(xm1) > 0x4b000000
	h := m.fma(x, x, -1)
	y := rsqrtApprox(h, true)
	s := m.mul(h, y)
	s = m.fma(m.fma(neg32(s), s, h), m.mul(y, 0.5), s)
	if h == 0 {
		s = 0
	}
	if big {
		s = f32(0xbf800001)
	}
	r := log1pf(m, m.add(xm1, s))
	if big {
		r = m.add(r, f32(0x3f317218))
	}
	return r
}

func atanhf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	rc := rcpApprox(m.sub(1, ax), true)
	t := m.mul(ax, m.add(rc, rc)) // 2|x|/(1-|x|)
	if ax > f32(0x7e800000) {
		t = -2
	}
	return m.mul(copysign32(0.5, x), log1pf(m, t))
}

// cvtRziS32 is cvt.rzi.s32.f32: saturating, NaN to 0.
func cvtRziS32(x float32) int32 {
	switch {
	case x != x:
		return 0
	case x >= 2147483648:
		return 2147483647
	case x <= -2147483648:
		return -2147483648
	}
	return int32(x)
}

// sinCosPi evaluates sin(πr) or cos(πr) for |r| ≤ 1/4 by quadrant q.
func (m mode) sinCosPi(r float32, q int32) float32 {
	r2 := m.mul(r, r)
	a := m.fma(f32(0xbf17acc9), r2, f32(0x40233590))
	b := m.fma(f32(0x3e684e12), r2, f32(0xbfaad2e0))
	a = m.fma(a, r2, f32(0xc0a55df6))
	b = m.fma(b, r2, f32(0x4081e0cf))
	r3 := m.fma(r2, r, 0)
	b = m.fma(b, r2, f32(0xc09de9e6))
	a = m.fma(a, r3, 0)
	c := m.fma(b, r2, 1)
	s := m.fma(f32(0x40490fdb), r, a)
	v := s
	if q&1 == 1 {
		v = c
	}
	if q&2 != 0 {
		v = m.sub(0, v)
	}
	return v
}

func sinpif(m mode, x float32) float32 {
	x = m.flush(x)
	n := f32rint(m.add(x, x))
	r := m.fma(neg32(n), 0.5, x)
	v := m.sinCosPi(r, cvtRziS32(n))
	if truncF32(x) == x {
		v = m.mul(x, 0)
	}
	return v
}

func cospif(m mode, x float32) float32 {
	x = m.flush(x)
	if absF32(m, x) > 0x1p24 {
		x = m.mul(x, 0)
	}
	n := f32rint(m.add(x, x))
	r := m.fma(neg32(n), 0.5, x)
	return m.sinCosPi(r, cvtRziS32(n)+1)
}

func registerMisc32() {
	regF1("__nv_asinhf", asinhf)
	regF1("__nv_acoshf", acoshf)
	regF1("__nv_atanhf", atanhf)
	regF1("__nv_sinpif", sinpif)
	regF1("__nv_cospif", cospif)
	regOut("__nv_sincospif", "f", "", "ff", func(m mode, a, o []uint64) uint64 {
		x := f32(uint32(a[0]))
		o[0] = uint64(b32(sinpif(m, x)))
		o[1] = uint64(b32(cospif(m, x)))
		return 0
	})
}
