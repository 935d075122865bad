package libdevice

import "math"

var (
	j0Near1 = [...]uint64{0xbcc0d18564c48c61, 0xbcfcf8f9a8c294bc, 0x3d3fab983cae498b, 0x3d7cd7c018579b88,
		0xbdbbdd2342d64fdd, 0xbdf5c2d9416b1e2b, 0x3e32951d73174dd5, 0x3e67ff99802caeb5, 0xbea1cce305c4c9f7,
		0xbed232c77e29e1bb, 0x3f06ed3b9f0ef757, 0x3f315382ba096a62, 0xbf61f992590d1ae4, 0xbf81bb1cbe1a465f,
		0x3facfae864368d84, 0x3fbba1deea0294a3, 0xbfe09cdb36551280}
	j0Near2 = [...]uint64{0x3cbcb0a8f126b343, 0x3cf83fd1f333eb61, 0xbd4100e33e3fb413, 0xbd7846076d004627,
		0x3dbe2f1d4f90720d, 0x3df1d03b1e4a119b, 0xbe341d72b1b3bce9, 0xbe62da37ce2a9ef8, 0x3ea32e6d9974f763,
		0x3ecad77d744a1879, 0xbf0863f481a37337, 0xbf26f641f418f0f4, 0x3f627e31fe9a969e, 0x3f72f7ffe9025628,
		0xbfab2150cb41e8bf, 0xbf9f8f72e7a848de, 0x3fd5c6e60a097823}
	j0Near3 = [...]uint64{0xbcbdb7ffcf659e24, 0xbcf4b3a71aaac629, 0x3d417ec150ecdce7, 0x3d7438f5ea1d10b2,
		0xbdbedae7ec2c9e87, 0xbdecadd2c4b91f58, 0x3e34582c8ee12204, 0x3e5ceda451dd20f8, 0xbea30e8cc3165e2f,
		0xbec3324842bb1a2e, 0x3f07800bc54fbddb, 0x3f1d79605276949a, 0xbf60e0d60385a629, 0xbf648e63600d82f3,
		0x3fa68b984ec6493a, 0x3f900f7fcf183e0b, 0xbfd15f7977a772d4}
	j0Amp64 = [...]uint64{0xc0d115cb8c11a9dc, 0x409927467a655012, 0xc05751787e247bd4, 0x401704c4e5fc36b2,
		0xbfe15b747a2fd531, 0x3fba7feacf6cb79b, 0xbfafffffeddcf548, 0x3fefffffffffc9e5}
	j0Phase64 = [...]uint64{0xc14602fe1c34685e, 0x410ecd4523b12b84, 0xc0c7a2fc1972f05a, 0x407eba131f7e5beb,
		0xc0373b92e6e7cc7d, 0x3ffa31bee63a2f08, 0xbfcad320104d5d05, 0x3fb0aaaa9c76d07e, 0xbfbffffffffdacec}
)

// j0_64: polynomials around the first three zeros of J0 (each in the distance
// to the zero, split in two doubles), the Hankel form beyond 10.22.
func j0_64(x float64) float64 {
	a := math.Abs(x)
	near := func(z0, z1 uint64, c []uint64) float64 {
		t := (a + f64(z0)) + f64(z1)
		return t * horner64(c, t)
	}
	switch {
	case a != a: // NaN takes the asymptotic path, whose SFU reciprocal returns this NaN
		return f64(0x7fffffff00000000)
	case a <= f64(0x400fb319f277bbe5):
		return near(0xc0033d152e971b40, 0x3ca0f539d7da258e, j0Near1[:])
	case a <= f64(0x401c58fd1a62f5ec):
		return near(0xc016148f5b2c2e45, 0xbc975054cd60a517, j0Near2[:])
	case a <= f64(0x402471fcb6a7a8c0):
		return near(0xc0214eb56cccdeca, 0x3cb51970714c7c25, j0Near3[:])
	case math.IsInf(a, 1):
		return 0
	}
	return besselHankel64(a, j0Amp64[:], j0Phase64[:], 0xbfe921fb54442d18)
}

