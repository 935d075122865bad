// Package printf formats CUDA device printf output: a format string and the
// vprintf argument buffer, exactly as the CUDA driver prints them on Linux.
//
// CUDA's device printf only packs its arguments on the GPU; the driver
// formats them on the host with the host's C library ("final formatting of
// printf() output takes place on the host system", CUDA C Programming
// Guide, Formatted Output). On Linux that is glibc, so the output here is
// glibc's, byte for byte: "(nil)" for a null %p, "(null)" for a null %s
// (empty when the precision is below 6), "-nan", "inf", hex floats as
// "0x1.8p+1". The tests compare against glibc's own printf (testdata/golden.txt,
// regenerated with gcc by `go test -run TestGolden -update`).
//
// The argument buffer is the one nvcc and clang build for vprintf: each
// argument at the next offset aligned to its own size; char and short
// promoted to a 4-byte int, float to double; %s, %p and %n take 8-byte
// pointers; integers are 4 bytes unless the length is l, ll, j, z, t or q
// (8 bytes, as long is on 64-bit Linux). A buffer shorter than the format
// asks for reads as zeros. As in CUDA, a format takes at most 32 arguments;
// conversions past the 32nd are copied to the output as written.
package printf

import (
	"encoding/binary"
	"math"
	"strconv"
)

// MaxArgs is the number of arguments CUDA's printf accepts besides the
// format; further conversions are output unconverted.
const MaxArgs = 32

// spec is one parsed conversion specification.
type spec struct {
	minus, plus, space, alt, zero bool
	width                         int
	prec                          int // -1 when absent
	length                        int // lenNone, lenHH, lenH, lenL (8-byte)
	verb                          byte
}

const (
	lenNone = iota
	lenHH
	lenH
	lenL
	lenLongDouble
)

// argReader walks the vprintf argument buffer.
type argReader struct {
	buf   []byte
	off   int
	count int
}

// next returns the next argument of size bytes (4 or 8), aligned to its size.
func (r *argReader) next(size int) uint64 {
	r.count++
	r.off = (r.off + size - 1) &^ (size - 1)
	start := r.off
	r.off += size
	if start < 0 || start+size > len(r.buf) {
		return 0
	}
	if size == 4 {
		return uint64(binary.LittleEndian.Uint32(r.buf[start:]))
	}
	return binary.LittleEndian.Uint64(r.buf[start:])
}

// Format appends to dst the output of CUDA's printf for format (without its
// terminating NUL; a NUL in it ends it) and the packed argument buffer args.
// readString returns the NUL-terminated string at a device address (without
// the NUL) and false when the address is not readable.
func Format(dst, format, args []byte, readString func(addr uint64) ([]byte, bool)) []byte {
	r := argReader{buf: args}
	for i := 0; i < len(format); {
		c := format[i]
		if c == 0 {
			break
		}
		if c != '%' {
			j := i + 1
			for j < len(format) && format[j] != '%' && format[j] != 0 {
				j++
			}
			dst = append(dst, format[i:j]...)
			i = j
			continue
		}
		start := i
		s, next, ok := parseSpec(format, i+1)
		if !ok {
			// An incomplete or unknown conversion: glibc prints it as written.
			dst = append(dst, format[start:next]...)
			i = next
			continue
		}
		i = next
		if s.verb == '%' {
			dst = append(dst, '%')
			continue
		}
		if r.count+s.argCount() > MaxArgs {
			dst = append(dst, format[start:next]...)
			continue
		}
		dst = s.convert(dst, &r, readString)
	}
	return dst
}

// argCount is the number of arguments a conversion consumes, counting a
// '*' width or precision.
func (s *spec) argCount() int {
	n := 1
	if s.width == starArg {
		n++
	}
	if s.prec == starArg {
		n++
	}
	return n
}

// starArg marks a width or precision given by an argument.
const starArg = -2

