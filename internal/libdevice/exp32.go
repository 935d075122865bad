package libdevice

// Single-precision exponentials. expf and exp10f split x·log2(b) into an
// integer j (found with the 1.5·2^23 rounding trick, saturated so that 2^j
// stays representable) and a remainder formed with two fmas, then take the
// SFU's 2^remainder (ex2.approx.ftz) and scale by 2^j. Their accuracy is
// therefore that of ex2.approx.

// expScaled computes 2^(x·hi + x·lo) with the reduction libdevice uses for
// expf (c = 1/(128·ln2) step constant ck).
func (m mode) expScaled(x float32, ck, hi, lo uint32) float32 {
	t := m.fma(x, f32(ck), 0.5)
	t = satF32(t)
	j := m.fmaR(t, f32(0x437c0000), f32(0x4b400001), rm)
	jj := m.add(j, f32(0xcb40007f))
	r := m.fma(x, f32(hi), -jj)
	r = m.fma(x, f32(lo), r)
	scale := f32(b32(j) << 23)
	return m.mul(ex2Approx(r, true), scale)
}

// satF32 is cvt.sat.f32.f32: clamp to [0, 1], NaN to 0.
func satF32(x float32) float32 {
	switch {
	case !(x > 0):
		return 0
	case x > 1:
		return 1
	}
	return x
}

func expf(m mode, x float32) float32 {
	return m.expScaled(m.flush(x), 0x3bbb989d, 0x3fb8aa3b, 0x32a57060)
}

func exp10f(m mode, x float32) float32 {
	return m.expScaled(m.flush(x), 0x3c57fa62, 0x40549a78, 0x33979a37)
}

func exp2f(m mode, x float32) float32 { return ex2Approx(x, m.ftz) }

func expm1f(m mode, x float32) float32 {
	x = m.flush(x)
	j := f32rint(m.mul(x, f32(0x3fb8aa3b)))
	if f32(b32(x)&0x7fffffff) < f32(0x3ed1eb85) {
		j = 0
	}
	r := m.fma(-j, f32(0x3f317200), x)
	r = m.fma(-j, f32(0x35bfbe8e), r)
	top := j == 128
	if top {
		j = m.add(j, -1)
	}
	p := m.fma(f32(0x3ab5ebe6), r, f32(0x3c095663))
	p = m.fma(p, r, f32(0x3d2aabe3))
	p = m.fma(p, r, f32(0x3e2aa9f6))
	p = m.fma(p, r, f32(0x3efffffe))
	em1 := m.fma(m.mul(r, p), r, r)
	s := ex2Approx(j, m.ftz)
	y := m.fma(em1, s, m.add(s, -1))
	if top {
		y = m.add(y, y)
	}
	if j > 128 {
		y = f32(0x7f800000)
	}
	if j < -25 {
		y = -1
	}
	if x == 0 {
		y = m.add(x, x)
	}
	return y
}

// f32rint is cvt.rni.f32.f32.
func f32rint(x float32) float32 {
	if x != x {
		return f32(nanF32)
	}
	return float32(roundEven64(float64(x)))
}

func registerExp32() {
	regF1("__nv_expf", expf)
	regF1("__nv_exp10f", exp10f)
	regF1("__nv_exp2f", exp2f)
	regF1("__nv_expm1f", expm1f)
}
