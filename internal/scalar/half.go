package scalar

import "math"

// Half-precision formats: IEEE binary16 (f16) and bfloat16 (bf16). Their
// arithmetic is evaluated exactly (or to odd) in float64 and rounded once.

const (
	signH   = 0x8000
	oneF16  = 0x3c00
	oneBF16 = 0x3f80
)

// F16ToF64 returns the value of an f16 bit pattern (exact).
func F16ToF64(h uint16) float64 {
	exp := uint64(h>>10) & 0x1f
	frac := uint64(h) & 0x3ff
	s := uint64(h>>15) << 63
	switch exp {
	case 0:
		v := float64(frac) * 0x1p-24
		if s != 0 {
			v = -v
		}
		return v
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Float64frombits(s | 0x7ff<<52)
	}
	return math.Float64frombits(s | (exp+1008)<<52 | frac<<42)
}

// BF16ToF64 returns the value of a bf16 bit pattern (exact).
func BF16ToF64(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

// halfKind selects f16 or bf16 in the shared helpers below.
type halfKind uint8

const (
	kindF16 halfKind = iota
	kindBF16
)

func (k halfKind) format() format {
	if k == kindBF16 {
		return fmtBF16
	}
	return fmtF16
}

func (k halfKind) value(h uint16) float64 {
	if k == kindBF16 {
		return BF16ToF64(h)
	}
	return F16ToF64(h)
}

func (k halfKind) one() uint16 {
	if k == kindBF16 {
		return oneBF16
	}
	return oneF16
}

func (k halfKind) expMask() uint16 {
	if k == kindBF16 {
		return 0x7f80
	}
	return 0x7c00
}

func (k halfKind) flush(h uint16) uint16 {
	if h&k.expMask() == 0 {
		return h & signH
	}
	return h
}

func (k halfKind) isNaN(h uint16) bool { return h&^signH > k.expMask() }

// round converts an exact-or-odd float64 to the half format, with NaN
// canonical.
func (k halfKind) round(x float64, r Rounding) uint16 {
	if x != x {
		return CanonicalNaNF16 // same pattern for bf16
	}
	return uint16(roundF64(x, k.format(), r))
}

// roundFtz is round for .ftz results: rounded with an unbounded exponent
// range, then flushed when below the smallest normal (see roundFtzF32;
// recorded for f16 in testdata/conformance/half_bf16 mul_ftz_sat_f16:
// (1-2^-11)·2^-14 gives +0).
func (k halfKind) roundFtz(x float64, r Rounding) uint16 {
	minNormal := uint16(1) << k.format().fracBits
	d := k.round(x, r)
	if d&^signH == minNormal && k.round(x*0x1p4, r)&^signH < minNormal+4<<k.format().fracBits {
		return d & signH
	}
	return k.flush(d)
}

// roundMaybeFtz is roundFtz under ftz, round otherwise.
func (k halfKind) roundMaybeFtz(x float64, r Rounding, ftz bool) uint16 {
	if ftz {
		return k.roundFtz(x, r)
	}
	return k.round(x, r)
}

func (k halfKind) finish(d uint16, ftz, sat bool) uint16 {
	if ftz {
		d = k.flush(d)
	}
	if sat {
		switch {
		case d&signH != 0 || k.isNaN(d):
			d = 0
		case d > k.one():
			d = k.one()
		}
	}
	return d
}

func (k halfKind) add(a, b uint16, r Rounding, ftz, sat bool) uint16 {
	if ftz {
		a, b = k.flush(a), k.flush(b)
	}
	x, y := k.value(a), k.value(b)
	s := oddSum(x, y)
	if s == 0 {
		s = exactZeroSum(x, y, r)
	}
	return k.finish(k.roundMaybeFtz(s, r, ftz), ftz, sat)
}

func (k halfKind) mul(a, b uint16, r Rounding, ftz, sat bool) uint16 {
	if ftz {
		a, b = k.flush(a), k.flush(b)
	}
	// exact: at most 2×8 or 2×11 significant bits, exponents well inside float64's
	return k.finish(k.roundMaybeFtz(k.value(a)*k.value(b), r, ftz), ftz, sat)
}

func (k halfKind) fma(a, b, c uint16, r Rounding, ftz, sat, relu bool) uint16 {
	if ftz {
		a, b, c = k.flush(a), k.flush(b), k.flush(c)
	}
	p := float64(k.value(a) * k.value(b))
	z := k.value(c)
	s := oddSum(p, z)
	if s == 0 {
		s = exactZeroSum(p, z, r)
	}
	d := k.finish(k.roundMaybeFtz(s, r, ftz), ftz, sat)
	if relu && (d&signH != 0 && !k.isNaN(d)) {
		d = 0
	}
	return d
}

// AddF16 is add{.rnd}{.ftz}{.sat}.f16.
func AddF16(a, b uint16, r Rounding, ftz, sat bool) uint16 { return kindF16.add(a, b, r, ftz, sat) }

// SubF16 is sub{.rnd}{.ftz}{.sat}.f16.
func SubF16(a, b uint16, r Rounding, ftz, sat bool) uint16 {
	return kindF16.add(a, b^signH, r, ftz, sat)
}

// MulF16 is mul{.rnd}{.ftz}{.sat}.f16.
func MulF16(a, b uint16, r Rounding, ftz, sat bool) uint16 { return kindF16.mul(a, b, r, ftz, sat) }

// FmaF16 is fma.rnd{.ftz}{.sat}.f16.
func FmaF16(a, b, c uint16, r Rounding, ftz, sat bool) uint16 {
	return kindF16.fma(a, b, c, r, ftz, sat, false)
}

// FmaReluF16 is fma.rnd{.ftz}.relu.f16: negative results become +0, NaN
// stays (canonical) NaN.
func FmaReluF16(a, b, c uint16, r Rounding, ftz bool) uint16 {
	return kindF16.fma(a, b, c, r, ftz, false, true)
}

// AddBF16 is add{.rnd}.bf16.
func AddBF16(a, b uint16, r Rounding, ftz, sat bool) uint16 { return kindBF16.add(a, b, r, ftz, sat) }

// SubBF16 is sub{.rnd}.bf16.
func SubBF16(a, b uint16, r Rounding, ftz, sat bool) uint16 {
	return kindBF16.add(a, b^signH, r, ftz, sat)
}

// MulBF16 is mul{.rnd}.bf16.
func MulBF16(a, b uint16, r Rounding, ftz, sat bool) uint16 { return kindBF16.mul(a, b, r, ftz, sat) }

// FmaBF16 is fma.rnd.bf16.
func FmaBF16(a, b, c uint16, r Rounding, ftz, sat bool) uint16 {
	return kindBF16.fma(a, b, c, r, ftz, sat, false)
}

// FmaReluBF16 is fma.rnd.relu.bf16.
func FmaReluBF16(a, b, c uint16, r Rounding, ftz bool) uint16 {
	return kindBF16.fma(a, b, c, r, ftz, false, true)
}

// AddF16x2 is add{.rnd}{.ftz}{.sat}.f16x2.
func AddF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(AddF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(AddF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// SubF16x2 is sub{.rnd}{.ftz}{.sat}.f16x2.
func SubF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(SubF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(SubF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// MulF16x2 is mul{.rnd}{.ftz}{.sat}.f16x2.
func MulF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(MulF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(MulF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// FmaF16x2 is fma.rnd{.ftz}{.sat}.f16x2.
func FmaF16x2(a, b, c uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(FmaF16(uint16(a), uint16(b), uint16(c), r, ftz, sat)) |
		uint32(FmaF16(uint16(a>>16), uint16(b>>16), uint16(c>>16), r, ftz, sat))<<16
}

// FmaReluF16x2 is fma.rnd{.ftz}.relu.f16x2.
func FmaReluF16x2(a, b, c uint32, r Rounding, ftz bool) uint32 {
	return uint32(FmaReluF16(uint16(a), uint16(b), uint16(c), r, ftz)) |
		uint32(FmaReluF16(uint16(a>>16), uint16(b>>16), uint16(c>>16), r, ftz))<<16
}

// AddBF16x2 is add{.rnd}.bf16x2.
func AddBF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(AddBF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(AddBF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// SubBF16x2 is sub{.rnd}.bf16x2.
func SubBF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(SubBF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(SubBF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// MulBF16x2 is mul{.rnd}.bf16x2.
func MulBF16x2(a, b uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(MulBF16(uint16(a), uint16(b), r, ftz, sat)) | uint32(MulBF16(uint16(a>>16), uint16(b>>16), r, ftz, sat))<<16
}

// FmaBF16x2 is fma.rnd.bf16x2.
func FmaBF16x2(a, b, c uint32, r Rounding, ftz, sat bool) uint32 {
	return uint32(FmaBF16(uint16(a), uint16(b), uint16(c), r, ftz, sat)) |
		uint32(FmaBF16(uint16(a>>16), uint16(b>>16), uint16(c>>16), r, ftz, sat))<<16
}

// FmaReluBF16x2 is fma.rnd.relu.bf16x2.
func FmaReluBF16x2(a, b, c uint32, r Rounding, ftz bool) uint32 {
	return uint32(FmaReluBF16(uint16(a), uint16(b), uint16(c), r, ftz)) |
		uint32(FmaReluBF16(uint16(a>>16), uint16(b>>16), uint16(c>>16), r, ftz))<<16
}

// AbsF16 is abs{.ftz}.f16: the sign bit is cleared; NaN gives the
// canonical NaN (the PTX ISA leaves it unspecified).
func AbsF16(a uint16, ftz bool) uint16 { return kindF16.absNeg(a, ftz, signH, 0) }

// NegF16 is neg{.ftz}.f16: the sign bit is flipped; NaN gives the canonical NaN.
func NegF16(a uint16, ftz bool) uint16 { return kindF16.absNeg(a, ftz, 0, signH) }

// AbsBF16 is abs.bf16.
func AbsBF16(a uint16) uint16 { return kindBF16.absNeg(a, false, signH, 0) }

// NegBF16 is neg.bf16.
func NegBF16(a uint16) uint16 { return kindBF16.absNeg(a, false, 0, signH) }

// AbsF16x2 is abs{.ftz}.f16x2.
func AbsF16x2(a uint32, ftz bool) uint32 {
	return uint32(AbsF16(uint16(a), ftz)) | uint32(AbsF16(uint16(a>>16), ftz))<<16
}

// NegF16x2 is neg{.ftz}.f16x2.
func NegF16x2(a uint32, ftz bool) uint32 {
	return uint32(NegF16(uint16(a), ftz)) | uint32(NegF16(uint16(a>>16), ftz))<<16
}

// AbsBF16x2 is abs.bf16x2.
func AbsBF16x2(a uint32) uint32 {
	return uint32(AbsBF16(uint16(a))) | uint32(AbsBF16(uint16(a>>16)))<<16
}

// NegBF16x2 is neg.bf16x2.
func NegBF16x2(a uint32) uint32 {
	return uint32(NegBF16(uint16(a))) | uint32(NegBF16(uint16(a>>16)))<<16
}

func (k halfKind) absNeg(a uint16, ftz bool, clear, flip uint16) uint16 {
	if k.isNaN(a) {
		return CanonicalNaNF16
	}
	if ftz {
		a = k.flush(a)
	}
	return a&^clear ^ flip
}

// F32ToF16 is cvt.rnd{.relu}{.satfinite}.f16.f32 (and cvt.rnd.f16.f32 with
// both flags false). satfinite: infinities and overflow become ±MAX (65504),
// NaN stays NaN. relu: negative results (incl. -0) become +0, NaN stays NaN.
func F32ToF16(a uint32, r Rounding, relu, satfinite bool) uint16 {
	return kindF16.fromF64(f32(a), r, relu, satfinite)
}

// F32ToBF16 is cvt.rnd{.relu}{.satfinite}.bf16.f32.
func F32ToBF16(a uint32, r Rounding, relu, satfinite bool) uint16 {
	return kindBF16.fromF64(f32(a), r, relu, satfinite)
}

// F32x2ToF16x2 is cvt.rnd{.relu}{.satfinite}.f16x2.f32 d, a, b: a goes to
// the upper half, b to the lower half.
func F32x2ToF16x2(a, b uint32, r Rounding, relu, satfinite bool) uint32 {
	return uint32(F32ToF16(a, r, relu, satfinite))<<16 | uint32(F32ToF16(b, r, relu, satfinite))
}

// F32x2ToBF16x2 is cvt.rnd{.relu}{.satfinite}.bf16x2.f32 d, a, b (a upper).
func F32x2ToBF16x2(a, b uint32, r Rounding, relu, satfinite bool) uint32 {
	return uint32(F32ToBF16(a, r, relu, satfinite))<<16 | uint32(F32ToBF16(b, r, relu, satfinite))
}

func (k halfKind) fromF64(x float64, r Rounding, relu, satfinite bool) uint16 {
	d := k.round(x, r)
	if k.isNaN(d) {
		return CanonicalNaNF16
	}
	if satfinite && d&^signH == k.expMask() {
		d-- // ±inf → ±MAX
	}
	if relu && d&signH != 0 {
		d = 0
	}
	return d
}

// f32ToTF32 is the f32 pattern rounded to 10 fraction bits (low 13 bits
// zero) in rounding r, as IEEE rounds, with .relu and .satfinite as for
// f16: cvt.tf32.f32's .rn and .rz (CvtF32ToTF32, which the engine runs,
// takes .rna and NaNs itself).
func f32ToTF32(a uint32, r Rounding, relu, satfinite bool) uint32 {
	if isNaNF32(a) {
		return CanonicalNaNF32
	}
	d := uint32(roundF64(f32(a), fmtTF32, r)) << 13
	if satfinite && d&^signF32 == expF32 {
		d -= 1 << 13
	}
	if relu && d&signF32 != 0 {
		d = 0
	}
	return d
}
