package libdevice

import "math"

var erfCoef64 = [...]uint64{0xbcf0679afba6f279, 0x3d47088fdb46fa5f, 0xbd8df9f9b976a9b2, 0x3dc7f1f5590cc332,
	0xbdfa28a3cd2d56c4, 0x3e2485ee67835925, 0xbe476db45919f583, 0x3e62d698d98c8d71, 0xbe720a2c7155d5c6,
	0xbe41d29b37ca1397, 0x3ea2ef6cc0f67a49, 0xbec102b892333b6f, 0x3eca30375ba9a84e, 0x3ecaad18dedea43e,
	0xbeff05355bc5b225, 0x3f10e37a3108bc8b, 0x3efb292d828e5cb2, 0xbf4356626ebf9bfa, 0x3f5bca68f73d6afc,
	0xbf2b6b69ebbc280b, 0xbf9396685912a453, 0x3fba4f4e2a1abef8, 0x3fe45f306dc9c8bb, 0x3fc06eba8214db69}

// erf64 is 1 - 2^(-|x|·(1+P(|x|))·log2 e) with the exponent in double-double
// and 2^n from the SFU (exact for the integers it gets).
func erf64(x float64) float64 {
	a := math.Abs(x)
	p := horner64(erfCoef64[:], a)
	h := math.FMA(p, a, a)
	l := math.FMA(p, a, a-h)
	n := f32rint(ieee.mul(float32(h), f32(0xbfb8aa3b)))
	r := math.FMA(-float64(n), f64(0x3fe62e42fefa39ef), -h)
	q := r * horner64(tanhExpCoef64[:], r)
	em1 := r + math.FMA(q, r, -l)
	s := float64(ex2Approx(n, true))
	v := math.FMA(-em1, s, 1-s)
	if a >= f64(0x4017afb48dc96626) {
		v = 1
	}
	if x != x { // the NaN passes through the f32 conversion and the SFU
		v = f64(0x7fffffffe0000000)
	}
	return math.Copysign(v, x)
}

func cbrt64(x float64) float64 {
	xb := b64(x)
	lo, hi := uint32(xb), uint32(xb>>32)&0x7fffffff
	e := int32(hi >> 20)
	adj := int32(0)
	if e == 0 {
		t := b64(f64(uint64(hi)<<32|uint64(lo)) * 0x1p54)
		lo, hi = uint32(t), uint32(t>>32)
		e = int32(hi >> 20)
		adj = 18
	}
	k := int32(f32roundEven(ieee.mul(float32(e-1022), f32(0x3eaaaaab))))
	v := f64(uint64(uint32(int32(hi)-k*3145728))<<32 | uint64(lo))
	y := float64(ex2Approx(ieee.mul(lg2Approx(float32(v), true), f32(0x3eaaaaab)), true))
	y2 := y * y
	d := math.FMA(f64(b64(y2)+0x0010000000000000), y, v)
	y = math.FMA(y, rcpNewton64(d)*math.FMA(y2, -y, v), y)
	r := math.Copysign(f64(b64(y)+uint64(uint32(k-adj)<<20)<<32), x)
	if xx := x + x; xx == x || xx != xx {
		if x != x {
			return quiet(x)
		}
		return xx
	}
	return r
}

func hypot64(x, y float64) float64 {
	ax, ay := b64(x)&^(1<<63), b64(y)&^(1<<63)
	lo, hi := f64(min(ax, ay)), f64(max(ax, ay))
	if x != x || y != y {
		// An infinity wins; otherwise the NaN operand, quieted. With two
		// NaNs, the smaller as unsigned bits (the compiled code orders the
		// operands by their bits after a DADD-based fabs, which quiets a NaN
		// but keeps its sign, and returns the smaller when it is not finite).
		switch {
		case math.IsInf(x, 0) || math.IsInf(y, 0):
			return math.Inf(1)
		case x != x && y != y:
			return f64(min(b64(quiet(x)), b64(quiet(y))))
		case x != x:
			return quiet(x)
		}
		return quiet(y)
	}
	e := uint32(b64(hi)>>32) & 0xffc00000
	scale := f64(uint64(0x7fd00000-e) << 32)
	a, b := scale*lo, scale*hi
	s := math.FMA(b, b, a*a)
	sm := math.Min(s, math.MaxFloat64)
	g := f64(rsqrtApproxFtz64(b64(sm)))
	c := math.FMA(sm, -(g * g), 1)
	g = math.FMA(math.FMA(0.375, c, 0.5), c*g, g)
	r := s * g * f64(uint64(e|0x00100000)<<32)
	if lo == 0 {
		r = hi
	}
	if uint32(b64(lo)>>32) >= 0x7ff00000 {
		r = lo
	}
	return r
}

func registerErf64A() {
	regD1("__nv_erf", erf64)
	regD1("__nv_cbrt", cbrt64)
	regD2("__nv_hypot", hypot64)
}

