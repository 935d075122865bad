package scalar

// FP8 conversions (sm_89+): .e4m3 (4 exponent bits, bias 7, 3 fraction
// bits, no infinities, NaN = S.1111.111, max 448) and .e5m2 (IEEE-style:
// 5 exponent bits, 2 fraction bits, max 57344). PTX converts to FP8 only as
// cvt.rn.satfinite{.relu}: round to nearest even, magnitudes beyond MAX_NORM
// (and infinities) saturate to ±MAX_NORM, NaN gives NaN (0x7f), .relu turns
// negative results into +0. In the x2 forms the first source operand goes to
// the upper byte.

var (
	// fmtE5M3 is e4m3 re-biased (bias 15 instead of 7) so roundF64 can do
	// the rounding: e4m3's patterns are e5m3's for a value scaled by 2^-8.
	fmtE5M3 = format{fracBits: 3, expBits: 5}
	fmtE5M2 = format{fracBits: 2, expBits: 5}
)

const (
	nanFP8  = 0x7f // the NaN cvt writes (S.1111.111 is e4m3's only NaN)
	maxE4M3 = 0x7e // 448
	maxE5M2 = 0x7b // 57344
	signFP8 = 0x80
	// e4m3Rebias maps an e4m3 value onto the same pattern in fmtE5M3.
	e4m3Rebias = 0x1p-8
)

// toE4M3 converts an exact value to e4m3 (rn, satfinite).
func toE4M3(x float64, relu bool) uint8 {
	if x != x {
		return nanFP8
	}
	p := roundF64(x*e4m3Rebias, fmtE5M3, RN)
	var s uint8
	if p&0x100 != 0 {
		s = signFP8
	}
	m := p & 0xff
	if m > maxE4M3 {
		m = maxE4M3
	}
	return fp8Relu(s|uint8(m), relu)
}

// toE5M2 converts an exact value to e5m2 (rn, satfinite).
func toE5M2(x float64, relu bool) uint8 {
	if x != x {
		return nanFP8
	}
	p := roundF64(x, fmtE5M2, RN)
	var s uint8
	if p&0x80 != 0 {
		s = signFP8
	}
	m := p & 0x7f
	if m > maxE5M2 {
		m = maxE5M2
	}
	return fp8Relu(s|uint8(m), relu)
}

func fp8Relu(d uint8, relu bool) uint8 {
	if relu && d&signFP8 != 0 && d&^signFP8 != nanFP8 {
		return 0
	}
	return d
}

// E4M3ToF64 returns the value of an e4m3 pattern (NaN for S.1111.111).
func E4M3ToF64(b uint8) float64 {
	if b&^signFP8 == nanFP8 {
		return F16ToF64(CanonicalNaNF16)
	}
	// e4m3 is e5m3 of x·2^-8; e5m3's upper bits are f16's with 7 fraction bits fewer
	v := F16ToF64(uint16(b&^signFP8)<<7) / e4m3Rebias
	if b&signFP8 != 0 {
		v = -v
	}
	return v
}

// E5M2ToF64 returns the value of an e5m2 pattern: the upper byte of an f16.
func E5M2ToF64(b uint8) float64 { return F16ToF64(uint16(b) << 8) }

// F32x2ToE4M3x2 is cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b.
func F32x2ToE4M3x2(a, b uint32, relu bool) uint16 {
	return uint16(toE4M3(f32(a), relu))<<8 | uint16(toE4M3(f32(b), relu))
}

// F32x2ToE5M2x2 is cvt.rn.satfinite{.relu}.e5m2x2.f32 d, a, b.
func F32x2ToE5M2x2(a, b uint32, relu bool) uint16 {
	return uint16(toE5M2(f32(a), relu))<<8 | uint16(toE5M2(f32(b), relu))
}

// F16x2ToE4M3x2 is cvt.rn.satfinite{.relu}.e4m3x2.f16x2 d, a: each half of
// a to the byte in the same position.
func F16x2ToE4M3x2(a uint32, relu bool) uint16 {
	return uint16(toE4M3(F16ToF64(uint16(a>>16)), relu))<<8 | uint16(toE4M3(F16ToF64(uint16(a)), relu))
}

// F16x2ToE5M2x2 is cvt.rn.satfinite{.relu}.e5m2x2.f16x2 d, a.
func F16x2ToE5M2x2(a uint32, relu bool) uint16 {
	return uint16(toE5M2(F16ToF64(uint16(a>>16)), relu))<<8 | uint16(toE5M2(F16ToF64(uint16(a)), relu))
}

// E4M3x2ToF16x2 is cvt.rn{.relu}.f16x2.e4m3x2 d, a (exact; NaN gives the
// canonical f16 NaN).
func E4M3x2ToF16x2(a uint16, relu bool) uint32 {
	return uint32(fp8ToF16(E4M3ToF64(uint8(a>>8)), relu))<<16 | uint32(fp8ToF16(E4M3ToF64(uint8(a)), relu))
}

// E5M2x2ToF16x2 is cvt.rn{.relu}.f16x2.e5m2x2 d, a.
func E5M2x2ToF16x2(a uint16, relu bool) uint32 {
	return uint32(fp8ToF16(E5M2ToF64(uint8(a>>8)), relu))<<16 | uint32(fp8ToF16(E5M2ToF64(uint8(a)), relu))
}

func fp8ToF16(x float64, relu bool) uint16 {
	return kindF16.fromF64(x, RN, relu, false)
}
