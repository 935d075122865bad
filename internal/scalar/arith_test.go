package scalar

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

var allModes = []Rounding{RN, RZ, RM, RP, RNA}

// genF32 draws f32 patterns biased toward the hard cases: subnormals,
// values near 1 with few significant bits (exact results and ties), values
// near overflow, and specials.
func genF32(rng *rand.Rand) uint32 {
	s := rng.Uint32() & signF32
	switch rng.IntN(8) {
	case 0:
		return rng.Uint32()
	case 1:
		return s | rng.Uint32()&0x7fffff // subnormal
	case 2:
		return s | uint32(118+rng.IntN(20))<<23 | rng.Uint32()&0x7fffff
	case 3:
		return s | uint32(100+rng.IntN(60))<<23 | (rng.Uint32()&0xf)<<19 // few bits
	case 4:
		return s | uint32(248+rng.IntN(7))<<23 | rng.Uint32()&0x7fffff // near overflow
	case 5:
		return s | uint32(1+rng.IntN(6))<<23 | rng.Uint32()&0x7fffff // near underflow
	case 6:
		return s | 0x7fffff>>rng.IntN(24) | uint32(rng.IntN(255))<<23 // runs of ones
	}
	return s | uint32(120+rng.IntN(16))<<23 | rng.Uint32()&0x7fffff
}

// genF64 draws f64 patterns the same way.
func genF64(rng *rand.Rand) uint64 {
	s := rng.Uint64() & signF64
	switch rng.IntN(8) {
	case 0:
		return rng.Uint64()
	case 1:
		return s | rng.Uint64()&(1<<52-1)
	case 2:
		return s | uint64(1013+rng.IntN(20))<<52 | rng.Uint64()&(1<<52-1)
	case 3:
		return s | uint64(900+rng.IntN(250))<<52 | (rng.Uint64()&0xff)<<44
	case 4:
		return s | uint64(2040+rng.IntN(7))<<52 | rng.Uint64()&(1<<52-1)
	case 5:
		return s | uint64(1+rng.IntN(60))<<52 | rng.Uint64()&(1<<52-1)
	case 6:
		return s | (1<<52-1)>>rng.IntN(53) | uint64(rng.IntN(2047))<<52
	}
	return s | uint64(1013+rng.IntN(20))<<52 | rng.Uint64()&(1<<52-1)
}

// nearTieAddend returns a c for which p + c lies very close to a rounding
// boundary of format f32 (so the float64 sum would double-round if handled
// naively): c ≈ (midpoint near p) - p, rounded to f32.
func nearTieAddend(p float64, rng *rand.Rand) uint32 {
	if p == 0 || math.IsInf(p, 0) {
		return 0
	}
	mid := float64(float32(p))
	ulp := math.Abs(float64(math.Nextafter32(float32(mid), float32(math.Inf(1)))) - mid)
	mid += ulp / 2 * float64(rng.IntN(3)-1)
	return math.Float32bits(float32(mid - p))
}

func finiteF32(xs ...uint32) bool {
	for _, x := range xs {
		if x&expF32 == expF32 {
			return false
		}
	}
	return true
}

type f32case struct {
	op      string
	a, b, c uint32
}

// refF32 computes the oracle result of op on finite inputs; ok is false
// when the exact result is zero (checked by the sign-of-zero tables).
func refF32(op string, a, b, c uint32, r Rounding) (uint32, bool) {
	x, y, z := f32(a), f32(b), f32(c)
	var e *big.Float
	switch op {
	case "add":
		e = exactAdd(x, y)
	case "sub":
		e = exactAdd(x, -y)
	case "mul":
		e = exactMul(x, y)
	case "fma":
		e = exactFma(x, y, z)
	case "div":
		if x == 0 || y == 0 {
			return 0, false
		}
		return uint32(oracleDiv(x, y, oF32, r)), true
	case "sqrt":
		if x <= 0 {
			return 0, false
		}
		return uint32(oracleSqrt(x, oF32, r)), true
	}
	if e.Sign() == 0 {
		return 0, false
	}
	return uint32(oracleExact(e, oF32, r)), true
}

