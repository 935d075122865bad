package libdevice

import (
	"math"
	"math/bits"
)

// Double-precision sine and cosine: Cody–Waite reduction by π/2 in three
// parts for |x| < 2^31, Payne–Hanek with 64-bit limbs of 2/π beyond.

// twoOverPi64 holds bits of 2/π, 64 per limb, least significant first.
var twoOverPi64 = [...]uint64{0x6bfb5fb11f8d5d08, 0x3d0739f78a5292ea, 0x7527bac7ebe5f17b, 0x4f463f669e5fea2d,
	0x6d367ecf27cb09b7, 0xef2f118b5a0a6d1f, 0x1ff897ffde05980f, 0x9c845f8bbdf9283b, 0x3991d639835339f4,
	0xe99c7026b45f7e41, 0xe88235f52ebb4484, 0xfe1deb1cb129a73e, 0x06492eea09d1921c, 0xb7246e3a424dd2e0,
	0xfe5163abdebbc561, 0xdb6295993c439041, 0xfc2757d1f534ddc0, 0xa2f9836e4e441529}

var (
	sinCoef64 = [...]uint64{0x3de5db65f9785eba, 0xbe5ae5f12cb0d246, 0x3ec71de369ace392, 0xbf2a01a019db62a1,
		0x3f81111111110818, 0xbfc5555555555554, 0}
	cosCoef64 = [...]uint64{0xbda8ff8320fd8164, 0x3e21eea7c1ef8528, 0xbe927e4f8e06e6d9, 0x3efa01a019ddbce9,
		0xbf56c16c16c15d47, 0x3fa5555555555551, 0xbfe0000000000000}
)

// trigReduceSlow is Payne–Hanek reduction of |x| ≥ 2^31: r = x - q·π/2.
func trigReduceSlow(x float64) (float64, int32) {
	xb := b64(x)
	hi := uint32(xb >> 32)
	e := int32(hi >> 20 & 0x7ff)
	if e == 0x7ff {
		return x, 0
	}
	k := uint32(e-1024) >> 6
	first := int32(15 - k)
	end := int32(19 - k)
	if 16-int32(k) > 14 {
		end = 18
	}
	mant := xb<<11 | 1<<63
	var res [8]uint64
	var carry uint64
	n := 0
	for i := first; i < end; i++ {
		h, l := bits.Mul64(twoOverPi64[i], mant)
		l, c := bits.Add64(l, carry, 0)
		res[n] = l
		carry = h + c
		n++
	}
	res[n] = carry
	a, b := res[3], res[2]
	if s := uint32(hi>>20-1024) & 63; s != 0 {
		a = a<<s | b>>(64-s)
		b = b<<s | res[1]>>(64-s)
	}
	quad := int32(a >> 62)
	f := b>>62 | a<<2
	round := int32(a >> 61 & 1)
	q := round + quad
	sign := hi & 0x80000000
	if sign != 0 {
		q = -q
	}
	hiW, loW := f, b<<2
	if round != 0 {
		var borrow uint64
		loW, borrow = bits.Sub64(0, loW, 0)
		hiW, _ = bits.Sub64(0, hiW, borrow)
		sign ^= 0x80000000
	}
	lz := uint64(bits.LeadingZeros64(hiW))
	m := hiW
	if lz != 0 {
		m = hiW<<lz | loW>>(64-lz)
	}
	ph, pl := bits.Mul64(m, 0xc90fdaa22168c235)
	if int64(ph) > 0 {
		ph, _ = bits.Add64(ph, ph, pl>>63)
		lz++
	}
	r := 0x3fe0000000000000 - lz<<52 + ((ph+1)>>10+1)>>1
	return f64(r | uint64(sign)<<32), q
}

// trigReduce64 returns r = x - q·π/2 and q.
func trigReduce64(x float64) (float64, int32) {
	if math.Abs(x) == math.Inf(1) {
		return x * 0, 0
	}
	q := cvtRniS32F64(x * f64(0x3fe45f306dc9c883))
	fq := -float64(q)
	r := math.FMA(fq, f64(0x3ff921fb54442d18), x)
	r = math.FMA(fq, f64(0x3c91a62633145c00), r)
	r = math.FMA(fq, f64(0x397b839a252049c0), r)
	if !(math.Abs(x) < 0x1p31) {
		return trigReduceSlow(x)
	}
	return r, q
}

// cvtRniS32F64 is cvt.rni.s32.f64: saturating, NaN to 0.
func cvtRniS32F64(x float64) int32 {
	switch {
	case x != x:
		return 0
	case x >= 2147483647:
		return 2147483647
	case x <= -2147483648:
		return -2147483648
	}
	return int32(math.RoundToEven(x))
}

func sinCosPoly64(r float64, q int32) float64 {
	r2 := r * r
	var v float64
	if q&1 == 0 {
		p := horner64(sinCoef64[:], r2)
		v = math.FMA(p, r, r)
	} else {
		p := horner64(cosCoef64[:], r2)
		v = math.FMA(p, r2, 1)
	}
	if q&2 != 0 {
		v = math.FMA(v, -1, 0)
	}
	return v
}

func sin64(x float64) float64 {
	r, q := trigReduce64(x)
	return sinCosPoly64(r, q)
}

func cos64(x float64) float64 {
	r, q := trigReduce64(x)
	return sinCosPoly64(r, q+1)
}

func registerTrig64A() {
	regD1("__nv_sin", sin64)
	regD1("__nv_cos", cos64)
	regOut("__nv_sincos", "d", "", "dd", func(_ mode, a, o []uint64) uint64 {
		o[0] = b64(sin64(f64(a[0])))
		o[1] = b64(cos64(f64(a[0])))
		return 0
	})
}

// cvtRziS64 is cvt.rzi.s64.f64: saturating, NaN to 0.
func cvtRziS64(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x <= -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

// sinCosPi64 reduces x by rint(2x)/2 and evaluates sin or cos of π·r.
func sinCosPi64(x float64, cos bool) float64 {
	n := math.RoundToEven(f64(b64(x) + 0x0010000000000000))
	q := int32(cvtRziS64(n))
	r := math.FMA(-n, 0.5, x)
	r = math.FMA(r, f64(0x400921fb54442d18), r*f64(0x3ca1a62633145c07))
	if cos {
		q++
	}
	return sinCosPoly64(r, q)
}

func sinpi64(x float64) float64 {
	if x != x {
		return quiet(x)
	}
	v := sinCosPi64(x, false)
	if math.Trunc(x) == x {
		v = mul64(x, 0)
	}
	return v
}

func cospi64(x float64) float64 {
	if x != x {
		return quiet(x)
	}
	if uint32(b64(x)>>32)<<1 >= 0x86800001 {
		x = mul64(x, 0)
		if x != x {
			return x
		}
	}
	return sinCosPi64(x, true)
}

func registerTrig64B() {
	regD1("__nv_sinpi", sinpi64)
	regD1("__nv_cospi", cospi64)
	regOut("__nv_sincospi", "d", "", "dd", func(_ mode, a, o []uint64) uint64 {
		o[0] = b64(sinpi64(f64(a[0])))
		o[1] = b64(cospi64(f64(a[0])))
		return 0
	})
}