// parseSpec parses the conversion starting after '%' at format[i]. It
// returns the end of the specification and whether it is complete.
func parseSpec(format []byte, i int) (spec, int, bool) {
	s := spec{prec: -1}
	n := len(format)
	for ; i < n; i++ {
		switch format[i] {
		case '-':
			s.minus = true
		case '+':
			s.plus = true
		case ' ':
			s.space = true
		case '#':
			s.alt = true
		case '0':
			s.zero = true
		default:
			goto width
		}
	}
width:
	if i < n && format[i] == '*' {
		s.width = starArg
		i++
	} else {
		for ; i < n && format[i] >= '0' && format[i] <= '9'; i++ {
			if s.width < 1<<20 {
				s.width = s.width*10 + int(format[i]-'0')
			}
		}
	}
	if i < n && format[i] == '.' {
		i++
		s.prec = 0
		if i < n && format[i] == '*' {
			s.prec = starArg
			i++
		} else {
			for ; i < n && format[i] >= '0' && format[i] <= '9'; i++ {
				if s.prec < 1<<20 {
					s.prec = s.prec*10 + int(format[i]-'0')
				}
			}
		}
	}
	if i < n {
		switch format[i] {
		case 'h':
			s.length = lenH
			i++
			if i < n && format[i] == 'h' {
				s.length = lenHH
				i++
			}
		case 'l':
			s.length = lenL
			i++
			if i < n && format[i] == 'l' {
				i++
			}
		case 'j', 'z', 't', 'q':
			s.length = lenL
			i++
		case 'L':
			s.length = lenLongDouble
			i++
		}
	}
	if i >= n || format[i] == 0 {
		return s, i, false
	}
	s.verb = format[i]
	switch s.verb {
	case 'd', 'i', 'u', 'o', 'x', 'X', 'c', 's', 'p', 'n', 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A', '%':
		return s, i + 1, true
	}
	return s, i + 1, false
}

// convert formats one conversion, reading its arguments from r.
func (s spec) convert(dst []byte, r *argReader, readString func(uint64) ([]byte, bool)) []byte {
	if s.width == starArg {
		w := int32(r.next(4))
		s.width = int(w)
		if w < 0 {
			s.minus = true
			s.width = -int(w)
		}
		s.width = min(s.width, 1<<20)
	}
	if s.prec == starArg {
		p := int32(r.next(4))
		s.prec = int(p)
		if p < 0 {
			s.prec = -1
		}
		s.prec = min(s.prec, 1<<20)
	}
	switch s.verb {
	case 'd', 'i':
		return s.formatSigned(dst, r)
	case 'u', 'o', 'x', 'X':
		return s.formatUnsigned(dst, r)
	case 'c':
		c := byte(r.next(4))
		return s.pad(dst, nil, []byte{c}, false)
	case 's':
		return s.formatString(dst, r.next(8), readString)
	case 'p':
		return s.formatPointer(dst, r.next(8))
	case 'n':
		r.next(8) // writing through the pointer is not supported; nothing is printed
		return dst
	default: // f F e E g G a A
		return s.formatFloat(dst, math.Float64frombits(r.next(8)))
	}
}

// intArg reads an integer argument of the conversion's length.
func (s *spec) intArg(r *argReader) uint64 {
	if s.length == lenL {
		return r.next(8)
	}
	return r.next(4)
}

func (s spec) formatSigned(dst []byte, r *argReader) []byte {
	raw := s.intArg(r)
	var v int64
	switch s.length {
	case lenHH:
		v = int64(int8(raw))
	case lenH:
		v = int64(int16(raw))
	case lenL:
		v = int64(raw)
	default:
		v = int64(int32(raw))
	}
	var sign []byte
	mag := uint64(v)
	switch {
	case v < 0:
		sign = []byte{'-'}
		mag = -uint64(v)
	case s.plus:
		sign = []byte{'+'}
	case s.space:
		sign = []byte{' '}
	}
	return s.formatInteger(dst, sign, mag, 10, false)
}

func (s spec) formatUnsigned(dst []byte, r *argReader) []byte {
	raw := s.intArg(r)
	switch s.length {
	case lenHH:
		raw = uint64(uint8(raw))
	case lenH:
		raw = uint64(uint16(raw))
	case lenNone, lenLongDouble:
		raw = uint64(uint32(raw))
	}
	switch s.verb {
	case 'o':
		return s.formatInteger(dst, nil, raw, 8, false)
	case 'x':
		return s.formatInteger(dst, nil, raw, 16, false)
	case 'X':
		return s.formatInteger(dst, nil, raw, 16, true)
	}
	return s.formatInteger(dst, nil, raw, 10, false)
}

// formatInteger lays out an integer conversion: sign or 0x prefix, digits
// padded with zeros to the precision, then the field width.
// The digits are written in place at the end of dst and laid out there
// (padFrom), so formatting allocates nothing.
func (s spec) formatInteger(dst, prefix []byte, v uint64, base int, upper bool) []byte {
	start := len(dst)
	if !(v == 0 && s.prec == 0) {
		dst = strconv.AppendUint(dst, v, base)
		if upper {
			for i := start; i < len(dst); i++ {
				if c := dst[i]; c >= 'a' && c <= 'f' {
					dst[i] = c - 'a' + 'A'
				}
			}
		}
	}
	if n := len(dst) - start; s.prec > n {
		dst = insertFill(dst, start, s.prec-n, '0')
	}
	if s.alt {
		switch {
		case base == 8 && (len(dst) == start || dst[start] != '0'):
			dst = insertFill(dst, start, 1, '0')
		case base == 16 && v != 0 && upper:
			prefix = []byte("0X")
		case base == 16 && v != 0:
			prefix = []byte("0x")
		}
	}
	zeroPad := s.zero && s.prec < 0
	return s.padFrom(dst, start, prefix, zeroPad)
}