func runF32(op string, a, b, c uint32, r Rounding, ftz, sat bool) uint32 {
	switch op {
	case "add":
		return AddF32(a, b, r, ftz, sat)
	case "sub":
		return SubF32(a, b, r, ftz, sat)
	case "mul":
		return MulF32(a, b, r, ftz, sat)
	case "fma":
		return FmaF32(a, b, c, r, ftz, sat)
	case "div":
		return DivF32(a, b, r, ftz, sat)
	case "sqrt":
		return SqrtF32(a, r, ftz)
	}
	panic(op)
}

func TestF32AgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 4000
	if testing.Short() {
		n = 500
	}
	ops := []string{"add", "sub", "mul", "fma", "div", "sqrt"}
	fails := 0
	for i := 0; i < n; i++ {
		a, b, c := genF32(rng), genF32(rng), genF32(rng)
		if i%3 == 0 && finiteF32(a, b) {
			c = nearTieAddend(f32(a)*f32(b), rng)
		}
		if i%5 == 0 && finiteF32(a) { // make a+b land near a tie too
			b = nearTieAddend(f32(a), rng)
		}
		if !finiteF32(a, b, c) {
			continue
		}
		for _, op := range ops {
			for _, r := range allModes {
				want, ok := refF32(op, a, b, c, r)
				if !ok {
					continue
				}
				if got := runF32(op, a, b, c, r, false, false); got != want {
					fails++
					if fails < 20 {
						t.Errorf("%s.%v.f32(%#08x, %#08x, %#08x) = %#08x, want %#08x", op, r, a, b, c, got, want)
					}
				}
			}
		}
	}
}

// TestF32FtzSat checks ftz and sat against the oracle with the inputs
// flushed and the result flushed/clamped by the rules written out here.
func TestF32FtzSat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	flush := func(x uint32) uint32 {
		if x&0x7f800000 == 0 {
			return x & 0x80000000
		}
		return x
	}
	clamp := func(x uint32) uint32 {
		v := f32(x)
		switch {
		case x&0x80000000 != 0 || v != v:
			return 0
		case v > 1:
			return 0x3f800000
		}
		return x
	}
	n := 3000
	if testing.Short() {
		n = 500
	}
	fails := 0
	for i := 0; i < n; i++ {
		a, b, c := genF32(rng), genF32(rng), genF32(rng)
		if !finiteF32(a, b, c) {
			continue
		}
		for _, op := range []string{"add", "mul", "fma", "div"} {
			for _, r := range []Rounding{RN, RZ, RM, RP} {
				want, ok := refF32(op, flush(a), flush(b), flush(c), r)
				if !ok {
					continue
				}
				for _, mode := range []struct{ ftz, sat bool }{{true, false}, {false, true}, {true, true}} {
					w := want
					if mode.ftz {
						w = flush(w)
					}
					if mode.sat {
						w = clamp(w)
					}
					aa, bb, cc := a, b, c
					if mode.ftz {
						aa, bb, cc = flush(a), flush(b), flush(c)
					} else if want2, ok := refF32(op, a, b, c, r); ok {
						w = clamp(want2)
					} else {
						continue
					}
					if got := runF32(op, aa, bb, cc, r, mode.ftz, mode.sat); got != w {
						fails++
						if fails < 20 {
							t.Errorf("%s.%v ftz=%v sat=%v (%#08x, %#08x, %#08x) = %#08x, want %#08x", op, r, mode.ftz, mode.sat, a, b, c, got, w)
						}
					}
					// unflushed inputs with ftz must give the same as flushed ones
					if mode.ftz {
						if got := runF32(op, a, b, c, r, true, mode.sat); got != w {
							fails++
							if fails < 20 {
								t.Errorf("%s.%v.ftz raw inputs (%#08x, %#08x, %#08x) = %#08x, want %#08x", op, r, a, b, c, got, w)
							}
						}
					}
				}
			}
		}
	}
}

func finiteF64(xs ...uint64) bool {
	for _, x := range xs {
		if x&0x7ff0000000000000 == 0x7ff0000000000000 {
			return false
		}
	}
	return true
}

