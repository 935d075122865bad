package scalar

// CvtF32ToTF32 is cvt.rnd{.relu}{.satfinite}.tf32.f32 as the H100 computes
// it (testdata/conformance/fp8_packed, rows tf32_*): the f32 pattern rounded
// to 10 fraction bits, low 13 bits zero.
//
//   - .rna (sm_80) works on the bit pattern: a finite value gets half an
//     ulp added to its magnitude bits and is truncated (ties away from zero;
//     MAX_NORM rounds up to infinity); a NaN is truncated, payload and sign
//     kept (0xff851000 gives 0xff850000). .satfinite then turns every
//     pattern whose exponent is all ones, infinities and NaNs alike, into
//     the pattern just below (+inf → MAX_NORM, 0x7fc00000 → 0x7fbfe000).
//   - .rn and .rz (sm_90) round as their names say, with .relu and
//     .satfinite as for f16; every NaN gives 0x7fffe000, whatever its sign.
//
// A NaN whose payload lies only in the low 13 bits was not recorded; .rna
// truncates it like the others.
func CvtF32ToTF32(a uint32, r Rounding, relu, satfinite bool) uint32 {
	const low = 1<<13 - 1
	if r == RNA {
		d := (a + 1<<12) &^ low
		if isNaNF32(a) {
			d = a &^ low
		}
		if satfinite && d&expF32 == expF32 {
			d -= 1 << 13
		}
		return d
	}
	if isNaNF32(a) {
		return 0x7fffe000
	}
	return f32ToTF32(a, r, relu, satfinite)
}
