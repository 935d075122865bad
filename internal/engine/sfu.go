package engine

import "github.com/warpsim/warpsim/internal/libdevice"

// The special-function unit's approximate f32/f64 instructions, as the H100
// answers them: internal/libdevice holds tables of the GPU's own results,
// recorded on the GPU (libdevice's algorithms need them too), and the
// sequences ptxas expands sqrt.approx and div.full into. tanh.approx.f16/bf16
// come from whole recorded tables; tanh.approx.f32 and ex2.approx.f16/bf16
// remain internal/scalar's models.

func rcpApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.RcpApproxFtzF32(a)
	}
	return libdevice.RcpApproxF32(a)
}

func rsqrtApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.RsqrtApproxFtzF32(a)
	}
	return libdevice.RsqrtApproxF32(a)
}

func ex2ApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.Ex2ApproxFtzF32(a)
	}
	return libdevice.Ex2ApproxF32(a)
}

func lg2ApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.Lg2ApproxFtzF32(a)
	}
	return libdevice.Lg2ApproxF32(a)
}

// sin.approx and cos.approx flush subnormal inputs with or without .ftz.
func sinApproxF32(a uint32) uint32 { return libdevice.SinApproxF32(a) }
func cosApproxF32(a uint32) uint32 { return libdevice.CosApproxF32(a) }

func divApproxF32(a, b uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.DivApproxFtzF32(a, b)
	}
	return libdevice.DivApproxF32(a, b)
}

func rsqrtApproxF64(a uint64, ftz bool) uint64 {
	if ftz {
		return libdevice.RsqrtApproxFtzF64(a)
	}
	return libdevice.RsqrtApproxF64(a)
}

func sqrtApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.SqrtApproxFtzF32(a)
	}
	return libdevice.SqrtApproxF32(a)
}

func divFullF32(a, b uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.DivFullFtzF32(a, b)
	}
	return libdevice.DivFullF32(a, b)
}

func tanhApproxF16(a uint16) uint16    { return libdevice.TanhApproxF16(a) }
func tanhApproxF16x2(a uint32) uint32  { return libdevice.TanhApproxF16x2(a) }
func tanhApproxBF16(a uint16) uint16   { return libdevice.TanhApproxBF16(a) }
func tanhApproxBF16x2(a uint32) uint32 { return libdevice.TanhApproxBF16x2(a) }
