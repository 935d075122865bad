package libdevice

// fmodf: for quotients below 2^23 one approximate division, truncated and
// corrected by at most two steps; beyond, long division on the significands,
// 23 bits at a time, with the SFU reciprocal refined by fma.
func fmodf(m mode, x, y float32) float32 {
	x, y = m.flush(x), m.flush(y)
	ay := absF32(m, y)
	r := absF32(m, x)
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
			r = m.fma(nay, q, r)
		} else {
			r = m.fmodLong(r, lim, ay)
		}
	}
	if absF32(m, r) != absF32(m, r) {
		return r
	}
	return copysign32(r, x)
}

// fmodLong reduces r (≥ 2^23·|y|, or Inf/NaN) modulo |y| = ay; lim = ay·2^23.
func (m mode) fmodLong(r, lim, ay float32) float32 {
	rb, lb := b32(r), b32(lim)
	cur := rb&0x7fffff | 0x3f800000
	diff := (rb - (lb-0x0b800000)&0xff800000) & 0xff800000
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
			cur = b32(m.fma(nmy, truncF32(q), v))
			diff -= step
			if diff == 0 || cur == 0 {
				break
			}
		}
	}
	scale := f32(lb & 0xff800000)
	if rb > 0x7f7fffff || !(ay > 0) {
		scale = f32(nanF32)
	}
	return m.mul(scale, m.mul(f32(cur), 0x1p-23))
}

func init() {
	regF2("__nv_fmodf", fmodf)
}
