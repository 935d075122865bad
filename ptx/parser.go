package ptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx/ptxtype"
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

// Top level.

var linkages = map[string]Linkage{
	".visible": LinkVisible,
	".extern":  LinkExtern,
	".weak":    LinkWeak,
	".common":  LinkCommon,
}

var spaces = map[string]Space{
	".reg":    SpaceReg,
	".sreg":   SpaceSReg,
	".const":  SpaceConst,
	".global": SpaceGlobal,
	".local":  SpaceLocal,
	".param":  SpaceParam,
	".shared": SpaceShared,
	".tex":    SpaceTex,
}

// types are the type directives by spelling: ptxtype's one table.
var types = ptxtype.Types

// topDirectives start a module-level construct; error recovery resumes at them.
var topDirectives = map[string]bool{
	".version": true, ".target": true, ".address_size": true, ".file": true, ".section": true,
	".visible": true, ".extern": true, ".weak": true, ".common": true, ".entry": true, ".func": true,
	".global": true, ".const": true, ".shared": true,
}

func (p *parser) parseTopLevel() {
	if p.tok == tSemi {
		p.next()
		return
	}
	if p.tok != tDirective {
		p.errorExpected("directive")
		p.syncTop()
		return
	}
	switch d := string(p.lit); d {
	case ".version":
		if p.mod.VersionPos == NoPos {
			p.mod.VersionPos = p.pos()
		}
		p.next()
		if p.tok == tFloat || p.tok == tInt {
			p.mod.Version = string(p.lit)
			p.next()
		} else {
			p.errorExpected("version number")
		}
	case ".target":
		if p.mod.TargetPos == NoPos {
			p.mod.TargetPos = p.pos()
		}
		p.next()
		for {
			if p.tok != tIdent {
				p.errorExpected("target name")
				return
			}
			p.mod.Target = append(p.mod.Target, string(p.lit))
			p.next()
			if p.tok != tComma {
				return
			}
			p.next()
		}
	case ".address_size":
		if p.mod.AddressSizePos == NoPos {
			p.mod.AddressSizePos = p.pos()
		}
		p.next()
		off := p.off
		n, ok := p.parseInt("address size")
		if ok {
			if n != 32 && n != 64 {
				p.errorAt(off, fmt.Sprintf("address size must be 32 or 64, not %d", n))
			} else {
				p.mod.AddressSize = int(n)
			}
		}
	case ".file":
		p.parseFileDirective()
	case ".loc":
		p.parseLoc()
	case ".section":
		p.skipSection()
	case ".entry", ".func":
		p.parseFunc(p.pos(), LinkNone)
	case ".alias":
		// ".alias a, b;" makes a another name of function b; recorded as
		// nothing, lowering reports calls to unknown functions.
		p.next()
		for p.tok != tSemi && p.tok != tEOF && !(p.tok == tDirective && p.nl) {
			p.next()
		}
		p.expect(tSemi)
	case ".pragma":
		p.next()
		p.expect(tString)
		p.expect(tSemi)
	default:
		if l, ok := linkages[d]; ok {
			pos := p.pos()
			p.next()
			if p.isDirective(".entry") || p.isDirective(".func") {
				p.parseFunc(pos, l)
				return
			}
			if p.tok == tDirective && spaces[string(p.lit)] != SpaceNone {
				p.parseModuleVars(l)
				return
			}
			p.errorExpected(".entry, .func or a state space")
			p.syncTop()
			return
		}
		if spaces[d] != SpaceNone {
			p.parseModuleVars(LinkNone)
			return
		}
		p.errorAt(p.off, "unknown directive "+clip(p.lit))
		p.next()
		p.syncTop()
	}
}

func (p *parser) parseModuleVars(l Linkage) {
	vars := p.parseVarDecl(l, true)
	p.mod.Vars = append(p.mod.Vars, vars...)
	if !p.expect(tSemi) {
		p.syncTop()
	}
}

// syncTop skips to the next directive that can start a module-level
// construct, stepping over balanced braces.
func (p *parser) syncTop() {
	for p.tok != tEOF {
		switch p.tok {
		case tDirective:
			if topDirectives[string(p.lit)] {
				return
			}
		case tLBrace:
			p.skipBalanced()
			continue
		}
		p.next()
	}
}

