package libdevice

import "math"

var (
	erfinvLogCoef64 = [...]uint64{0x3fb5c5c218c775c9, 0x3fa55cf59cdc5d89, 0x3faefd18cf6ebb9c, 0x3fb10682edcb8d1b,
		0x3fb3b1dd3ac7fc96, 0x3fb745cb459b54a6, 0x3fbc71c741a0669f, 0x3fc249249209112e, 0x3fc99999999a06c1,
		0x3fd5555555555535}
	erfinvCentral64 = [...]uint64{0xbbb135d2e746e627, 0xbc08ddf93324d327, 0x3c37b83eef0b7c9f, 0x3c69ba72cd589b91,
		0xbca33689090a6b96, 0x3c782e11898132e0, 0x3cfde4acfd9e26ba, 0xbd26d33eed66c487, 0xbd36f2167040d8e2,
		0x3d872a22c2d77e20, 0xbdac8859c4e5c0af, 0xbdcdc583d118a561, 0x3e120f47ccf46b3c, 0xbe31a9e38dc84d60,
		0xbe5f36cd6d3d46a9, 0x3e9c6b4f5d03b787, 0xbeb6e8a5434ae8a2, 0xbeed1d1f7b8736f6, 0x3f2879c2a212f024,
		0xbf4845769484fca8, 0xbf78b6c33114f909, 0x3fcebd80d9b13e28, 0x3ffa755e7c99ae86}
	erfinvMid64 = [...]uint64{0x3e23040f87dbd932, 0x3e785cbe52878635, 0xbe92777453dd3955, 0x3e5395abcd554c6c,
		0x3eb936388a3790ad, 0xbed0d5db812b5083, 0x3ec8860cd5d652f6, 0x3eea29a0cacdfb23, 0xbf08cef1f80281f2,
		0x3f11e684d0b9188a, 0x3ef932cd54c8a222, 0xbf37448a89ef8aa3, 0x3f4f3cc55ad40c25, 0xbf5ba924132f38b1,
		0x3f6468eeca533cf8, 0xbf6ebadabb891bbd, 0x3f75ffcfe5b76afc, 0x3ff0158a6d641d39, 0x4008abcc380d5a48}
	erfinvTail64 = [...]uint64{0xbdbdcec3a7785389, 0xbdf18feec0e38727, 0x3e19e6bf2dda45e3, 0xbe30468fb24e2f5f,
		0x3e405ac6a8fba182, 0xbe50102e495fb9c0, 0x3e5f4c20e1334af8, 0xbe722d220fdf9c3e, 0x3e8ebc8bb824cb54,
		0xbeb0a8d40ea372cc, 0x3ed2fbd29d093d2b, 0xbef4a3497e1e0fac, 0x3f13ebf4eb00938f, 0xbf2c2f36a8fc5d53,
		0xbf222ea5df04047c, 0x3ff02a30d1fba0dc, 0x4013664ddd1ad7fb}
)

// erfinv64 is x·Q(w) with w = log(1-x²) (computed here, with an even exponent
// split) in three ranges: w > -6.25, and sqrt(-w) below and above 4.
func erfinv64(x float64) float64 {
	var r float64
	if hiAbsF32(x) < f32(0x3ff00000) {
		lg := evenLog64(math.FMA(x, -x, 1))
		switch s := math.Sqrt(-lg); {
		case uint32(b64(lg)>>32) < 0xc0190000:
			r = horner64(erfinvCentral64[:], -3.125-lg)
		case int32(b64(s)>>32) < 0x40100000:
			r = horner64(erfinvMid64[:], s-3.25)
		default:
			r = horner64(erfinvTail64[:], s-5)
		}
	} else {
		switch a := math.Abs(x); {
		case a != a:
			return quiet(x)
		case a == 1:
			r = math.Inf(1)
		default:
			return f64(nanF64)
		}
	}
	return x * r
}

// evenLog64 is log(w) for positive normal w as erfinv and erfcinv form it:
// an even exponent split and 2·atanh((m-1)/(m+1)) for m in [0.5, 2).
func evenLog64(w float64) float64 {
	wb := b64(w)
	hi := uint32(wb >> 32)
	ed := float64(int32(hi>>20&2046) - 1022)
	m := f64(uint64(hi&0x801fffff|0x3fe00000)<<32 | wb&0xffffffff)
	f := m - 1
	rc := rcpNewton64(m + 1)
	u := f * rc
	u = math.FMA(math.FMA(-u, f, math.FMA(-2, u, f)), rc, u)
	u2 := u * u
	l := math.FMA(u2*horner64(erfinvLogCoef64[:], u2), u, u)
	return math.FMA(ed, f64(ln2F64), l+l)
}

