package scalar

// PTX min/max on floats: a NaN operand is ignored unless both are NaN
// (canonical NaN; f64: the first NaN, quieted) or .NaN is given (any NaN
// operand gives the canonical NaN); -0.0 orders below +0.0. Inputs are
// flushed first under ftz.

// orderedKey maps a sign-magnitude float pattern of width bits to an
// unsigned key whose order is the numeric order (-0 just below +0).
func orderedKey(a uint64, signBit uint64) uint64 {
	if a&signBit != 0 {
		return ^a & (signBit<<1 - 1)
	}
	return a | signBit
}

// MinF32 is min{.ftz}{.NaN}.f32.
func MinF32(a, b uint32, ftz, nanProp bool) uint32 {
	return minMaxF32(a, b, ftz, nanProp, false)
}

// MaxF32 is max{.ftz}{.NaN}.f32.
func MaxF32(a, b uint32, ftz, nanProp bool) uint32 {
	return minMaxF32(a, b, ftz, nanProp, true)
}

func minMaxF32(a, b uint32, ftz, nanProp, isMax bool) uint32 {
	if ftz {
		a, b = flushF32(a), flushF32(b)
	}
	an, bn := isNaNF32(a), isNaNF32(b)
	if an || bn {
		switch {
		case an && bn || nanProp:
			return CanonicalNaNF32
		case an:
			return b
		}
		return a
	}
	aLess := orderedKey(uint64(a), signF32) < orderedKey(uint64(b), signF32)
	if aLess != isMax {
		return a
	}
	return b
}

// MinF64 is min{.NaN}.f64.
func MinF64(a, b uint64, nanProp bool) uint64 { return minMaxF64(a, b, nanProp, false) }

// MaxF64 is max{.NaN}.f64.
func MaxF64(a, b uint64, nanProp bool) uint64 { return minMaxF64(a, b, nanProp, true) }

// minMaxF64: with two NaN operands (or .NaN and one) the H100 returns the
// first NaN operand quieted, as f64 arithmetic does (nanOperand), not a
// canonical NaN (testdata/conformance/f64_arith min/max, nvcc variant).
func minMaxF64(a, b uint64, nanProp, isMax bool) uint64 {
	an, bn := isNaNF64(a), isNaNF64(b)
	if an || bn {
		switch {
		case an && bn || nanProp:
			return nanOperand(a, b)
		case an:
			return b
		}
		return a
	}
	aLess := orderedKey(a, signF64) < orderedKey(b, signF64)
	if aLess != isMax {
		return a
	}
	return b
}

func (k halfKind) minMax(a, b uint16, ftz, nanProp, isMax bool) uint16 {
	if ftz {
		a, b = k.flush(a), k.flush(b)
	}
	an, bn := k.isNaN(a), k.isNaN(b)
	if an || bn {
		switch {
		case an && bn || nanProp:
			return CanonicalNaNF16
		case an:
			return b
		}
		return a
	}
	aLess := orderedKey(uint64(a), signH) < orderedKey(uint64(b), signH)
	if aLess != isMax {
		return a
	}
	return b
}

// MinF16 is min{.ftz}{.NaN}.f16.
func MinF16(a, b uint16, ftz, nanProp bool) uint16 { return kindF16.minMax(a, b, ftz, nanProp, false) }

// MaxF16 is max{.ftz}{.NaN}.f16.
func MaxF16(a, b uint16, ftz, nanProp bool) uint16 { return kindF16.minMax(a, b, ftz, nanProp, true) }

// MinBF16 is min{.NaN}.bf16.
func MinBF16(a, b uint16, nanProp bool) uint16 { return kindBF16.minMax(a, b, false, nanProp, false) }

// MaxBF16 is max{.NaN}.bf16.
func MaxBF16(a, b uint16, nanProp bool) uint16 { return kindBF16.minMax(a, b, false, nanProp, true) }

// MinF16x2 is min{.ftz}{.NaN}.f16x2, element-wise.
func MinF16x2(a, b uint32, ftz, nanProp bool) uint32 {
	return uint32(MinF16(uint16(a), uint16(b), ftz, nanProp)) | uint32(MinF16(uint16(a>>16), uint16(b>>16), ftz, nanProp))<<16
}

// MaxF16x2 is max{.ftz}{.NaN}.f16x2, element-wise.
func MaxF16x2(a, b uint32, ftz, nanProp bool) uint32 {
	return uint32(MaxF16(uint16(a), uint16(b), ftz, nanProp)) | uint32(MaxF16(uint16(a>>16), uint16(b>>16), ftz, nanProp))<<16
}

// MinBF16x2 is min{.NaN}.bf16x2, element-wise.
func MinBF16x2(a, b uint32, nanProp bool) uint32 {
	return uint32(MinBF16(uint16(a), uint16(b), nanProp)) | uint32(MinBF16(uint16(a>>16), uint16(b>>16), nanProp))<<16
}

// MaxBF16x2 is max{.NaN}.bf16x2, element-wise.
func MaxBF16x2(a, b uint32, nanProp bool) uint32 {
	return uint32(MaxBF16(uint16(a), uint16(b), nanProp)) | uint32(MaxBF16(uint16(a>>16), uint16(b>>16), nanProp))<<16
}
