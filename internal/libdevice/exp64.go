package libdevice

import "math"

// Double-precision exponentials and logarithms. exp, exp2 and exp10 round
// x·log2(b) to an integer j with the 1.5·2^52 trick, reduce with a two-part
// constant, evaluate a degree-11 polynomial, and add j to the exponent
// (halving it across two factors near the ends of the range).

var expCoef = [...]uint64{0x3e5ade1569ce2bdf, 0x3e928af3fca213ea, 0x3ec71dee62401315, 0x3efa01997c89eb71,
	0x3f2a01a014761f65, 0x3f56c16c1852b7af, 0x3f81111111122322, 0x3fa55555555502a1, 0x3fc5555555555511,
	0x3fe000000000000b, 0x3ff0000000000000}

func horner64(c []uint64, t float64) float64 {
	p := f64(c[0])
	for _, k := range c[1:] {
		p = math.FMA(p, t, f64(k))
	}
	return p
}

const twoP52x15 = 0x4338000000000000

// hiAbs returns the high word of x without its sign, and whether it reads
// as an f32 NaN (libdevice compares high words as f32 values).
func hiAbs(x float64) (uint32, bool) {
	h := uint32(b64(x)>>32) & 0x7fffffff
	return h, h > 0x7f800000
}

// expFinish scales p = 2^r by 2^j; near the ends of the range (|hi| ≥ lim1
// as f32) it gives the overflow/underflow value big, and between lim1 and
// lim2 it applies 2^j in two halves.
func expFinish(p float64, j int32, x float64, lim1, lim2 uint32, big float64) float64 {
	pb := b64(p)
	res := f64(pb + uint64(uint32(j)<<20)<<32)
	h, nan := hiAbs(x)
	if !nan && h < lim1 {
		return res
	}
	res = big
	if nan || h >= lim2 {
		return res
	}
	half := j / 2
	a := f64(pb + uint64(uint32(half)<<20)<<32)
	b := f64(uint64(uint32(j-half)<<20+0x3ff00000) << 32)
	return a * b
}

func exp64(x float64) float64 {
	t := math.FMA(x, f64(0x3ff71547652b82fe), f64(twoP52x15))
	j := int32(uint32(b64(t)))
	k := t + f64(0xc338000000000000)
	r := math.FMA(k, f64(0xbfe62e42fefa39ef), x)
	r = math.FMA(k, f64(0xbc7abc9e3b39803f), r)
	p := math.FMA(horner64(expCoef[:], r), r, 1)
	big := x + math.Inf(1)
	if x < 0 {
		big = 0
	}
	if x != x {
		big = quiet(x)
	}
	return expFinish(p, j, x, 0x4086232b, 0x40874800, big)
}

func exp2_64(x float64) float64 {
	t := x + f64(twoP52x15)
	j := int32(uint32(b64(t)))
	k := t + f64(0xc338000000000000)
	d := x - k
	r := math.FMA(d, f64(0x3fe62e42fefa39ef), d*f64(0x3c7abc9e3b39803f))
	p := math.FMA(horner64(expCoef[:], r), r, 1)
	return expFinish(p, j, x, 0x408ff000, 0x4090cc00, expBig(x))
}

func exp10_64(x float64) float64 {
	t := math.FMA(x, f64(0x400a934f0979a371), f64(twoP52x15))
	j := int32(uint32(b64(t)))
	k := t + f64(0xc338000000000000)
	r := math.FMA(k, f64(0xbfd34413509f79ff), x)
	r = math.FMA(k, f64(0x3c49dc1da994fd21), r)
	r = math.FMA(r, f64(0x40026bb1bbb55516), r*f64(0xbcaf48ad494ea3e9))
	p := math.FMA(horner64(expCoef[:], r), r, 1)
	return expFinish(p, j, x, 0x40733a71, 0x407439b8, expBig(x))
}

// expBig is the out-of-range result of exp2 and exp10: 0 or +Inf by the
// sign, NaN (quieted) for NaN.
func expBig(x float64) float64 {
	if x != x {
		return quiet(x)
	}
	if int64(b64(x)) < 0 {
		return 0
	}
	return math.Inf(1)
}

func quiet(x float64) float64 { return f64(b64(x) | 1<<51) }

// rcp64 is rcp.approx.ftz.f64 on float64 values.
func rcp64(x float64) float64 { return f64(rcpApproxFtz64(b64(x))) }

var logCoef64 = [...]uint64{0x3eb1380b3ae80f1e, 0x3ed0ee258b7a8b04, 0x3ef3b2669f02676f, 0x3f1745cba9ab0956,
	0x3f3c71c72d1b5154, 0x3f624924923be72d, 0x3f8999999999a3c4, 0x3fb5555555555554}

// logParts returns log(x) = e·ln2 + log(m) for positive normal x as the
// unevaluated parts libdevice forms before its last addition: u, the
// 2(m-1)/(m+1) term, the correction t, and e.
func logParts(m float64) (u, t float64) {
	y := m + 1
	r := rcp64(y)
	e1 := math.FMA(-y, r, 1)
	r = math.FMA(math.FMA(e1, e1, e1), r, r)
	f := m - 1
	u = f * r
	u = math.FMA(f, r, u)
	u2 := u * u
	p := horner64(logCoef64[:], u2)
	d := f - u
	c := r * math.FMA(-u, f, d+d)
	t = math.FMA(u2*p, u, c)
	return u, t
}