var (
	erfcinvNumA = [...]uint64{0x3feBE9222591AFAB, 0x4000a0e7333839aa, 0x4008768cf7e57d5c, 0x400b77e7e28da583,
		0x3ff34f26a4f99cf9, 0x3fc1f674adb019ed, 0x3f75ddae9506431d, 0x3f0ada49aa32489c}
	erfcinvDenA = [...]uint64{0x40111ea3a7cf3820, 0x4011a0e4a4749594, 0x400d4e977d38c14d, 0x3ff37fd567ec0d5f,
		0x3fc1fb9d7f676033, 0x3f75ddcdf98946e4, 0x3f0ada42d79d8dbb}
	erfcinvNumB = [...]uint64{0x3fe8e2101c71b0bf, 0x3ffa2013964e259c, 0x3fdabfe90921be68, 0x3f97e41314de00d4,
		0x3f311bd487102e94}
	erfcinvDenB = [...]uint64{0x3ffae8e5956a143f, 0x3fdacce85ff7383d, 0x3f97e43b6cac34fe, 0x3f311bd08289eb12}
)

// erfcinv64 uses erfinv's central polynomial on log(x(2-x)) and rational
// functions of 1/sqrt(-log v) in the tails.
func erfcinv64(x float64) float64 {
	if x != x {
		return quiet(x)
	}
	t := 2 + -x
	if x >= f64(0x3f4fa4d2ad8f904d) && x <= f64(0x3ffffc0b65aa4e0e) {
		q := horner64(erfinvCentral64[:], -3.125-evenLog64(t*x))
		return math.FMA(q, -x, q)
	}
	upper := int32(b64(x)>>32) > 0x3fefffff
	v := x
	if upper {
		v = t
	}
	var q float64
	if !(hiF32(v) >= f32(0x2b2bff2f)) {
		s := f64(rsqrtApproxF64(b64(-log64(v))))
		num := horner64(erfcinvNumB[:], s)
		den := s + f64(0x3ff59895c30baa54)
		for _, c := range erfcinvDenB {
			den = math.FMA(den, s, f64(c))
		}
		q = num / (s * den)
	} else {
		y := rsqrtRefined64(-evenLog64(v))
		num := horner64(erfcinvNumA[:], y)
		den := y + f64(0x4001e90ff51c2197)
		for _, c := range erfcinvDenA {
			den = math.FMA(den, y, f64(c))
		}
		q = num / (y * den)
	}
	if q != q { // x < 0: the GPU's NaN, not negated (negations are folded into operands)
		return f64(nanF64)
	}
	if upper {
		return -q
	}
	return q
}

func rcbrt64(x float64) float64 {
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
	y := float64(ex2Approx(ieee.mul(lg2Approx(float32(v), true), f32(0xbeaaaaab)), true))
	y2 := y * y
	vy := v * y
	c := math.FMA(y2, -vy, 1)
	c = math.FMA(y2, -math.FMA(v, y, -vy), c)
	c = math.FMA(vy, -math.FMA(y, y, -y2), c)
	y = math.FMA(math.FMA(f64(0x3fcc71c71c71c71c), c, f64(0x3fd5555555555555)), c*y, y)
	r := f64(b64(y) + uint64(uint32(adj-k)<<20)<<32)
	xx := x + x
	switch {
	case xx == x:
		r = f64(uint64(uint32(xb>>32)^0x7ff00000) << 32)
	case x != x:
		return quiet(x)
	}
	return math.Copysign(r, x)
}

func registerErfinv64() {
	regD1("__nv_erfinv", erfinv64)
	regD1("__nv_erfcinv", erfcinv64)
	regD1("__nv_normcdfinv", func(x float64) float64 {
		r := erfcinv64(x + x)
		return math.FMA(f64(0xbff6a09e667f3bcc), r, r*f64(0xbca21165f626cdd5)) + 0
	})
	regD1("__nv_rcbrt", rcbrt64)
}
