package launchfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// scalarType is one of the element types of typed initializers and scalar
// arguments.
type scalarType struct {
	name   string
	size   int
	signed bool
	float  bool
}

// scalarTypes are the types DESIGN.md's launch-file contract names.
var scalarTypes = []scalarType{
	{name: "s8", size: 1, signed: true}, {name: "s16", size: 2, signed: true},
	{name: "s32", size: 4, signed: true}, {name: "s64", size: 8, signed: true},
	{name: "u8", size: 1}, {name: "u16", size: 2}, {name: "u32", size: 4}, {name: "u64", size: 8},
	{name: "f16", size: 2, float: true}, {name: "f32", size: 4, float: true}, {name: "f64", size: 8, float: true},
}

func lookupType(name string) (scalarType, bool) {
	for _, t := range scalarTypes {
		if t.name == name {
			return t, true
		}
	}
	return scalarType{}, false
}

func typeNames() string {
	n := make([]string, len(scalarTypes))
	for i, t := range scalarTypes {
		n[i] = t.name
	}
	return strings.Join(n, " ")
}

// isHexPattern reports whether a string value is a "0x…" bit pattern.
func isHexPattern(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")
}

// encode appends the little-endian bytes of one value of type t. A value is
// a JSON number, or a string: "0x…" gives the raw bits, and for floats
// "nan", "inf", "-inf" (and any decimal strconv accepts) are allowed.
func (t scalarType) encode(dst []byte, n *node) ([]byte, error) {
	var bits uint64
	switch n.kind {
	case kindNumber:
		var err error
		bits, err = t.fromNumber(string(n.num))
		if err != nil {
			return nil, err
		}
	case kindString:
		s := strings.TrimSpace(n.str)
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			v, err := strconv.ParseUint(s[2:], 16, 64)
			if err != nil || (t.size < 8 && v>>(8*t.size) != 0) {
				return nil, fmt.Errorf("%q is not a %d-bit hexadecimal bit pattern", n.str, 8*t.size)
			}
			bits = v
		} else if t.float {
			var err error
			bits, err = t.fromNumber(s)
			if err != nil {
				return nil, err
			}
		} else {
			return nil, fmt.Errorf("%s value %q: want a number or a \"0x…\" bit pattern", t.name, n.str)
		}
	default:
		return nil, fmt.Errorf("%s value: want a number, got %s", t.name, n.kind)
	}
	switch t.size {
	case 1:
		return append(dst, byte(bits)), nil
	case 2:
		return binary.LittleEndian.AppendUint16(dst, uint16(bits)), nil
	case 4:
		return binary.LittleEndian.AppendUint32(dst, uint32(bits)), nil
	}
	return binary.LittleEndian.AppendUint64(dst, bits), nil
}

// fromNumber converts a decimal to t's bit pattern: integers must be whole
// and in range; floats are rounded to nearest even directly from the
// decimal for f32 and f64 (f16 goes through f64, which can round twice
// only for decimals within 2⁻⁵³ of an f16 tie).
func (t scalarType) fromNumber(s string) (uint64, error) {
	if t.float {
		bits, err := t.floatBits(s)
		if err != nil {
			return 0, err
		}
		return bits, t.checkFloatRange(s, bits)
	}
	return t.intBits(s)
}

// checkFloatRange refuses a decimal that t cannot hold: one that rounds to
// infinity (1e39 as f32, 70000 as f16, 1e309 as f64) or a non-zero one that
// rounds to zero (1e-50 as f32). They became inf and 0 without a word;
// "inf", "-inf", "nan" and "0x…" bit patterns say so explicitly.
func (t scalarType) checkFloatRange(s string, bits uint64) error {
	body := strings.ToLower(strings.TrimLeft(s, "+-"))
	if strings.HasPrefix(body, "inf") || strings.HasPrefix(body, "nan") {
		return nil
	}
	f := floatFormats[t.size]
	exp := bits >> f.fracBits & (1<<f.expBits - 1)
	frac := bits & (1<<f.fracBits - 1)
	switch {
	case exp == 1<<f.expBits-1 && frac == 0:
		return fmt.Errorf("%s value %s is out of range (the largest finite %s is %s); write \"inf\" or \"-inf\" for infinity", t.name, s, t.name, f.largest)
	case exp == 0 && frac == 0 && nonZeroDecimal(s):
		return fmt.Errorf("%s value %s is too small: it rounds to 0 (the smallest non-zero %s is %s); write 0, or a \"0x…\" bit pattern", t.name, s, t.name, f.smallest)
	}
	return nil
}

