package libdevice

// powf computes 2^(y·log2|x|) with log2|x| as an unevaluated sum hi+lo
// (u = 2(m-1)/(m+1) from the SFU reciprocal plus a correction, and a short
// polynomial in u²), y·log2|x| split again by fma, and a degree-6 2^f.
func powf(m mode, x, y float32) float32 {
	x, y = m.flush(x), m.flush(y)
	halfY := truncF32(m.mul(y, 0.5))
	oddTest := absF32(m, m.sub(y, m.add(halfY, halfY))) // 1 when y is an odd integer
	ax := absF32(m, x)
	s, sLo := m.log2DF(ax, true)
	t := m.mul(s, y)
	tLo := m.fma(sLo, y, m.fma(s, y, neg32(t)))
	n := f32rint(t)
	f := m.add(tLo, m.sub(t, n))
	r := m.exp2Split(n, f)
	if absF32(m, t) > 152 {
		r = f32(0x7f800000)
		if t < 0 {
			r = 0
		}
	}

	switch {
	case x == 1 || y == 0:
		return 1
	case x != x || y != y:
		return m.add(x, y)
	case x == 0 || ax == f32(0x7f800000) && absF32(m, x) == f32(0x7f800000):
		xx := b32(m.add(x, x))
		if y < 0 {
			xx ^= 0x7f800000
		}
		if oddTest != 1 {
			xx &= 0x7fffffff
		}
		return f32(xx)
	case x == -1 && absF32(m, y) == f32(0x7f800000):
		return 1
	case !(x < 0):
		return r
	}
	if oddTest == 1 {
		r = neg32(r)
	}
	if floorF32(y) != y {
		return f32(nanF32)
	}
	return r
}

// log2DF returns log2(ax) for positive ax as an unevaluated sum hi+lo, as
// powf forms it; tgammaf's copy leaves out the 3p·corr term (full false).
func (m mode) log2DF(ax float32, full bool) (float32, float32) {
	var e0 float32
	if ax < 0x1p-126 {
		ax = m.mul(ax, 16777216)
		e0 = -24
	}
	k := (b32(ax) - 0x3f3504f3) & 0xff800000
	mant := f32(b32(ax) - k)
	e := m.fma(float32(int32(k)), 0x1p-23, e0)
	mm1 := m.add(mant, -1)
	rcp := rcpApprox(m.add(mant, 1), true)
	u := m.mul(m.add(mm1, mm1), rcp)
	u2 := m.mul(u, u)
	d := m.sub(mm1, u)
	corr := m.mul(rcp, m.fma(neg32(u), mm1, m.add(d, d)))
	p := m.fma(f32(0x3a2c32e4), u2, f32(0x3b52e7db))
	p = m.fma(p, u2, f32(0x3c93bb73))
	p = m.fma(p, u2, f32(0x3df6384f))
	p = m.mul(p, u2)
	const log2e = 0x3fb8aa3b
	hi := m.fma(u, f32(log2e), e)
	lo := m.fma(u, f32(log2e), m.sub(e, hi))
	lo = m.fma(corr, f32(log2e), lo)
	lo = m.fma(u, f32(0x32a55e34), lo)
	if full {
		lo = m.fma(m.mul(p, 3), corr, lo)
	}
	lo = m.fma(p, u, lo)
	s := m.add(hi, lo)
	sLo := m.add(lo, neg32(m.add(s, neg32(hi))))
	return s, sLo
}

// exp2Split returns 2^(n+f) for integral n and |f| ≤ ~0.5 with a degree-6
// polynomial and an exponent scaling in two factors (powf, tgammaf).
func (m mode) exp2Split(n, f float32) float32 {
	q := m.fma(f32(0x391fcb8e), f, f32(0x3aaf85ed))
	q = m.fma(q, f, f32(0x3c1d9856))
	q = m.fma(q, f, f32(0x3d6357bb))
	q = m.fma(q, f, f32(0x3e75fdec))
	q = m.fma(q, f, f32(0x3f317218))
	q = m.fma(q, f, 1)
	ni := int32(n)
	var adj uint32 = 0x83000000
	if n > 0 {
		adj = 0
	}
	r := m.mul(m.mul(q, f32(adj+0x7f000000)), f32(uint32(ni)<<23-adj))
	return r
}

// floorF32 is cvt.rmi.f32.f32 on a non-NaN value.
func floorF32(x float32) float32 {
	if b32(x)&0x7fffffff >= 0x4b000000 {
		return x
	}
	t := truncF32(x)
	if t > x {
		t--
	}
	return t
}

// atan2f: atan of min/max (div.rn) by polynomial, then placed in its octant.
func atan2f(m mode, y, x float32) float32 {
	y, x = m.flush(y), m.flush(x)
	ax, ay := absF32(m, x), absF32(m, y)
	steep := ay > ax
	hi, lo := ax, ay
	if steep {
		hi, lo = ay, ax
	}
	q := m.div(lo, hi)
	q2 := m.mul(q, q)
	p := m.fma(f32(0x3b33710b), q2, f32(0xbc807748))
	p = m.fma(p, q2, f32(0x3d2cdab2))
	p = m.fma(p, q2, f32(0xbd992d10))
	p = m.fma(p, q2, f32(0x3dd9ea6c))
	p = m.fma(p, q2, f32(0xbe117cb1))
	p = m.fma(p, q2, f32(0x3e4cbce0))
	p = m.fma(p, q2, f32(0xbeaaaa7d))
	t := m.fma(m.mul(q2, p), q, q)
	xneg := int32(b32(x)) < 0
	switch {
	case steep && xneg:
		t = m.fma(f32(0x3f6ee581), f32(0x3fd774eb), t)
	case steep:
		t = m.fma(f32(0x3f6ee581), f32(0x3fd774eb), neg32(t))
	case xneg:
		t = m.fma(f32(0x3feee581), f32(0x3fd774eb), neg32(t))
	}
	if ax == ay {
		t = f32(0x3f490fdb)
		if xneg {
			t = f32(0x4016cbe4)
		}
	}
	if hi == 0 {
		t = 0
		if xneg {
			t = f32(0x40490fdb)
		}
	}
	if s := m.add(ax, ay); s != s {
		return s
	}
	return copysign32(t, y)
}

func registerPow32() {
	regF2("__nv_powf", powf)
	regF2("__nv_atan2f", atan2f)
}
