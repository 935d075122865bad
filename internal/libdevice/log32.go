package libdevice

// Single-precision logarithms. libdevice reduces x = 2^e·m with m in
// [0.666…, 1.333…) by integer arithmetic on the bits (subnormals scaled by 2^23
// first), and evaluates log1p(m-1) as a polynomial in Horner form with fma.

// logPoly coefficients: log(1+t) ≈ t + t²·P(t), P's highest degree first.
var logCoef = [...]uint32{0xbe055027, 0x3e1039f6, 0xbdf8cdcc, 0x3e0f2955, 0xbe2ad8b9, 0x3e4ced0b,
	0xbe7fff22, 0x3eaaaa78, 0xbf000000}

var log2Coef = [...]uint32{0x3dc6b27f, 0xbe2c7f30, 0x3e2fcf2a, 0xbe374e43, 0x3e520bf4, 0xbe763c8b,
	0x3e93bf99, 0xbeb8aa49, 0x3ef6384a, 0xbf38aa3b}

var log1pCoef = [...]uint32{0xbd39bf78, 0x3dd80012, 0xbe0778e0, 0x3e146475, 0xbe2a68dd, 0x3e4caf9e,
	0xbe800042, 0x3eaaaae6, 0xbf000000}

// horner evaluates c[0]·t^(n-1) + … + c[n-1] with fma.rn.
func (m mode) horner(c []uint32, t float32) float32 {
	p := f32(c[0])
	for _, k := range c[1:] {
		p = m.fma(p, t, f32(k))
	}
	return p
}

// logReduce splits x (positive, finite, nonzero) into e·2^-23 scaled exponent
// and t = m-1, with m in [0.666…, 1.333…) for split 0x3f2aaaab.
func (m mode) logReduce(x float32, split uint32) (e, t, xs float32) {
	bias := float32(0)
	if x < f32(0x00800000) {
		x = m.mul(x, 8388608)
		bias = -23
	}
	ib := b32(x)
	k := (ib - split) & 0xff800000
	mant := f32(ib - k)
	e = m.fma(float32(int32(k)), f32(0x34000000), bias)
	t = m.add(mant, -1)
	return e, t, x
}

// logSpecial applies the end of every log: +Inf and NaN through fma(x,∞,∞)
// (negative inputs give NaN), zero gives -Inf.
func (m mode) logSpecial(x, r float32) float32 {
	if b32(x) >= 0x7f800000 {
		r = m.fma(x, f32(0x7f800000), f32(0x7f800000))
	}
	if x == 0 {
		return f32(0xff800000)
	}
	return r
}

func logf(m mode, x float32) float32 {
	x = m.flush(x)
	e, t, xs := m.logReduce(x, 0x3f2aaaab)
	p := m.horner(logCoef[:], t)
	r := m.fma(m.mul(t, p), t, t)
	r = m.fma(e, f32(0x3f317218), r)
	return m.logSpecial(xs, r)
}

func log2f(m mode, x float32) float32 {
	x = m.flush(x)
	e, t, xs := m.logReduce(x, 0x3f3504f3)
	p := m.horner(log2Coef[:], t)
	r := m.fma(t, f32(0x3fb8aa3b), m.mul(t, m.mul(t, p)))
	r = m.add(e, r)
	return m.logSpecial(xs, r)
}

func log10f(m mode, x float32) float32 {
	x = m.flush(x)
	e, t, xs := m.logReduce(x, 0x3f2aaaab)
	p := m.horner(logCoef[:], t)
	r := m.fma(m.mul(t, p), t, t)
	r = m.fma(e, f32(0x3f317218), r)
	if b32(xs) >= 0x7f800000 {
		r = m.fma(xs, f32(0x7f800000), f32(0x7f800000))
	}
	r = m.mul(r, f32(0x3ede5bd9))
	if xs == 0 {
		return f32(0xff800000)
	}
	return r
}

func log1pf(m mode, x float32) float32 {
	x = m.flush(x)
	u := m.fmaR(x, 1, 1, rz) // add.rz x + 1
	k := (b32(u) - 0x3f400000) & 0xff800000
	s := f32(b32(x) - k)
	four := f32(0x40800000 - k)
	t := m.add(m.fma(0.25, four, -1), s)
	e := m.mul(float32(int32(k)), f32(0x34000000))
	p := m.horner(log1pCoef[:], t)
	r := m.fma(m.mul(t, p), t, t)
	r = m.fma(e, f32(0x3f317218), r)
	ix := b32(x)
	if ix < 0x7f800000 {
		return r
	}
	if int32(ix) >= -1082130431 {
		r = m.fma(x, f32(0x7f800000), f32(0x7f800000))
	}
	if x == 0 {
		return f32(0x80000000)
	}
	return r
}

func registerLog32() {
	regF1("__nv_logf", logf)
	regF1("__nv_log2f", log2f)
	regF1("__nv_log10f", log10f)
	regF1("__nv_log1pf", log1pf)
}
