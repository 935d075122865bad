package libdevice

import "github.com/warpsim/warpsim/internal/scalar"

// Single-precision inverse trigonometric functions: odd polynomials on a
// reduced argument (1/|x| for atan beyond 1, sqrt((1-|x|)/2) for asin/acos
// beyond 0.56), with π/2 formed as 0x3f6ee581·0x3fd774eb in one fma.

func copysign32(mag, sign float32) float32 {
	return f32(scalar.CopysignF32(b32(sign), b32(mag)))
}

func atanf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := f32(scalar.AbsF32(b32(x), m.ftz))
	t := ax
	if ax > 1 {
		t = rcpApprox(ax, true)
	}
	t2 := m.mul(t, t)
	p := m.fma(f32(0x3b2090aa), t2, f32(0xbc6be14f))
	p = m.fma(p, t2, f32(0x3d23397e))
	p = m.fma(p, t2, f32(0xbd948a7a))
	p = m.fma(p, t2, f32(0x3dd76b21))
	p = m.fma(p, t2, f32(0xbe111e88))
	p = m.fma(p, t2, f32(0x3e4caf60))
	p = m.fma(p, t2, f32(0xbeaaaa27))
	r := m.fma(m.mul(t2, p), t, t)
	if !(ax <= 1) {
		r = m.fma(f32(0x3f6ee581), f32(0x3fd774eb), -r)
	}
	if ax <= f32(0x7f800000) {
		return copysign32(r, x)
	}
	return r
}

// asinAcosHalf returns sqrt((1-|x|)/2) computed with rsqrt.approx and one
// correction step, as asinf and acosf share it (0 at |x| = 1).
func (m mode) asinAcosHalf(ax float32) float32 {
	h := m.fma(0.5, -ax, 0.5)
	y := rsqrtApprox(h, true)
	s := m.mul(h, y)
	hy := m.mul(y, 0.5)
	e := m.fma(-s, hy, 0.5)
	s = m.fma(s, e, s)
	if ax == 1 {
		s = 0
	}
	return s
}

func asinf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := f32(scalar.AbsF32(b32(x), m.ftz))
	big := ax > f32(0x3f0f5c29)
	t := ax
	if big {
		t = m.asinAcosHalf(ax)
	}
	t2 := m.mul(t, t)
	p := m.fma(f32(0x3d4dd2f7), t2, f32(0x3c99ca97))
	p = m.fma(p, t2, f32(0x3d3f90e8))
	p = m.fma(p, t2, f32(0x3d993ccf))
	p = m.fma(p, t2, f32(0x3e2aac04))
	r := m.fma(m.mul(t2, p), t, t)
	if big {
		r = m.fma(f32(0x3f6ee581), f32(0x3fd774eb), m.mul(r, -2))
	}
	if r <= f32(0x7f800000) {
		return copysign32(r, x)
	}
	return r
}

func acosf(m mode, x float32) float32 {
	x = m.flush(x)
	ax := f32(scalar.AbsF32(b32(x), m.ftz))
	big := ax > f32(0x3f0f5c29)
	t := ax
	if big {
		t = m.asinAcosHalf(ax)
	}
	t = copysign32(t, x)
	t2 := m.mul(t, t)
	p := m.fma(f32(0x3d10ecef), t2, f32(0x3c8b1abb))
	p = m.fma(p, t2, f32(0x3cfc028c))
	p = m.fma(p, t2, f32(0x3d372139))
	p = m.fma(p, t2, f32(0x3d9993db))
	p = m.fma(p, t2, f32(0x3e2aaac6))
	r := m.fma(m.mul(t2, p), t, t)
	nr := neg32(r)
	if big {
		nr = r
	}
	s := m.fma(f32(0x3f6ee581), f32(0x3fd774eb), nr)
	if x > f32(0x3f0f5c29) {
		s = r
	}
	if big {
		s = m.add(s, s)
	}
	return s
}

// neg32 is neg.f32 (a sign flip; NaN stays NaN).
func neg32(x float32) float32 { return f32(b32(x) ^ 0x80000000) }

func registerAtrig32() {
	regF1("__nv_atanf", atanf)
	regF1("__nv_asinf", asinf)
	regF1("__nv_acosf", acosf)
}
