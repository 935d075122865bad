package libdevice

import (
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// The __nv_fast_* intrinsics (what -use_fast_math turns sinf, expf … into)
// are SFU instructions with at most a scaling, plus a few one-instruction
// functions and integer-power helpers.

func registerFast() {
	regF1("__nv_fast_expf", func(m mode, x float32) float32 {
		return ex2Approx(m.mul(m.flush(x), f32(0x3fb8aa3b)), m.ftz)
	})
	regF1("__nv_fast_exp10f", func(m mode, x float32) float32 {
		return ex2Approx(m.mul(m.flush(x), f32(0x40549a78)), m.ftz)
	})
	regF2("__nv_fast_fdividef", func(m mode, x, y float32) float32 { return divApprox(x, y, m.ftz) })
	regF1("__nv_fast_log2f", func(m mode, x float32) float32 { return lg2Approx(x, m.ftz) })
	regF1("__nv_fast_logf", func(m mode, x float32) float32 {
		return m.mul(lg2Approx(x, m.ftz), f32(0x3f317218))
	})
	regF1("__nv_fast_log10f", func(m mode, x float32) float32 {
		return m.mul(lg2Approx(x, m.ftz), f32(0x3e9a209b))
	})
	regF2("__nv_fast_powf", func(m mode, x, y float32) float32 {
		return ex2Approx(m.mul(m.flush(y), lg2Approx(x, m.ftz)), m.ftz)
	})
	regF1("__nv_fast_sinf", func(m mode, x float32) float32 { return f32(sinCosApprox(b32(x), false)) })
	regF1("__nv_fast_cosf", func(m mode, x float32) float32 { return f32(sinCosApprox(b32(x), true)) })
	regF1("__nv_fast_tanf", func(m mode, x float32) float32 {
		s := f32(sinCosApprox(b32(x), false))
		c := f32(sinCosApprox(b32(x), true))
		return divApprox(s, c, m.ftz)
	})
	regOut("__nv_fast_sincosf", "f", "", "ff", func(m mode, a, o []uint64) uint64 {
		o[0] = uint64(sinCosApprox(uint32(a[0]), false))
		o[1] = uint64(sinCosApprox(uint32(a[0]), true))
		return 0
	})

	regBits("__nv_sqrt", "d", "d", func(a []uint64) uint64 { return fix64(scalar.SqrtF64(a[0], scalar.RN), a[0]) })
	regBits("__nv_llrint", "d", "l", func(a []uint64) uint64 {
		if isNaN64(a[0]) {
			return 1 << 63
		}
		return scalar.CvtFloatToInt(a[0], ptxtype.F64, ptxtype.S64, scalar.RN, false, false)
	})
	regBitsM("__nv_llrintf", "f", "l", func(m mode, a []uint64) uint64 {
		if uint32(a[0])&0x7fffffff > 0x7f800000 {
			return 1 << 63
		}
		return scalar.CvtFloatToInt(uint64(flushIf(m, a[0])), ptxtype.F32, ptxtype.S64, scalar.RN, false, false)
	})
	llround := func(x float64) uint64 {
		switch {
		case x != x, x <= -0x1p63:
			return 1 << 63
		case x >= 0x1p63:
			return math.MaxInt64
		}
		return uint64(int64(math.Round(x)))
	}
	regBits("__nv_llround", "d", "l", func(a []uint64) uint64 { return llround(f64(a[0])) })
	regBitsM("__nv_llroundf", "f", "l", func(m mode, a []uint64) uint64 {
		return llround(float64(f32(flushIf(m, a[0]))))
	})
	regF1("__nv_frsqrt_rn", frsqrtRN)
	regBitsM("__nv_powif", "fi", "f", func(m mode, a []uint64) uint64 {
		x, n := f32(uint32(a[0])), int32(uint32(a[1]))
		k := uint32(abs32(n))
		if n == math.MinInt32 {
			k = 1 << 31
		}
		r, b := float32(1), x
		if k&1 == 1 {
			r = m.mul(r, b)
		}
		for k >>= 1; k != 0; k >>= 1 {
			b = m.mul(b, b)
			if k&1 == 1 {
				r = m.mul(r, b)
			}
		}
		if n < 0 {
			return uint64(scalar.RcpF32(b32(r), scalar.RN, m.ftz))
		}
		return uint64(b32(r))
	})
	regBits("__nv_powi", "di", "d", func(a []uint64) uint64 {
		x, n := f64(a[0]), int32(uint32(a[1]))
		k := uint32(abs32(n))
		if n == math.MinInt32 {
			k = 1 << 31
		}
		r, b := 1.0, x
		if k&1 == 1 {
			r = b
		}
		for k >>= 1; k != 0; k >>= 1 {
			b = mul64(b, b)
			if k&1 == 1 {
				r = mul64(r, b)
			}
		}
		if n < 0 {
			return fix64(scalar.RcpF64(b64(r), scalar.RN), b64(r))
		}
		return b64(r)
	})
	regF1("__nv_rcbrtf", func(m mode, x float32) float32 {
		x = m.flush(x)
		ax := absF32(m, x)
		y := ex2Approx(m.mul(lg2Approx(ax, false), f32(0xbeaaaaab)), true)
		e := m.fma(m.mul(y, y), neg32(m.mul(ax, y)), 1)
		y = m.fma(e, m.mul(y, f32(0x3eaaaaab)), y)
		if x < 0 {
			y = neg32(y)
		}
		if xx := m.add(x, x); xx == x {
			return f32(b32(xx) ^ 0x7f800000)
		}
		return y
	})
}

// frsqrtRN is __frsqrt_rn: the SFU estimate on the significand in [0.5, 2)
// refined once with fma, the exponent put back by integer arithmetic.
func frsqrtRN(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	sub := ax < 0x1p-126
	if sub {
		x = m.mul(x, 16777216)
	}
	xb := b32(x)
	if xb-0x00800000 >= 0x7f000000 {
		return rsqrtApprox(x, true)
	}
	mb := xb&0x00ffffff | 0x3f000000
	d := int32(mb - xb)
	if sub {
		d += 0x0c000000
	}
	mv := f32(mb)
	y := rsqrtApprox(mv, true)
	y2 := m.mul(y, y)
	y2lo := m.fma(y, y, neg32(y2))
	e := m.fma(y2, neg32(mv), 1)
	e = m.fma(y2lo, neg32(mv), e)
	c := m.fma(0.375, e, 0.5)
	r := m.fma(c, m.mul(y, e), y)
	return f32(uint32(d>>1 + int32(b32(r))))
}