// besselHankel64 is amp(1/a)·sqrt(2/(πa))·cos(a + 1/a·phase(1/a²) - shift),
// shift given as the constant added to the reduced phase.
func besselHankel64(a float64, ampC, phC []uint64, shift uint64) float64 {
	y := rcpNewton64(a)
	y2 := y * y
	amp := horner64(ampC, y2)
	phase := math.FMA(horner64(phC, y2), y, a)
	amp *= f64(rsqrtApproxF64(b64(a))) * f64(0x3fe9884533d43651)
	r, q := trigReduce64(phase)
	s := math.FMA(float64(uint32(q)&3), f64(0x3ff921fb54442d18), r+f64(shift))
	r2, q2 := trigReduce64(s)
	return amp * sinCosPoly64(r2, q2+1)
}

func registerBessel64A() { regD1("__nv_j0", j0_64) }

var (
	j1Small64 = [...]uint64{0x3d020e4adcde2ad3, 0xbd4dd167a0dc3f55, 0x3d5503f5a491e487, 0x3dc1f29940c2403a,
		0x3d84cf9302eacdef, 0xbe384a53dbbca436, 0x3d9779bee4f63bcc, 0x3ea6c160e414f3f0, 0x3d8f3d2f12430699,
		0xbf0c71c72c0ced04, 0x3d659bca506f1128, 0x3f65555555506982, 0x3d15ba0b425f1bfb, 0xbfb0000000000065,
		0x3c8729a7253fb679, 0x3fe0000000000000}
	j1Near2 = [...]uint64{0xbcf8d3cdbb60175e, 0x3d41011a1df02dad, 0x3d76013ac1e5e222, 0xbdbec315d96d5f03,
		0xbdf03be1b4b57207, 0x3e345695f8b660f7, 0x3e617069fcfcfff4, 0xbea33825c36745eb, 0xbec9799d4f90931b,
		0x3f083a06e2f7df13, 0x3f26e4c2d53a7cf6, 0xbf624b3409957b1c, 0xbf7537544c3325df, 0x3fab589d1da138e2,
		0x3faae8a39f51ad13, 0xbfd9c6cf582cbf7f}
	j1Near3 = [...]uint64{0x3cf3eb867515fad6, 0xbd40e8363db649a9, 0xbd73b7dd4a6608fb, 0x3dbec5e01482c750,
		0x3dec62bb9e882103, 0xbe34462eed732a23, 0xbe5d48dcad7dc59b, 0x3ea3026df29167e9, 0x3ec4255b0119666c,
		0xbf0796a751b32693, 0xbf207358bbdba284, 0x3f613fbc7d6927b1, 0x3f69a4b292e3dd75, 0xbfa80c83bdeee4fb,
		0xbf95e70dc60362bf, 0x3fd33518b3874e8a}
	j1Amp64 = [...]uint64{0x40cd02ea3f2f6751, 0xc099c06322a3f8be, 0x405b89354da77324, 0xc01e352294653188,
		0x3fe9bc7db16bd7a7, 0xbfc8bfe1c3a4f741, 0x3fc7fffff0d00be2, 0x3ff00000000068cc}
	j1Phase64 = [...]uint64{0xc18da26b212fdc9a, 0x415a30ac6857bee0, 0xc11764222ad7c910, 0x40ceb02e0c306857,
		0xc08351859fa2b23b, 0x403e65a07af51f42, 0xc002f2b817f77a57, 0x3fd7bcc34da069fd, 0xbfc4fffff8a44463,
		0x3fd7ffffffff5cd7}
)

func j1_64(x float64) float64 {
	a := math.Abs(x)
	near := func(z0, z1 uint64, c []uint64) float64 {
		t := (a + f64(z0)) + f64(z1)
		return t * horner64(c, t)
	}
	var r float64
	switch {
	case a != a:
		return f64(0x7fffffff00000000)
	case a <= f64(0x400353aabad7b784):
		r = a * horner64(j1Small64[:], a)
	case a <= f64(0x4015b1d0574614ea):
		r = near(0xc00ea75575af6f09, 0x3ca60155a9d1b256, j1Near2[:])
	case a <= f64(0x40213065e54c1aa9):
		r = near(0xc01c0ff5f3b47250, 0x3c9b226d9d243827, j1Near3[:])
	case math.IsInf(a, 1):
		r = 0
	default:
		r = besselHankel64(a, j1Amp64[:], j1Phase64[:], 0xc002d97c7f3321d2)
	}
	if x < 0 {
		r = -r
	}
	if a < f64(0x39b4484bfeebc2a0) {
		r = x * 0.5
	}
	return r
}

