package scalar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// e4m3 and e5m2 values by the textbook formula, for every pattern.
func fp8Value(b uint8, expBits, fracBits, bias int) float64 {
	s := 1.0
	if b&0x80 != 0 {
		s = -1
	}
	e := int(b>>fracBits) & (1<<expBits - 1)
	f := float64(int(b) & (1<<fracBits - 1))
	if e == 0 {
		return s * f * math.Ldexp(1, 1-bias-fracBits)
	}
	return s * (1 + f/float64(int(1)<<fracBits)) * math.Ldexp(1, e-bias)
}

func TestFP8Decode(t *testing.T) {
	for i := range 256 {
		b := uint8(i)
		if b&0x7f == 0x7f {
			if !math.IsNaN(E4M3ToF64(b)) {
				t.Errorf("e4m3 %#02x must be NaN", b)
			}
		} else if got, want := E4M3ToF64(b), fp8Value(b, 4, 3, 7); got != want {
			t.Errorf("e4m3 %#02x = %g, want %g", b, got, want)
		}
		switch {
		case b&0x7c == 0x7c && b&3 != 0:
			if !math.IsNaN(E5M2ToF64(b)) {
				t.Errorf("e5m2 %#02x must be NaN", b)
			}
		case b&0x7f == 0x7c:
			if !math.IsInf(E5M2ToF64(b), 0) {
				t.Errorf("e5m2 %#02x must be inf", b)
			}
		default:
			if got, want := E5M2ToF64(b), fp8Value(b, 5, 2, 15); got != want {
				t.Errorf("e5m2 %#02x = %g, want %g", b, got, want)
			}
		}
	}
	if E4M3ToF64(0x7e) != 448 || E5M2ToF64(0x7b) != 57344 || E4M3ToF64(0x01) != math.Ldexp(1, -9) {
		t.Error("fp8 extremes")
	}
}

// Every f16 value converts to the nearest e4m3/e5m2 (ties to even), found by
// scanning all 128 magnitudes; overflow saturates.
func TestFP8EncodeExhaustiveF16(t *testing.T) {
	nearest := func(x float64, val func(uint8) float64, max uint8) uint8 {
		ax := math.Abs(x)
		best := uint8(0)
		for m := uint8(0); m <= max; m++ {
			d, bd := math.Abs(val(m)-ax), math.Abs(val(best)-ax)
			if d < bd || d == bd && m&1 == 0 {
				best = m
			}
		}
		if x < 0 || x == 0 && math.Signbit(x) {
			best |= 0x80
		}
		return best
	}
	e4 := func(m uint8) float64 { return fp8Value(m, 4, 3, 7) }
	e5 := func(m uint8) float64 { return fp8Value(m, 5, 2, 15) }
	step := 1
	if testing.Short() {
		step = 7
	}
	for h := 0; h < 1<<16; h += step {
		x := F16ToF64(uint16(h))
		if math.IsNaN(x) {
			if got := F16x2ToE4M3x2(uint32(h)<<16|uint32(h), false); got != 0x7f7f {
				t.Fatalf("e4m3(NaN) = %#x", got)
			}
			continue
		}
		w4, w5 := nearest(x, e4, 0x7e), nearest(x, e5, 0x7b)
		if math.IsInf(x, 0) { // satfinite: ±MAX_NORM
			w4, w5 = w4&0x80|0x7e, w5&0x80|0x7b
		}
		if got := F16x2ToE4M3x2(uint32(h)<<16|uint32(h), false); got != uint16(w4)<<8|uint16(w4) {
			t.Fatalf("e4m3(%g) = %#04x, want %#02x twice", x, got, w4)
		}
		if got := F16x2ToE5M2x2(uint32(h)<<16|uint32(h), false); got != uint16(w5)<<8|uint16(w5) {
			t.Fatalf("e5m2(%g) = %#04x, want %#02x twice", x, got, w5)
		}
	}
}

func TestFP8Pairs(t *testing.T) {
	// a → upper byte; relu zeroes negatives, keeps NaN
	if got := F32x2ToE4M3x2(0x3f800000, 0xc0000000, false); got != 0x38c0 {
		t.Errorf("e4m3x2(1, -2) = %#04x, want 0x38c0", got)
	}
	if got := F32x2ToE4M3x2(0x3f800000, 0xc0000000, true); got != 0x3800 {
		t.Errorf("relu e4m3x2(1, -2) = %#04x, want 0x3800", got)
	}
	if got := F32x2ToE5M2x2(0x7f800000, 0xffc00000, true); got != 0x7b7f {
		t.Errorf("relu e5m2x2(inf, nan) = %#04x, want 0x7b7f", got)
	}
	if got := F32x2ToE4M3x2(0x43e80000, 0x7f7fffff, false); got != 0x7e7e { // 464 (tie → 448), max f32
		t.Errorf("e4m3x2(464, max) = %#04x, want 0x7e7e", got)
	}
	if got := E4M3x2ToF16x2(0x38c0, false); got != 0x3c00c000 {
		t.Errorf("f16x2(e4m3 1, -2) = %#08x, want 0x3c00c000", got)
	}
	if got := E4M3x2ToF16x2(0x7ff8, true); got != 0x7fff0000 {
		t.Errorf("relu f16x2(e4m3 NaN, -256) = %#08x, want 0x7fff0000", got)
	}
	if got := E5M2x2ToF16x2(0x3cfc, false); got != 0x3c00fc00 {
		t.Errorf("f16x2(e5m2 1, -inf) = %#08x, want 0x3c00fc00", got)
	}
}

func TestFP8EncodeRandomF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for i := 0; i < 20000; i++ {
		a := uint32(110+rng.IntN(30))<<23 | rng.Uint32()&0x807fffff
		if i%3 == 0 { // exact midpoints between e4m3 neighbours, and a hair off
			m := float64(rng.IntN(0x7e)) // magnitudes 0..0x7d
			lo, hi := fp8Value(uint8(m), 4, 3, 7), fp8Value(uint8(m)+1, 4, 3, 7)
			mid := float32((lo + hi) / 2)
			a = math.Float32bits(mid) + uint32(rng.IntN(3)) - 1
		}
		x := float64(f32(a))
		ax := math.Abs(x)
		best := uint8(0)
		for m := uint8(0); m <= 0x7e; m++ {
			d, bd := math.Abs(fp8Value(m, 4, 3, 7)-ax), math.Abs(fp8Value(best, 4, 3, 7)-ax)
			if d < bd || d == bd && m&1 == 0 {
				best = m
			}
		}
		if math.Signbit(x) {
			best |= 0x80
		}
		if got := F32x2ToE4M3x2(a, a, false); got != uint16(best)<<8|uint16(best) {
			t.Fatalf("e4m3(%#08x = %g) = %#04x, want %#02x twice", a, x, got, best)
		}
	}
}
