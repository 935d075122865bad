package libdevice

import "math"

// Single-precision sine, cosine and tangent. The argument is reduced by
// k = rint(x·2/π) and a three-part Cody–Waite π/2 for |x| < 105615, and by
// Payne–Hanek (x's mantissa times 192 bits of 2/π, in 32-bit limbs) beyond.

// twoOverPiBits are 192 bits of 2/π, least significant limb first.
var twoOverPiBits = [6]uint32{0x3c439041, 0xdb629599, 0xf534ddc0, 0xfc2757d1, 0x4e441529, 0xa2f9836e}

// trigReduce returns r = x - q·π/2 (|r| ≤ ~π/4) and the quadrant q.
func (m mode) trigReduce(x float32) (float32, int32) {
	q := int32(f32roundEven(m.mul(x, f32(0x3f22f983))))
	fq := float32(q)
	r := m.fma(fq, f32(0xbfc90fda), x)
	r = m.fma(fq, f32(0xb3a22168), r)
	r = m.fma(fq, f32(0xa7c234c5), r)
	ax := f32(b32(x) & 0x7fffffff)
	if !(ax >= f32(0x47ce4780)) { // also NaN
		return r, q
	}
	if ax == f32(0x7f800000) {
		return m.mul(x, 0), 0
	}
	ix := b32(x)
	e := int32(ix>>23&0xff) - 128
	mant := ix<<8 | 0x80000000
	var limbs [7]uint32
	var carry uint64
	for i, c := range twoOverPiBits {
		p := uint64(c)*uint64(mant) + carry
		limbs[i] = uint32(p)
		carry = p >> 32
	}
	limbs[6] = uint32(carry)
	idx := e >> 5
	hi, lo := limbs[6-idx], limbs[5-idx]
	if s := uint32(e & 31); s != 0 {
		hi = lo>>(32-s) + hi<<s
		lo = limbs[4-idx]>>(32-s) + lo<<s
	}
	neg := ix & 0x80000000
	frac := hi<<2 | lo>>30
	round := frac >> 31
	quad := int32(round + hi>>30)
	if neg != 0 {
		quad = -quad
	}
	if round != 0 {
		neg ^= 0x80000000
		frac = ^frac
		lo = ^(lo << 2)
	} else {
		lo <<= 2
	}
	v := int64(uint64(frac)<<32 | uint64(lo))
	rr := float32(float64(v) * f64(0x3bf921fb54442d19))
	if neg != 0 {
		rr = -rr
	}
	return rr, quad
}

// f32roundEven is cvt.rni.s32.f32 on an in-range value (NaN gives 0).
func f32roundEven(x float32) float32 {
	if x != x {
		return 0
	}
	v := math.RoundToEven(float64(x))
	return float32(max(min(v, 2147483647), -2147483648))
}

// sinCosPoly evaluates sin(r) (q even) or cos(r) (q odd), then applies the
// sign of quadrant q.
func (m mode) sinCosPoly(r float32, q int32) float32 {
	r2 := m.mul(r, r)
	var y, p float32
	if q&1 == 0 {
		y = r
		p = f32(0xb94d4153)
		p = m.fma(p, r2, f32(0x3c0885e4))
		p = m.fma(p, r2, f32(0xbe2aaaa8))
	} else {
		y = 1
		p = m.fma(f32(0x37cbac00), r2, f32(0xbab607ed))
		p = m.fma(p, r2, f32(0x3d2aaabb))
		p = m.fma(p, r2, f32(0xbeffffff))
	}
	s := m.fma(p, m.fma(r2, y, 0), y)
	if q&2 != 0 {
		s = m.fma(s, -1, 0)
	}
	return s
}

func sinf(m mode, x float32) float32 {
	x = m.flush(x)
	r, q := m.trigReduce(x)
	return m.sinCosPoly(r, q)
}

func cosf(m mode, x float32) float32 {
	x = m.flush(x)
	r, q := m.trigReduce(x)
	return m.sinCosPoly(r, q+1)
}

func tanf(m mode, x float32) float32 {
	x = m.flush(x)
	r, q := m.trigReduce(x)
	r2 := m.mul(r, r)
	p := m.fma(f32(0x3c190000), r2, f32(0x3b560000))
	p = m.fma(p, r2, f32(0x3cc70000))
	p = m.fma(p, r2, f32(0x3d5b0000))
	p = m.fma(p, r2, f32(0x3e089438))
	p = m.fma(p, r2, f32(0x3eaaaa88))
	t := m.fma(p, m.mul(r2, r), r)
	if f32(b32(r)&0x7fffffff) == f32(0x3a00b43c) {
		t = r
	}
	if q&1 != 0 {
		return rcpApprox(-t, true)
	}
	return t
}

func registerTrig32() {
	regF1("__nv_sinf", sinf)
	regF1("__nv_cosf", cosf)
	regF1("__nv_tanf", tanf)
	regOut("__nv_sincosf", "f", "", "ff", func(m mode, a, o []uint64) uint64 {
		x := f32(uint32(a[0]))
		o[0] = uint64(b32(sinf(m, x)))
		o[1] = uint64(b32(cosf(m, x)))
		return 0
	})
}
