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
}

// decode unpacks one element's bit pattern into an exact term.
func decode(e Elem, b uint64) term {
	var eb, mb, bias uint
	switch e {
	case F16:
		eb, mb, bias = 5, 10, 15
	case BF16:
		eb, mb, bias = 8, 7, 127
	case TF32:
		b >>= 13 // tf32 operands are f32 words; the tensor core reads the top 19 bits
		eb, mb, bias = 8, 10, 127
	case E4M3:
		eb, mb, bias = 4, 3, 7
	case E5M2:
		eb, mb, bias = 5, 2, 15
	case F32:
		eb, mb, bias = 8, 23, 127
	case F64:
		eb, mb, bias = 11, 52, 1023
	}
	t := term{neg: b>>(eb+mb)&1 != 0, mb: int32(mb)}
	ef := uint(b>>mb) & (1<<eb - 1)
	m := b & (1<<mb - 1)
	if e == E4M3 {
		if ef == 15 && m == 7 {
			t.nan = true
			return t
		}
	} else if ef == 1<<eb-1 {
		if m != 0 {
			t.nan = true
		} else {
			t.inf = true
		}
		return t
	}
	if ef == 0 {
		t.mant = m
		t.exp = int32(1 - int(bias) - int(mb))
	} else {
		t.mant = m | 1<<mb
		t.exp = int32(int(ef) - int(bias) - int(mb))
	}
	return t
}
