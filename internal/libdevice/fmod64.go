package libdevice

import "math"

// fmod, remainder and remquo in double precision are exact operations; the
// GPU computes them by shift-and-subtract on the significands, which gives
// the one exact answer, so Go's exact math.Mod and math.Remainder serve,
// with libdevice's special cases.

// remSpecial handles Inf, NaN and zero divisors; ok is false when x and y
// are finite with y ≠ 0.
func remSpecial(x, y float64) (r float64, ok bool) {
	ax, ay := math.Abs(x), math.Abs(y)
	switch {
	case y != y: // ptxas ordered this add y + x
		return quiet(y), true
	case x != x:
		return quiet(x), true
	case math.IsInf(ax, 0):
		return f64(nanF64), true
	case math.IsInf(ay, 0):
		return x, true
	case y == 0:
		return f64(nanF64), true
	}
	return 0, false
}

func fmod64(x, y float64) float64 {
	if r, ok := remSpecial(x, y); ok {
		return r
	}
	if math.Abs(x) < math.Abs(y) {
		return x
	}
	return math.Copysign(math.Mod(x, y), x)
}

// remquo64 returns the IEEE remainder and the low three bits of the rounded
// quotient with the quotient's sign.
func remquo64(x, y float64) (float64, int32) {
	if r, ok := remSpecial(x, y); ok {
		return r, 0
	}
	r := math.Remainder(x, y)
	// The quotient's low bits: n = (x - r)/y is an exact integer in value;
	// its low three bits come from the exact remainder of |x| modulo 8|y|.
	ax, ay := math.Abs(x), math.Abs(y)
	var q int32
	if ay <= math.MaxFloat64/8 {
		m := math.Mod(ax, 8*ay) // exact
		q = int32(math.Round((m - math.Abs(r)*sign(r*sign(x))) / ay))
	} else {
		q = int32(math.Round((ax - math.Abs(r)*sign(r*sign(x))) / ay))
	}
	q &= 7
	if math.Signbit(x) != math.Signbit(y) {
		q = -q
	}
	if r == 0 {
		r = math.Copysign(0, x)
	}
	return r, q
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func registerFmod64() {
	regD2("__nv_fmod", fmod64)
	regD2("__nv_remainder", func(x, y float64) float64 {
		r, _ := remquo64(x, y)
		return r
	})
	regOut("__nv_remquo", "dd", "d", "i", func(_ mode, a, o []uint64) uint64 {
		r, q := remquo64(f64(a[0]), f64(a[1]))
		o[0] = uint64(uint32(q))
		return b64(r)
	})
}
