package libdevice

import "math"

var tanCoef64 = [...]uint64{0x3ee48dac2799bcb9, 0xbef9757c5b27ebb1, 0x3f0980e90fd91e04, 0xbefae2b0417d7e1d,
	0x3f119f5341bfba57, 0x3f15e791a00f6919, 0x3f2ff2e7fadec73a, 0x3f434bc1b206da62, 0x3f57db18ef2f83f9,
	0x3f6d6d2e7ae49fbc, 0x3f8226e3a816a776, 0x3f9664f485d25660, 0x3faba1ba1babf31d, 0x3fc11111111105d2,
	0x3fd555555555555e}

// rcpNewton64 refines the SFU reciprocal of y as libdevice does everywhere:
// e = 1 - y·r; r += r·(e + e²).
func rcpNewton64(y float64) float64 {
	r := rcp64(y)
	e := math.FMA(-y, r, 1)
	return math.FMA(math.FMA(e, e, e), r, r)
}

func tan64(x float64) float64 {
	r, q := trigReduce64(x)
	r2 := r * r
	p := r2 * horner64(tanCoef64[:], r2)
	t := math.FMA(p, r, r)
	if q&1 == 0 {
		return t
	}
	lo := math.FMA(p, r, -(t - r))
	ny := -rcpNewton64(t)
	e := math.FMA(ny, lo, math.FMA(t, ny, 1))
	return math.FMA(e, ny, ny)
}

var atanCoef64 = [...]uint64{0xbef53e1d2a25ff7e, 0x3f2d3b63dbb65b49, 0xbf5312788dde082e, 0x3f6f9690c8249315,
	0xbf82cf5aabc7cf0d, 0x3f9162b0b2a3bfde, 0xbf9a7256feb6fc6b, 0x3fa171560ce4a489, 0xbfa4f44d841450e4,
	0x3fa7ee3d3f36bb95, 0xbfaad32ae04a9fd1, 0x3fae17813d66954f, 0xbfb11089ca9a5bcd, 0x3fb3b12b2db51738,
	0xbfb745d022f8dc5c, 0x3fbc71c709dfe927, 0xbfc2492491fa1744, 0x3fc99999999840d2, 0xbfd555555555544c}

// atanPoly is atan(t) for 0 ≤ t ≤ 1.
func atanPoly(t float64) float64 {
	t2 := t * t
	return math.FMA(t2*horner64(atanCoef64[:], t2), t, t)
}

func atan64(x float64) float64 {
	a := math.Abs(x)
	t := a
	if a > 1 {
		t = rcpNewton64(a)
		if a == math.Inf(1) {
			t = 0
		}
	}
	r := atanPoly(t)
	if x != x {
		return quiet(x)
	}
	if a > 1 {
		r = f64(0x3ff921fb54442d18) - r
	}
	return math.Copysign(r, x)
}

func registerAtrig64A() {
	regD1("__nv_tan", tan64)
	regD1("__nv_atan", atan64)
}

func atan2_64(y, x float64) float64 {
	ax, ay := math.Abs(x), math.Abs(y)
	steep := ay > ax
	hi, lo := ax, ay
	if steep {
		hi, lo = ay, ax
	}
	xneg := int64(b64(x)) < 0
	var r float64
	if hi == 0 {
		if xneg {
			r = f64(0x400921fb54442d18)
		}
	} else {
		t := atanPoly(lo / hi)
		switch {
		case steep && xneg:
			r = t + f64(0x3ff921fb54442d18)
		case steep:
			r = -t + f64(0x3ff921fb54442d18)
		case xneg:
			r = f64(0x400921fb54442d18) - t
		default:
			r = t
		}
		if ax == ay {
			r = f64(0x3fe921fb54442d18)
			if xneg {
				r = f64(0x4002d97c7f3321d2)
			}
		}
	}
	if y != y {
		return quiet(y)
	}
	if x != x {
		return quiet(x)
	}
	return math.Copysign(r, y)
}

var asinCoef64 = [...]uint64{0x3fb0066bdc1895e9, 0xbfb3823b180754af, 0x3fb11e52cc2f79ae, 0xbf924eaf3526861b,
	0x3f91df02a31e6cb7, 0x3f847d18b0eec6cc, 0x3f8d0af961ba53b0, 0x3f91bf7734cf1c48, 0x3f96e91483144ef7,
	0x3f9f1c6e0a4f9f81, 0x3fa6db6dc27fa92b, 0x3fb333333320f91b, 0x3fc5555555555f4d}