var erfcCoef64 = [...]uint64{0xbdf8774ad4e0bfd7, 0xbe44e1c6fd03d328, 0xbe4330149f7a56b6, 0x3e7beddED8376273,
	0x3e6f9254c3abf22b, 0xbeab9068c2148cf0, 0x3e94c6454db34009, 0x3ed7f1c378f2311d, 0xbee78e051c6d5c58,
	0xbef995b4ead14a90, 0x3f23be27cf0a29b2, 0xbf2a1def3e81672e, 0xbf48d4abe68c1713, 0x3f749c67210dd6b4,
	0xbf9096238568e357, 0x3fa3079edf8c2dc9, 0xbfb0fb06dff601fc, 0x3fb7fee004dfbcdc, 0xbfb9ddb23c3db8c6,
	0x3fb16ecefcfa5fda, 0x3f8f7f5df66fb6d6, 0xbfc1df1ad154a29d, 0x3ff3ba5916e9fd7f}

// erfc64 is P(t)/(1+2a)·e^(-a²) with t = (a-4)/(a+4), e^(-a²) from exp's
// code with an fma correction for the rounding of a², and 2 - that for x < 0.
func erfc64(x float64) float64 {
	xb := b64(x)
	hi := uint32(xb>>32) & 0x7fffffff
	if hi >= 0x7ff00000 {
		if hi == 0x7ff00000 && uint32(xb) == 0 {
			if int64(xb) < 0 {
				return 2
			}
			return 0
		}
		return quiet(x)
	}
	a := f64(uint64(hi)<<32 | xb&0xffffffff)
	v := erfcxCore64(a) * expNegSquare64(a)
	if hi > 0x403b4000 {
		v = 0
	}
	if int64(xb) < 0 {
		return 2 - v
	}
	return v
}

func registerErf64B() { regD1("__nv_erfc", erfc64) }

// erfcxCore64 is e^(a²)·erfc(a) for finite a ≥ 0 (accurate below ~27).
func erfcxCore64(a float64) float64 {
	r4 := rcpNewton64(a + 4)
	q := (a - 4) * r4
	e := math.FMA(-4, q+1, a)
	e = math.FMA(-q, a, e)
	t := math.FMA(r4, e, q)
	p := horner64(erfcCoef64[:], t)
	rd := rcpNewton64(math.FMA(2, a, 1))
	y := p * rd
	d := math.FMA(a, y*-2, p) + -y
	return math.FMA(d, rd, y)
}

// expNegSquare64 is e^(-a²) with an fma correction for the rounding of a².
func expNegSquare64(a float64) float64 {
	a2 := a * a
	na2 := -a2
	k := math.FMA(na2, f64(0x3ff71547652b82fe), f64(twoP52x15))
	j := int32(uint32(b64(k)))
	kk := k + f64(0xc338000000000000)
	r := math.FMA(kk, f64(0xbfe62e42fefa39ef), na2)
	r = math.FMA(kk, f64(0xbc7abc9e3b39803f), r)
	ep := math.FMA(horner64(expCoef[:], r), r, 1)
	half := j / 2
	ex := f64(b64(ep)+uint64(uint32(half)<<20)<<32) * f64(uint64(uint32(j-half)<<20+0x3ff00000)<<32)
	return math.FMA(ex, math.FMA(-a, a, a2), ex)
}

func normcdf64(x float64) float64 {
	c := x
	if math.Abs(x) > 38.5 {
		c = math.Copysign(38.5, x)
	}
	const k, kl = 0xbfe6a09e667f3bcd, 0x3c8bdd3413b26456
	h := c * f64(k)
	l := math.FMA(c, f64(kl), math.FMA(c, f64(k), -h))
	t := h + l
	r := erfc64(t)
	if uint32(b64(c)>>32) >= 0xbff00001 {
		d := (h - t) + l
		r = math.FMA(t*-2*r, d, r)
	}
	return r * 0.5
}

func erfcx64(x float64) float64 {
	var r float64
	if hiAbsF32(x) < 3 {
		r = erfcxCore64(math.Abs(x))
	} else {
		y := f64(fix64(scalarRcpRN64(b64(x)), b64(x)))
		y2 := y * y
		p := math.FMA(f64(0xc03d880000000000), y2, f64(0x401a400000000000))
		p = math.FMA(p, y2, f64(0xbffe000000000000))
		p = math.FMA(p, y2, 0.75)
		p = math.FMA(p, y2, -0.5)
		p = math.FMA(p, y2, 1)
		r = y * f64(0x3fe20dd750429b6d) * p
	}
	if int64(b64(x)) >= 0 || x != x {
		if x != x {
			return quiet(x)
		}
		return r
	}
	x2 := x * x
	e := exp64(x2)
	e2 := e + e
	v := math.FMA(e2, math.FMA(x, x, -x2), e2) - r
	if e2 == math.Inf(1) {
		return e2
	}
	return v
}

func registerErf64C() {
	regD1("__nv_normcdf", normcdf64)
	regD1("__nv_erfcx", erfcx64)
}
