package libdevice

import (
	"math"
	"math/bits"

	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// This file holds the functions that are one PTX instruction or a few
// integer steps: classification, rounding to integers, min/max, sign
// manipulation, conversions, arithmetic in a chosen rounding mode, and the
// integer helpers.

var roundings = []struct {
	suffix string
	r      scalar.Rounding
}{{"_rn", scalar.RN}, {"_rz", scalar.RZ}, {"_rd", scalar.RM}, {"_ru", scalar.RP}}

func registerBasic() {
	u32 := func(v uint64) uint32 { return uint32(v) }
	s32 := func(v uint64) int32 { return int32(uint32(v)) }
	boolBit := func(b bool) uint64 {
		if b {
			return 1
		}
		return 0
	}

	// f32 classification and sign.
	regBits("__nv_isnanf", "f", "i", func(a []uint64) uint64 { return boolBit(u32(a[0])&0x7fffffff > 0x7f800000) })
	regBits("__nv_isinff", "f", "i", func(a []uint64) uint64 { return boolBit(u32(a[0])&0x7fffffff == 0x7f800000) })
	regBits("__nv_finitef", "f", "i", func(a []uint64) uint64 { return boolBit(u32(a[0])&0x7fffffff < 0x7f800000) })
	regBits("__nv_signbitf", "f", "i", func(a []uint64) uint64 { return uint64(u32(a[0]) >> 31) })
	regBits("__nv_isnand", "d", "i", func(a []uint64) uint64 { return boolBit(a[0]&^(1<<63) > 0x7ff0000000000000) })
	regBits("__nv_isinfd", "d", "i", func(a []uint64) uint64 { return boolBit(a[0]&^(1<<63) == 0x7ff0000000000000) })
	regBits("__nv_isfinited", "d", "i", func(a []uint64) uint64 { return boolBit(a[0]&^(1<<63) < 0x7ff0000000000000) })
	regBits("__nv_signbitd", "d", "i", func(a []uint64) uint64 { return a[0] >> 63 })

	regBitsM("__nv_fabsf", "f", "f", func(m mode, a []uint64) uint64 {
		if u32(a[0])&0x7fffffff > 0x7f800000 {
			return nanF32
		}
		return uint64(scalar.AbsF32(u32(a[0]), m.ftz))
	})
	regBits("__nv_fabs", "d", "d", func(a []uint64) uint64 { return fix64(scalar.AbsF64(a[0]), a[0]) })
	regBits("__nv_copysignf", "ff", "f", func(a []uint64) uint64 { return uint64(scalar.CopysignF32(u32(a[1]), u32(a[0]))) })
	regBits("__nv_copysign", "dd", "d", func(a []uint64) uint64 { return scalar.CopysignF64(a[1], a[0]) })
	regBitsM("__nv_fminf", "ff", "f", func(m mode, a []uint64) uint64 {
		return uint64(scalar.MinF32(u32(a[0]), u32(a[1]), m.ftz, false))
	})
	regBitsM("__nv_fmaxf", "ff", "f", func(m mode, a []uint64) uint64 {
		return uint64(scalar.MaxF32(u32(a[0]), u32(a[1]), m.ftz, false))
	})
	regBits("__nv_fmin", "dd", "d", func(a []uint64) uint64 { return minMax64(a[0], a[1], false) })
	regBits("__nv_fmax", "dd", "d", func(a []uint64) uint64 { return minMax64(a[0], a[1], true) })
	regBitsM("__nv_saturatef", "f", "f", func(m mode, a []uint64) uint64 {
		return scalar.CvtFloatToFloat(a[0]&0xffffffff, ptxtype.F32, ptxtype.F32, scalar.RN, false, m.ftz, true)
	})

	// Rounding to integral values: cvt.r?i.
	cvtInt := func(t ptxtype.Type, r scalar.Rounding) func(m mode, a []uint64) uint64 {
		return func(m mode, a []uint64) uint64 {
			v := a[0]
			if t == ptxtype.F32 {
				v &= 0xffffffff
			}
			if t == ptxtype.F64 {
				return fix64(scalar.CvtFloatToFloat(v, t, t, r, true, false, false), v)
			}
			return scalar.CvtFloatToFloat(v, t, t, r, true, m.ftz, false)
		}
	}
	for _, c := range []struct {
		name string
		r    scalar.Rounding
	}{{"floor", scalar.RM}, {"ceil", scalar.RP}, {"trunc", scalar.RZ}, {"rint", scalar.RN}, {"nearbyint", scalar.RN}} {
		regBitsM("__nv_"+c.name+"f", "f", "f", cvtInt(ptxtype.F32, c.r))
		regBitsM("__nv_"+c.name, "d", "d", cvtInt(ptxtype.F64, c.r))
	}
	// roundf: add copysign(0.5, x) toward zero, then truncate.
	regF1("__nv_roundf", func(m mode, x float32) float32 {
		h := f32(scalar.CopysignF32(b32(x), 0x3f000000))
		s := f32(scalar.AddF32(b32(x), b32(h), scalar.RZ, m.ftz, false))
		return f32(uint32(scalar.CvtFloatToFloat(uint64(b32(s)), ptxtype.F32, ptxtype.F32, scalar.RZ, true, m.ftz, false)))
	})

	regF3("__nv_fmaf", func(m mode, x, y, z float32) float32 { return m.fma(x, y, z) })
	regD3("__nv_fma", fma64)
	regF2("__nv_fdimf", func(m mode, x, y float32) float32 {
		if x <= y {
			return 0
		}
		return m.sub(x, y)
	})
	regF1("__nv_fsqrt_rn", func(m mode, x float32) float32 { return m.sqrt(x) })
	regF1("__nv_sqrtf", func(m mode, x float32) float32 { return m.sqrt(x) })

	// Arithmetic in each rounding mode.
	for _, rr := range roundings {
		r := rr.r
		regBitsM("__nv_fadd"+rr.suffix, "ff", "f", func(m mode, a []uint64) uint64 {
			x, y := flushIf(m, a[0]), flushIf(m, a[1])
			return ftz32(m.ftz, scalar.AddF32(x, y, r, false, false), float64(f32(x))+float64(f32(y)), r)
		})
		regBitsM("__nv_fsub"+rr.suffix, "ff", "f", func(m mode, a []uint64) uint64 {
			x, y := flushIf(m, a[0]), flushIf(m, a[1])
			return ftz32(m.ftz, scalar.SubF32(x, y, r, false, false), float64(f32(x))-float64(f32(y)), r)
		})
		regBitsM("__nv_fmul"+rr.suffix, "ff", "f", func(m mode, a []uint64) uint64 {
			x, y := flushIf(m, a[0]), flushIf(m, a[1])
			return ftz32(m.ftz, scalar.MulF32(x, y, r, false, false), float64(f32(x))*float64(f32(y)), r)
		})
		regBitsM("__nv_fdiv"+rr.suffix, "ff", "f", func(m mode, a []uint64) uint64 {
			x, y := flushIf(m, a[0]), flushIf(m, a[1])
			return ftz32(m.ftz, scalar.DivF32(x, y, r, false, false), float64(f32(x))/float64(f32(y)), r)
		})
		regBitsM("__nv_frcp"+rr.suffix, "f", "f", func(m mode, a []uint64) uint64 {
			return uint64(scalar.RcpF32(u32(a[0]), r, m.ftz))
		})
		if r != scalar.RN {
			regBitsM("__nv_fsqrt"+rr.suffix, "f", "f", func(m mode, a []uint64) uint64 {
				return uint64(scalar.SqrtF32(u32(a[0]), r, m.ftz))
			})
		}
		regBitsM("__nv_fmaf"+rr.suffix, "fff", "f", func(m mode, a []uint64) uint64 {
			x, y, z := flushIf(m, a[0]), flushIf(m, a[1]), flushIf(m, a[2])
			return ftz32(m.ftz, scalar.FmaF32(x, y, z, r, false, false),
				math.FMA(float64(f32(x)), float64(f32(y)), float64(f32(z))), r)
		})
		// The _ieee forms never flush.
		regBits("__nv_fmaf_ieee"+rr.suffix, "fff", "f", func(a []uint64) uint64 {
			return uint64(scalar.FmaF32(u32(a[0]), u32(a[1]), u32(a[2]), r, false, false))
		})
		regBits("__nv_dadd"+rr.suffix, "dd", "d", func(a []uint64) uint64 { return fix64(scalar.AddF64(a[0], a[1], r), a...) })
		regBits("__nv_dsub"+rr.suffix, "dd", "d", func(a []uint64) uint64 { return fix64(scalar.SubF64(a[0], a[1], r), a...) })
		regBits("__nv_dmul"+rr.suffix, "dd", "d", func(a []uint64) uint64 { return fix64(scalar.MulF64(a[0], a[1], r), a...) })
		regBits("__nv_ddiv"+rr.suffix, "dd", "d", func(a []uint64) uint64 { return fix64(scalar.DivF64(a[0], a[1], r), a...) })
		regBits("__nv_drcp"+rr.suffix, "d", "d", func(a []uint64) uint64 { return fix64(scalar.RcpF64(a[0], r), a...) })
		regBits("__nv_dsqrt"+rr.suffix, "d", "d", func(a []uint64) uint64 { return fix64(scalar.SqrtF64(a[0], r), a...) })
		regBits("__nv_fma"+rr.suffix, "ddd", "d", func(a []uint64) uint64 {
			return fix64(scalar.FmaF64(a[0], a[1], a[2], r), a...)
		})

		// Conversions.
		toInt := func(src ptxtype.Type, dst ptxtype.Type) func(m mode, a []uint64) uint64 {
			return func(m mode, a []uint64) uint64 {
				v := a[0]
				if src == ptxtype.F32 {
					v &= 0xffffffff
				}
				if src == ptxtype.F32 && v&0x7fffffff > 0x7f800000 || src == ptxtype.F64 && isNaN64(v) {
					// NaN converts to the most negative integer, except f32 to 32 bits.
					switch {
					case dst == ptxtype.S64 || dst == ptxtype.U64:
						return 1 << 63
					case src == ptxtype.F64:
						return 1 << 31
					}
					return 0
				}
				return scalar.CvtFloatToInt(v, src, dst, r, false, m.ftz && src == ptxtype.F32)
			}
		}
		regBitsM("__nv_float2int"+rr.suffix, "f", "i", toInt(ptxtype.F32, ptxtype.S32))
		regBitsM("__nv_float2uint"+rr.suffix, "f", "u", toInt(ptxtype.F32, ptxtype.U32))
		regBitsM("__nv_float2ll"+rr.suffix, "f", "l", toInt(ptxtype.F32, ptxtype.S64))
		regBitsM("__nv_float2ull"+rr.suffix, "f", "L", toInt(ptxtype.F32, ptxtype.U64))
		regBitsM("__nv_double2int"+rr.suffix, "d", "i", toInt(ptxtype.F64, ptxtype.S32))
		regBitsM("__nv_double2uint"+rr.suffix, "d", "u", toInt(ptxtype.F64, ptxtype.U32))
		regBitsM("__nv_double2ll"+rr.suffix, "d", "l", toInt(ptxtype.F64, ptxtype.S64))
		regBitsM("__nv_double2ull"+rr.suffix, "d", "L", toInt(ptxtype.F64, ptxtype.U64))
		fromInt := func(src ptxtype.Type, dst ptxtype.Type, sig string) {
			name := map[ptxtype.Type]string{ptxtype.S32: "int", ptxtype.U32: "uint", ptxtype.S64: "ll", ptxtype.U64: "ull"}[src] +
				map[ptxtype.Type]string{ptxtype.F32: "2float", ptxtype.F64: "2double"}[dst] + rr.suffix
			regBits("__nv_"+name, sig[:1], sig[1:], func(a []uint64) uint64 {
				v := a[0]
				switch src {
				case ptxtype.S32:
					v = uint64(int64(int32(uint32(v))))
				case ptxtype.U32:
					v &= 0xffffffff
				}
				return scalar.CvtIntToFloat(v, src, dst, r)
			})
		}
		fromInt(ptxtype.S32, ptxtype.F32, "if")
		fromInt(ptxtype.U32, ptxtype.F32, "uf")
		fromInt(ptxtype.S64, ptxtype.F32, "lf")
		fromInt(ptxtype.U64, ptxtype.F32, "Lf")
		fromInt(ptxtype.S64, ptxtype.F64, "ld")
		fromInt(ptxtype.U64, ptxtype.F64, "Ld")
		regBitsM("__nv_double2float"+rr.suffix, "d", "f", func(m mode, a []uint64) uint64 {
			if isNaN64(a[0]) {
				return a[0]>>32&0x80000000 | 0x7fc00000 | a[0]>>29&0x3fffff
			}
			return scalar.CvtFloatToFloat(a[0], ptxtype.F64, ptxtype.F32, r, false, m.ftz, false)
		})
	}
	regBits("__nv_int2double_rn", "i", "d", func(a []uint64) uint64 { return b64(float64(s32(a[0]))) })
	regBits("__nv_uint2double_rn", "u", "d", func(a []uint64) uint64 { return b64(float64(u32(a[0]))) })
	regBits("__nv_float2half_rn", "f", "h", func(a []uint64) uint64 { return uint64(scalar.F32ToF16(u32(a[0]), scalar.RN, false, false)) })
	regBits("__nv_half2float", "h", "f", func(a []uint64) uint64 {
		return scalar.CvtFloatToFloat(a[0]&0xffff, ptxtype.F16, ptxtype.F32, scalar.RN, false, false, false)
	})
	ident := func(a []uint64) uint64 { return a[0] }
	ident32 := func(a []uint64) uint64 { return a[0] & 0xffffffff }
	regBits("__nv_float_as_int", "f", "i", ident32)
	regBits("__nv_float_as_uint", "f", "u", ident32)
	regBits("__nv_int_as_float", "i", "f", ident32)
	regBits("__nv_uint_as_float", "u", "f", ident32)
	regBits("__nv_double_as_longlong", "d", "L", ident)
	regBits("__nv_longlong_as_double", "l", "d", ident)
	regBits("__nv_double2hiint", "d", "i", func(a []uint64) uint64 { return a[0] >> 32 })
	regBits("__nv_double2loint", "d", "i", ident32)
	regBits("__nv_hiloint2double", "ii", "d", func(a []uint64) uint64 { return a[0]<<32 | a[1]&0xffffffff })

	// ilogb, logb, frexp, ldexp, scalbn, modf, nextafter.
	regBitsM("__nv_ilogbf", "f", "i", func(m mode, a []uint64) uint64 {
		x := flushIf(m, a[0]) & 0x7fffffff
		switch {
		case x == 0:
			return 0x80000000
		case x < 0x00800000:
			return uint64(uint32(-118 - int32(bits.LeadingZeros32(x))))
		case x == 0x7f800000:
			return 0x7fffffff
		case x > 0x7f800000:
			return 0x80000000
		}
		return uint64(uint32(int32(x>>23) - 127))
	})
	regF1("__nv_logbf", func(m mode, x float32) float32 {
		x = m.flush(x)
		ax := b32(x) & 0x7fffffff
		if ax < 0x00800000 {
			if x == 0 {
				return f32(0xff800000)
			}
			return float32(-118 - int32(bits.LeadingZeros32(ax)))
		}
		if ax > 0x7f7fffff {
			return m.mul(x, x)
		}
		return float32(int32(ax>>23) - 127)
	})
	regOut("__nv_frexpf", "f", "f", "i", func(m mode, a, o []uint64) uint64 {
		x := f32(flushIf(m, a[0]))
		ax := f32(b32(x) & 0x7fffffff)
		sub := ax < f32(0x00800000)
		y := x
		if sub {
			y = m.mul(x, 16777216)
		}
		e := b32(y) >> 23 & 0xff
		if ax == 0 || e == 255 {
			o[0] = 0
			return uint64(b32(m.add(y, y)))
		}
		bias := int32(-126)
		if sub {
			bias = -150
		}
		o[0] = uint64(uint32(bias + int32(e)))
		return uint64(b32(y)&0x807fffff | 0x3f000000)
	})
	ldexpf := func(m mode, a []uint64) uint64 {
		n := min(max(s32(a[1]), -278), 278)
		q := uint32(n+508) >> 2
		r := int32(n+508) - 3*int32(q)
		s1, s2 := uint32(q<<23), uint32(r<<23)
		if abs32(n) < 101 {
			s1, s2 = 0x3f800000, uint32((n+127)<<23)
		}
		x := m.mul(f32(u32(a[0])), f32(s2))
		x = m.mul(x, f32(s1))
		x = m.mul(x, f32(s1))
		return uint64(b32(m.mul(x, f32(s1))))
	}
	regBitsM("__nv_ldexpf", "fi", "f", ldexpf)
	regBitsM("__nv_scalbnf", "fi", "f", ldexpf)
	regOut("__nv_modff", "f", "f", "f", func(m mode, a, o []uint64) uint64 {
		x := u32(a[0])
		t := uint32(scalar.CvtFloatToFloat(uint64(x), ptxtype.F32, ptxtype.F32, scalar.RZ, true, m.ftz, false))
		o[0] = uint64(t)
		if f32(t) == f32(flushIf(m, uint64(x))) {
			return uint64(x & 0x80000000)
		}
		return uint64(b32(m.sub(f32(x), f32(t))))
	})
	regF2("__nv_nextafterf", func(m mode, x, y float32) float32 {
		if x != x || y != y {
			return m.add(x, y)
		}
		x, y = m.flush(x), m.flush(y)
		if f32(b32(x)|b32(y)) == 0 {
			return y
		}
		if x == 0 {
			if m.ftz {
				return f32(scalar.CopysignF32(b32(y), 0x00800000))
			}
			return f32(scalar.CopysignF32(b32(y), 1))
		}
		b := b32(x)
		switch {
		case x < y && x < 0, x > y && x > 0:
			b--
		case x < y && x > 0, x > y && x < 0:
			b++
		}
		return m.flush(f32(b))
	})

	// Integer helpers.
	regBits("__nv_popc", "u", "i", func(a []uint64) uint64 { return uint64(bits.OnesCount32(u32(a[0]))) })
	regBits("__nv_popcll", "L", "i", func(a []uint64) uint64 { return uint64(bits.OnesCount64(a[0])) })
	regBits("__nv_clz", "i", "i", func(a []uint64) uint64 { return uint64(bits.LeadingZeros32(u32(a[0]))) })
	regBits("__nv_clzll", "l", "i", func(a []uint64) uint64 { return uint64(bits.LeadingZeros64(a[0])) })
	regBits("__nv_brev", "i", "i", func(a []uint64) uint64 { return uint64(bits.Reverse32(u32(a[0]))) })
	regBits("__nv_brevll", "l", "l", func(a []uint64) uint64 { return bits.Reverse64(a[0]) })
	regBits("__nv_ffs", "i", "i", func(a []uint64) uint64 {
		if u32(a[0]) == 0 {
			return 0
		}
		return uint64(bits.TrailingZeros32(u32(a[0])) + 1)
	})
	regBits("__nv_ffsll", "l", "i", func(a []uint64) uint64 {
		if a[0] == 0 {
			return 0
		}
		return uint64(bits.TrailingZeros64(a[0]) + 1)
	})
	regBits("__nv_abs", "i", "i", func(a []uint64) uint64 { return uint64(scalar.AbsS32(u32(a[0]))) })
	regBits("__nv_llabs", "l", "l", func(a []uint64) uint64 { return scalar.AbsS64(a[0]) })
	regBits("__nv_min", "ii", "i", func(a []uint64) uint64 { return uint64(scalar.MinS32(u32(a[0]), u32(a[1]))) })
	regBits("__nv_max", "ii", "i", func(a []uint64) uint64 { return uint64(scalar.MaxS32(u32(a[0]), u32(a[1]))) })
	regBits("__nv_umin", "uu", "u", func(a []uint64) uint64 { return uint64(min(u32(a[0]), u32(a[1]))) })
	regBits("__nv_umax", "uu", "u", func(a []uint64) uint64 { return uint64(max(u32(a[0]), u32(a[1]))) })
	regBits("__nv_llmin", "ll", "l", func(a []uint64) uint64 { return scalar.MinS64(a[0], a[1]) })
	regBits("__nv_llmax", "ll", "l", func(a []uint64) uint64 { return scalar.MaxS64(a[0], a[1]) })
	regBits("__nv_ullmin", "LL", "L", func(a []uint64) uint64 { return min(a[0], a[1]) })
	regBits("__nv_ullmax", "LL", "L", func(a []uint64) uint64 { return max(a[0], a[1]) })
	regBits("__nv_mulhi", "ii", "i", func(a []uint64) uint64 { return uint64(scalar.MulHiS32(u32(a[0]), u32(a[1]))) })
	regBits("__nv_umulhi", "uu", "u", func(a []uint64) uint64 { return uint64(scalar.MulHiU32(u32(a[0]), u32(a[1]))) })
	regBits("__nv_mul64hi", "ll", "l", func(a []uint64) uint64 { return scalar.MulHiS64(a[0], a[1]) })
	regBits("__nv_umul64hi", "LL", "L", func(a []uint64) uint64 { return scalar.MulHiU64(a[0], a[1]) })
	regBits("__nv_mul24", "ii", "i", func(a []uint64) uint64 { return uint64(scalar.Mul24(u32(a[0]), u32(a[1]), false, true)) })
	regBits("__nv_umul24", "uu", "u", func(a []uint64) uint64 { return uint64(scalar.Mul24(u32(a[0]), u32(a[1]), false, false)) })
	regBits("__nv_hadd", "ii", "i", func(a []uint64) uint64 { return uint64(uint32((int64(s32(a[0])) + int64(s32(a[1]))) >> 1)) })
	regBits("__nv_rhadd", "ii", "i", func(a []uint64) uint64 {
		return uint64(uint32((int64(s32(a[0])) + int64(s32(a[1])) + 1) >> 1))
	})
	regBits("__nv_uhadd", "uu", "i", func(a []uint64) uint64 { return (a[0]&0xffffffff + a[1]&0xffffffff) >> 1 })
	regBits("__nv_urhadd", "uu", "u", func(a []uint64) uint64 { return (a[0]&0xffffffff + a[1]&0xffffffff + 1) >> 1 })
	regBits("__nv_byte_perm", "iii", "i", func(a []uint64) uint64 {
		return uint64(scalar.Prmt(u32(a[0]), u32(a[1]), u32(a[2])&0x7777, scalar.PrmtMode(0)))
	})
	regBits("__nv_sad", "iii", "i", func(a []uint64) uint64 { return uint64(scalar.Sad32(u32(a[0]), u32(a[1]), u32(a[2]), true)) })
	regBits("__nv_usad", "uuu", "u", func(a []uint64) uint64 { return uint64(scalar.Sad32(u32(a[0]), u32(a[1]), u32(a[2]), false)) })
}

// flushIf returns the f32 bits of a, flushed to zero when m flushes.
func flushIf(m mode, a uint64) uint32 {
	if m.ftz {
		return b32(flushSub(f32(uint32(a))))
	}
	return uint32(a)
}

func abs32(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}
