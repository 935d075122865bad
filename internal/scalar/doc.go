// Package scalar holds the per-lane semantics of PTX's ALU instructions as
// pure functions on bit patterns: integer arithmetic and bit manipulation,
// IEEE binary16/bfloat16/binary32/binary64 arithmetic with every PTX
// rounding mode, flush-to-zero and saturation, conversions, min/max, testp and
// the .approx functions. The engine calls these inside its 32-lane loops, so
// the common cases (round-to-nearest f32 arithmetic, integer ops) are small,
// branch-light and allocation-free; rare cases (directed-rounding f64 fma,
// results deep in the subnormal range) take exact slow paths.
//
// Conventions, shared by every function here:
//
//   - Values are raw bit patterns: uint16 for f16/bf16, uint32 for f32 and
//     packed f16x2/bf16x2 (element 0 in bits 0-15), uint64 for f64. Integer
//     results narrower than their carrier occupy its low bits with the upper
//     bits zero, except the cvt functions, which sign-extend signed results
//     to 64 bits as PTX extends a result to a wider destination register.
//   - Every floating-point result is the exact result rounded once, in the
//     requested Rounding. Single-precision and narrower results are derived
//     from a binary64 "round-to-odd" intermediate, which is exact enough for
//     any later rounding to ≤51 bits (Boldo and Melquiond, 2008); f64 results
//     step from the round-to-nearest result by the sign of an exact error
//     term (TwoSum, FMA remainders), with math/big for the rare rest.
//   - NaN results of f32, f16 and bf16 operations are the canonical NaN of
//     their format (CanonicalNaNF32 …), abs and neg of a NaN included. f64
//     operations propagate a NaN operand's sign and payload, quieted (the
//     PTX ISA: "NaN payloads are supported for double-precision
//     instructions"); abs and neg leave a NaN's sign alone; a NaN an f64
//     operation creates (inf-inf, 0*inf, sqrt(-1)) is CanonicalNaNF64,
//     0xfff8000000000000. Which NaN operand wins is the SASS operand order,
//     which ptxas may permute (see nanOperand); the PTX order is modelled.
//     .sat maps NaN to +0.0. NaN conversions: cvtNaN and nanToInt (cvt.go).
//   - ftz flushes subnormal inputs to a zero of the same sign, and results
//     that are tiny after rounding with an unbounded exponent range (IEEE's
//     "after rounding" tininess): a value just below the smallest normal
//     that rounds up to it is kept (roundFtzF32). f64 arithmetic has no ftz
//     in PTX.
//   - sat clamps the result to [+0.0, 1.0]; -0.0 and every negative value
//     become +0.0.
//   - min/max: a NaN operand is ignored unless both are NaN or .NaN is
//     given (then the canonical NaN; f64: the first NaN, quieted); -0.0 <
//     +0.0.
//   - Integer div and rem by zero give all ones, 16, 32 and 64 bits, signed
//     and unsigned (int.go).
//
// Every one of these rules was checked against a real H100 (H200, the same
// GH100 chip): TestAgainstH100Recordings runs this package's functions on
// the inputs of the conformance suite (testdata/conformance) and compares
// with what the GPU wrote, row by row. Where the PTX ISA leaves room, the
// hardware's choice is documented at the function with the recording that
// shows it. The .approx models are listed in approx.go with their accuracy.
package scalar

// Rounding is an IEEE rounding-direction attribute. The zero value is RN.
type Rounding uint8

const (
	RN  Rounding = iota // to nearest, ties to even (.rn, .rni)
	RZ                  // toward zero (.rz, .rzi)
	RM                  // toward -infinity (.rm, .rmi)
	RP                  // toward +infinity (.rp, .rpi)
	RNA                 // to nearest, ties away from zero (.rna)
)

// String returns the PTX spelling of the rounding modifier.
func (r Rounding) String() string {
	switch r {
	case RN:
		return "rn"
	case RZ:
		return "rz"
	case RM:
		return "rm"
	case RP:
		return "rp"
	case RNA:
		return "rna"
	}
	return "rounding?"
}

// Canonical NaNs: what the H100 writes for a NaN that an operation creates
// (inf-inf, 0*inf, sqrt(-1), NaN inputs of f32/f16/bf16 arithmetic). Recorded
// in testdata/conformance (f32_arith, half_bf16, f64_arith): f32, f16 and
// bf16 results are 0x7fffffff/0x7fff; an f64 invalid operation gives the
// negative default NaN 0xfff8000000000000 (f64 operations otherwise pass a
// NaN operand through, quieted).
const (
	CanonicalNaNF16  uint16 = 0x7fff
	CanonicalNaNBF16 uint16 = 0x7fff
	CanonicalNaNF32  uint32 = 0x7fffffff
	CanonicalNaNF64  uint64 = 0xfff8000000000000
)
