package libdevice

import (
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
)

// Euclidean norms of 3 and 4 values and reciprocal norms: sort the
// magnitudes with a min/max chain, scale by a power of two chosen from the
// largest, sum squares with fma (smallest terms first), then sqrt or the SFU
// reciprocal square root.

// normParts32 returns the partial minima (in chain order), the maximum and
// the plain sum of the magnitudes.
func (m mode) normParts32(v []float32) (mins []float32, hi, sum float32) {
	abs := make([]float32, len(v))
	for i, x := range v {
		abs[i] = absF32(m, m.flush(x))
	}
	if len(v) == 4 {
		sum = m.add(abs[2], m.add(m.add(abs[0], abs[1]), abs[3]))
	} else {
		sum = m.add(m.add(abs[0], abs[1]), abs[2])
	}
	hi = abs[0]
	for _, a := range abs[1:] {
		mins = append(mins, f32(scalar.MinF32(b32(hi), b32(a), m.ftz, false)))
		hi = f32(scalar.MaxF32(b32(hi), b32(a), m.ftz, false))
	}
	return mins, hi, sum
}

func (m mode) sumSquares32(mins []float32, hi, scale float32) float32 {
	last := m.mul(mins[len(mins)-1], scale)
	q := m.mul(last, last)
	for i := len(mins) - 2; i >= 0; i-- {
		t := m.mul(mins[i], scale)
		q = m.fma(t, t, q)
	}
	h := m.mul(hi, scale)
	return m.fma(h, h, q)
}

func normN32(m mode, v []float32) float32 {
	mins, hi, sum := m.normParts32(v)
	e := b32(hi) & 0xfe000000
	r := m.mul(m.sqrt(m.sumSquares32(mins, hi, f32(0x7e800000-e))), f32(e|0x00800000))
	if !(sum > hi) {
		r = sum
	}
	if hi == f32(0x7f800000) {
		r = hi
	}
	return r
}

func rnormN32(m mode, v []float32) float32 {
	mins, hi, sum := m.normParts32(v)
	e := b32(hi) & 0xfe000000
	scale := f32(0x7e800000 - e)
	r := m.mul(rsqrtApprox(m.sumSquares32(mins, hi, scale), m.ftz), scale)
	if sum != sum {
		r = sum
	}
	if hi == f32(0x7f800000) {
		r = 0
	}
	return r
}

func rhypotf(m mode, x, y float32) float32 {
	x, y = m.flush(x), m.flush(y)
	ax, ay := b32(absF32(m, x)), b32(absF32(m, y))
	lo := f32(uint32(min(int32(ax), int32(ay))))
	hi := f32(uint32(max(int32(ax), int32(ay))))
	scale := f32(0x7e800000 - uint32(max(int32(ax), int32(ay)))&0xfe000000)
	a, b := m.mul(lo, scale), m.mul(hi, scale)
	r := m.mul(rsqrtApprox(m.fma(b, b, m.mul(a, a)), m.ftz), scale)
	if lo == f32(0x7f800000) {
		r = 0
	}
	return r
}

// f64 forms.

func normParts64(v []float64) (mins []float64, hi, sum float64) {
	abs := make([]float64, len(v))
	for i, x := range v {
		abs[i] = x
		if x == x { // the SASS folds abs into its users, which pass NaN through unchanged
			abs[i] = math.Abs(x)
		}
	}
	sum = abs[0]
	for _, a := range abs[1:] {
		sum = add64(sum, a)
	}
	hi = abs[0]
	for _, a := range abs[1:] {
		mins = append(mins, f64(minMax64(b64(hi), b64(a), false)))
		hi = f64(minMax64(b64(hi), b64(a), true))
	}
	return mins, hi, sum
}

func sumSquares64(mins []float64, hi, scale float64) float64 {
	last := mins[len(mins)-1] * scale
	q := last * last
	for i := len(mins) - 2; i >= 0; i-- {
		t := mins[i] * scale
		q = math.FMA(t, t, q)
	}
	h := hi * scale
	return math.FMA(h, h, q)
}

