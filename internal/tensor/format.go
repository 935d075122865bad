package tensor

// Elem is an element type of a tensor-core operand.
type Elem uint8

// Element types.
const (
	ElemNone Elem = iota
	F16
	BF16
	TF32
	E4M3
	E5M2
	F32
	F64
	S8
	U8
	S4
	U4
	B1
	S32
)

var elemNames = [...]string{"", "f16", "bf16", "tf32", "e4m3", "e5m2", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32"}

func (e Elem) String() string { return elemNames[e] }

// ParseElem returns the element type a PTX type suffix names.
func ParseElem(s string) (Elem, bool) {
	for i, n := range elemNames {
		if i > 0 && n == s {
			return Elem(i), true
		}
	}
	return ElemNone, false
}

// Bits is the width of one element in registers.
func (e Elem) Bits() int {
	switch e {
	case F16, BF16:
		return 16
	case E4M3, E5M2, S8, U8:
		return 8
	case S4, U4:
		return 4
	case B1:
		return 1
	case F64:
		return 64
	}
	return 32
}

// IsFloat reports whether e is a floating-point type.
func (e Elem) IsFloat() bool { return e >= F16 && e <= F64 }

// term is a finite value (-1)^neg * mant * 2^exp, or a special value (nan
// or inf), whose mant is 0: Model.step tests mant alone for its common case.
type term struct {
	mant uint64
	exp  int32
	mb   int32 // mantissa bits of the format: exp+mb is the exponent of the leading (implicit) bit position
	neg  bool
	inf  bool
	nan  bool
	// flags repeats neg (termNeg) and says inf || nan (termSpecial), for
	// summarize; negate keeps it in step with neg.
	flags uint8
}

const (
	termNeg     = 1 << iota // neg
	termSpecial             // inf or nan
)

// negate flips t's sign.
func (t *term) negate() {
	t.neg = !t.neg
	t.flags ^= termNeg
}

// elemFmt is how decode reads an element type: exponent and mantissa widths,
// bias, and the low bits dropped first (tf32). Types that are not floats
// read as eb = mb = 0 (decode's answer for them is never used).
type elemFmt struct {
	eb, mb, shift uint8
	bias          int16
}

var elemFmts = [...]elemFmt{
	F16:  {eb: 5, mb: 10, bias: 15},
	BF16: {eb: 8, mb: 7, bias: 127},
	TF32: {eb: 8, mb: 10, bias: 127, shift: 13}, // tf32 operands are f32 words; the tensor core reads the top 19 bits
	E4M3: {eb: 4, mb: 3, bias: 7},
	E5M2: {eb: 5, mb: 2, bias: 15},
	F32:  {eb: 8, mb: 23, bias: 127},
	F64:  {eb: 11, mb: 52, bias: 1023},
	S32:  {},
}

// decode unpacks one element's bit pattern into an exact term. It is the
// tensor arithmetic's innermost call (once per operand element and
// accumulator): a table lookup and no switch, so that it inlines.
func decode(e Elem, b uint64) term {
	f := elemFmts[e]
	eb, mb := uint(f.eb), uint(f.mb)
	b >>= f.shift
	sign := uint8(b >> (eb + mb) & 1)
	t := term{neg: sign != 0, mb: int32(mb), flags: sign}
	ef := uint(b>>mb) & (1<<eb - 1)
	m := b & (1<<mb - 1)
	if ef == 1<<eb-1 && e != E4M3 || e == E4M3 && ef == 15 && m == 7 {
		t.nan = m != 0 || e == E4M3
		t.inf = !t.nan
		t.flags |= termSpecial
		return t
	}
	if ef == 0 {
		t.mant = m
		t.exp = int32(1 - int(f.bias) - int(mb))
	} else {
		t.mant = m | 1<<mb
		t.exp = int32(int(ef) - int(f.bias) - int(mb))
	}
	return t
}