// insertFill inserts n bytes c at dst[at].
func insertFill(dst []byte, at, n int, c byte) []byte {
	if n <= 0 {
		return dst
	}
	end := len(dst)
	dst = appendRepeat(dst, c, n)
	copy(dst[at+n:], dst[at:end])
	for i := at; i < at+n; i++ {
		dst[i] = c
	}
	return dst
}

// padFrom is pad for a body already at dst[start:]: prefix and fill are
// inserted around it in place.
func (s spec) padFrom(dst []byte, start int, prefix []byte, zeroPad bool) []byte {
	fill := s.width - len(prefix) - (len(dst) - start)
	switch {
	case fill <= 0 || s.minus:
		dst = insertFill(dst, start, len(prefix), 0)
		copy(dst[start:], prefix)
		dst = appendRepeat(dst, ' ', fill)
	case zeroPad:
		dst = insertFill(dst, start, len(prefix)+fill, '0')
		copy(dst[start:], prefix)
	default:
		dst = insertFill(dst, start, fill+len(prefix), ' ')
		copy(dst[start+fill:], prefix)
	}
	return dst
}

// pad writes prefix and body into a field of the conversion's width:
// left-justified with spaces for '-', else zeros after the prefix when
// zeroPad, else spaces before.
func (s spec) pad(dst, prefix, body []byte, zeroPad bool) []byte {
	fill := s.width - len(prefix) - len(body)
	switch {
	case fill <= 0:
		dst = append(dst, prefix...)
		dst = append(dst, body...)
	case s.minus:
		dst = append(dst, prefix...)
		dst = append(dst, body...)
		dst = appendRepeat(dst, ' ', fill)
	case zeroPad:
		dst = append(dst, prefix...)
		dst = appendRepeat(dst, '0', fill)
		dst = append(dst, body...)
	default:
		dst = appendRepeat(dst, ' ', fill)
		dst = append(dst, prefix...)
		dst = append(dst, body...)
	}
	return dst
}

func appendRepeat(dst []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, c)
	}
	return dst
}

func (s spec) formatString(dst []byte, addr uint64, readString func(uint64) ([]byte, bool)) []byte {
	var str []byte
	if addr == 0 {
		// glibc prints "(null)", or nothing when the precision cannot hold it.
		if s.prec >= 0 && s.prec < len("(null)") {
			return s.pad(dst, nil, nil, false)
		}
		str = []byte("(null)")
	} else {
		var ok bool
		if readString != nil {
			str, ok = readString(addr)
		}
		if !ok {
			// The GPU would fault or print garbage; say what happened instead.
			str = strconv.AppendUint([]byte("(bad string address 0x"), addr, 16)
			str = append(str, ')')
		}
	}
	if s.prec >= 0 && s.prec < len(str) {
		str = str[:s.prec]
	}
	return s.pad(dst, nil, str, false)
}

// formatPointer prints as glibc does: "(nil)" for 0, else like %#lx with
// the sign flags and precision of a signed conversion.
func (s spec) formatPointer(dst []byte, p uint64) []byte {
	if p == 0 {
		return s.pad(dst, nil, []byte("(nil)"), false)
	}
	var prefix []byte
	switch {
	case s.plus:
		prefix = []byte("+0x")
	case s.space:
		prefix = []byte(" 0x")
	default:
		prefix = []byte("0x")
	}
	t := s
	t.alt = false
	return t.formatInteger(dst, prefix, p, 16, false)
}

func (s spec) formatFloat(dst []byte, v float64) []byte {
	upper := s.verb == 'F' || s.verb == 'E' || s.verb == 'G' || s.verb == 'A'
	var pre [3]byte // sign, and "0x" for %a
	sign := pre[:0]
	switch {
	case math.Signbit(v):
		sign = append(sign, '-')
	case s.plus:
		sign = append(sign, '+')
	case s.space:
		sign = append(sign, ' ')
	}
	start := len(dst)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		body := "inf"
		if math.IsNaN(v) {
			body = "nan"
		}
		dst = append(dst, body...)
		if upper {
			for i := start; i < len(dst); i++ {
				dst[i] -= 32
			}
		}
		return s.padFrom(dst, start, sign, false)
	}
	v = math.Abs(v)
	switch s.verb {
	case 'f', 'F':
		dst = s.fixed(dst, v)
	case 'e', 'E':
		dst = s.exponent(dst, v, upper)
	case 'g', 'G':
		dst = s.general(dst, v, upper)
	default:
		dst = s.hex(dst, v, upper)
	}
	if s.verb == 'a' || s.verb == 'A' {
		prefix := "0x"
		if upper {
			prefix = "0X"
		}
		sign = append(sign, prefix...)
	}
	return s.padFrom(dst, start, sign, s.zero)
}

