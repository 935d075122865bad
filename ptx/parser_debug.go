// Debug directives: .file, .loc and the chain of inlined calls they describe.

package ptx

import (
	"strconv"
	"strings"
)

// inline returns the Loc.Inlined of record r, adding it to the module's
// once.
func (p *parser) inline(r Inline) int32 {
	if i, ok := p.inlines[r]; ok {
		return i
	}
	if p.inlines == nil {
		p.inlines = map[Inline]int32{}
	}
	p.mod.Inlines = append(p.mod.Inlines, r)
	i := int32(len(p.mod.Inlines))
	p.inlines[r] = i
	return i
}

// inlineParent is the Inline.Parent of a call at position at, given the
// chain the .loc before stood in (its position prev, its record pending
// when no instruction has taken it yet): the level of that chain whose
// position is the call's, innermost first; else the record of the last
// .loc at that position in inlined code (the chain left the call's line
// and came back); 0, the enclosing function's own code, when none is.
func (p *parser) inlineParent(at, prev Loc, pending Inline, hasPending bool) int32 {
	pos, rec := prev.Pos(), prev.Inlined
	if hasPending {
		if pos == at {
			return p.inline(pending)
		}
		pos, rec = pending.At, pending.Parent
	}
	for rec > 0 && int(rec) <= len(p.mod.Inlines) {
		if pos == at {
			return rec
		}
		r := p.mod.Inlines[rec-1]
		pos, rec = r.At, r.Parent
	}
	if r, ok := p.inlinedPos[at]; ok {
		return p.inline(r)
	}
	return 0
}

// parseFileDirective: .file N "path" [, timestamp, size] or .file N "dir" "name".
func (p *parser) parseFileDirective() {
	p.next()
	n, ok := p.parseInt("file index")
	if !ok {
		p.skipLine()
		return
	}
	if p.tok != tString {
		p.errorExpected("file name")
		p.skipLine()
		return
	}
	name := unquote(p.lit)
	p.next()
	if p.tok == tString && !p.nl {
		file := unquote(p.lit)
		p.next()
		if !strings.HasPrefix(file, "/") && name != "" {
			file = strings.TrimSuffix(name, "/") + "/" + file
		}
		name = file
	}
	for p.tok == tComma {
		p.next()
		p.parseInt("file timestamp or size")
	}
	p.mod.SourceFiles[clampInt(n)] = name
}

func unquote(lit []byte) string {
	s := string(lit)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	} else if len(s) >= 1 {
		s = s[1:]
	}
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseLoc: .loc file line col [, function_name sym] [, inlined_at file line col]
func (p *parser) parseLoc() {
	p.next()
	var v [3]int
	for i := range v {
		if i == 2 && (p.tok != tInt || p.nl) {
			break // the column is optional in old PTX
		}
		n, ok := p.parseInt("line information")
		if !ok {
			p.skipLine()
			return
		}
		if n > 1<<31-1 {
			n = 1<<31 - 1
		}
		v[i] = int(n)
	}
	prevLoc, prevPending, prevHas := p.loc, p.pending, p.hasPending
	p.loc = Loc{File: v[0], Line: v[1], Col: v[2]}
	p.hasPending = false
	var fn string
	var at Loc
	inlined := false
	defer func() {
		if fn != "" && inlined {
			parent := p.inlineParent(at, prevLoc, prevPending, prevHas)
			p.pending, p.hasPending = Inline{Func: fn, At: at, Parent: parent}, true
			if p.inlinedPos == nil {
				p.inlinedPos = map[Loc]Inline{}
			}
			p.inlinedPos[p.loc] = p.pending
		}
	}()
	for p.tok == tComma && !p.nl {
		p.next()
		if p.tok != tIdent {
			p.errorExpected("function_name or inlined_at")
			p.skipLine()
			return
		}
		switch string(p.lit) {
		case "function_name":
			p.next()
			if p.tok != tIdent {
				p.errorExpected("function name label")
				p.skipLine()
				return
			}
			fn = p.intern(p.lit)
			p.next()
			p.parseOffset()
		case "inlined_at":
			p.next()
			var w [3]int
			for i := 0; i < 3 && p.tok == tInt && !p.nl; i++ {
				if n, err := strconv.ParseUint(string(p.lit), 0, 31); err == nil {
					w[i] = int(n)
				}
				p.next()
			}
			at, inlined = Loc{File: w[0], Line: w[1], Col: w[2]}, true
			// A further function_name may follow.
		default:
			p.errorExpected("function_name or inlined_at")
			p.skipLine()
			return
		}
	}
	if !p.nl && p.tok != tEOF {
		p.errorExpected("end of line after .loc")
		p.skipLine()
	}
}

// skipLine skips the rest of the current line: the recovery for
// directives that end at the line's end (.loc, .file).
func (p *parser) skipLine() {
	for p.tok != tEOF && !p.nl {
		p.next()
	}
}