// logReduce64 splits positive normal or subnormal x into m in [0.707, 1.414)
// and its exponent; ok is false for zero, negative, Inf and NaN.
func logReduce64(x float64) (m float64, e int32, ok bool) {
	hi, lo := uint32(b64(x)>>32), uint32(b64(x))
	e = -1023
	if int32(hi) <= 0xfffff {
		x *= 0x1p54
		hi, lo = uint32(b64(x)>>32), uint32(b64(x))
		e = -1077
	}
	if hi-1 >= 0x7fefffff {
		return x, 0, false
	}
	e += int32(hi >> 20)
	mh := hi&0x800fffff | 0x3ff00000
	if int32(mh) >= 0x3ff6a09f {
		mh -= 0x00100000
		e++
	}
	return f64(uint64(mh)<<32 | uint64(lo)), e, true
}

// logSpecial64 is log's result for x that logReduce64 rejects (x as scaled).
func logSpecial64(x float64) float64 {
	if uint32(b64(x)>>32)&0x7fffffff == 0 {
		return math.Inf(-1)
	}
	return fmaInfInf(x)
}

// fmaInfInf is fma(x, +Inf, +Inf): +Inf for x > 0, NaN otherwise (x's, if
// x is NaN).
func fmaInfInf(x float64) float64 {
	switch {
	case x != x:
		return quiet(x)
	case x > 0:
		return math.Inf(1)
	}
	return f64(nanF64)
}

func log64(x float64) float64 {
	m, e, ok := logReduce64(x)
	if !ok {
		return logSpecial64(m)
	}
	u, t := logParts(m)
	ed := float64(e)
	const ln2hi, ln2lo = 0x3fe62e42fefa39ef, 0x3c7abc9e3b39803f
	h := math.FMA(ed, f64(ln2hi), u)
	s := math.FMA(-ed, f64(ln2hi), h) - u
	t = math.FMA(ed, f64(ln2lo), t-s)
	return h + t
}

func registerExp64A() {
	regD1("__nv_exp", exp64)
	regD1("__nv_exp2", exp2_64)
	regD1("__nv_exp10", exp10_64)
	regD1("__nv_log", log64)
}

// hiF32 reads x's high word as an f32, as libdevice's range checks do.
func hiF32(x float64) float32 { return f32(uint32(b64(x) >> 32)) }

func log2_64(x float64) float64 {
	l := log64(x)
	return math.FMA(l, f64(0x3ff71547652b82fe), l*f64(0x3c7777d0ffda0d24))
}

func log10_64(x float64) float64 {
	l := log64(x)
	return math.FMA(l, f64(0x3fdbcb7b1526e50e), l*f64(0x3c695355baaafad3))
}

var log1pCoef64 = [...]uint64{0x3eb372fb2fbe14b5, 0x3ed087ffceb2dc44, 0x3ef3b9ff890f468c, 0x3f17457efd51baf8,
	0x3f3c71c8de3ce825, 0x3f6249248fa4661f, 0x3f899999999d70c4, 0x3fb5555555555462}

func log1p64(x float64) float64 {
	h := hiF32(x)
	if !(h < f32(0x3fe55555) && h > f32(0xbfd99999)) {
		return log64(x + 1)
	}
	t := x / (x + 2)
	u := x * t
	v := x - u
	w := v * v
	return x + math.FMA(w*horner64(log1pCoef64[:], w), v, -u)
}

var expm1Coef = [...]uint64{0x3e21f4076acd15b6, 0x3e5af86d8ebd13cd, 0x3e927e5092ba033d, 0x3ec71dde6c5f9da1,
	0x3efa01a018d034e6, 0x3f2a01a01b3b6940, 0x3f56c16c16c1b5dd, 0x3f8111111110f74d, 0x3fa555555555554d,
	0x3fc5555555555557, 0x3fe0000000000000}

func expm1_64(x float64) float64 {
	h := hiF32(x)
	if !(h < f32(0x40862e43) && h > f32(0xc04a8000)) {
		switch {
		case x != x:
			return quiet(x)
		case int64(b64(x)) < 0:
			return -1
		}
		return math.Inf(1)
	}
	t := math.FMA(x, f64(0x3ff71547652b82fe), f64(twoP52x15))
	j := int32(uint32(b64(t)))
	k := t + f64(0xc338000000000000)
	r := math.FMA(k, f64(0xbfe62e42fefa39ef), x)
	r = math.FMA(k, f64(0xbc7abc9e3b39803f), r)
	hi2 := uint32(b64(x)>>32) << 1
	if hi2 < 0x7fb3e647 {
		r, j = x, 0
	}
	q := math.FMA(r*horner64(expm1Coef[:], r), r, r)
	top := j == 1024
	if top {
		j--
	}
	s := f64(uint64(uint32(j)<<20+0x3ff00000) << 32)
	y := math.FMA(q, s, s-1)
	if top {
		y += y
	}
	if hi2 == 0 {
		return r
	}
	return y
}

func registerExp64B() {
	regD1("__nv_log2", log2_64)
	regD1("__nv_log10", log10_64)
	regD1("__nv_log1p", log1p64)
	regD1("__nv_expm1", expm1_64)
}