func (s spec) precOr6() int {
	if s.prec < 0 {
		return 6
	}
	return s.prec
}

// fixed appends %f of a non-negative finite v.
func (s spec) fixed(dst []byte, v float64) []byte {
	prec := s.precOr6()
	dst = strconv.AppendFloat(dst, v, 'f', prec, 64)
	if prec == 0 && s.alt {
		dst = append(dst, '.')
	}
	return dst
}

// exponent is %e of a non-negative finite v; strconv's 'e' layout (at
// least two exponent digits) is C's.
func (s spec) exponent(dst []byte, v float64, upper bool) []byte {
	start := len(dst)
	prec := s.precOr6()
	dst = strconv.AppendFloat(dst, v, 'e', prec, 64)
	if prec == 0 && s.alt {
		// insert the point before the 'e'
		dst = insertFill(dst, start+indexByte(dst[start:], 'e'), 1, '.')
	}
	if upper {
		dst[start+indexByte(dst[start:], 'e')] = 'E'
	}
	return dst
}

// general is %g: with P significant digits (6 if omitted, 1 if 0) and X the
// decimal exponent of v rounded to P digits, %f with precision P-1-X when
// P > X >= -4, else %e with precision P-1; without '#', trailing zeros of
// the fraction and a trailing point are removed (C11 7.21.6.1).
func (s spec) general(dst []byte, v float64, upper bool) []byte {
	p := s.precOr6()
	if p == 0 {
		p = 1
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'e', p-1, 64)
	ei := start + indexByte(dst[start:], 'e')
	x := 0 // the exponent: 'e', a sign, digits
	for _, c := range dst[ei+2:] {
		x = 10*x + int(c-'0')
	}
	if dst[ei+1] == '-' {
		x = -x
	}
	var ebuf [8]byte
	expPart := ebuf[:0]
	if p > x && x >= -4 {
		dst = strconv.AppendFloat(dst[:start], v, 'f', p-1-x, 64)
	} else {
		expPart = append(expPart, dst[ei:]...)
		if upper {
			expPart[0] = 'E'
		}
		dst = dst[:ei]
	}
	if s.alt {
		if indexByte(dst[start:], '.') < 0 {
			dst = append(dst, '.')
		}
	} else if indexByte(dst[start:], '.') >= 0 {
		for dst[len(dst)-1] == '0' {
			dst = dst[:len(dst)-1]
		}
		if dst[len(dst)-1] == '.' {
			dst = dst[:len(dst)-1]
		}
	}
	return append(dst, expPart...)
}

// hex is %a of a non-negative finite v without the "0x" prefix, as glibc
// writes it: normal numbers as 1.hhh…p±E, subnormals as 0.hhh…p-1022, zero
// as 0p+0; without a precision the fraction is the shortest exact one;
// with one it is rounded to nearest, ties to even, and a carry out of the
// leading digit makes it 2 (glibc does not renormalize).
func (s spec) hex(b []byte, v float64, upper bool) []byte {
	bits := math.Float64bits(v)
	mant := bits & (1<<52 - 1)
	exp := int((bits >> 52) & 0x7ff)
	lead := uint64(1)
	switch {
	case exp == 0 && mant == 0:
		lead, exp = 0, 0
	case exp == 0:
		lead, exp = 0, -1022
	default:
		exp -= 1023
	}
	digits := 13
	if s.prec < 0 {
		for digits > 0 && mant&0xf == 0 {
			mant >>= 4
			digits--
		}
	} else if s.prec < 13 {
		drop := uint(4 * (13 - s.prec))
		rest := mant & (1<<drop - 1)
		mant >>= drop
		half := uint64(1) << (drop - 1)
		odd := mant&1 == 1
		if s.prec == 0 {
			odd = lead&1 == 1
		}
		if rest > half || (rest == half && odd) {
			mant++
			if mant>>(4*uint(s.prec)) != 0 {
				mant &= 1<<(4*uint(s.prec)) - 1
				lead++
			}
		}
		digits = s.prec
	}
	hexDigits := "0123456789abcdef"
	if upper {
		hexDigits = "0123456789ABCDEF"
	}
	b = append(b, hexDigits[lead])
	if digits > 0 || s.alt || s.prec > 0 {
		b = append(b, '.')
	}
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hexDigits[(mant>>(4*uint(i)))&0xf])
	}
	if s.prec > digits {
		b = appendRepeat(b, '0', s.prec-digits)
	}
	if upper {
		b = append(b, 'P')
	} else {
		b = append(b, 'p')
	}
	if exp >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
