package libdevice

// Exported SFU models, for the engine's own ex2/rcp/rsqrt.approx instructions
// (internal/scalar models them as correctly rounded, which the H100 is not).
// Bits in, bits out.

// Ex2ApproxFtzF32 is ex2.approx.ftz.f32 as the H100 computes it.
func Ex2ApproxFtzF32(a uint32) uint32 { return ex2ApproxFtz(a) }

// Ex2ApproxF32 is ex2.approx.f32 (without .ftz) as ptxas expands it.
func Ex2ApproxF32(a uint32) uint32 { return b32(ex2Approx(f32(a), false)) }

// RcpApproxFtzF32 is rcp.approx.ftz.f32 as the H100 computes it.
func RcpApproxFtzF32(a uint32) uint32 { return rcpApproxFtz(a) }

// RsqrtApproxFtzF32 is rsqrt.approx.ftz.f32; exact except for significands in
// [3, 4) after folding an odd exponent, where it is correctly rounded.
func RsqrtApproxFtzF32(a uint32) uint32 { return rsqrtApproxFtz(a) }

// RcpApproxFtzF64 is rcp.approx.ftz.f64 (MUFU.RCP64H) as the H100 computes it.
func RcpApproxFtzF64(a uint64) uint64 { return rcpApproxFtz64(a) }

// RsqrtApproxF64 is rsqrt.approx.f64 as ptxas expands it (MUFU.RSQ64H and one
// refinement step).
func RsqrtApproxF64(a uint64) uint64 { return rsqrtApproxF64(a) }

// RsqrtApproxFtzF64 is rsqrt.approx.ftz.f64 (MUFU.RSQ64H alone).
func RsqrtApproxFtzF64(a uint64) uint64 { return rsqrtApproxFtz64(a) }