func registerBessel64B() { regD1("__nv_j1", j1_64) }

var (
	i0Small64 = [...]uint64{0x37d4d7f592957da6, 0x3858c41d50ab516f, 0x39095dda3f2c417b, 0x39a367189a01363e,
		0x3a3e90745678b866, 0x3ad416d14fa3a4bd, 0x3b669d021fde720e, 0x3bf5601014e95430, 0x3c80b313c0325230,
		0x3d0522a42ffef890, 0x3d8522a440809476, 0x3e002e85c07ba843, 0x3e723456789b9de8, 0x3edc71c71c71b63c,
		0x3f3c71c71c71c7c2, 0x3f8ffffffffffffb, 0x3fd0000000000000, 0x3ff0000000000000}
	i0Large64 = [...]uint64{0x41f2f851fc237b1d, 0x41ffefdd4ff37461, 0xc1fa8a1907f57f70, 0x41e10b6852851c22,
		0xc1b925fc57ccb350, 0x41885261a7176974, 0xc1506bfa24be44db, 0x411003cc0da58b08, 0xc0c6e73aa6a2c47a,
		0x40785e17bc10541a, 0xc0216c6690365068, 0x3fd934e08086004c, 0x3fb6aa7c7d428943, 0x3fa6eac2735a091e,
		0x3f9debaa90561e71, 0x3f9cb94ddfd23f70, 0x3fa9884533d30179, 0x3fd9884533d43657}
	i1Small64 = [...]uint64{0x38268d52e367973f, 0x38a76b71c28918b0, 0x3958082fe6606acb, 0x39f0ec04908e2753,
		0x3a88d983808a730d, 0x3b1e21624af0555a, 0x3baf18024073231e, 0x3c3ab810d07c53a4, 0x3cc2c97677fab629,
		0x3d4522a42918d8a1, 0x3dc27e4fb8f617fc, 0x3e3845c8a0abd799, 0x3ea6c16c16c369a2, 0x3f0c71c71c71a4b2,
		0x3f65555555555681, 0x3faffffffffffff1}
	i1Large64 = [...]uint64{0x41d8729da7e5a092, 0xc20a9923a6810426, 0x42015d3db3c5ffe0, 0xc1e4d2d89a3913c1,
		0x41bdcdff9b080398, 0xc18c5f2e01fb2ff9, 0x4152fcfb5fd54150, 0xc1126d4cd831fc06, 0x40ca49abc2cad407,
		0xc07bf09a8d0b4bcf, 0x4023f8f8f6f26890, 0xbfdd6e31961ece73, 0xbfbbbdc121c5123b, 0xbfad76aacf55fc53,
		0xbfa4f1c4ff86494b, 0xbfa7efc0e3c7167e, 0xbfc32633e6decf48, 0x3fd9884533d43649}
)

// besselIExp64 is P(1/a)/sqrt(a)·e^(a/2)·e^(a/2) for large a.
func besselIExp64(a float64, c []uint64) float64 {
	e := exp64(a * 0.5)
	p := horner64(c, rcpNewton64(a)) * rsqrtRefined64(a)
	return p * e * e
}

func registerBessel64C() {
	regD1("__nv_cyl_bessel_i0", func(x float64) float64 {
		if x != x {
			return quiet(x)
		}
		a := math.Abs(x)
		if uint32(b64(a)>>32)-1076238844 < 127526404 {
			return besselIExp64(a, i0Large64[:])
		}
		return horner64(i0Small64[:], a*a)
	})
	regD1("__nv_cyl_bessel_i1", func(x float64) float64 {
		a := math.Abs(x)
		if uint32(b64(a)>>32)-1076232192 < 127533056 {
			return math.Copysign(besselIExp64(a, i1Large64[:]), x)
		}
		x2 := x * x
		return math.FMA(x, horner64(i1Small64[:], x2)*x2, x*0.5)
	})
}
