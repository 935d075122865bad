package libdevice

import "math"

// Inverse hyperbolic functions on log1p's code.

const ln2F64 = 0x3fe62e42fefa39ef

func asinh64(x float64) float64 {
	a := math.Abs(x)
	h := math.FMA(x, x, 1)
	y := f64(rsqrtApproxFtz64(b64(h)))
	e := math.FMA(h, -(y * y), 1)
	y = math.FMA(math.FMA(0.375, e, 0.5), e*y, y)
	t := math.FMA(a, a*rcpNewton64(math.FMA(h, y, 1)), a)
	big := uint32(b64(a)>>32) > 0x43dfffff
	if big {
		t = a
	}
	r := log1p64(t)
	if big {
		r += f64(ln2F64)
	}
	if x != x {
		r = quiet(x)
	}
	return math.Copysign(r, x)
}

func acosh64(x float64) float64 {
	xm1 := x - 1
	hi := uint32(b64(xm1) >> 32)
	h := math.FMA(x, x, -1)
	y := f64(rsqrtApproxFtz64(b64(h)))
	yh := f64(b64(y) - 0x0010000000000000)
	s := h * y
	s = math.FMA(math.FMA(s, -s, h), yh, s)
	y2 := math.FMA(math.FMA(y, -s, 1), yh, yh)
	s = math.FMA(math.FMA(s, -s, h), y2, s)
	if hi == 0 {
		s = 0
	}
	big := hi > 0x432fffff
	if big {
		s = f64(0xbff0000000000001)
	}
	r := log1p64(xm1 + s)
	if big {
		r += f64(ln2F64)
	}
	if x != x {
		return quiet(x)
	}
	return r
}

func atanh64(x float64) float64 {
	a := math.Abs(x)
	r := log1p64((a + a) / (1 - a))
	if x != x {
		r = quiet(x)
	}
	return math.Copysign(r*0.5, x)
}

func registerAhyp64() {
	regD1("__nv_asinh", asinh64)
	regD1("__nv_acosh", acosh64)
	regD1("__nv_atanh", atanh64)
}
