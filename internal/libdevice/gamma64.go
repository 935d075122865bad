package libdevice

import "math"

var (
	lgammaStirling64 = [...]uint64{0xbf5ac321034783f9, 0x3f4b68b992738fbf, 0xbf4380d01e4f7b8c, 0x3f4a019fa29f7264,
		0xbf66c16c16b2acec, 0x3fb5555555555545}
	lgammaNum3_64 = [...]uint64{0xc0af7040bb18fb05, 0xc1122b7730207ef3, 0xc1585a0db81de7d0, 0xc18a992b8ba94677,
		0xc1aac5cb6957cc20, 0xc1bc0e2b308774be, 0xc1c6ba13dcae7f67, 0xc1ccf33b9c3d120c}
	lgammaDen3_64 = [...]uint64{0xc10074face10c93f, 0xc151b662f8d75791, 0xc18ee64ab4d207f7, 0xc1b9051687c9951a,
		0xc1d2b866bf0b853d, 0xc1d4e2130e9dc133}
	lgammaNear2_64 = [...]uint64{0x3e452636124338b3, 0xbe71fa71d78c0ee2, 0x3e8d111f31e61306, 0xbea0502bbe1b2706,
		0x3eb06850b2970292, 0xbec108474875033d, 0x3ed24accc62909dc, 0xbee3cb25209e63be, 0x3ef581cbbc8cdc7b,
		0xbf078e04b85c7597, 0x3f1a12730cf45051, 0xbf2d3fd354062012, 0x3f40b36b0b4de323, 0xbf538ac5c6d0317a,
		0x3f67add6eaab19fc, 0xbf7e404fc20e4d5b, 0x3f951322ac7da390, 0xbfb13e001a5578a3, 0x3fd4a34cc4a60fa3,
		0x3fdb0ee6072093cf}
	lgammaNear1_64 = [...]uint64{0x3f881f6d2a4c4310, 0x3fa3eb504359eb88, 0x3fae35d8deb06317, 0x3faed469a8b6ecce,
		0x3facc1b1c357befe, 0x3fad7154db67f79f, 0x3fafcc622cf2f7bb, 0x3fb11747a4d1cc43, 0x3fb24ce16a21b8ac,
		0x3fb3b1c21a7bcb00, 0x3fb556723452ed57, 0x3fb748c00891544f, 0x3fb9a0207808cf40, 0x3fbc80673b8ae26b,
		0x3fc010b364b7e555, 0x3fc2703a1d239658, 0x3fc5b40cb1137e6e, 0x3fca8b9c17ac4f03, 0x3fd151322ac7cb52,
		0x3fd9a4d55beab1d4, 0x3fea51a6625307d6, 0x3fe2788cfc6fb619}
	lgammaTiny64 = [...]uint64{0xbe7844988bfe6590, 0x3ea7b77ceb0625e8, 0xbe998c69c8710cc4, 0xbef6527a5a11cf6e,
		0x3f20ec2950b1b5de, 0xbf2c4d80c24ba278, 0xbf5315b4e8cc0d09, 0x3f7d917f15d50020, 0xbf83b4abb41cb6fa,
		0xbfa59af1275b7120, 0x3fc5512321a168a0, 0xbfa5815e8fdce74c, 0xbfe4fcf4026add1a, 0x3fe2788cfc6fb5c8}
)

// lgammaPos is log Γ(a) for a ≥ 0 (or +Inf).
func lgammaPos(a float64) float64 {
	hi := int32(b64(a) >> 32)
	switch {
	case hi > 0x401fffff:
		l := log64(a)
		y := rcpNewton64(a)
		y2 := y * y
		p := horner64(lgammaStirling64[:], y2)
		p = math.FMA(p, y, f64(0x3fed67f1c864beae))
		lh := f64(b64(l) - 0x0010000000000000)
		am := a - 0.5
		r := math.FMA(lh, am, p) + math.FMA(lh, am, -a)
		if a == math.Inf(1) {
			r = a
		}
		return r
	case hi > 0x4007ffff:
		t := a - 3
		num := horner64(lgammaNum3_64[:], t)
		den := t + f64(0xc08ff62e0be189fe)
		for _, c := range lgammaDen3_64 {
			den = math.FMA(den, t, f64(c))
		}
		return t + num/den
	case hi > 0x3ff7ffff:
		t := a - 2
		return t * horner64(lgammaNear2_64[:], t)
	case hi > 0x3fe66665:
		t := 1 - a
		return t * horner64(lgammaNear1_64[:], t)
	}
	p := horner64(lgammaTiny64[:], a)
	return -log64(math.FMA(p*a, a, a))
}

func lgamma64(x float64) float64 {
	if x != x {
		return quiet(x)
	}
	a := math.Abs(x)
	l := lgammaPos(a)
	if int64(b64(x)) >= 0 {
		return l
	}
	if math.Trunc(a) == a {
		return math.Inf(1)
	}
	if int32(b64(a)>>32) < 0x3c000000 {
		return -log64(a)
	}
	s := sinCosPi64(a, false)
	return log64(f64(0x400921fb54442d18)/(a*math.Abs(s))) - l
}

func registerGamma64A() { regD1("__nv_lgamma", lgamma64) }

