// Operands and addresses: registers, vectors, immediates, symbols and [base+offset] forms.

package ptx

import "strings"

// operandContext says where an operand stands, which bounds the nesting
// of brackets: an address may list a vector ("[tex, {x, y}]"), nothing else
// nests.
type operandContext uint8

const (
	inInstr operandContext = iota
	inAddr                 // after a comma inside "[ ]"
	inList                 // inside "{ }" or "( )"
)

// parseOperand parses one operand.
func (p *parser) parseOperand(ctx operandContext) (Operand, bool) {
	o := Operand{Pos: p.pos()}
	switch p.tok {
	case tIdent:
		switch {
		case len(p.lit) == 1 && p.lit[0] == '_':
			o.Kind = OpdSink
			p.next()
		case p.lit[0] == '%':
			o.Kind, o.Name = OpdReg, p.intern(p.lit)
			p.next()
		default:
			o.Kind, o.Name = OpdSym, p.intern(p.lit)
			p.next()
			if p.tok == tPipe {
				// "p|q": setp's outputs named without '%' (inline asm).
				o.Kind = OpdReg
				break
			}
			o.Offset = p.parseOffset()
			return o, true
		}
		if p.tok == tPipe {
			p.next()
			if p.tok != tIdent || p.lit[0] == '$' {
				p.errorExpected("predicate register")
				return o, false
			}
			second := Operand{Pos: p.pos(), Kind: OpdReg, Name: p.intern(p.lit)}
			if string(p.lit) == "_" {
				second.Kind, second.Name = OpdSink, ""
			}
			p.next()
			o = Operand{Pos: o.Pos, Kind: OpdPair, Elems: []Operand{o, second}}
		}
	case tNot:
		p.next()
		if p.tok != tIdent || p.lit[0] == '$' {
			p.errorExpected("predicate register")
			return o, false
		}
		o.Kind, o.Name, o.Neg = OpdReg, p.intern(p.lit), true
		p.next()
	case tMinus, tInt, tFloat:
		neg := false
		if p.tok == tMinus {
			neg = true
			p.next()
		}
		switch p.tok {
		case tIdent:
			if !neg || p.lit[0] != '%' {
				p.errorExpected("number")
				return o, false
			}
			o.Kind, o.Name, o.Minus = OpdReg, p.intern(p.lit), true // vmad's "-%r1"
			p.next()
			return o, true
		case tInt:
			n, msg := intValue(p.lit)
			if msg != "" {
				p.errorAt(p.off, msg)
				return o, false
			}
			if neg {
				n = -n
			}
			o.Kind, o.Bits = OpdInt, n
		case tFloat:
			bits, w, msg := floatValue(p.lit)
			if msg != "" {
				p.errorAt(p.off, msg)
				return o, false
			}
			if neg {
				bits ^= 1 << (w - 1)
			}
			o.Kind, o.Bits, o.FloatBits = OpdFloat, bits, uint8(w)
		default:
			p.errorExpected("number")
			return o, false
		}
		p.next()
	case tLBrack:
		if ctx != inInstr {
			p.errorExpected("operand")
			return o, false
		}
		p.next()
		o.Kind = OpdAddr
		switch p.tok {
		case tIdent:
			if len(p.lit) == 1 && p.lit[0] == '_' {
				p.errorExpected("address")
				return o, false
			}
			o.Name = p.intern(p.lit)
			p.next()
			o.Offset = p.parseOffset()
		case tInt, tMinus:
			if p.tok == tMinus {
				p.next()
				n, ok := p.parseInt("address")
				if !ok {
					return o, false
				}
				o.Offset = -int64(n)
			} else {
				n, ok := p.parseInt("address")
				if !ok {
					return o, false
				}
				o.Offset = int64(n)
			}
			o.Offset += p.parseOffset()
		default:
			p.errorExpected("address")
			return o, false
		}
		mark := len(p.opnds)
		for p.tok == tComma { // "[tex, {x, y}]", "[a, b]"
			p.next()
			e, ok := p.parseOperand(inAddr)
			if !ok {
				p.opnds = p.opnds[:mark]
				return o, false
			}
			p.opnds = append(p.opnds, e)
		}
		o.Elems = p.popOperands(mark)
		if !p.expect(tRBrack) {
			return o, false
		}
	case tLBrace, tLParen:
		if ctx == inList || (ctx == inAddr && p.tok == tLParen) {
			p.errorExpected("operand")
			return o, false
		}
		closing := tRBrace
		o.Kind = OpdVector
		if p.tok == tLParen {
			closing, o.Kind = tRParen, OpdList
		}
		p.next()
		if p.tok == closing && o.Kind == OpdList {
			p.next()
			o.Elems = []Operand{}
			return o, true
		}
		mark := len(p.opnds)
		for {
			e, ok := p.parseOperand(inList)
			if !ok {
				p.opnds = p.opnds[:mark]
				return o, false
			}
			p.opnds = append(p.opnds, e)
			if p.tok != tComma {
				break
			}
			p.next()
		}
		o.Elems = p.popOperands(mark)
		if !p.expect(closing) {
			return o, false
		}
	default:
		p.errorExpected("operand")
		return o, false
	}
	return o, true
}

// spaceAndType splits a directive that joins a state space and a type
// (".reg.b32") into the two.
func spaceAndType(d string) (Space, Type, bool) {
	i := strings.IndexByte(d[1:], '.')
	if i < 0 {
		return SpaceNone, TypeNone, false
	}
	sp, ok := spaces[d[:i+1]]
	t, tok := types[d[i+1:]]
	if !ok || !tok || sp == SpaceNone {
		return SpaceNone, TypeNone, false
	}
	return sp, t, true
}

func isSpaceAndType(d string) bool {
	_, _, ok := spaceAndType(d)
	return ok
}
