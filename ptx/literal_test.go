package ptx

import (
	"math"
	"testing"
)

// TestRound16 checks the rounding of float initializers to binary16 and
// bfloat16 against encodings worked out by hand from the formats.
func TestRound16(t *testing.T) {
	tests := []struct {
		name string
		f    float64
		bf   bool
		want uint16
	}{
		{"f16 1.5", 1.5, false, 0x3E00},
		{"f16 -0", math.Copysign(0, -1), false, 0x8000},
		{"f16 max", 65504, false, 0x7BFF},
		{"f16 below overflow tie", 65519, false, 0x7BFF},
		{"f16 overflow tie to inf", 65520, false, 0x7C00},
		{"f16 smallest subnormal", 0x1p-24, false, 0x0001},
		{"f16 half of it ties to 0", 0x1p-25, false, 0x0000},
		{"f16 above that tie", 0x1.8p-25, false, 0x0001},
		{"f16 1.5 subnormal units tie to even", 0x1.8p-24, false, 0x0002},
		{"f16 smallest normal", 0x1p-14, false, 0x0400},
		{"f16 0.1", 0.1, false, 0x2E66},
		{"f16 inf", math.Inf(-1), false, 0xFC00},
		{"bf16 1", 1, true, 0x3F80},
		{"bf16 pi", math.Pi, true, 0x4049},
		{"bf16 tie to even (down)", 1 + 0x1p-8, true, 0x3F80},
		{"bf16 tie to even (up)", 1 + 3*0x1p-8, true, 0x3F82},
		// Rounding through float32 first would make this a tie and round
		// down to 0x3F80: one rounding gives 0x3F81.
		{"bf16 no double rounding", 1 + 0x1p-8 + 0x1p-40, true, 0x3F81},
		{"bf16 FLT_MAX overflows", math.MaxFloat32, true, 0x7F80},
		{"bf16 smallest subnormal", 0x1p-133, true, 0x0001},
	}
	for _, tc := range tests {
		var got uint16
		if tc.bf {
			got = bf16Bits(tc.f)
		} else {
			got = f16Bits(tc.f)
		}
		if got != tc.want {
			t.Errorf("%s: got %#04x, want %#04x", tc.name, got, tc.want)
		}
	}
	// NaN payloads survive the trip through the float32 printed by Format.
	for _, h := range []uint16{0x7E00, 0xFD01, 0x7C01} {
		want := h | 0x200 // quiet
		if got := f16Bits(float64(math.Float32frombits(widen16(h, false)))); got != want {
			t.Errorf("f16 NaN %#04x: got %#04x, want %#04x", h, got, want)
		}
	}
}

func TestIntValue(t *testing.T) {
	tests := []struct {
		lit  string
		want uint64
		err  string
	}{
		{"0", 0, ""},
		{"42", 42, ""},
		{"42U", 42, ""},
		{"0x7fffffff", 0x7fffffff, ""},
		{"0XFFFFFFFFFFFFFFFF", math.MaxUint64, ""},
		{"017", 15, ""},
		{"0b101", 5, ""},
		{"18446744073709551615", math.MaxUint64, ""},
		{"18446744073709551616", 0, "integer literal 18446744073709551616 out of range"},
		{"0x10000000000000000", 0, "integer literal 0x10000000000000000 out of range"},
		{"09", 0, "malformed integer literal 09"},
		{"0b2", 0, "malformed integer literal 0b2"},
		{"0x", 0, "malformed integer literal 0x"},
	}
	for _, tc := range tests {
		got, err := intValue([]byte(tc.lit))
		if got != tc.want || err != tc.err {
			t.Errorf("%s: got %d %q, want %d %q", tc.lit, got, err, tc.want, tc.err)
		}
	}
}
