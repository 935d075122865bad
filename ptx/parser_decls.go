// Declarations: variables in every state space, their types, alignment, arrays and initializers.

package ptx

import "fmt"

// parseVarDecl parses the directives and names of a declaration:
// ".global .align 4 .v4 .f32 a[2][3] = {…}, b". multi allows a comma
// separated list of names (not in parameter lists). It returns nil after
// reporting an error.
func (p *parser) parseVarDecl(l Linkage, multi bool) []*Var {
	v := Var{Linkage: l}
	ptr := false
	for p.tok == tDirective {
		d := string(p.lit)
		if sp, t, ok := spaceAndType(d); ok && !ptr && v.Space == SpaceNone && v.Type == TypeNone {
			// ".reg.b32": a state space and a type written as one word, as
			// nvcc's cuda_fp16.hpp writes them in inline assembly (ptxas
			// accepts it).
			v.Space, v.Type = sp, t
			p.next()
			continue
		}
		if sp, ok := spaces[d]; ok {
			switch {
			case ptr:
				v.PtrSpace = sp
			case v.Space != SpaceNone:
				p.errorAt(p.off, "duplicate state space "+d)
				return nil
			default:
				v.Space = sp
			}
			p.next()
			continue
		}
		if t, ok := types[d]; ok {
			if v.Type != TypeNone {
				p.errorAt(p.off, "duplicate type "+d)
				return nil
			}
			v.Type = t
			p.next()
			continue
		}
		if lk, ok := linkages[d]; ok {
			v.Linkage = lk
			p.next()
			continue
		}
		switch d {
		case ".align":
			p.next()
			off := p.off
			n, ok := p.parseInt("alignment")
			if !ok {
				return nil
			}
			if n == 0 || n&(n-1) != 0 || n > 1<<16 {
				p.errorAt(off, fmt.Sprintf("alignment must be a power of two up to 65536, not %d", n))
				return nil
			}
			if ptr {
				v.PtrAlign = int(n)
			} else {
				v.Align = int(n)
			}
		case ".v2", ".v4", ".v8":
			v.Vector = int(d[2] - '0')
			p.next()
		case ".ptr":
			ptr, v.Ptr = true, true
			p.next()
		case ".attribute":
			p.next()
			p.skipParens()
		default:
			if len(d) > 2 && d[1] == 'v' && d[2] >= '0' && d[2] <= '9' {
				p.errorAt(p.off, "expected vector width .v2, .v4 or .v8, found '"+clip(p.lit)+"'")
			} else {
				p.errorExpected("type")
			}
			return nil
		}
	}
	if v.Space == SpaceNone {
		p.errorExpected("state space")
		return nil
	}
	if v.Type == TypeNone {
		p.errorExpected("type")
		return nil
	}
	var out []*Var
	for {
		if p.tok != tIdent {
			p.errorExpected("identifier")
			return nil
		}
		nv := v
		nv.Pos = p.pos()
		nv.Name = p.intern(p.lit)
		p.next()
		if p.tok == tLAngle {
			p.next()
			off := p.off
			n, ok := p.parseInt("register count")
			if !ok {
				return nil
			}
			if n == 0 || n > maxRegRange {
				p.errorAt(off, fmt.Sprintf("register count must be between 1 and %d, not %d", maxRegRange, n))
				return nil
			}
			nv.RegRange = int(n)
			if !p.expect(tRAngle) {
				return nil
			}
		}
		for p.tok == tLBrack {
			p.next()
			if p.tok == tRBrack {
				nv.Dims = append(nv.Dims, 0)
				p.next()
				continue
			}
			off := p.off
			n, ok := p.parseInt("array size")
			if !ok {
				return nil
			}
			if n > maxDim {
				p.errorAt(off, fmt.Sprintf("array size %d too large", n))
				return nil
			}
			nv.Dims = append(nv.Dims, int(n))
			if !p.expect(tRBrack) {
				return nil
			}
		}
		if p.tok == tAssign {
			if !multi {
				p.errorAt(p.off, "parameters cannot have initializers")
				return nil
			}
			p.next()
			if !p.parseInit(&nv, 0) {
				return nil
			}
			if nv.Init == nil {
				nv.Init = []Init{}
			}
		}
		out = append(out, &nv)
		if !multi || p.tok != tComma {
			return out
		}
		p.next()
	}
}

// floatWidth is the width of the IEEE format a float initializer takes in
// a variable of type t.
func floatWidth(t Type) (int, bool) {
	switch t {
	case F16:
		return 16, false
	case BF16:
		return 16, true
	case F64, B64, U64, S64:
		return 64, false
	}
	return 32, false
}

// parseInit parses an initializer element; brace lists are flattened.
func (p *parser) parseInit(v *Var, depth int) bool {
	in := Init{Pos: p.pos()}
	switch p.tok {
	case tLBrace:
		if depth >= maxInitDepth {
			p.errorAt(p.off, "initializer nested too deeply")
			return false
		}
		p.next()
		if p.tok == tRBrace {
			p.next()
			return true
		}
		for {
			if !p.parseInit(v, depth+1) {
				return false
			}
			if p.tok != tComma {
				break
			}
			p.next()
		}
		return p.expect(tRBrace)
	case tMinus, tInt, tFloat:
		neg := false
		if p.tok == tMinus {
			neg = true
			p.next()
		}
		switch p.tok {
		case tInt:
			n, msg := intValue(p.lit)
			if msg != "" {
				p.errorAt(p.off, msg)
				return false
			}
			p.next()
			if p.tok == tLParen && !neg {
				// "0xFF00(generic(x)+4)": one byte of an address.
				if n == 0 {
					p.errorAt(in.Pos.offset(), "address mask must not be zero")
					return false
				}
				p.next()
				if !p.parseAddrInit(&in) || !p.expect(tRParen) {
					return false
				}
				in.Mask = n
				v.Init = append(v.Init, in)
				return true
			}
			if neg {
				n = -n
			}
			in.Kind, in.Bits = InitInt, n
			v.Init = append(v.Init, in)
			return true
		case tFloat:
			bits, w, msg := floatValue(p.lit)
			if msg != "" {
				p.errorAt(p.off, msg)
				return false
			}
			if neg {
				bits ^= 1 << (w - 1)
			}
			to, bf := floatWidth(v.Type)
			in.Kind, in.Bits = InitFloat, convertFloat(bits, w, to, bf)
		default:
			p.errorExpected("number")
			return false
		}
		p.next()
	case tIdent:
		if !p.parseAddrInit(&in) {
			return false
		}
	default:
		p.errorExpected("initializer")
		return false
	}
	v.Init = append(v.Init, in)
	return true
}

// parseAddrInit parses "sym", "generic(sym)", either with "+off".
func (p *parser) parseAddrInit(in *Init) bool {
	if p.tok != tIdent {
		p.errorExpected("symbol")
		return false
	}
	if string(p.lit) == "generic" {
		p.next()
		if !p.expect(tLParen) {
			return false
		}
		if p.tok != tIdent {
			p.errorExpected("symbol")
			return false
		}
		in.Kind, in.Sym = InitGeneric, p.intern(p.lit)
		p.next()
		if !p.expect(tRParen) {
			return false
		}
	} else {
		in.Kind, in.Sym = InitSymbol, p.intern(p.lit)
		p.next()
	}
	in.Offset = p.parseOffset()
	return true
}