func refF64(op string, a, b, c uint64, r Rounding) (uint64, bool) {
	x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
	var e *big.Float
	switch op {
	case "add":
		e = exactAdd(x, y)
	case "sub":
		e = exactAdd(x, -y)
	case "mul":
		e = exactMul(x, y)
	case "fma":
		e = exactFma(x, y, z)
	case "div":
		if x == 0 || y == 0 {
			return 0, false
		}
		return oracleDiv(x, y, oF64, r), true
	case "sqrt":
		if x <= 0 {
			return 0, false
		}
		return oracleSqrt(x, oF64, r), true
	}
	if e.Sign() == 0 {
		return 0, false
	}
	return oracleExact(e, oF64, r), true
}

func runF64(op string, a, b, c uint64, r Rounding) uint64 {
	switch op {
	case "add":
		return AddF64(a, b, r)
	case "sub":
		return SubF64(a, b, r)
	case "mul":
		return MulF64(a, b, r)
	case "fma":
		return FmaF64(a, b, c, r)
	case "div":
		return DivF64(a, b, r)
	case "sqrt":
		return SqrtF64(a, r)
	}
	panic(op)
}

func TestF64AgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 2000
	if testing.Short() {
		n = 300
	}
	fails := 0
	for i := 0; i < n; i++ {
		a, b, c := genF64(rng), genF64(rng), genF64(rng)
		if i%3 == 0 && finiteF64(a, b) {
			// c = -(low part of a*b) ± half an ulp of it: near-tie sums
			x, y := math.Float64frombits(a), math.Float64frombits(b)
			p := x * y
			lo := math.FMA(x, y, -p)
			c = math.Float64bits(-lo + float64(rng.IntN(3)-1)*math.Abs(p)*0x1p-53)
		}
		if !finiteF64(a, b, c) {
			continue
		}
		for _, op := range []string{"add", "sub", "mul", "fma", "div", "sqrt"} {
			for _, r := range allModes {
				want, ok := refF64(op, a, b, c, r)
				if !ok {
					continue
				}
				if got := runF64(op, a, b, c, r); got != want {
					fails++
					if fails < 20 {
						t.Errorf("%s.%v.f64(%#016x, %#016x, %#016x) = %#016x, want %#016x", op, r, a, b, c, got, want)
					}
				}
			}
		}
	}
}

// half-precision: the oracle rounds exact results to the 16-bit formats.
func TestHalfAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type half struct {
		name  string
		f     tfmt
		value func(uint16) float64
		add   func(a, b uint16, r Rounding, ftz, sat bool) uint16
		mul   func(a, b uint16, r Rounding, ftz, sat bool) uint16
		fma   func(a, b, c uint16, r Rounding, ftz, sat bool) uint16
		exp   uint16
	}
	halves := []half{
		{"f16", oF16, func(h uint16) float64 {
			v, _ := ieeeValue(uint64(h&0x7fff), 10, 5).Float64()
			return math.Copysign(v, float64(int16(h)))
		}, AddF16, MulF16, FmaF16, 0x7c00},
		{"bf16", oBF16, func(h uint16) float64 {
			v, _ := ieeeValue(uint64(h&0x7fff), 7, 8).Float64()
			return math.Copysign(v, float64(int16(h)))
		}, AddBF16, MulBF16, FmaBF16, 0x7f80},
	}
	n := 6000
	if testing.Short() {
		n = 1000
	}
	fails := 0
	for _, h := range halves {
		for i := 0; i < n; i++ {
			a, b, c := uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32())
			if i%2 == 0 { // keep exponents close so sums interact
				b = b&0x807f | a&0x7f80
				c = c&0x80ff | a&0x7f00
			}
			if a&h.exp == h.exp || b&h.exp == h.exp || c&h.exp == h.exp {
				continue
			}
			x, y, z := h.value(a), h.value(b), h.value(c)
			for _, r := range allModes {
				check := func(op string, e *big.Float, got uint16) {
					if e.Sign() == 0 {
						return
					}
					want := uint16(oracleExact(e, h.f, r))
					if got != want {
						fails++
						if fails < 20 {
							t.Errorf("%s.%v.%s(%#04x, %#04x, %#04x) = %#04x, want %#04x", op, r, h.name, a, b, c, got, want)
						}
					}
				}
				check("add", exactAdd(x, y), h.add(a, b, r, false, false))
				check("mul", exactMul(x, y), h.mul(a, b, r, false, false))
				check("fma", exactFma(x, y, z), h.fma(a, b, c, r, false, false))
			}
		}
	}
}

