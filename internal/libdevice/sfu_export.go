package libdevice

// Exported SFU models, for the engine's own PTX .approx instructions
// (internal/scalar models most of them as correctly rounded, which the H100
// is not). Each is bit-exact to the H100 over its whole input range (see
// sfu.go). Bits in, bits out.

// Ex2ApproxFtzF32 is ex2.approx.ftz.f32.
func Ex2ApproxFtzF32(a uint32) uint32 { return ex2ApproxFtz(a) }

// Ex2ApproxF32 is ex2.approx.f32 (without .ftz) as ptxas expands it.
func Ex2ApproxF32(a uint32) uint32 { return b32(ex2Approx(f32(a), false)) }

// Lg2ApproxFtzF32 is lg2.approx.ftz.f32.
func Lg2ApproxFtzF32(a uint32) uint32 { return lg2ApproxFtz(a) }

// Lg2ApproxF32 is lg2.approx.f32 (without .ftz) as ptxas expands it.
func Lg2ApproxF32(a uint32) uint32 { return lg2ApproxF32(a) }

// SinApproxF32 is sin.approx.f32 and sin.approx.ftz.f32 (the same on the
// H100: the multiply by 1/2π flushes subnormals either way).
func SinApproxF32(a uint32) uint32 { return sinCosApprox(a, false) }

// CosApproxF32 is cos.approx.f32 and cos.approx.ftz.f32.
func CosApproxF32(a uint32) uint32 { return sinCosApprox(a, true) }

// RcpApproxFtzF32 is rcp.approx.ftz.f32.
func RcpApproxFtzF32(a uint32) uint32 { return rcpApproxFtz(a) }

// RcpApproxF32 is rcp.approx.f32 (without .ftz) as ptxas expands it.
func RcpApproxF32(a uint32) uint32 { return rcpApproxF32(a) }

// RsqrtApproxFtzF32 is rsqrt.approx.ftz.f32.
func RsqrtApproxFtzF32(a uint32) uint32 { return rsqrtApproxFtz(a) }

// RsqrtApproxF32 is rsqrt.approx.f32 (without .ftz) as ptxas expands it.
func RsqrtApproxF32(a uint32) uint32 { return b32(rsqrtApprox(f32(a), false)) }

// DivApproxFtzF32 is div.approx.ftz.f32.
func DivApproxFtzF32(a, b uint32) uint32 { return b32(divApprox(f32(a), f32(b), true)) }

// DivApproxF32 is div.approx.f32 (without .ftz) as ptxas expands it.
func DivApproxF32(a, b uint32) uint32 { return b32(divApprox(f32(a), f32(b), false)) }

// RcpApproxFtzF64 is rcp.approx.ftz.f64 (MUFU.RCP64H).
func RcpApproxFtzF64(a uint64) uint64 { return rcpApproxFtz64(a) }

// RsqrtApproxF64 is rsqrt.approx.f64 as ptxas expands it (MUFU.RSQ64H and one
// refinement step).
func RsqrtApproxF64(a uint64) uint64 { return rsqrtApproxF64(a) }

// RsqrtApproxFtzF64 is rsqrt.approx.ftz.f64 (MUFU.RSQ64H alone).
func RsqrtApproxFtzF64(a uint64) uint64 { return rsqrtApproxFtz64(a) }
