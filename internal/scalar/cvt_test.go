package scalar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/warpsim/warpsim/ptx/ptxtype"
)

func TestCvtFloatToIntTable(t *testing.T) {
	f := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	d := func(x float64) uint64 { return math.Float64bits(x) }
	sx := func(v int64) uint64 { return uint64(v) }
	tests := []struct {
		name     string
		v        uint64
		src, dst ptxtype.Type
		r        Rounding
		ftz      bool
		want     uint64
	}{
		{"rni 2.5", f(2.5), ptxtype.F32, ptxtype.S32, RN, false, 2},
		{"rni 3.5", f(3.5), ptxtype.F32, ptxtype.S32, RN, false, 4},
		{"rni -2.5", f(-2.5), ptxtype.F32, ptxtype.S32, RN, false, sx(-2)},
		{"rna 2.5", f(2.5), ptxtype.F32, ptxtype.S32, RNA, false, 3},
		{"rzi -2.7", f(-2.7), ptxtype.F32, ptxtype.S32, RZ, false, sx(-2)},
		{"rmi -2.1", f(-2.1), ptxtype.F32, ptxtype.S32, RM, false, sx(-3)},
		{"rpi 2.1", f(2.1), ptxtype.F32, ptxtype.S32, RP, false, 3},
		{"rpi -0.5", f(-0.5), ptxtype.F32, ptxtype.S32, RP, false, 0},
		{"nan", uint64(CanonicalNaNF32), ptxtype.F32, ptxtype.S32, RN, false, 0},
		{"-nan u32", 0xffc00000, ptxtype.F32, ptxtype.U32, RZ, false, 0},
		// NaN, as recorded (conversions f2i/f2ll/d2i/d2ll/d2s16, half_bf16 s32_from_f16_rni)
		{"nan f32→s16", 0x7f800001, ptxtype.F32, ptxtype.S16, RN, false, 0},
		{"nan f32→s64", 0x7fc00000, ptxtype.F32, ptxtype.S64, RN, false, 0x8000000000000000},
		{"nan f32→u64", 0xffc00000, ptxtype.F32, ptxtype.U64, RP, false, 0x8000000000000000},
		{"nan f64→s32", 0x7ff8000000000000, ptxtype.F64, ptxtype.S32, RZ, false, 0xffffffff80000000},
		{"nan f64→u32", 0xfff8000000000000, ptxtype.F64, ptxtype.U32, RN, false, 0x80000000},
		{"nan f64→s16", 0x7ff0000000000001, ptxtype.F64, ptxtype.S16, RM, false, 0xffffffffffff8000},
		{"nan f64→s64", 0x7ff0000000000001, ptxtype.F64, ptxtype.S64, RN, false, 0x8000000000000000},
		{"nan f64→u64", 0x7ff8000000000000, ptxtype.F64, ptxtype.U64, RN, false, 0x8000000000000000},
		{"nan f16→s32", 0x7e00, ptxtype.F16, ptxtype.S32, RN, false, 0},
		{"nan f16→u32", 0xfc01, ptxtype.F16, ptxtype.U32, RZ, false, 0},
		{"+inf s32", f(float32(math.Inf(1))), ptxtype.F32, ptxtype.S32, RZ, false, 0x7fffffff},
		{"-inf s32", f(float32(math.Inf(-1))), ptxtype.F32, ptxtype.S32, RZ, false, sx(math.MinInt32)},
		{"3e9 s32", f(3e9), ptxtype.F32, ptxtype.S32, RZ, false, 0x7fffffff},
		{"-1 u32", f(-1), ptxtype.F32, ptxtype.U32, RZ, false, 0},
		{"-0.9 u32 rzi", f(-0.9), ptxtype.F32, ptxtype.U32, RZ, false, 0},
		{"5e9 u32", f(5e9), ptxtype.F32, ptxtype.U32, RZ, false, 0xffffffff},
		{"2^64 u64", f(0x1p64), ptxtype.F32, ptxtype.U64, RZ, false, math.MaxUint64},
		{"2^64-2048 u64", d(0x1p64 - 2048), ptxtype.F64, ptxtype.U64, RZ, false, math.MaxUint64 - 2047},
		{"-2^63 s64", d(-0x1p63), ptxtype.F64, ptxtype.S64, RZ, false, 1 << 63},
		{"2^63 s64", d(0x1p63), ptxtype.F64, ptxtype.S64, RZ, false, math.MaxInt64},
		{"300 u8", f(300), ptxtype.F32, ptxtype.U8, RZ, false, 255},
		{"-200 s8", f(-200), ptxtype.F32, ptxtype.S8, RZ, false, sx(-128)},
		{"-5 s8", f(-5), ptxtype.F32, ptxtype.S8, RZ, false, sx(-5)},
		{"f16 inf s16", 0x7c00, ptxtype.F16, ptxtype.S16, RZ, false, 0x7fff},
		{"f16 -65504 s16", 0xfbff, ptxtype.F16, ptxtype.S16, RZ, false, sx(-32768)},
		{"f16 2.5 u16", 0x4100, ptxtype.F16, ptxtype.U16, RN, false, 2},
		{"bf16 -1.5 s32 rni", 0xbfc0, ptxtype.BF16, ptxtype.S32, RN, false, sx(-2)},
		{"f64 2^52-0.5 rni", d(0x1p52 - 0.5), ptxtype.F64, ptxtype.S64, RN, false, 1 << 52},
		{"f64 2^52-1.5 rni", d(0x1p52 - 1.5), ptxtype.F64, ptxtype.S64, RN, false, 1<<52 - 2},
		{"minsub rpi", 1, ptxtype.F32, ptxtype.S32, RP, false, 1},
		{"minsub rpi ftz", 1, ptxtype.F32, ptxtype.S32, RP, true, 0},
		{"-minsub rmi", 0x80000001, ptxtype.F32, ptxtype.S32, RM, false, sx(-1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CvtFloatToInt(tc.v, tc.src, tc.dst, tc.r, false, tc.ftz); got != tc.want {
				t.Errorf("cvt.%vi.%v.%v(%#x) = %#x, want %#x", tc.r, tc.dst, tc.src, tc.v, got, tc.want)
			}
		})
	}
}