// rsqrtRefined64 is the SFU estimate refined once: y + y·e·(0.5 + 0.375e).
func rsqrtRefined64(q float64) float64 {
	y := f64(rsqrtApproxFtz64(b64(q)))
	c := math.FMA(q, -(y * y), 1)
	return math.FMA(math.FMA(0.375, c, 0.5), c*y, y)
}

func normN64(v []float64) float64 {
	mins, hi, sum := normParts64(v)
	e := uint32(b64(hi)>>32) & 0xffc00000
	q := sumSquares64(mins, hi, f64(uint64(0x7fd00000-e)<<32))
	r := q * rsqrtRefined64(math.Min(q, math.MaxFloat64)) * f64(uint64(e|0x00100000)<<32)
	if !(sum > hi) {
		r = sum
	}
	if uint32(b64(hi)>>32) >= 0x7ff00000 {
		r = hi
	}
	return r
}

func rnormN64(v []float64) float64 {
	mins, hi, sum := normParts64(v)
	e := uint32(b64(hi)>>32) & 0xffc00000
	scale := f64(uint64(0x7fd00000-e) << 32)
	r := scale * rsqrtRefined64(sumSquares64(mins, hi, scale))
	if !(sum > 0) {
		r = add64(sum, math.Inf(1))
	}
	if hi == math.Inf(1) {
		r = 0
	}
	return r
}

func rhypot64(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return 0
	}
	if x != x && y != y {
		// Two NaNs: the larger as unsigned bits, after a DADD-based fabs
		// that quiets a NaN but keeps its sign (the operands are ordered by
		// their bits, and the H100's DADD of the two gives the larger).
		return f64(max(b64(quiet(x)), b64(quiet(y))))
	}
	if y != y && x == x {
		return quiet(y)
	}
	if x != x && y == y {
		return quiet(x)
	}
	ax, ay := b64(x)&^(1<<63), b64(y)&^(1<<63)
	lo, hi := f64(min(ax, ay)), f64(max(ax, ay))
	scale := f64(uint64(0x7fd00000-uint32(b64(hi)>>32)&0xffc00000) << 32)
	a, b := scale*lo, scale*hi
	r := scale * rsqrtRefined64(math.FMA(b, b, a*a))
	if uint32(b64(r)>>32) >= 0x7ff00000 {
		switch {
		case hi != hi:
			r = add64(hi, lo)
		case hi != math.Inf(1):
			r = math.Inf(1)
		default:
			r = 0
		}
		if lo == math.Inf(1) {
			r = 0
		}
	}
	return r
}

func registerNorm() {
	regF3("__nv_norm3df", func(m mode, x, y, z float32) float32 { return normN32(m, []float32{x, y, z}) })
	regF3("__nv_rnorm3df", func(m mode, x, y, z float32) float32 { return rnormN32(m, []float32{x, y, z}) })
	regBitsM("__nv_norm4df", "ffff", "f", func(m mode, a []uint64) uint64 {
		return uint64(b32(normN32(m, []float32{f32(uint32(a[0])), f32(uint32(a[1])), f32(uint32(a[2])), f32(uint32(a[3]))})))
	})
	regBitsM("__nv_rnorm4df", "ffff", "f", func(m mode, a []uint64) uint64 {
		return uint64(b32(rnormN32(m, []float32{f32(uint32(a[0])), f32(uint32(a[1])), f32(uint32(a[2])), f32(uint32(a[3]))})))
	})
	regF2("__nv_rhypotf", rhypotf)
	regD3("__nv_norm3d", func(x, y, z float64) float64 { return normN64([]float64{x, y, z}) })
	regD3("__nv_rnorm3d", func(x, y, z float64) float64 { return rnormN64([]float64{x, y, z}) })
	regBits("__nv_norm4d", "dddd", "d", func(a []uint64) uint64 {
		return b64(normN64([]float64{f64(a[0]), f64(a[1]), f64(a[2]), f64(a[3])}))
	})
	regBits("__nv_rnorm4d", "dddd", "d", func(a []uint64) uint64 {
		return b64(rnormN64([]float64{f64(a[0]), f64(a[1]), f64(a[2]), f64(a[3])}))
	})
	regD2("__nv_rhypot", rhypot64)
}
