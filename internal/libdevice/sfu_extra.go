package libdevice

import (
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// More PTX .approx instructions as the H100 runs them, found from the SASS
// ptxas 13.0 emits for sm_90 (sfu_extra_data/sfu_extra_sass.cu, its SASS in
// sfu_extra_sass.txt) and from tables recorded on an H100
// (sfu_extra_data/sfu_extra_rec.cu):
//
//   - sqrt.approx.ftz.f32 is MUFU.SQRT alone. Like MUFU.RSQ it depends only
//     on the significand and the exponent's parity: one table of 2^24 entries
//     (the difference from the correctly rounded root, -1…+1), the rest of the
//     exponent scaling the result; checked on the GPU over every positive
//     normal f32 (0 mismatches).
//   - sqrt.approx.f32 scales inputs below 2^-126 (zero included) by 2^24
//     before MUFU.SQRT and the result by 2^-12 after.
//   - div.full.f32 is a·MUFU.RCP(b) (FMUL) with both operands scaled by 1/4
//     when |b| > 2^126, and (without .ftz) by 2^24 when |b| < 2^-126.
//   - tanh.approx.f16 and .bf16 are MUFU.TANH.F16 / MUFU.TANH.BF16; the
//     f16x2/bf16x2 forms run it on each half. Both tables are recorded whole
//     (65536 entries each, as differences from the correctly rounded tanh,
//     -1…0); a NaN input gives 0x7fff.
//
// tanh.approx.f32 is a single MUFU.TANH too, but its 2^32 results have no
// recorded table; internal/scalar models it within the ISA's bound.

var (
	sqrtTable     = sfuTable{file: "sfu_extra_data/sqrt.bin.gz", size: 1 << 24}
	tanhF16Table  = sfuTable{file: "sfu_extra_data/tanh_f16.bin.gz", size: 1 << 16}
	tanhBF16Table = sfuTable{file: "sfu_extra_data/tanh_bf16.bin.gz", size: 1 << 16}
)

// sqrtApproxFtz is MUFU.SQRT (sqrt.approx.ftz.f32).
func sqrtApproxFtz(a uint32) uint32 {
	e := int32(a >> 23 & 0xff)
	switch {
	case a&0x7fffffff > 0x7f800000:
		return nanF32
	case e == 0:
		return a & 0x80000000 // ±0 and flushed subnormals
	case a&0x80000000 != 0:
		return nanF32
	case e == 255:
		return 0x7f800000
	}
	mant := a & 0x7fffff
	ue := e - 127
	p := ue & 1
	t := uint32(int32(sqrtRef(uint32(127+p)<<23|mant)) + sqrtTable.delta(int(p)<<23|int(mant)))
	return t + uint32((ue-p)/2)<<23 // results of normal inputs stay normal
}

// sqrtRef is the correctly rounded square root of a positive normal f32 (the
// table's reference; float64's root rounds to f32 without double rounding
// error).
func sqrtRef(x uint32) uint32 { return b32(float32(math.Sqrt(float64(f32(x))))) }

// sqrtApproxF32 is sqrt.approx.f32 as ptxas expands it.
func sqrtApproxF32(a uint32) uint32 {
	x := f32(a)
	small := float32(math.Abs(float64(x))) < 0x1p-126 // FSETP.GEU, negated: false for NaN
	if small {
		x = ieee.mul(x, 0x1p24)
	}
	y := f32(sqrtApproxFtz(b32(x)))
	if small {
		y = ieee.mul(y, 0x1p-12)
	}
	return b32(y)
}

// divFull is div.full.f32 as ptxas expands it.
func divFull(a, b uint32, ftz bool) uint32 {
	m := ieee
	if ftz {
		m = flushed
	}
	x, y := f32(a), f32(b)
	ay := math.Abs(float64(y))
	if ay > 0x1p126 {
		y, x = m.mul(y, 0.25), m.mul(x, 0.25)
	}
	if !ftz && ay < 0x1p-126 {
		y, x = m.mul(y, 0x1p24), m.mul(x, 0x1p24)
	}
	return b32(m.mul(f32(rcpApproxFtz(b32(y))), x))
}

// tanhF16Ref and tanhBF16Ref are the correctly rounded tanh of a non-NaN
// input, the references of the tanh tables.
func tanhF16Ref(a uint16) uint16  { return tanhRef(a, ptxtype.F16) }
func tanhBF16Ref(a uint16) uint16 { return tanhRef(a, ptxtype.BF16) }

func tanhRef(a uint16, t ptxtype.Type) uint16 {
	x := math.Tanh(scalar.FloatValue(uint64(a), t))
	return uint16(scalar.CvtFloatToFloat(math.Float64bits(x), ptxtype.F64, t, scalar.RN, false, false, false))
}

// tanh16 is MUFU.TANH.F16 or MUFU.TANH.BF16, by table.
func tanh16(a uint16, t ptxtype.Type, tab *sfuTable) uint16 {
	exp := uint16(0x7c00) // f16
	if t == ptxtype.BF16 {
		exp = 0x7f80
	}
	if a&0x7fff > exp {
		return 0x7fff
	}
	return uint16(int32(tanhRef(a, t)) + tab.delta(int(a)))
}

// SqrtApproxFtzF32 is sqrt.approx.ftz.f32 (MUFU.SQRT).
func SqrtApproxFtzF32(a uint32) uint32 { return sqrtApproxFtz(a) }

// SqrtApproxF32 is sqrt.approx.f32 (without .ftz) as ptxas expands it.
func SqrtApproxF32(a uint32) uint32 { return sqrtApproxF32(a) }

// DivFullFtzF32 is div.full.ftz.f32 as ptxas expands it.
func DivFullFtzF32(a, b uint32) uint32 { return divFull(a, b, true) }

// DivFullF32 is div.full.f32 (without .ftz) as ptxas expands it.
func DivFullF32(a, b uint32) uint32 { return divFull(a, b, false) }

// TanhApproxF16 is tanh.approx.f16 (MUFU.TANH.F16).
func TanhApproxF16(a uint16) uint16 { return tanh16(a, ptxtype.F16, &tanhF16Table) }

// TanhApproxBF16 is tanh.approx.bf16 (MUFU.TANH.BF16).
func TanhApproxBF16(a uint16) uint16 { return tanh16(a, ptxtype.BF16, &tanhBF16Table) }

// TanhApproxF16x2 is tanh.approx.f16x2: MUFU.TANH.F16 on each half.
func TanhApproxF16x2(a uint32) uint32 {
	return uint32(TanhApproxF16(uint16(a))) | uint32(TanhApproxF16(uint16(a>>16)))<<16
}

// TanhApproxBF16x2 is tanh.approx.bf16x2: MUFU.TANH.BF16 on each half.
func TanhApproxBF16x2(a uint32) uint32 {
	return uint32(TanhApproxBF16(uint16(a))) | uint32(TanhApproxBF16(uint16(a>>16)))<<16
}