// refFloatToInt rounds with big.Int/big.Float arithmetic and clamps.
func refFloatToInt(x float64, w uint, signed bool, r Rounding) uint64 {
	bx := bf(x)
	t, _ := bx.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(bigPrec).Sub(bx, new(big.Float).SetInt(t))
	one := big.NewInt(1)
	awayFromZero := func() {
		if x < 0 {
			t.Sub(t, one)
		} else {
			t.Add(t, one)
		}
	}
	if frac.Sign() != 0 {
		half := big.NewFloat(0.5)
		c := new(big.Float).Abs(frac).Cmp(half)
		switch r {
		case RM:
			if x < 0 {
				t.Sub(t, one)
			}
		case RP:
			if x > 0 {
				t.Add(t, one)
			}
		case RN:
			if c > 0 || c == 0 && t.Bit(0) == 1 {
				awayFromZero()
			}
		case RNA:
			if c >= 0 {
				awayFromZero()
			}
		}
	}
	lo, hi := big.NewInt(0), new(big.Int).Lsh(one, w)
	if signed {
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, w-1))
		hi = new(big.Int).Lsh(one, w-1)
	}
	hi.Sub(hi, one)
	if t.Cmp(lo) < 0 {
		t = lo
	}
	if t.Cmp(hi) > 0 {
		t = hi
	}
	if t.Sign() < 0 {
		return uint64(t.Int64())
	}
	return t.Uint64()
}

func TestCvtFloatToIntRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	dsts := []ptxtype.Type{ptxtype.S8, ptxtype.U8, ptxtype.S16, ptxtype.U16, ptxtype.S32, ptxtype.U32, ptxtype.S64, ptxtype.U64}
	fails := 0
	for i := 0; i < 4000; i++ {
		var v uint64
		src := ptxtype.F32
		switch i % 3 {
		case 0:
			v = uint64(genF32(rng))
			if i%6 == 0 { // integer-ish range with halves
				v = uint64(math.Float32bits(float32(rng.IntN(1<<20)-1<<19) / 4))
			}
		case 1:
			src = ptxtype.F64
			v = genF64(rng)
			if i%2 == 0 {
				v = v&^(0x7ff<<52) | uint64(1023-4+rng.IntN(70))<<52
			}
		default:
			src = ptxtype.F16
			v = uint64(rng.Uint32() & 0xffff)
		}
		x := FloatValue(v, src)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		for _, dst := range dsts {
			w, signed := intWidth(dst)
			for _, r := range allModes {
				want := refFloatToInt(x, w, signed, r)
				if got := CvtFloatToInt(v, src, dst, r, false, false); got != want {
					fails++
					if fails < 20 {
						t.Errorf("cvt.%vi.%v.%v(%#x = %g) = %#x, want %#x", r, dst, src, v, x, got, want)
					}
				}
			}
		}
	}
}

func TestCvtIntToFloatRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	srcs := []ptxtype.Type{ptxtype.S8, ptxtype.U8, ptxtype.S16, ptxtype.U16, ptxtype.S32, ptxtype.U32, ptxtype.S64, ptxtype.U64}
	dsts := []struct {
		t ptxtype.Type
		f tfmt
	}{{ptxtype.F16, oF16}, {ptxtype.BF16, oBF16}, {ptxtype.F32, oF32}, {ptxtype.F64, oF64}}
	n := 800
	if testing.Short() {
		n = 150
	}
	fails := 0
	for i := 0; i < n; i++ {
		v := rng.Uint64() >> rng.IntN(64)
		if i%4 == 0 { // many trailing ones/zeros: ties and near ties
			v = (rng.Uint64() | 1<<63) >> rng.IntN(64) &^ (1<<rng.IntN(40) - 1)
		}
		for _, src := range srcs {
			w, signed := intWidth(src)
			var exact *big.Float
			vv := v
			if w < 64 {
				vv &= 1<<w - 1
			}
			if signed && vv>>(w-1) != 0 {
				exact = new(big.Float).SetInt64(int64(vv | math.MaxUint64<<(w-1)))
			} else {
				exact = new(big.Float).SetUint64(vv)
			}
			if exact.Sign() == 0 {
				continue
			}
			for _, d := range dsts {
				for _, r := range allModes {
					want := oracleExact(exact, d.f, r)
					if got := CvtIntToFloat(v, src, d.t, r); got != want {
						fails++
						if fails < 20 {
							t.Errorf("cvt.%v.%v.%v(%#x) = %#x, want %#x", r, d.t, src, v, got, want)
						}
					}
				}
			}
		}
	}
	// zero converts to +0 in every mode
	for _, r := range allModes {
		if got := CvtIntToFloat(0, ptxtype.S32, ptxtype.F32, r); got != 0 {
			t.Errorf("cvt.%v.f32.s32(0) = %#x", r, got)
		}
	}
}

