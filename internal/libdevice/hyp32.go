package libdevice

// Single-precision hyperbolic functions, built on the SFU's 2^x.

// expHalfPair returns e^|x|/2 as libdevice's sinhf and coshf form it: j =
// trunc(|x|·log2 e) (saturated at ±126), 2^(r·log2e) from the SFU with r =
// |x| - j·ln2 in two parts, scaled by 2^(j-2) via the float's exponent.
func (m mode) expHalfPair(ax float32) float32 {
	j := truncF32(m.mul(ax, f32(0x3fb8aa3b)))
	if f32(b32(j)&0x7fffffff) > 126 {
		j = copysign32(126, j)
	}
	r := m.fma(j, f32(0xbf317218), ax)
	r = m.fma(j, f32(0x3102e308), r)
	e := m.mul(ex2Approx(m.mul(r, f32(0x3fb8aa3b)), true), f32(b32(m.add(j, f32(0x4b40007d)))<<23))
	return e
}

// truncF32 is cvt.rzi.f32.f32.
func truncF32(x float32) float32 {
	if x != x {
		return f32(nanF32)
	}
	if b32(x)&0x7fffffff >= 0x4b000000 {
		return x
	}
	return copysign32(float32(int32(x)), x)
}

func sinhf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	e := m.expHalfPair(ax)
	big := m.fma(2, e, divApproxFtz(f32(0xbe000000), e))
	x2 := m.mul(x, x)
	p := m.fma(f32(0x363d0ada), x2, f32(0x394fff49))
	p = m.fma(p, x2, f32(0x3c08889a))
	p = m.fma(p, x2, f32(0x3e2aaaab))
	small := m.fma(m.mul(x2, p), x, x)
	if ax >= 1 {
		return copysign32(big, x)
	}
	return small
}

func coshf(m mode, x float32) float32 {
	x = m.flush(x)
	e := m.expHalfPair(absF32(m, x))
	return m.fma(2, e, divApproxFtz(f32(0x3e000000), e))
}

func tanhf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := absF32(m, x)
	e := ex2Approx(m.mul(ax, f32(0x4038aa3b)), true)
	t := m.fma(rcpApprox(m.add(e, 1), true), -2, 1)
	if ax >= f32(0x41102cb4) {
		t = 1
	}
	big := copysign32(t, x)
	x2 := m.mul(x, x)
	p := m.fma(f32(0x3c80f082), x2, f32(0xbd563cae))
	p = m.fma(p, x2, f32(0x3e085941))
	p = m.fma(p, x2, f32(0xbeaaa9ed))
	p = m.fma(p, x2, 0)
	small := m.fma(p, x, x)
	if ax >= f32(0x3f19999a) {
		return big
	}
	return small
}

// absF32 is abs.f32 (NaN becomes the canonical NaN, as the SASS FADD does).
func absF32(m mode, x float32) float32 {
	if x != x {
		return f32(nanF32)
	}
	return m.flush(f32(b32(x) & 0x7fffffff))
}

func registerHyp32() {
	regF1("__nv_sinhf", sinhf)
	regF1("__nv_coshf", coshf)
	regF1("__nv_tanhf", tanhf)
	regF1("__nv_rsqrtf", func(m mode, x float32) float32 { return rsqrtApprox(x, m.ftz) })
}
