// The parser's state, error reporting and token helpers; the parser_*.go files parse the constructs.

package ptx

import (
	"fmt"
	"strings"
)

// maxErrors is the number of errors after which the parser gives up.
const maxErrors = 10

// Nesting limits keep hostile input from exhausting the stack.
const (
	maxBlockDepth = 256
	maxInitDepth  = 64
	maxRegRange   = 1 << 24
	maxDim        = 1 << 48
)

// Parse parses one PTX source file. The error, if any, is an ErrorList
// sorted by position; the returned Module holds whatever could be parsed.
func Parse(filename string, src []byte) (m *Module, err error) {
	p := &parser{
		file:  NewFile(filename, src),
		names: make(map[string]string, 256),
		ops:   make(map[string]opcode, 64),
	}
	p.mod = &Module{File: p.file, AddressSize: 64, SourceFiles: map[int]string{}}
	p.sc = scanner{src: src, errh: p.scanError}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.sc.off = 3 // a UTF-8 byte order mark
	}
	defer func() {
		// Last-resort guard: a panic here is a parser bug, never the
		// input's fault; report it instead of crashing the caller.
		if r := recover(); r != nil {
			p.errs.Add(p.file.Position(p.pos()), fmt.Sprintf("warpsim internal error: %v", r))
			p.errs.Sort()
			m, err = p.mod, p.errs
		}
	}()
	p.next()
	for p.tok != tEOF {
		off := p.off
		p.parseTopLevel()
		if p.off == off && p.tok != tEOF {
			p.next()
		}
	}
	p.errs.Sort()
	return p.mod, p.errs.Err()
}

type opcode struct {
	op   string
	mods []string
}

type parser struct {
	file *File
	sc   scanner
	errs ErrorList
	mod  *Module

	tok token
	off int    // byte offset of tok
	lit []byte // text of tok
	nl  bool   // a newline precedes tok

	stmts  []Stmt    // statements of the open blocks (see parseBlock)
	opnds  []Operand // operands being collected (see popOperands)
	slab   []Operand // free operand storage
	instrs []Instr   // free Instr storage

	names   map[string]string // interned identifiers
	ops     map[string]opcode // opcode text → split form (Mods shared, capacity-capped)
	loc     Loc
	inlines map[Inline]int32 // Module.Inlines by record (see inline)
	// pending is the inlining record of the last .loc, added to
	// Module.Inlines when an instruction takes it (hasPending).
	pending    Inline
	hasPending bool
	// inlinedPos is the inlining record of the last .loc at each
	// position in inlined code (inlineParent).
	inlinedPos map[Loc]Inline
	depth      int
	stopped    bool
}

func (p *parser) pos() Pos { return Pos(p.off + 1) }

func (p *parser) next() {
	if p.stopped {
		p.tok, p.lit = tEOF, nil
		return
	}
	p.tok, p.off, p.lit = p.sc.next()
	p.nl = p.sc.nl
	if p.stopped { // the scanner reported the last allowed error
		p.tok, p.lit = tEOF, nil
	}
}

func (p *parser) scanError(off int, msg string) { p.errorAt(off, msg) }

// errorAt records an error. Like go/parser it keeps one error per line,
// which hides the cascades of a single mistake, and stops after maxErrors.
func (p *parser) errorAt(off int, msg string) {
	if p.stopped {
		return
	}
	pos := p.file.Position(p.file.Pos(off))
	if n := len(p.errs); n > 0 && p.errs[n-1].Pos.Line == pos.Line {
		return
	}
	p.errs.Add(pos, msg)
	if len(p.errs) >= maxErrors {
		p.stopped = true
	}
}

// found describes the current token for "expected X, found Y" messages.
func (p *parser) found() string {
	switch p.tok {
	case tIdent, tDirective, tInt, tFloat:
		return "'" + clip(p.lit) + "'"
	case tString:
		return "string " + clip(p.lit)
	}
	return p.tok.String()
}

func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

func (p *parser) errorExpected(what string) { p.errorAt(p.off, "expected "+what+", found "+p.found()) }

func (p *parser) expect(t token) bool {
	if p.tok == t {
		p.next()
		return true
	}
	p.errorExpected(t.String())
	return false
}

func (p *parser) intern(b []byte) string {
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	p.names[s] = s
	return s
}

func (p *parser) opcode(b []byte) opcode {
	if o, ok := p.ops[string(b)]; ok {
		return o
	}
	s := string(b)
	parts := strings.Split(s, ".")
	for i, m := range parts {
		parts[i] = p.intern([]byte(m))
	}
	o := opcode{op: parts[0], mods: parts[1:len(parts):len(parts)]}
	if len(o.mods) == 0 {
		o.mods = nil
	}
	p.ops[s] = o
	return o
}

// popOperands moves the operands collected since mark into storage of
// their own (carved from a shared slab, capacity-capped so that appends by
// users copy) and returns them.
func (p *parser) popOperands(mark int) []Operand {
	n := len(p.opnds) - mark
	if n == 0 {
		return nil
	}
	if n > len(p.slab) {
		p.slab = make([]Operand, max(n, 1024))
	}
	out := p.slab[:n:n]
	p.slab = p.slab[n:]
	copy(out, p.opnds[mark:])
	clear(p.opnds[mark:])
	p.opnds = p.opnds[:mark]
	return out
}

// newInstr allocates instructions in chunks.
func (p *parser) newInstr() *Instr {
	if len(p.instrs) == 0 {
		p.instrs = make([]Instr, 256)
	}
	in := &p.instrs[0]
	p.instrs = p.instrs[1:]
	return in
}

func (p *parser) isDirective(name string) bool {
	return p.tok == tDirective && string(p.lit) == name
}

// parseInt parses a non-negative integer literal.
func (p *parser) parseInt(what string) (uint64, bool) {
	if p.tok != tInt {
		p.errorExpected(what)
		return 0, false
	}
	v, msg := intValue(p.lit)
	if msg != "" {
		p.errorAt(p.off, msg)
		p.next()
		return 0, false
	}
	p.next()
	return v, true
}

// parseOffset parses "+n", "-n", "+-n" (repeated) after a symbol or base.
func (p *parser) parseOffset() int64 {
	var off int64
	for p.tok == tPlus || p.tok == tMinus {
		neg := p.tok == tMinus
		p.next()
		if p.tok == tMinus {
			neg = !neg
			p.next()
		}
		v, ok := p.parseInt("integer offset")
		if !ok {
			return off
		}
		if neg {
			off -= int64(v)
		} else {
			off += int64(v)
		}
	}
	return off
}
