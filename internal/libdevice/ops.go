package libdevice

import (
	"math"

	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// mode is the module's __CUDA_FTZ setting, which libdevice reads through
// __nvvm_reflect: with ftz set its f32 arithmetic flushes subnormal inputs
// and results to zero.
type mode struct{ ftz bool }

var (
	ieee    = mode{}
	flushed = mode{ftz: true}
)

func b32(x float32) uint32 { return math.Float32bits(x) }
func f32(b uint32) float32 { return math.Float32frombits(b) }
func b64(x float64) uint64 { return math.Float64bits(x) }
func f64(b uint64) float64 { return math.Float64frombits(b) }

// The f32 operations below are the PTX instructions libdevice's code compiles
// to (add.f32, mul.f32, fma.rn.f32 …), with the H100's NaN results.

func (m mode) add(a, b float32) float32 {
	if m.ftz {
		a, b = flushSub(a), flushSub(b)
		return flushTiny(scalar.AddF32(b32(a), b32(b), scalar.RN, false, false), float64(a)+float64(b))
	}
	return f32(scalar.AddF32(b32(a), b32(b), scalar.RN, false, false))
}
func (m mode) sub(a, b float32) float32 {
	if a != a || b != b {
		return f32(nanF32)
	}
	return m.add(a, -b)
}
func (m mode) mul(a, b float32) float32 {
	if m.ftz {
		a, b = flushSub(a), flushSub(b)
		return flushTiny(scalar.MulF32(b32(a), b32(b), scalar.RN, false, false), float64(a)*float64(b))
	}
	return f32(scalar.MulF32(b32(a), b32(b), scalar.RN, false, false))
}
func (m mode) fma(a, b, c float32) float32 { return m.fmaR(a, b, c, scalar.RN) }
func (m mode) fmaR(a, b, c float32, r scalar.Rounding) float32 {
	if m.ftz {
		a, b, c = flushSub(a), flushSub(b), flushSub(c)
		return f32(uint32(ftz32(true, scalar.FmaF32(b32(a), b32(b), b32(c), r, false, false),
			math.FMA(float64(a), float64(b), float64(c)), r)))
	}
	return f32(scalar.FmaF32(b32(a), b32(b), b32(c), r, false, false))
}
func (m mode) div(a, b float32) float32 {
	if m.ftz {
		a, b = flushSub(a), flushSub(b)
		return flushTiny(scalar.DivF32(b32(a), b32(b), scalar.RN, false, false), float64(a)/float64(b))
	}
	return f32(scalar.DivF32(b32(a), b32(b), scalar.RN, false, false))
}

// nanF32 is the NaN the H100 writes for every f32 arithmetic NaN result.
const nanF32 = 0x7fffffff

// flushTiny applies the H100's .ftz to a rounded f32 result d whose exact
// (or nearly exact, in float64) value is exact: the hardware flushes when the
// value before rounding is below the smallest normal, so a result that rounds
// up to 2^-126 is flushed too.
func flushTiny(d uint32, exact float64) float32 {
	return f32(uint32(ftz32(true, d, exact, scalar.RN)))
}
func (m mode) sqrt(a float32) float32 { return f32(scalar.SqrtF32(b32(a), scalar.RN, m.ftz)) }
func (m mode) flush(a float32) float32 {
	if m.ftz {
		return flushSub(a)
	}
	return a
}

// Approximate SFU instructions (sfu.go). Without .ftz, ex2 keeps subnormal
// results (the SASS halves inputs below -126 and squares the result) and rcp
// and rsqrt scale subnormal inputs, as ptxas expands them.
func ex2Approx(a float32, ftz bool) float32 {
	if ftz || !(a < -126) {
		return f32(ex2ApproxFtz(b32(a)))
	}
	h := f32(ex2ApproxFtz(b32(a * 0.5)))
	return h * h
}
func rcpApprox(a float32, ftz bool) float32 {
	if ftz || !(f32(b32(a)&0x7fffffff) < 0x1p-126) {
		return f32(rcpApproxFtz(b32(a)))
	}
	return f32(rcpApproxFtz(b32(a*16777216))) * 16777216
}

// divApprox is div.approx{.ftz}.f32: a times the SFU reciprocal of b (both
// scaled by 2^24 first when b is subnormal and the form keeps subnormals).
func divApprox(a, b float32, ftz bool) float32 {
	if ftz {
		return divApproxFtz(a, b)
	}
	if f32(b32(b)&0x7fffffff) < 0x1p-126 {
		a, b = a*16777216, b*16777216
	}
	return ieee.mul(f32(rcpApproxFtz(b32(b))), a)
}
func rsqrtApprox(a float32, ftz bool) float32 {
	if ftz || !(f32(b32(a)&0x7fffffff) < 0x1p-126) {
		return f32(rsqrtApproxFtz(b32(a)))
	}
	return f32(rsqrtApproxFtz(b32(a*16777216))) * 4096
}
func lg2Approx(a float32, ftz bool) float32 {
	if ftz {
		return f32(lg2ApproxFtz(b32(a)))
	}
	return f32(lg2ApproxF32(b32(a)))
}

// flushSub returns a sign-preserving zero for a subnormal a.
func flushSub(a float32) float32 {
	if b32(a)&0x7f800000 == 0 {
		return f32(b32(a) & 0x80000000)
	}
	return a
}

// Double-precision instructions.
func fma64(a, b, c float64) float64 { return math.FMA(a, b, c) }

// nanF64 is the NaN the H100 writes for an invalid f64 operation.
const nanF64 = 0xfff8000000000000

func isNaN64(a uint64) bool { return a&^(1<<63) > 0x7ff0000000000000 }

// fix64 gives an f64 instruction's result the H100's NaN rules: the first NaN
// operand, quieted, or nanF64 for an invalid operation.
func fix64(res uint64, args ...uint64) uint64 {
	for _, a := range args {
		if isNaN64(a) {
			return a | 1<<51
		}
	}
	if isNaN64(res) {
		return nanF64
	}
	return res
}

// ftz32 applies the H100's .ftz to an f32 instruction's result d, given its
// exact value and rounding mode r: the hardware rounds to 24 bits as if the
// exponent were unbounded and flushes what is then below 2^-126.
func ftz32(ftz bool, d uint32, exact float64, r scalar.Rounding) uint64 {
	if !ftz || d&0x7fffffff > 0x00800000 || exact != exact {
		return uint64(d)
	}
	scaled := uint32(scalar.CvtFloatToFloat(b64(exact*0x1p64), ptxtype.F64, ptxtype.F32, r, false, false, false))
	if scaled&0x7fffffff < 0x20800000 { // below 2^-126·2^64
		d &= 0x80000000
	}
	return uint64(d)
}

// minMax64 is min.f64/max.f64: a NaN operand is ignored; two NaNs give the
// first, quieted.
func minMax64(a, b uint64, isMax bool) uint64 {
	if isNaN64(a) && isNaN64(b) {
		return a | 1<<51
	}
	if isMax {
		return scalar.MaxF64(a, b, false)
	}
	return scalar.MinF64(a, b, false)
}

const (
	rn = scalar.RN
	rz = scalar.RZ
	rm = scalar.RM
	rp = scalar.RP
)

func roundEven64(x float64) float64 { return math.RoundToEven(x) }

func scalarAddRZ64(a, b uint64) uint64 { return scalar.AddF64(a, b, scalar.RZ) }

func scalarRcpRN64(a uint64) uint64 { return scalar.RcpF64(a, scalar.RN) }
