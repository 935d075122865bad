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

// bf16Bits rounds f to bfloat16, to nearest even, in one rounding.
func bf16Bits(f float64) uint16 { return uint16(roundFloat(f, 7, 8)) }

// f16Bits rounds f to IEEE binary16, to nearest even.
func f16Bits(f float64) uint16 { return uint16(roundFloat(f, 10, 5)) }

// roundFloat rounds f to a binary format with mant fraction bits and
// expBits exponent bits, to nearest even (subnormals and overflow to
// infinity included), and returns its bits. A NaN keeps the top bits of
// its payload and is made quiet.
func roundFloat(f float64, mant, expBits int) uint64 {
	bias := 1<<(expBits-1) - 1
	emin := 1 - bias
	expMask := uint64(1)<<expBits - 1
	bits := math.Float64bits(f)
	sign := bits >> 63 << (mant + expBits)
	if math.IsNaN(f) {
		payload := bits & (1<<52 - 1) >> (52 - mant)
		return sign | expMask<<mant | 1<<(mant-1) | payload
	}
	a := math.Abs(f)
	if a == 0 {
		return sign
	}
	if math.IsInf(a, 0) {
		return sign | expMask<<mant
	}
	// Scale so that the result's unit in the last place is 1, round the
	// integer, scale back; all steps but the rounding are exact.
	exp := max(math.Ilogb(a), emin)
	ulp := math.Ldexp(1, exp-mant)
	v := math.RoundToEven(a/ulp) * ulp
	if v == 0 {
		return sign
	}
	e := math.Ilogb(v)
	switch {
	case e > bias:
		return sign | expMask<<mant
	case e < emin: // subnormal
		return sign | uint64(v/math.Ldexp(1, emin-mant))
	}
	frac := uint64(math.Ldexp(v, mant-e)) & (1<<mant - 1)
	return sign | uint64(e+bias)<<mant | frac
}
