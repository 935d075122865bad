package scalar

import "github.com/warpsim/warpsim/ptx/ptxtype"

// abs and neg act on the sign bit. For NaN inputs the PTX ISA says: abs.f32
// and neg (all types) yield an unspecified NaN, abs.f64 passes the NaN
// through. Recorded on the H100 (testdata/conformance f32_arith, f64_arith,
// half_bf16): f32, f16 and bf16 NaNs become the canonical NaN (0x7fffffff,
// 0x7fff); f64 NaNs come back quieted with their own sign and payload, for
// neg as for abs (neither touches a NaN's sign). copysign is a pure bit
// operation.

// AbsF32 is abs{.ftz}.f32.
func AbsF32(a uint32, ftz bool) uint32 {
	if isNaNF32(a) {
		return CanonicalNaNF32
	}
	if ftz {
		a = flushF32(a)
	}
	return a &^ signF32
}

// NegF32 is neg{.ftz}.f32.
func NegF32(a uint32, ftz bool) uint32 {
	if isNaNF32(a) {
		return CanonicalNaNF32
	}
	if ftz {
		a = flushF32(a)
	}
	return a ^ signF32
}

// AbsF64 is abs.f64; a NaN passes through quieted, sign kept.
func AbsF64(a uint64) uint64 {
	if isNaNF64(a) {
		return quietF64(a)
	}
	return a &^ signF64
}

// NegF64 is neg.f64; a NaN passes through quieted, sign kept.
func NegF64(a uint64) uint64 {
	if isNaNF64(a) {
		return quietF64(a)
	}
	return a ^ signF64
}

// CopysignF32 is copysign.f32 d, a, b: b's magnitude with a's sign.
func CopysignF32(a, b uint32) uint32 { return b&^signF32 | a&signF32 }

// CopysignF64 is copysign.f64 d, a, b: b's magnitude with a's sign.
func CopysignF64(a, b uint64) uint64 { return b&^signF64 | a&signF64 }

// TestpOp is a testp property.
type TestpOp uint8

const (
	TestpFinite     TestpOp = iota // not infinite and not NaN
	TestpInfinite                  // ±inf
	TestpNumber                    // not NaN
	TestpNotANumber                // NaN
	TestpNormal                    // normal or zero ("as a special case, positive and negative zero are considered normal")
	TestpSubnormal                 // subnormal (nonzero, exponent field 0)
)

// Testp is testp.op.type for t = F32 or F64 (the low 32 bits of bits for
// F32); any other type is treated as F64.
func Testp(op TestpOp, bits uint64, t ptxtype.Type) bool {
	var exp, frac, expMax uint64
	if t == ptxtype.F32 {
		exp, frac, expMax = bits>>23&0xff, bits&(1<<23-1), 0xff
	} else {
		exp, frac, expMax = bits>>52&0x7ff, bits&(1<<52-1), 0x7ff
	}
	switch op {
	case TestpFinite:
		return exp != expMax
	case TestpInfinite:
		return exp == expMax && frac == 0
	case TestpNumber:
		return exp != expMax || frac == 0
	case TestpNotANumber:
		return exp == expMax && frac != 0
	case TestpNormal:
		return exp != expMax && (exp != 0 || frac == 0)
	case TestpSubnormal:
		return exp == 0 && frac != 0
	}
	return false
}