// sqrtHalf64 is sqrt(h) as asin and acos form it from the SFU's 1/sqrt
// estimate with two fma corrections (NaN for negative h, h itself for 0).
func sqrtHalf64(h float64) float64 {
	y := f64(rsqrtApproxFtz64(b64(h)))
	yh := f64(b64(y) - 0x0010000000000000)
	s := h * y
	s = math.FMA(math.FMA(s, -s, h), yh, s)
	y2 := math.FMA(math.FMA(y, -s, 1), yh, yh)
	s = math.FMA(math.FMA(s, -s, h), y2, s)
	if int64(b64(h)) < 0 {
		s = f64(nanF64)
	}
	if h == 0 {
		s = h
	}
	return s
}

func asin64(x float64) float64 {
	if hiAbsF32(x) < f32(0x3fe26666) {
		x2 := x * x
		return math.FMA(x2*horner64(asinCoef64[:], x2), x, x)
	}
	h := math.FMA(-0.5, math.Abs(x), 0.5)
	s := sqrtHalf64(h)
	p := h * horner64(asinCoef64[:], h)
	m2 := s * -2
	c := math.FMA(m2, p, f64(0x3c91a62633145c07))
	r := m2 + f64(0x3fe921fb54442d18)
	r = r + c
	r = r + f64(0x3fe921fb54442d18)
	if x != x {
		r = quiet(x)
	}
	return math.Copysign(r, x)
}

// hiAbsF32 is |high word of x| read as an f32 (NaN compares false).
func hiAbsF32(x float64) float32 { return f32(uint32(b64(x)>>32) & 0x7fffffff) }

func registerAtrig64B() {
	regD2("__nv_atan2", atan2_64)
	regD1("__nv_asin", asin64)
}

var acosCoef64 = [...]uint64{0x3ec715b371155f70, 0xbebac2fe66faac4b, 0x3ed9a9b88efcd9b8, 0x3edd0f40a8a0c4c3,
	0x3ef46d4cfa9e0e1f, 0x3f079c168d1e2422, 0x3f1c9a88c3bca540, 0x3f31c4e64bd476df, 0x3f46e8ba60009c8f,
	0x3f5f1c71c62b05a2, 0x3f76db6db6dc9f2c, 0x3f9333333333329c, 0x3fb5555555555555}

func acos64(x float64) float64 {
	a := math.Abs(x)
	xneg := int64(b64(x)) < 0
	if int32(b64(a)>>32) < 0x3fe26666 {
		x2 := a * a
		t := math.FMA(x2*horner64(asinCoef64[:], x2), a, a)
		if xneg {
			return f64(0x3ff921fb54442d18) + (t + f64(0x3c91a62633145c07))
		}
		return f64(0x3ff921fb54442d18) + -(t + f64(0xbc91a62633145c07))
	}
	if x != x {
		return quiet(x)
	}
	d := 1 - a
	dhi := int32(b64(d) >> 32)
	var r float64
	if dhi < 1 {
		r = a * 0
	} else {
		dh := f64(b64(d) - 0x0010000000000000)
		y := f64(rsqrtApproxFtz64(b64(dh)))
		yh := f64(b64(y) - 0x0010000000000000)
		s := dh * y
		s = math.FMA(math.FMA(s, -s, dh), yh, s)
		e3 := math.FMA(s, -s, dh)
		y2 := math.FMA(math.FMA(y, -s, 1), yh, yh)
		s = math.FMA(e3, y2, s)
		s2 := f64(b64(s) + 0x0010000000000000)
		r = math.FMA(d*horner64(acosCoef64[:], d), s2, s2)
	}
	if dhi < 0 {
		r = mul64(r, math.Inf(1))
	}
	if xneg {
		if r != r { // the SASS folds the negation into the add, which passes NaN through
			return quiet(r)
		}
		r = f64(0x400921fb54442d18) + -(r + f64(0xbca1a62633145c07))
	}
	return r
}

func registerAtrig64C() { regD1("__nv_acos", acos64) }
