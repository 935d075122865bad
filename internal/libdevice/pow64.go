package libdevice

import "math"

var powLogCoef64 = [...]uint64{0x3eb0f5ff7d2cafe2, 0x3ed0f5d241ad3b5a, 0x3ef3b20a75488a3f, 0x3f1745cde4faecd5,
	0x3f3c71c7258a578b, 0x3f6249249242b910, 0x3f89999999999dfb}

// twoSum returns s = a+b and the rounding error, in libdevice's order.
func fastTwoSum(a, b float64) (float64, float64) {
	s := a + b
	return s, b + (a - s)
}

// accuratePow is |x|^y for finite positive a = |x|: log(a) in double-double
// (a longer series than log's, in u = 2(m-1)/(m+1)), times y with an fma
// product, then exp with a final first-order correction.
// logDD returns log(a) for finite positive a as an unevaluated double-double.
func logDD(a float64) (float64, float64) {
	ab := b64(a)
	hi, lo := uint32(ab>>32), uint32(ab)
	e := int32(hi >> 20)
	if e == 0 {
		ab = b64(a * 0x1p54)
		hi, lo = uint32(ab>>32), uint32(ab)
		e = int32(hi>>20) - 54
	}
	ee := e - 1023
	mh := hi&0x800fffff | 0x3ff00000
	if mh >= 0x3ff6a09f {
		mh -= 0x00100000
		ee = e - 1022
	}
	m := f64(uint64(mh)<<32 | uint64(lo))
	r := rcpNewton64(m + 1)
	f := m - 1
	u := f * r
	u = math.FMA(f, r, u)
	u2 := u * u
	p := horner64(powLogCoef64[:], u2)
	d := f - u
	c := r * math.FMA(-u, f, d+d)
	ph := math.FMA(u2, p, f64(0x3fb5555555555555))
	pl := math.FMA(u2, p, f64(0x3fb5555555555555)-ph)
	pl = (pl + 0) + f64(0xbc46a4cb00b9e7b0)
	ph, pl = fastTwoSum(ph, pl)
	sq := u * u
	sqLo := math.FMA(u, f64(b64(c)+0x0010000000000000), math.FMA(u, u, -sq))
	cu := sq * u
	cuLo := math.FMA(sqLo, u, math.FMA(sq, c, math.FMA(sq, u, -cu)))
	t := ph * cu
	tLo := math.FMA(pl, cu, math.FMA(ph, cuLo, math.FMA(ph, cu, -t)))
	t, tLo = fastTwoSum(t, tLo)
	s := u + t
	sLo := tLo + (t + (u - s))
	sLo = c + sLo
	lh, ll := fastTwoSum(s, sLo)
	ed := float64(ee)
	const ln2hi, ln2lo = 0x3fe62e42fefa39ef, 0x3c7abc9e3b39803f
	g := math.FMA(ed, f64(ln2hi), lh)
	gl := ll - (math.FMA(-ed, f64(ln2hi), g) - lh)
	gl = math.FMA(ed, f64(ln2lo), gl)
	g, gl = fastTwoSum(g, gl)
	return g, gl
}

func accuratePow(a, y float64) float64 {
	g, gl := logDD(a)
	yb := b64(y)
	if uint32(yb>>32)<<1 > 0xfdffffff {
		yb &^= 0x00f0000000000000
	}
	ys := f64(yb)
	v := g * ys
	vLo := math.FMA(gl, ys, math.FMA(g, ys, -v))
	v, vLo = fastTwoSum(v, vLo)
	z := exp64(v)
	if math.Abs(z) != math.Inf(1) {
		z = math.FMA(z, vLo, z)
	}
	return z
}

// oddIntegerBits is libdevice's test for an odd integer y: shifting y's
// bits left by (exponent - 1012) leaves only the top bit. It also holds for
// ±0.5, which callers exclude where it matters.
func oddIntegerBits(y float64) bool {
	yb := b64(y)
	s := uint32(yb>>52&0x7ff) - 1012
	if s >= 64 {
		return false
	}
	return yb<<s == 1<<63
}

func pow64(x, y float64) float64 {
	xb, yb := b64(x), b64(y)
	xhi, yhi := int32(xb>>32), int32(yb>>32)
	r := accuratePow(math.Abs(x), y)
	odd := oddIntegerBits(y)
	if x == 0 {
		odd = odd && math.Abs(y) != 0.5
		var h uint32
		if odd {
			h = uint32(xhi)
		}
		if yhi < 0 {
			h |= 0x7ff00000
		}
		r = f64(uint64(h) << 32)
	} else if xhi < 0 {
		switch {
		case math.Trunc(y) != y:
			r = f64(nanF64)
		case odd:
			r = -r
		}
	}
	if s := x + y; b64(s)>>52&0x7ff == 0x7ff {
		switch {
		case y != y: // ptxas ordered this add y + x
			r = quiet(y)
		case x != x:
			r = quiet(x)
		case math.IsInf(y, 0):
			var h uint32
			if math.Abs(x) > 1 {
				h = 0x7ff00000
			}
			if yhi < 0 {
				h ^= 0x7ff00000
			}
			if x == -1 {
				h = 0x3ff00000
			}
			r = f64(uint64(h) << 32)
		case math.IsInf(x, 0):
			var h uint32
			if yhi >= 0 {
				h = 0x7ff00000
			}
			if xhi < 0 && odd && uint32(yhi)&0x7fffffff != 0x3fe00000 {
				h |= 0x80000000
			}
			r = f64(uint64(h) << 32)
		}
	}
	if y == 0 || x == 1 {
		return 1
	}
	return r
}

func registerPow64() { regD2("__nv_pow", pow64) }
