package libdevice

import "math"

var sinhCoef64 = [...]uint64{0x3d6b4c75ab274c53, 0x3de611a561d87def, 0x3e5ae64671b18f5c, 0x3ec71de3a465b1e4,
	0x3f2a01a01a02899d, 0x3f811111111110a6, 0x3fc5555555555556}

func sinh64(x float64) float64 {
	a := math.Abs(x)
	if x != x {
		return quiet(x)
	}
	var r float64
	if uint32(b64(a)>>32) < 0x3ff00000 {
		a2 := a * a
		r = math.FMA(a2*horner64(sinhCoef64[:], a2), a, a)
	} else {
		t := math.FMA(a, f64(0x3ff71547652b82fe), f64(twoP52x15))
		j := int32(uint32(b64(t))) - 1
		k := t + f64(0xc338000000000000)
		rr := math.FMA(k, f64(0xbfe62e42fefa39ef), a)
		rr = math.FMA(k, f64(0xbc7abc9e3b39803f), rr)
		hi2 := uint32(b64(a)>>32) << 1
		if hi2 < 0x7fb3e647 {
			rr, j = a, 0
		}
		q := math.FMA(rr*horner64(expm1Coef[:], rr), rr, rr)
		top := j == 1024
		if top {
			j--
		}
		s := f64(uint64(uint32(j)<<20+0x3ff00000) << 32)
		y := math.FMA(q, s, s-0.5)
		if top {
			y += y
		}
		if hi2 == 0 {
			y = rr
		}
		r = y + y/math.FMA(2, y, 1)
		if a >= f64(0x408633ce8fb9f87e) {
			r = math.Inf(1)
		}
	}
	return math.Copysign(r, x)
}

func cosh64(x float64) float64 {
	a := math.Abs(x)
	var r float64
	if uint32(b64(a)>>32) < 0x408633cf {
		t := math.FMA(a, f64(0x3ff71547652b82fe), f64(twoP52x15))
		j := uint32(b64(t))
		k := t + f64(0xc338000000000000)
		rr := math.FMA(k, f64(0xbfe62e42fefa39ef), a)
		rr = math.FMA(k, f64(0xbc7abc9e3b39803f), rr)
		p := math.FMA(horner64(expCoef[:], rr), rr, 1)
		pb := b64(p)
		e := f64(pb&0xffffffff | uint64(j<<20+uint32(pb>>32)-0x00200000)<<32)
		r = math.FMA(rcpNewton64(e), f64(0x3fb0000000000000), e)
	} else {
		if x != x {
			return quiet(x)
		}
		r = math.Inf(1)
	}
	return r + r
}

var (
	tanhCoef64 = [...]uint64{0xbef0bc46e2f5e964, 0x3f14359f420afc3d, 0xbf2df9f0728c5d84, 0x3f4337d1cec4f033,
		0xbf57d6e9674335b3, 0x3f6d6d000d7aad3d, 0xbf8226e1f3cf1ef5, 0x3f9664f47ec0c8cf, 0xbfaba1ba1b80ab40,
		0x3fc111111110fa4a, 0xbfd5555555555550, 0}
	tanhExpCoef64 = [...]uint64{0x3e5ae904a4741b81, 0x3e928a27f89b6999, 0x3ec71de715ff7e07, 0x3efa019a6b0ac45a,
		0x3f2a01a017eed94f, 0x3f56c16c17f2a71b, 0x3f811111111173c4, 0x3fa555555555211a, 0x3fc5555555555540,
		0x3fe0000000000005}
)

func tanh64(x float64) float64 {
	a := math.Abs(x)
	if !(a >= f64(0x3fe4f92224dd2f1a)) {
		if x != x {
			return quiet(x)
		}
		x2 := x * x
		return math.FMA(horner64(tanhCoef64[:], x2), x, x)
	}
	d := a + a
	n := f32rint(ieee.mul(float32(d), f32(0x3fb8aa3b)))
	r := math.FMA(-float64(n), f64(0x3fe62e42fefa39ef), d)
	q := math.FMA(r*horner64(tanhExpCoef64[:], r), r, r)
	s := float64(ex2Approx(n, true))
	den := 2 - math.FMA(-q, s, 1-s)
	v := math.FMA(2, -rcpNewton64(den), 1)
	if uint32(b64(a)>>32) > 0x40330fc1 {
		v = 1
	}
	return math.Copysign(v, x)
}

func registerHyp64() {
	regD1("__nv_sinh", sinh64)
	regD1("__nv_cosh", cosh64)
	regD1("__nv_tanh", tanh64)
}