// floatFormats are the IEEE formats by size: exponent and fraction bits,
// the largest finite and the smallest non-zero magnitude.
var floatFormats = map[int]struct {
	expBits, fracBits uint
	largest, smallest string
}{
	2: {5, 10, "65504", "5.96e-08"},
	4: {8, 23, "3.4028235e+38", "1.4e-45"},
	8: {11, 52, "1.7976931348623157e+308", "4.9e-324"},
}

// nonZeroDecimal reports whether a decimal's digits (before any exponent)
// are not all zero.
func nonZeroDecimal(s string) bool {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsAny(s, "123456789")
}

// floatBits rounds a decimal to float type t's bit pattern.
func (t scalarType) floatBits(s string) (uint64, error) {
	{
		switch t.size {
		case 4:
			f, err := strconv.ParseFloat(s, 32)
			if err != nil && !isRange(err) {
				return 0, fmt.Errorf("%s value %q is not a number", t.name, s)
			}
			return uint64(math.Float32bits(float32(f))), nil
		case 8:
			f, err := strconv.ParseFloat(s, 64)
			if err != nil && !isRange(err) {
				return 0, fmt.Errorf("%s value %q is not a number", t.name, s)
			}
			return math.Float64bits(f), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !isRange(err) {
			return 0, fmt.Errorf("%s value %q is not a number", t.name, s)
		}
		return uint64(f16FromF64(f)), nil
	}
}

// intBits converts a whole decimal to integer type t's bit pattern.
func (t scalarType) intBits(s string) (uint64, error) {
	if t.signed {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || (t.size < 8 && (v < -1<<(8*t.size-1) || v >= 1<<(8*t.size-1))) {
			return 0, fmt.Errorf("%s value %s is not an integer in [%d, %d]", t.name, s, int64(-1)<<(8*t.size-1), uint64(1)<<(8*t.size-1)-1)
		}
		return uint64(v), nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || (t.size < 8 && v>>(8*t.size) != 0) {
		return 0, fmt.Errorf("%s value %s is not an integer in [0, %d]", t.name, s, uint64(math.MaxUint64)>>(64-8*t.size))
	}
	return v, nil
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// f16FromF64 rounds f to the nearest IEEE binary16 value, ties to even;
// NaN becomes the quiet NaN 0x7e00 with f's sign.
func f16FromF64(f float64) uint16 {
	sign := uint16(math.Float64bits(f)>>48) & 0x8000
	switch {
	case math.IsNaN(f):
		return sign | 0x7e00
	case math.IsInf(f, 0):
		return sign | 0x7c00
	}
	a := math.Abs(f)
	if a >= 65520 { // halfway between 65504 (the largest half) and 65536 rounds to even: infinity
		return sign | 0x7c00
	}
	if a < 0x1p-14 { // subnormal: a multiple of 2⁻²⁴; 1024·2⁻²⁴ encodes as the smallest normal
		return sign | uint16(math.RoundToEven(a*0x1p24))
	}
	frac, exp := math.Frexp(a) // a = frac·2^exp, frac in [0.5, 1)
	m := uint16(math.RoundToEven(frac * 2048))
	e := exp - 1 + 15
	if m == 2048 {
		m, e = 1024, e+1
	}
	return sign | uint16(e)<<10 | (m - 1024)
}