func TestCvtFloatToFloatTable(t *testing.T) {
	f := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	d := func(x float64) uint64 { return math.Float64bits(x) }
	tests := []struct {
		name     string
		v        uint64
		src, dst ptxtype.Type
		r        Rounding
		intRound bool
		ftz, sat bool
		want     uint64
	}{
		{"rni 2.5", f(2.5), ptxtype.F32, ptxtype.F32, RN, true, false, false, f(2)},
		{"rni -0.5 keeps -0", f(-0.5), ptxtype.F32, ptxtype.F32, RN, true, false, false, 0x80000000},
		{"rpi 0.5", f(0.5), ptxtype.F32, ptxtype.F32, RP, true, false, false, f(1)},
		{"rmi -0.5", f(-0.5), ptxtype.F32, ptxtype.F32, RM, true, false, false, f(-1)},
		{"rzi -1.9", f(-1.9), ptxtype.F32, ptxtype.F32, RZ, true, false, false, f(-1)},
		{"rni 2^24+2", f(0x1p24 + 2), ptxtype.F32, ptxtype.F32, RN, true, false, false, f(0x1p24 + 2)},
		{"rni inf", f(float32(math.Inf(-1))), ptxtype.F32, ptxtype.F32, RN, true, false, false, 0xff800000},
		{"rni nan", 0x7fc00001, ptxtype.F32, ptxtype.F32, RN, true, false, false, 0x7fffffff},
		{"rni.f64 -2.5", d(-2.5), ptxtype.F64, ptxtype.F64, RN, true, false, false, d(-2)},
		{"rni.f16 2.5", 0x4100, ptxtype.F16, ptxtype.F16, RN, true, false, false, 0x4000},
		{"sat 2", f(2), ptxtype.F32, ptxtype.F32, RN, false, false, true, f(1)},
		{"sat -3", f(-3), ptxtype.F32, ptxtype.F32, RN, false, false, true, 0},
		{"sat nan", 0x7fc00000, ptxtype.F32, ptxtype.F32, RN, false, false, true, 0},
		{"sat f64 0.25", d(0.25), ptxtype.F64, ptxtype.F64, RN, false, false, true, d(0.25)},
		{"sat f64 1.5", d(1.5), ptxtype.F64, ptxtype.F64, RN, false, false, true, d(1)},
		{"ftz minsub", 1, ptxtype.F32, ptxtype.F32, RN, false, true, false, 0},
		{"ftz -minsub", 0x80000001, ptxtype.F32, ptxtype.F32, RN, false, true, false, 0x80000000},
		{"f32 minsub no ftz", 1, ptxtype.F32, ptxtype.F32, RN, false, false, false, 1},
		{"f64→f32 tiny ftz", d(1e-40), ptxtype.F64, ptxtype.F32, RN, false, true, false, 0},
		{"f64→f32 tiny", d(1e-40), ptxtype.F64, ptxtype.F32, RN, false, false, false, f(1e-40)},
		// NaNs, as recorded (conversions d2f_*, half_bf16 f16_from_f64 and f32_from_bf16)
		{"f64→f32 nan keeps sign and top payload", 0xfff8000000000001, ptxtype.F64, ptxtype.F32, RN, false, false, false, 0xffc00000},
		{"f64→f32 snan quieted", 0x7ff0000000000001, ptxtype.F64, ptxtype.F32, RZ, false, false, false, 0x7fc00000},
		{"f64→f32 payload truncated", 0x7ff4000000000000, ptxtype.F64, ptxtype.F32, RN, false, false, false, 0x7fe00000},
		{"f64→f32 ftz nan", 0x7ff8000000000000, ptxtype.F64, ptxtype.F32, RN, false, true, false, 0x7fc00000},
		{"f64→f16 nan", 0xfff8000000000000, ptxtype.F64, ptxtype.F16, RN, false, false, false, 0xfe00},
		{"f64→f16 snan", 0x7ff0000000000001, ptxtype.F64, ptxtype.F16, RN, false, false, false, 0x7e00},
		{"bf16→f32 shifts", 0xff82, ptxtype.BF16, ptxtype.F32, RN, false, false, false, 0xff820000},
		{"bf16→f32 qnan", 0x7fff, ptxtype.BF16, ptxtype.F32, RN, false, false, false, 0x7fff0000},
		{"f32→f64 nan keeps payload", 0x7fc00001, ptxtype.F32, ptxtype.F64, RN, false, false, false, 0x7ff8000020000000},
		{"f32→f64 snan quieted", 0xff800001, ptxtype.F32, ptxtype.F64, RN, false, false, false, 0xfff8000020000000},
		{"f16→f64 nan", 0x7e01, ptxtype.F16, ptxtype.F64, RN, false, false, false, 0x7ff8040000000000},
		{"f64→f64 rni nan", 0x7ff0000000000001, ptxtype.F64, ptxtype.F64, RN, true, false, false, 0x7ff8000000000001},
		{"f16→f32 nan canonical", 0x7e01, ptxtype.F16, ptxtype.F32, RN, false, false, false, 0x7fffffff},
		{"f32→f16 nan canonical", 0x7fc00001, ptxtype.F32, ptxtype.F16, RN, false, false, false, 0x7fff},
		{"f32→f64 nan sat", 0x7fc00001, ptxtype.F32, ptxtype.F64, RN, false, false, true, 0},
		{"f32→f64 minsub", 1, ptxtype.F32, ptxtype.F64, RN, false, false, false, d(0x1p-149)},
		{"f32→f64 minsub ftz", 1, ptxtype.F32, ptxtype.F64, RN, false, true, false, 0},
		{"f16→f32 subnormal", 0x0001, ptxtype.F16, ptxtype.F32, RN, false, false, false, f(0x1p-24)},
		{"f16→f32 -inf", 0xfc00, ptxtype.F16, ptxtype.F32, RN, false, false, false, 0xff800000},
		{"bf16→f32", 0x3f81, ptxtype.BF16, ptxtype.F32, RN, false, false, false, 0x3f810000},
		{"f16→bf16 rn", 0x3c01, ptxtype.F16, ptxtype.BF16, RN, false, false, false, 0x3f80},
		{"f16→bf16 rp", 0x3c01, ptxtype.F16, ptxtype.BF16, RP, false, false, false, 0x3f81},
		{"f32→f16 rm -1/3", f(-1.0 / 3), ptxtype.F32, ptxtype.F16, RM, false, false, false, 0xb556},
		{"f64→f16 rz 1e6", d(1e6), ptxtype.F64, ptxtype.F16, RZ, false, false, false, 0x7bff},
		{"f64→f32 rz 1e300", d(1e300), ptxtype.F64, ptxtype.F32, RZ, false, false, false, 0x7f7fffff},
		{"f64→f32 rm -1e300", d(-1e300), ptxtype.F64, ptxtype.F32, RM, false, false, false, 0xff800000},
		{"f64→f32 rp -1e300", d(-1e300), ptxtype.F64, ptxtype.F32, RP, false, false, false, 0xff7fffff},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CvtFloatToFloat(tc.v, tc.src, tc.dst, tc.r, tc.intRound, tc.ftz, tc.sat); got != tc.want {
				t.Errorf("cvt(%#x) = %#x, want %#x", tc.v, got, tc.want)
			}
		})
	}
}

