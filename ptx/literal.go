package ptx

import (
	"math"
	"strconv"
)

// intValue converts an integer literal: decimal, 0x hex, 0b binary or
// leading-zero octal, with an optional U suffix. Values are 64-bit; a
// literal that does not fit is an error, as in ptxas.
func intValue(lit []byte) (uint64, string) {
	s := lit
	if n := len(s); n > 1 && (s[n-1] == 'U' || s[n-1] == 'u') {
		s = s[:n-1]
	}
	base := uint64(10)
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if len(s) == 0 {
		return 0, "malformed integer literal " + string(lit)
	}
	var v uint64
	for _, c := range s {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, "malformed integer literal " + string(lit)
		}
		if d >= base {
			return 0, "malformed integer literal " + string(lit)
		}
		if v > (math.MaxUint64-d)/base {
			return 0, "integer literal " + string(lit) + " out of range"
		}
		v = v*base + d
	}
	return v, ""
}

// floatValue converts a float literal to its IEEE bits: 0fXXXXXXXX gives a
// 32-bit value, 0dXXXXXXXXXXXXXXXX and decimal literals a 64-bit one.
func floatValue(lit []byte) (bits uint64, width int, msg string) {
	if len(lit) > 2 && lit[0] == '0' {
		switch lit[1] {
		case 'f', 'F':
			width = 32
		case 'd', 'D':
			width = 64
		}
	}
	if width != 0 {
		digits := lit[2:]
		if len(digits) != width/4 {
			return 0, 0, "malformed float literal " + string(lit) + " (want " + strconv.Itoa(width/4) + " hex digits)"
		}
		for _, c := range digits {
			var d uint64
			switch {
			case c >= '0' && c <= '9':
				d = uint64(c - '0')
			case c >= 'a' && c <= 'f':
				d = uint64(c-'a') + 10
			case c >= 'A' && c <= 'F':
				d = uint64(c-'A') + 10
			default:
				return 0, 0, "malformed float literal " + string(lit)
			}
			bits = bits<<4 | d
		}
		return bits, width, ""
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, 0, "float literal " + string(lit) + " out of range"
		}
		return 0, 0, "malformed float literal " + string(lit)
	}
	return math.Float64bits(f), 64, ""
}

// convertFloat re-encodes the bits of a float of width from (32 or 64) as a
// float of width to (16, 32 or 64) with round-to-nearest-even; bf selects
// bfloat16 for width 16.
func convertFloat(bits uint64, from, to int, bf bool) uint64 {
	var f float64
	if from == 32 {
		f = float64(math.Float32frombits(uint32(bits)))
	} else {
		f = math.Float64frombits(bits)
	}
	switch to {
	case 64:
		return math.Float64bits(f)
	case 32:
		if from == 32 {
			return bits
		}
		return uint64(math.Float32bits(float32(f)))
	case 16:
		if bf {
			return uint64(bf16Bits(f))
		}
		return uint64(f16Bits(f))
	}
	return bits
}

// bf16Bits rounds f to bfloat16 (via float32: the double rounding cannot
// change the result because float32 keeps 16 more bits than bfloat16 plus
// the information of a sticky bit for all but pathological ties).
func bf16Bits(f float64) uint16 {
	b := math.Float32bits(float32(f))
	if b&0x7fffffff > 0x7f800000 { // NaN
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// f16Bits rounds f to IEEE binary16, to nearest even.
func f16Bits(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	if math.IsNaN(f) {
		return sign | 0x7e00
	}
	a := math.Abs(f)
	if a >= 65520 { // rounds to infinity
		return sign | 0x7c00
	}
	if a < 0x1p-25 { // below half the smallest subnormal (ties go to even 0)
		if a == 0x1p-25 {
			return sign
		}
		return sign
	}
	// Scale so that the unit in the last place of the result is 1, then
	// round the integer with nearest-even.
	exp := math.Ilogb(a)
	if exp < -14 {
		exp = -14
	}
	ulp := math.Ldexp(1, exp-10)
	m := math.RoundToEven(a / ulp) // exact division by a power of two
	v := m * ulp
	e := math.Ilogb(v)
	if e < -14 { // subnormal
		return sign | uint16(v/0x1p-24)
	}
	frac := uint16(math.Ldexp(v, 10-e)) & 0x3ff
	return sign | uint16(e+15)<<10 | frac
}
