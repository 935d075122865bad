package ptx

import (
	"strconv"
	"strings"
)

// String formats the instruction as PTX without the trailing semicolon:
// "@!%p1 ld.global.f32 %f1, [%rd2+4]".
func (in *Instr) String() string {
	var b strings.Builder
	in.appendTo(&b)
	return b.String()
}

func (in *Instr) appendTo(b *strings.Builder) {
	if in.Guard != "" {
		b.WriteByte('@')
		if in.GuardNeg {
			b.WriteByte('!')
		}
		b.WriteString(in.Guard)
		b.WriteByte(' ')
	}
	b.WriteString(in.Op)
	for _, m := range in.Mods {
		b.WriteByte('.')
		b.WriteString(m)
	}
	for i, o := range in.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		o.appendTo(b)
	}
}

// String formats the operand as PTX. Integers print in signed decimal,
// floats as 0f/0d hex so that they reparse to the same bits.
func (o Operand) String() string {
	var b strings.Builder
	o.appendTo(&b)
	return b.String()
}

func (o *Operand) appendTo(b *strings.Builder) {
	switch o.Kind {
	case OpdReg:
		if o.Neg {
			b.WriteByte('!')
		}
		b.WriteString(o.Name)
	case OpdInt:
		b.WriteString(strconv.FormatInt(int64(o.Bits), 10))
	case OpdFloat:
		if o.FloatBits == 32 {
			b.WriteString("0f")
			writeHex(b, o.Bits, 8)
		} else {
			b.WriteString("0d")
			writeHex(b, o.Bits, 16)
		}
	case OpdSym:
		b.WriteString(o.Name)
		writeOffset(b, o.Offset)
	case OpdAddr:
		b.WriteByte('[')
		if o.Name != "" {
			b.WriteString(o.Name)
			writeOffset(b, o.Offset)
		} else {
			b.WriteString(strconv.FormatInt(o.Offset, 10))
		}
		for i := range o.Elems {
			b.WriteString(", ")
			o.Elems[i].appendTo(b)
		}
		b.WriteByte(']')
	case OpdVector, OpdList:
		open, close := byte('{'), byte('}')
		if o.Kind == OpdList {
			open, close = '(', ')'
		}
		b.WriteByte(open)
		for i := range o.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			o.Elems[i].appendTo(b)
		}
		b.WriteByte(close)
	case OpdSink:
		b.WriteByte('_')
	case OpdPair:
		for i := range o.Elems {
			if i > 0 {
				b.WriteByte('|')
			}
			o.Elems[i].appendTo(b)
		}
	}
}

func writeOffset(b *strings.Builder, off int64) {
	if off > 0 {
		b.WriteByte('+')
		b.WriteString(strconv.FormatInt(off, 10))
	} else if off < 0 {
		b.WriteString(strconv.FormatInt(off, 10))
	}
}

func writeHex(b *strings.Builder, v uint64, digits int) {
	const hex = "0123456789ABCDEF"
	for i := digits - 1; i >= 0; i-- {
		b.WriteByte(hex[(v>>(4*uint(i)))&15])
	}
}