// skipBalanced skips a "{ … }" group, nested groups included.
func (p *parser) skipBalanced() {
	off := p.off
	depth := 0
	for p.tok != tEOF {
		switch p.tok {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
	p.errorAt(off, "expected '}' to close the block, found end of file")
}

// skipSection skips ".section .debug_x { … }": debug information has no
// bearing on execution. Of ".debug_str" it keeps the labelled strings
// (the names .loc's function_name refers to).
func (p *parser) skipSection() {
	p.next()
	if p.tok != tDirective && p.tok != tIdent {
		p.errorExpected("section name")
		p.syncTop()
		return
	}
	strs := string(p.lit) == ".debug_str"
	p.next()
	if p.tok != tLBrace {
		p.errorExpected("'{'")
		p.syncTop()
		return
	}
	if !strs {
		p.skipBalanced()
		return
	}
	// "$L__info_string0:" then ".b8 95,90,…,0": each label's bytes up to
	// the first zero.
	off := p.off
	p.next()
	var label string
	var b []byte
	for p.tok != tEOF && p.tok != tRBrace {
		switch p.tok {
		case tIdent:
			lit := p.intern(p.lit)
			p.next()
			if p.tok == tColon {
				label, b = lit, b[:0]
				p.next()
			}
			continue
		case tInt:
			if n, err := strconv.ParseUint(string(p.lit), 0, 8); err == nil && label != "" {
				if n == 0 {
					if p.mod.InlineNames == nil {
						p.mod.InlineNames = map[string]string{}
					}
					p.mod.InlineNames[label] = string(b)
					label = ""
				} else {
					b = append(b, byte(n))
				}
			}
		}
		p.next()
	}
	if p.tok != tRBrace {
		p.errorAt(off, "expected '}' to close the block, found end of file")
		return
	}
	p.next()
}

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

// Functions.

func (p *parser) parseFunc(pos Pos, l Linkage) {
	f := &Func{Pos: pos, Linkage: l, Entry: p.isDirective(".entry")}
	p.next()
	p.funcAttributes(f)
	if !f.Entry && p.tok == tLParen {
		f.Returns = p.parseParams()
	}
	if p.tok != tIdent {
		p.errorExpected("function name")
		p.syncTop()
		return
	}
	f.Name = p.intern(p.lit)
	p.mod.Funcs = append(p.mod.Funcs, f)
	p.next()
	if p.tok == tLParen {
		f.Params = p.parseParams()
	}
	if !p.funcAttributes(f) {
		p.syncTop()
		return
	}
	switch p.tok {
	case tSemi:
		p.next()
	case tLBrace:
		f.HasBody = true
		p.loc, p.hasPending = Loc{}, false
		f.Body = p.parseBlock()
		if f.Body == nil {
			f.Body = []Stmt{}
		}
	default:
		p.errorExpected("'{' or ';'")
		p.syncTop()
	}
}

// funcAttributes parses the directives between a function's parameters and
// its body: .noreturn, performance directives, .pragma and .attribute.
func (p *parser) funcAttributes(f *Func) bool {
	for p.tok == tDirective {
		switch string(p.lit) {
		case ".noreturn":
			f.NoReturn = true
			p.next()
		case ".maxntid":
			p.next()
			f.MaxNTID = p.parseDims()
		case ".reqntid":
			p.next()
			f.ReqNTID = p.parseDims()
		case ".minnctapersm", ".maxnctapersm":
			p.next()
			n, _ := p.parseInt("block count")
			f.MinNCTAPerSM = clampInt(n)
		case ".maxnreg":
			p.next()
			n, _ := p.parseInt("register count")
			f.MaxNReg = clampInt(n)
		case ".reqnctapercluster":
			p.next()
			f.ReqNCTAPerCluster = p.parseDims()
		case ".explicitcluster":
			p.next()
			f.ExplicitCluster = true
		case ".maxclusterrank":
			p.next()
			n, _ := p.parseInt("cluster rank")
			f.MaxClusterRank = clampInt(n)
		case ".blocksareclusters",
			".nvvm_reqntid", ".abi_preserve", ".abi_preserve_control":
			p.next()
			for p.tok == tInt && !p.nl {
				p.next()
				if p.tok == tComma {
					p.next()
				}
			}
		case ".pragma":
			p.next()
			p.expect(tString)
			p.expect(tSemi)
		case ".attribute":
			p.next()
			p.skipParens()
		default:
			if f.HasBody || f.Name != "" {
				p.errorAt(p.off, "unknown function directive "+clip(p.lit))
				return false
			}
			return true
		}
	}
	return true
}

func clampInt(n uint64) int {
	if n > 1<<31-1 {
		return 1<<31 - 1
	}
	return int(n)
}

// parseDims parses "x[, y[, z]]"; missing dimensions are 1.
func (p *parser) parseDims() [3]int {
	d := [3]int{1, 1, 1}
	for i := 0; i < 3; i++ {
		n, ok := p.parseInt("dimension")
		if !ok {
			break
		}
		d[i] = clampInt(n)
		if p.tok != tComma {
			break
		}
		p.next()
	}
	return d
}

// skipParens skips a balanced "( … )" group.
func (p *parser) skipParens() {
	if p.tok != tLParen {
		p.errorExpected("'('")
		return
	}
	depth := 0
	for p.tok != tEOF {
		switch p.tok {
		case tLParen:
			depth++
		case tRParen:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		case tLBrace, tRBrace, tSemi:
			p.errorExpected("')'")
			return
		}
		p.next()
	}
	p.errorExpected("')'")
}

// parseParams parses "( .param … , .reg … )".
func (p *parser) parseParams() []*Var {
	p.next() // (
	var params []*Var
	if p.tok == tRParen {
		p.next()
		return params
	}
	for {
		if p.tok != tDirective || (string(p.lit) != ".param" && string(p.lit) != ".reg") {
			p.errorExpected(".param or .reg")
			p.syncParams()
			return params
		}
		vs := p.parseVarDecl(LinkNone, false)
		if vs == nil {
			p.syncParams()
			return params
		}
		params = append(params, vs...)
		if p.tok != tComma {
			break
		}
		p.next()
	}
	if !p.expect(tRParen) {
		p.syncParams()
	}
	return params
}

func (p *parser) syncParams() {
	for p.tok != tEOF && p.tok != tRParen && p.tok != tLBrace && p.tok != tSemi {
		if p.tok == tDirective && topDirectives[string(p.lit)] {
			return
		}
		p.next()
	}
	if p.tok == tRParen {
		p.next()
	}
}

// Declarations.

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

// Statements.

func (p *parser) parseBlock() []Stmt {
	open := p.off
	p.next() // {
	if p.depth >= maxBlockDepth {
		p.errorAt(open, "blocks nested too deeply")
		p.depth++
		p.skipBlockRest()
		p.depth--
		return nil
	}
	p.depth++
	mark := len(p.stmts)
	for p.tok != tRBrace && p.tok != tEOF {
		off := p.off
		p.parseStmt()
		if p.off == off && p.tok != tRBrace && p.tok != tEOF {
			p.next()
		}
	}
	p.depth--
	// Statements collect on one stack shared by all blocks; the block's
	// own slice is allocated once, at its final size.
	body := make([]Stmt, len(p.stmts)-mark)
	copy(body, p.stmts[mark:])
	clear(p.stmts[mark:])
	p.stmts = p.stmts[:mark]
	if p.tok == tEOF {
		p.errorExpected("'}'")
		return body
	}
	p.next()
	return body
}

// skipBlockRest skips to the '}' closing a block whose '{' was consumed.
func (p *parser) skipBlockRest() {
	depth := 1
	for p.tok != tEOF {
		switch p.tok {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

// syncStmt skips the rest of a malformed statement: to its ';', or to a '}'
// or module-level directive that starts a line.
func (p *parser) syncStmt() {
	for p.tok != tEOF {
		switch p.tok {
		case tSemi:
			p.next()
			return
		case tRBrace:
			if p.nl {
				return
			}
		case tDirective:
			if p.nl && topDirectives[string(p.lit)] && string(p.lit) != ".global" && string(p.lit) != ".const" && string(p.lit) != ".shared" {
				return
			}
		}
		p.next()
	}
}

func (p *parser) parseStmt() {
	switch p.tok {
	case tSemi:
		p.next()
	case tLBrace:
		pos := p.pos()
		blk := p.parseBlock()
		if blk == nil {
			blk = []Stmt{}
		}
		p.stmts = append(p.stmts, Stmt{Kind: StmtBlock, Pos: pos, StmtData: &StmtData{Block: blk}})
	case tAt:
		pos := p.pos()
		p.next()
		neg := false
		if p.tok == tNot {
			neg = true
			p.next()
		}
		// A predicate declared without '%' ("p" in inline asm) is a plain
		// identifier; lowering resolves it in scope.
		if p.tok != tIdent || p.lit[0] == '$' {
			p.errorExpected("predicate register")
			p.syncStmt()
			return
		}
		guard := p.intern(p.lit)
		p.next()
		if p.tok != tIdent {
			p.errorExpected("instruction")
			p.syncStmt()
			return
		}
		p.parseInstr(pos, guard, neg)
		return
	case tIdent:
		pos := p.pos()
		if p.lit[0] == '%' {
			p.errorExpected("statement")
			p.syncStmt()
			return
		}
		if p.lit[0] == '$' || p.lit[0] == '_' {
			// Not an opcode: must be a label.
			name := p.intern(p.lit)
			p.next()
			if p.tok != tColon {
				p.errorExpected("':' after label " + name)
				p.syncStmt()
				return
			}
			p.next()
			p.parseLabeled(pos, name)
			return
		}
		// An identifier followed by ':' is a label; otherwise an opcode.
		lit := p.lit
		if p.colonFollows() {
			name := p.intern(lit)
			p.next()
			p.next()
			p.parseLabeled(pos, name)
			return
		}
		p.parseInstr(pos, "", false)
		return
	case tDirective:
		d := string(p.lit)
		switch {
		case d == ".loc":
			p.parseLoc()
		case d == ".pragma":
			pos := p.pos()
			p.next()
			if p.tok != tString {
				p.errorExpected("string")
				p.syncStmt()
				return
			}
			p.stmts = append(p.stmts, Stmt{Kind: StmtPragma, Pos: pos, StmtData: &StmtData{Text: unquote(p.lit)}})
			p.next()
			if !p.expect(tSemi) {
				p.syncStmt()
			}
		case d == ".file":
			p.parseFileDirective()
		case spaces[d] != SpaceNone || linkages[d] != LinkNone || isSpaceAndType(d):
			pos := p.pos()
			vars := p.parseVarDecl(LinkNone, true)
			if vars == nil {
				p.syncStmt()
				return
			}
			for _, v := range vars {
				p.stmts = append(p.stmts, Stmt{Kind: StmtDecl, Pos: pos, StmtData: &StmtData{Decl: v}})
			}
			if !p.expect(tSemi) {
				p.syncStmt()
			}
		default:
			p.errorAt(p.off, "unexpected directive "+clip(p.lit)+" in function body")
			p.syncStmt()
		}
	default:
		p.errorExpected("statement")
		p.syncStmt()
	}
	return
}

// colonFollows reports whether the token after the current one is ':'.
// It looks at the next non-blank byte and scans a whole token only when a
// comment may stand in between.
func (p *parser) colonFollows() bool {
	src := p.sc.src
	i := p.sc.off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	if i < len(src) && src[i] == '/' {
		save := p.sc
		p.sc.errh = nil
		tok, _, _ := p.sc.next()
		p.sc = save
		return tok == tColon
	}
	return i < len(src) && src[i] == ':'
}

// parseLabeled parses what follows "name:": a .callprototype, a
// .branchtargets or .calltargets list, or nothing (a plain label).
func (p *parser) parseLabeled(pos Pos, name string) {
	if p.tok != tDirective {
		p.stmts = append(p.stmts, Stmt{Kind: StmtLabel, Pos: pos, StmtData: &StmtData{Label: name}})
		return
	}
	switch string(p.lit) {
	case ".callprototype":
		p.next()
		f := &Func{Pos: pos, Name: name}
		if p.tok == tLParen {
			f.Returns = p.parseParams()
		}
		if p.tok != tIdent || string(p.lit) != "_" {
			p.errorExpected("'_'")
			p.syncStmt()
			return
		}
		p.next()
		if p.tok == tLParen {
			f.Params = p.parseParams()
		}
		if p.isDirective(".noreturn") {
			f.NoReturn = true
			p.next()
		}
		p.stmts = append(p.stmts, Stmt{Kind: StmtProto, Pos: pos, StmtData: &StmtData{Label: name, Proto: f}})
	case ".branchtargets", ".calltargets":
		kind := StmtBranchTargets
		if string(p.lit) == ".calltargets" {
			kind = StmtCallTargets
		}
		p.next()
		var targets []string
		for {
			if p.tok != tIdent {
				p.errorExpected("label")
				p.syncStmt()
				return
			}
			targets = append(targets, p.intern(p.lit))
			p.next()
			if p.tok != tComma {
				break
			}
			p.next()
		}
		p.stmts = append(p.stmts, Stmt{Kind: kind, Pos: pos, StmtData: &StmtData{Label: name, Targets: targets}})
	default:
		p.stmts = append(p.stmts, Stmt{Kind: StmtLabel, Pos: pos, StmtData: &StmtData{Label: name}})
		return
	}
	if !p.expect(tSemi) {
		p.syncStmt()
	}
	return
}

// parseInstr parses an instruction; the current token is its opcode.
func (p *parser) parseInstr(pos Pos, guard string, neg bool) {
	if c := p.lit[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		p.errorExpected("instruction")
		p.syncStmt()
		return
	}
	op := p.opcode(p.lit)
	p.next()
	mark := len(p.opnds)
	if p.tok != tSemi {
		for {
			o, ok := p.parseOperand(inInstr)
			if !ok {
				p.opnds = p.opnds[:mark]
				p.syncStmt()
				return
			}
			p.opnds = append(p.opnds, o)
			if p.tok != tComma {
				break
			}
			p.next()
		}
	}
	if p.tok != tSemi {
		p.opnds = p.opnds[:mark]
		p.errorExpected("';'")
		p.syncStmt()
		return
	}
	p.next()
	in := p.newInstr()
	if p.hasPending {
		p.loc.Inlined, p.hasPending = p.inline(p.pending), false
	}
	*in = Instr{Pos: pos, Guard: guard, GuardNeg: neg, Op: op.op, Mods: op.mods, Loc: p.loc, Operands: p.popOperands(mark)}
	p.stmts = append(p.stmts, Stmt{Kind: StmtInstr, Pos: pos, Instr: in, StmtData: &noStmtData})
	return
}

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
