package libdevice

import (
	"math"
	"math/bits"
)

// Double-precision exponent and rounding helpers.

func registerBasic64() {
	regOut("__nv_frexp", "d", "d", "i", func(_ mode, a, o []uint64) uint64 {
		x := f64(a[0])
		e := int32(uint32(a[0]>>32) & 0x7ff00000)
		if e == 0 {
			x *= 0x1p54
			e = int32(uint32(b64(x)>>32)&0x7ff00000) - 0x03600000
		}
		if e > 0x7fefffff || x == 0 {
			o[0] = 0
			return b64(add64(x, x))
		}
		o[0] = uint64(uint32((e - 0x3fe00000) >> 20))
		return b64(x)&0x800fffffffffffff | 0x3fe0000000000000
	})
	ldexp := func(a []uint64) uint64 {
		n := min(max(int32(uint32(a[1])), -2099), 2099)
		q := uint32(n+4092) >> 2
		r := n + 4092 - 3*int32(q)
		s1, s2 := uint64(q<<20)<<32, uint64(uint32(r)<<20)<<32
		if abs32(n) < 217 {
			s1, s2 = 0x3ff0000000000000, uint64(uint32(n+1023)<<20)<<32
		}
		x := mul64(f64(a[0]), f64(s2))
		x = mul64(x, f64(s1))
		x = mul64(x, f64(s1))
		return b64(mul64(x, f64(s1)))
	}
	regBits("__nv_ldexp", "di", "d", ldexp)
	regBits("__nv_scalbn", "di", "d", ldexp)
	regOut("__nv_modf", "d", "d", "d", func(_ mode, a, o []uint64) uint64 {
		x := f64(a[0])
		t := math.Trunc(x)
		if x != x {
			t = quiet(x)
		}
		o[0] = b64(t)
		if t == x {
			return a[0] & (1 << 63)
		}
		return b64(add64(x, -t))
	})
	regD1("__nv_round", func(x float64) float64 {
		if x != x {
			return quiet(x)
		}
		h := math.Copysign(0.5, x)
		s := f64(fix64(scalarAddRZ64(b64(x), b64(h))))
		return math.Trunc(s)
	})
	regD2("__nv_fdim", func(x, y float64) float64 {
		if x <= y {
			return 0
		}
		return sub64(x, y)
	})
	regBits("__nv_ilogb", "d", "i", func(a []uint64) uint64 {
		ax := a[0] &^ (1 << 63)
		switch {
		case ax > 0x7ff0000000000000, ax == 0:
			return 0x80000000
		case ax == 0x7ff0000000000000:
			return 0x7fffffff
		case ax>>32 > 0xfffff:
			return uint64(uint32(int32(ax>>52) - 1023))
		}
		return uint64(uint32(-1011 - int32(bits.LeadingZeros64(ax))))
	})
	regD1("__nv_logb", func(x float64) float64 {
		ax := b64(x) &^ (1 << 63)
		switch {
		case ax > 0x7ff0000000000000:
			return quiet(x)
		case ax == 0x7ff0000000000000:
			return math.Inf(1)
		case ax == 0:
			return math.Inf(-1)
		case ax>>32 > 0xfffff:
			return float64(int32(ax>>52) - 1023)
		}
		return float64(-1011 - int32(bits.LeadingZeros64(ax)))
	})
	regD2("__nv_nextafter", func(x, y float64) float64 {
		if y != y { // ptxas ordered this add y + x: y's NaN wins
			return quiet(y)
		}
		if x != x {
			return quiet(x)
		}
		if (b64(x)|b64(y))&^(1<<63) == 0 {
			return y
		}
		if b64(x)&^(1<<63) == 0 {
			return math.Copysign(f64(1), y)
		}
		b := b64(x)
		switch {
		case x < y && x < 0, x > y && x > 0:
			b--
		case x < y && x > 0, x > y && x < 0:
			b++
		}
		return f64(b)
	})
}

// add64 and mul64 are add.f64 and mul.f64 with the H100's NaN results.
func add64(a, b float64) float64 { return f64(fix64(b64(a+b), b64(a), b64(b))) }
func sub64(a, b float64) float64 { return f64(fix64(b64(a-b), b64(a), b64(b))) }
func mul64(a, b float64) float64 { return f64(fix64(b64(a*b), b64(a), b64(b))) }
