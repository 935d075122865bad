package engine

import (
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/internal/scalar"
)

// The special-function unit's approximate instructions. Where a table of the
// H100's own answers exists (recorded on the GPU, kept in internal/libdevice,
// which libdevice's algorithms need too) the engine uses it; elsewhere
// internal/scalar's model within the PTX ISA's stated error.

const (
	f32ExpMask = 0x7f800000
	f32MinNorm = 0x00800000
)

func isSubnormalF32(a uint32) bool { return a&f32ExpMask == 0 && a&0x7fffffff != 0 }

// rcpApproxF32 is rcp.approx{.ftz}.f32. Without .ftz, subnormal inputs and
// results (|a| above 2^126) leave the table's range: those go to the model.
func rcpApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.RcpApproxFtzF32(a)
	}
	if isSubnormalF32(a) || a&0x7fffffff >= 0x7e800000 && a&0x7fffffff < f32ExpMask {
		return scalar.RcpApproxF32(a, false)
	}
	return libdevice.RcpApproxFtzF32(a)
}

// rsqrtApproxF32 is rsqrt.approx{.ftz}.f32. Without .ftz a subnormal input
// is scaled by 2^24 into the normal range and the result by 2^12, exactly.
func rsqrtApproxF32(a uint32, ftz bool) uint32 {
	if ftz || !isSubnormalF32(a) {
		return libdevice.RsqrtApproxFtzF32(a)
	}
	scaled := scalar.MulF32(a, 0x4b800000, scalar.RN, false, false) // × 2^24, exact
	r := libdevice.RsqrtApproxFtzF32(scaled)
	return scalar.MulF32(r, 0x45800000, scalar.RN, false, false) // × 2^12, exact
}

// ex2ApproxF32 is ex2.approx{.ftz}.f32.
func ex2ApproxF32(a uint32, ftz bool) uint32 {
	if ftz {
		return libdevice.Ex2ApproxFtzF32(a)
	}
	return libdevice.Ex2ApproxF32(a)
}

// rsqrtApproxF64 is rsqrt.approx{.ftz}.f64.
func rsqrtApproxF64(a uint64, ftz bool) uint64 {
	if ftz {
		return libdevice.RsqrtApproxFtzF64(a)
	}
	return libdevice.RsqrtApproxF64(a)
}