var (
	tgammaSmall64 = [...]uint64{0x3e381b4960fcf5c9, 0xbe8af7049ae8a594, 0x3eb301d46d4b22f5, 0xbeb50272aeed0fc4,
		0xbef51ce1a40516f8, 0x3f20c8aa7419084c, 0xbf2c3650196bad8a, 0xbf531711365a3e26, 0x3f7d919c52a7df35,
		0xbf83b4af28386f4d, 0xbfa59af103c37b4d, 0x3fc5512320b439ef, 0xbfa5815e8fa26f4f, 0xbfe4fcf4026afa2b,
		0x3fe2788cfc6fb619, 0x3ff0000000000000}
	stirling64 = [...]uint64{0xbf64bee47c38a637, 0x3f73c25da81303d5, 0xbf6b7c37a96cfc72, 0x3f35a85abde1e324,
		0x3f4a8b28f07b3f05, 0xbf0a15d1d45a282f, 0xbf4367d3468cb5be, 0x3f12471b0e9f1005, 0x3f49b1004744d5c4,
		0xbf2e13ce69ab4b7f, 0xbf65f7268ecf8a01, 0x3f6c71c71c71ace0, 0x3fb5555555555556}
)

// tgamma64: 1/Γ by a polynomial on [-0.5, 1.5] after the recurrence for
// |x| < 4, Stirling's formula with log and exp in double-double beyond, the
// reflection formula (with a split power) for x < -4.
func tgamma64(x float64) float64 {
	h := hiF32(x)
	if !(x >= 0) {
		switch {
		case x != x:
			return quiet(x)
		case math.Trunc(x) == x:
			return f64(nanF64)
		case h > f32(0xc0100000):
			z, prod := x, x
			if !(h > f32(0xc00c0000)) {
				prod = math.FMA(x, x, x)
				z = x + 1
			}
			for _, lim := range []uint32{0xc0040000, 0xbff80000, 0xbfe00000} {
				if !(h > f32(lim)) {
					prod = math.FMA(z, prod, prod)
					z++
				}
			}
			return f64(fix64(scalarRcpRN64(b64(prod*horner64(tgammaSmall64[:], z))), 0))
		case !(h > f32(0xc0672000)):
			fl := math.Floor(x)
			if fl-2*math.Floor(fl*0.5) == 1 {
				return math.Copysign(0, -1)
			}
			return 0
		}
		return tgammaReflect(x, h)
	}
	if h < f32(0x40100000) {
		num, z := 1.0, x
		if !(h < f32(0x400c0000)) {
			num = math.FMA(x, 1, -1)
			z = x - 1
		}
		for _, lim := range []uint32{0x40040000, 0x3ff80000} {
			if !(h < f32(lim)) {
				num = math.FMA(z, num, -num)
				z--
			}
		}
		ge := !(h < f32(0x3fe00000))
		t := z
		if ge {
			t = z - 1
		}
		p := horner64(tgammaSmall64[:], t)
		if !ge {
			p = x * p
		}
		return num / p
	}
	g, gl := logDD(x)
	am := x - 0.5
	t := g * am
	tl := math.FMA(gl, am, math.FMA(g, am, -t))
	t, tl = fastTwoSum(t, tl)
	d := t - x
	dl := tl + ((t - d) - x)
	v := d + dl
	vl := dl + (d - v)
	e := exp64(v)
	e = math.FMA(vl, e, e)
	e = math.FMA(e, f64(0x40040d931ff62706), e*f64(0xbcaa6a0d6f814637))
	y := rcpNewton64(x)
	r := math.FMA(y*horner64(stirling64[:], y), e, e)
	if x >= f64(0x406573fae561f648) {
		r = math.Inf(1)
	}
	return r
}

// tgammaReflect is Γ(x) = π/(sin(πx)·x·Γ(-x)) for -185 < x < -4, with
// Γ(|x|) by Stirling split so that no intermediate overflows.
func tgammaReflect(x float64, h float32) float64 {
	s := sinCosPi64(x, false)
	a := math.Abs(x)
	k := math.FMA(a, f64(0x3ff71547652b82fe), f64(twoP52x15))
	j := int32(uint32(b64(k)))
	kk := k + f64(0xc338000000000000)
	r := math.FMA(kk, f64(0xbfe62e42fefa39ef), a)
	r = math.FMA(kk, f64(0xbc7abc9e3b39803f), r)
	ep := math.FMA(horner64(expCoef[:], r), r, 1)
	var hi uint32
	if abs32(j) < 1023 {
		hi = uint32(j)<<20 + 0x3ff00000
	} else {
		jj := uint32(j + 2046)
		part := jj << 19 & 0xfff00000
		hi = jj<<20 - part
		ep *= f64(uint64(part) << 32)
	}
	y := rcpNewton64(a)
	ea := ep * f64(uint64(hi)<<32)
	num := math.FMA(ea, f64(0x3ff40d931ff62706), ea*f64(0xbc9a6a0d6f814637))
	den := a * math.FMA(y*horner64(stirling64[:], y), s, s)
	q := num / den
	pw := a - 0.5
	split := !(h > f32(0xc061e400))
	if split {
		pw = f64(b64(pw) - 0x0010000000000000)
	}
	p := accuratePow(a, -pw)
	if split {
		q *= p
	}
	return p * q
}

func registerGamma64B() { regD1("__nv_tgamma", tgamma64) }