// Exhaustive f32 → f16/bf16 conversion for a slice of inputs, every mode.
func TestF32ToHalfAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 6000
	if testing.Short() {
		n = 1000
	}
	fails := 0
	for i := 0; i < n; i++ {
		a := genF32(rng)
		if !finiteF32(a) || a&^signF32 == 0 {
			continue
		}
		for _, r := range allModes {
			e := bf(f32(a))
			if got, want := F32ToF16(a, r, false, false), uint16(oracleExact(e, oF16, r)); got != want {
				fails++
				if fails < 20 {
					t.Errorf("cvt.%v.f16.f32(%#08x) = %#04x, want %#04x", r, a, got, want)
				}
			}
			if got, want := F32ToBF16(a, r, false, false), uint16(oracleExact(e, oBF16, r)); got != want {
				fails++
				if fails < 20 {
					t.Errorf("cvt.%v.bf16.f32(%#08x) = %#04x, want %#04x", r, a, got, want)
				}
			}
		}
	}
}

func TestF64ToF32AgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 20000
	if testing.Short() {
		n = 3000
	}
	fails := 0
	for i := 0; i < n; i++ {
		a := genF64(rng)
		if i%2 == 0 { // into f32's range, subnormals included
			a = a&^(0x7ff<<52) | uint64(1023-160+rng.IntN(300))<<52
		}
		if !finiteF64(a) || a&^signF64 == 0 {
			continue
		}
		for _, r := range allModes {
			want := uint32(oracleExact(bf(math.Float64frombits(a)), oF32, r))
			if got := uint32(CvtFloatToFloat(a, f64T, f32T, r, false, false, false)); got != want {
				fails++
				if fails < 20 {
					t.Errorf("cvt.%v.f32.f64(%#016x) = %#08x, want %#08x", r, a, got, want)
				}
			}
		}
	}
}

func TestString(t *testing.T) {
	for r, want := range map[Rounding]string{RN: "rn", RZ: "rz", RM: "rm", RP: "rp", RNA: "rna", 9: "rounding?"} {
		if got := fmt.Sprint(r); got != want {
			t.Errorf("%d: %q, want %q", r, got, want)
		}
	}
}

// Directed f64 fma on the inputs where its error-free transformation is
// stressed: cancellations, near ties, addends far larger or smaller than
// the product.
func TestFmaF64DirectedHard(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 6000
	if testing.Short() {
		n = 1000
	}
	fails := 0
	for i := 0; i < n; i++ {
		a, b := genF64(rng), genF64(rng)
		if i%2 == 0 { // keep the product in the normal range
			a = a&^(0x7ff<<52) | uint64(1023-200+rng.IntN(400))<<52
			b = b&^(0x7ff<<52) | uint64(1023-200+rng.IntN(400))<<52
		}
		if !finiteF64(a, b) {
			continue
		}
		x, y := math.Float64frombits(a), math.Float64frombits(b)
		p := x * y
		lo := math.FMA(x, y, -p)
		var z float64
		switch i % 6 {
		case 0:
			z = -p // exact result: the product's low part
		case 1:
			z = -p * (1 + float64(rng.IntN(9)-4)*0x1p-52)
		case 2:
			z = -lo + math.Abs(p)*0x1p-53*float64(rng.IntN(3)-1)
		case 3:
			z = p * 0x1p80 * float64(rng.IntN(3)-1)
		case 4:
			z = p * 0x1p-80 * float64(rng.IntN(3)-1)
		default:
			z = math.Float64frombits(genF64(rng))
		}
		c := math.Float64bits(z)
		if !finiteF64(c) {
			continue
		}
		for _, r := range []Rounding{RZ, RM, RP} {
			want, ok := refF64("fma", a, b, c, r)
			if !ok {
				if e := exactFma(x, y, z); e.Sign() == 0 && x*y != 0 { // exact cancellation: -0 only in RM
					want, ok = 0, true
					if r == RM {
						want = 1 << 63
					}
				}
			}
			if !ok {
				continue
			}
			if got := FmaF64(a, b, c, r); got != want {
				fails++
				if fails < 20 {
					t.Errorf("fma.%v.f64(%#016x, %#016x, %#016x) = %#016x, want %#016x", r, a, b, c, got, want)
				}
			}
		}
	}
}
