package libdevice

// fmodf: for quotients below 2^23 one approximate division, truncated and
// corrected by at most two steps; beyond, long division on the significands,
// 23 bits at a time, with the SFU reciprocal refined by fma.
func fmodf(m mode, x, y float32) float32 {
	x, y = m.flush(x), m.flush(y)
	r, _ := m.fmodCore(x, y)
	if absF32(m, r) != absF32(m, r) {
		return r
	}
	return copysign32(r, x)
}

// fmodCore returns |x| mod |y| and the low bits of the quotient.
func (m mode) fmodCore(x, y float32) (float32, uint32) {
	ay := absF32(m, y)
	r := absF32(m, x)
	var quo uint32
	if !(r < ay) {
		lim := m.mul(ay, 0x1p23)
		if !(r > lim) && r == r {
			q := truncF32(divApprox(r, ay, m.ftz))
			nay := neg32(ay)
			d := m.fma(nay, q, r)
			switch {
			case b32(d) < b32(ay):
			case b32(d) > 0x80000000:
				q1 := m.add(q, -1)
				q = q1
				if d < nay {
					q = m.add(q1, -1)
				}
			default:
				q = m.add(q, 1)
				if d >= m.add(ay, ay) {
					q = m.add(q, 1)
					if m.fma(-3, ay, d) >= 0 {
						q = m.add(q, 1)
					}
				}
			}
			quo = cvtRziU32(q)
			r = m.fma(nay, q, r)
		} else {
			r, quo = m.fmodLong(r, lim, ay)
		}
	}
	return r, quo
}

// cvtRziU32 is cvt.rzi.u32.f32: saturating, NaN to 0.
func cvtRziU32(x float32) uint32 {
	switch {
	case !(x > 0):
		return 0
	case x >= 4294967296:
		return 0xffffffff
	}
	return uint32(x)
}

// fmodLong reduces r (≥ 2^23·|y|, or Inf/NaN) modulo |y| = ay; lim = ay·2^23.
func (m mode) fmodLong(r, lim, ay float32) (float32, uint32) {
	rb, lb := b32(r), b32(lim)
	cur := rb&0x7fffff | 0x3f800000
	diff := (rb - (lb-0x0b800000)&0xff800000) & 0xff800000
	var quo uint32
	if diff != 0 {
		my := f32(lb&0x7fffff | 0x3f800000)
		rc := rcpApprox(my, true)
		nmy := neg32(my)
		for {
			step := min(diff, 0x0b800000)
			v := f32(step + cur)
			q := m.fma(v, rc, f32(0x80000000))
			e := m.fma(nmy, q, v)
			q = m.fma(e, rc, q)
			e = m.fma(nmy, q, v)
			q = m.fmaR(e, rc, q, rz)
			tq := truncF32(q)
			cur = b32(m.fma(nmy, tq, v))
			quo = quo<<(step>>23) + cvtRziU32(tq)
			diff -= step
			if diff == 0 || cur == 0 {
				break
			}
		}
	}
	if diff < 0x02000000 {
		quo <<= diff >> 23
	} else {
		quo <<= 3
	}
	scale := f32(lb & 0xff800000)
	if rb > 0x7f7fffff || !(ay > 0) {
		scale = f32(nanF32)
	}
	return m.mul(scale, m.mul(f32(cur), 0x1p-23)), quo
}

// remquof returns x - n·y for n = x/y rounded to nearest even, and n's low
// three bits with the quotient's sign.
func remquof(m mode, x, y float32) (float32, int32) {
	x, y = m.flush(x), m.flush(y)
	r, quo := m.fmodCore(x, y)
	ay := absF32(m, y)
	if d := m.add(r, r); d > ay || d == ay && quo&1 == 1 {
		quo++
		r = m.sub(r, ay)
	}
	if int32(b32(x)) < 0 && absF32(m, r) <= f32(0x7f800000) {
		r = neg32(r)
	}
	neg := int32(b32(x)^b32(y)) >> 31
	q := (int32(quo&7) ^ neg) - neg
	if absF32(m, r) != absF32(m, r) {
		q = 0
	}
	return r, q
}

func registerFmod32() {
	regF2("__nv_fmodf", fmodf)
	regF2("__nv_remainderf", func(m mode, x, y float32) float32 {
		r, _ := remquof(m, x, y)
		return r
	})
	regOut("__nv_remquof", "ff", "f", "i", func(m mode, a, o []uint64) uint64 {
		r, q := remquof(m, f32(uint32(a[0])), f32(uint32(a[1])))
		o[0] = uint64(uint32(q))
		return uint64(b32(r))
	})
}