// Widening conversions are exact: f16/bf16 → f32 → f64 round-trips for
// every 16-bit pattern that is not NaN.
func TestCvtWideningExhaustive(t *testing.T) {
	for h := range 1 << 16 {
		for _, src := range []ptxtype.Type{ptxtype.F16, ptxtype.BF16} {
			x := FloatValue(uint64(h), src)
			if x != x {
				continue
			}
			f := CvtFloatToFloat(uint64(h), src, ptxtype.F32, RZ, false, false, false)
			back := CvtFloatToFloat(f, ptxtype.F32, src, RN, false, false, false)
			if back != uint64(h) {
				t.Fatalf("%v %#04x → f32 %#08x → %#04x", src, h, f, back)
			}
			if d := CvtFloatToFloat(f, ptxtype.F32, ptxtype.F64, RM, false, false, false); math.Float64frombits(d) != x {
				t.Fatalf("%v %#04x → f64 %#x", src, h, d)
			}
		}
	}
}

func TestCvtIntToInt(t *testing.T) {
	tests := []struct {
		name     string
		v        uint64
		src, dst ptxtype.Type
		sat      bool
		want     uint64
	}{
		{"s32.s64 truncates", 0x100000005, ptxtype.S64, ptxtype.S32, false, 5},
		{"s32.s64 sign-extends result", 0x80000000, ptxtype.S64, ptxtype.S32, false, 0xffffffff80000000},
		{"sat.s32.s64 big", 1 << 40, ptxtype.S64, ptxtype.S32, true, 0x7fffffff},
		{"sat.s32.s64 -big", uint64(1<<64 - 1<<40), ptxtype.S64, ptxtype.S32, true, 0xffffffff80000000},
		{"sat.u8.s32 -5", 0xfffffffb, ptxtype.S32, ptxtype.U8, true, 0},
		{"sat.u8.s32 300", 300, ptxtype.S32, ptxtype.U8, true, 255},
		{"u8.s32 300", 300, ptxtype.S32, ptxtype.U8, false, 44},
		{"sat.s8.u32 200", 200, ptxtype.U32, ptxtype.S8, true, 127},
		{"s8.u32 200", 200, ptxtype.U32, ptxtype.S8, false, 0xffffffffffffffc8},
		{"u64.s32 -1", 0xffffffff, ptxtype.S32, ptxtype.U64, false, 0xffffffffffffffff},
		{"sat.u64.s32 -1", 0xffffffff, ptxtype.S32, ptxtype.U64, true, 0},
		{"sat.u32.u64 2^33", 1 << 33, ptxtype.U64, ptxtype.U32, true, 0xffffffff},
		{"sat.s64.u64 2^63", 1 << 63, ptxtype.U64, ptxtype.S64, true, 0x7fffffffffffffff},
		{"sat.u64.s64 -1", 0xffffffffffffffff, ptxtype.S64, ptxtype.U64, true, 0},
		{"s16.u8 0xff", 0xff, ptxtype.U8, ptxtype.S16, false, 0xff},
		{"s64.s8 0x80", 0x80, ptxtype.S8, ptxtype.S64, false, 0xffffffffffffff80},
		{"s32.s16 ignores high source bits", 0xabcd0001, ptxtype.S16, ptxtype.S32, false, 1},
		{"sat.s16.s32 in range", 0xffff8000, ptxtype.S32, ptxtype.S16, true, 0xffffffffffff8000},
		{"sat.s16.s32 below", 0xffff7fff, ptxtype.S32, ptxtype.S16, true, 0xffffffffffff8000},
	}
	for _, tc := range tests {
		if got := CvtIntToInt(tc.v, tc.src, tc.dst, tc.sat); got != tc.want {
			t.Errorf("%s: cvt(%#x) = %#x, want %#x", tc.name, tc.v, got, tc.want)
		}
	}
}
