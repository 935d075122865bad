package ptx

import (
	"sort"
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
		if o.Minus {
			b.WriteByte('-')
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

// Format prints m as PTX that parses back to the same tree (positions
// aside). Debug sections, .alias and module-level pragmas, which the parser
// drops, are not reproduced.
func Format(m *Module) []byte {
	w := &printer{}
	w.module(m)
	return []byte(w.b.String())
}

type printer struct {
	b       strings.Builder
	loc     Loc
	inlines []Inline // the module's, for .loc
}

func (w *printer) str(s string) { w.b.WriteString(s) }

func (w *printer) int(n int) { w.b.WriteString(strconv.Itoa(n)) }

func (w *printer) module(m *Module) {
	if m.Version != "" {
		w.str(".version " + m.Version + "\n")
	}
	if len(m.Target) > 0 {
		w.str(".target " + strings.Join(m.Target, ", ") + "\n")
	}
	w.str(".address_size ")
	w.int(m.AddressSize)
	w.str("\n")
	idx := make([]int, 0, len(m.SourceFiles))
	for i := range m.SourceFiles {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		w.str(".file ")
		w.int(i)
		w.str(" ")
		w.quoted(m.SourceFiles[i])
		w.str("\n")
	}
	for _, v := range m.Vars {
		w.decl(v)
		w.str(";\n")
	}
	w.inlines = m.Inlines
	for _, f := range m.Funcs {
		w.function(f)
	}
	w.debugStrings(m.InlineNames)
}

// locChain prints the .loc of position pos in inlining record rec (1 +
// an index in the module's Inlines; 0 for none) as nvcc writes a nested
// chain: one .loc per level, the outermost first, each at the position of
// the call the next level replaced (Inline), so that parsing the output
// gives the same chain.
func (w *printer) locChain(depth int, pos Loc, rec int32) {
	var r Inline
	ok := rec > 0 && int(rec) <= len(w.inlines)
	if ok {
		r = w.inlines[rec-1]
		if r.Parent > 0 && r.Parent < rec { // a parent is recorded before its calls
			w.locChain(depth, r.At, r.Parent)
		}
	}
	w.indent(depth)
	w.str(".loc ")
	w.int(pos.File)
	w.str(" ")
	w.int(pos.Line)
	w.str(" ")
	w.int(pos.Col)
	if ok {
		w.str(", function_name " + r.Func + ", inlined_at ")
		w.int(r.At.File)
		w.str(" ")
		w.int(r.At.Line)
		w.str(" ")
		w.int(r.At.Col)
	}
	w.str("\n")
}

// debugStrings prints the names .loc's function_name refers to as the
// ".section .debug_str" they came from, by label.
func (w *printer) debugStrings(names map[string]string) {
	if len(names) == 0 {
		return
	}
	labels := make([]string, 0, len(names))
	for l := range names {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	w.str(".section .debug_str\n{\n")
	for _, l := range labels {
		w.str(l + ":\n.b8 ")
		for _, c := range []byte(names[l]) {
			w.int(int(c))
			w.str(",")
		}
		w.str("0\n")
	}
	w.str("}\n")
}

func (w *printer) quoted(s string) {
	w.b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			w.b.WriteByte('\\')
			w.b.WriteByte(c)
		case '\n':
			w.str(`\n`)
		case '\t':
			w.str(`\t`)
		default:
			w.b.WriteByte(c)
		}
	}
	w.b.WriteByte('"')
}

var linkageNames = [...]string{LinkVisible: ".visible", LinkExtern: ".extern", LinkWeak: ".weak", LinkCommon: ".common"}

func (w *printer) decl(v *Var) { w.declIn(v, false) }

// declIn prints a declaration; in a parameter list the state space must
// come first, so a linkage directive follows it.
func (w *printer) declIn(v *Var, param bool) {
	link := int(v.Linkage) < len(linkageNames) && v.Linkage != LinkNone
	if link && !param {
		w.str(linkageNames[v.Linkage] + " ")
	}
	w.str(v.Space.String())
	if link && param {
		w.str(" " + linkageNames[v.Linkage])
	}
	if v.Align != 0 {
		w.str(" .align ")
		w.int(v.Align)
	}
	if v.Vector != 0 {
		w.str(" .v")
		w.int(v.Vector)
	}
	w.str(" " + v.Type.String())
	if v.Ptr {
		w.str(" .ptr")
		if v.PtrSpace != SpaceNone {
			w.str(" " + v.PtrSpace.String())
		}
		if v.PtrAlign != 0 {
			w.str(" .align ")
			w.int(v.PtrAlign)
		}
	}
	w.str(" " + v.Name)
	if v.RegRange != 0 {
		w.str("<")
		w.int(v.RegRange)
		w.str(">")
	}
	for _, d := range v.Dims {
		w.str("[")
		if d != 0 {
			w.int(d)
		}
		w.str("]")
	}
	if v.Init == nil {
		return
	}
	w.str(" = ")
	braces := len(v.Init) != 1 || len(v.Dims) > 0
	if braces {
		w.str("{")
	}
	for i, in := range v.Init {
		if i > 0 {
			w.str(", ")
		}
		w.init(v.Type, in)
	}
	if braces {
		w.str("}")
	}
}

func (w *printer) init(t Type, in Init) {
	switch in.Kind {
	case InitInt:
		w.str(strconv.FormatInt(int64(in.Bits), 10))
	case InitFloat:
		width, bf := floatWidth(t)
		switch width {
		case 64:
			w.str("0d")
			writeHex(&w.b, in.Bits, 16)
		case 32:
			w.str("0f")
			writeHex(&w.b, in.Bits, 8)
		case 16: // no 16-bit literal: the float32 of the same value
			w.str("0f")
			writeHex(&w.b, uint64(widen16(uint16(in.Bits), bf)), 8)
		}
	case InitSymbol, InitGeneric:
		if in.Mask != 0 {
			w.str("0x" + strconv.FormatUint(in.Mask, 16) + "(")
		}
		if in.Kind == InitGeneric {
			w.str("generic(" + in.Sym + ")")
		} else {
			w.str(in.Sym)
		}
		writeOffset(&w.b, in.Offset)
		if in.Mask != 0 {
			w.str(")")
		}
	}
}

// widen16 returns the float32 bits of the same value as a binary16 (or
// bfloat16) value; NaN payloads are kept.
func widen16(h uint16, bf bool) uint32 {
	if bf {
		return uint32(h) << 16
	}
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return sign | 0x7f800000 | frac<<13
	case exp != 0:
		return sign | (exp+127-15)<<23 | frac<<13
	case frac == 0:
		return sign
	}
	// Subnormal: normalize.
	e := uint32(127 - 15 + 1)
	for frac&0x400 == 0 {
		frac <<= 1
		e--
	}
	return sign | e<<23 | (frac&0x3ff)<<13
}

func (w *printer) params(ps []*Var) {
	w.str("(")
	for i, p := range ps {
		if i > 0 {
			w.str(", ")
		}
		w.declIn(p, true)
	}
	w.str(")")
}

func (w *printer) function(f *Func) {
	if int(f.Linkage) < len(linkageNames) && f.Linkage != LinkNone {
		w.str(linkageNames[f.Linkage] + " ")
	}
	if f.Entry {
		w.str(".entry ")
	} else {
		w.str(".func ")
		if len(f.Returns) > 0 {
			w.params(f.Returns)
			w.str(" ")
		}
	}
	w.str(f.Name)
	w.params(f.Params)
	if f.NoReturn {
		w.str(" .noreturn")
	}
	dims := func(name string, d [3]int) {
		if d != [3]int{} {
			w.str("\n" + name + " ")
			w.int(d[0])
			w.str(", ")
			w.int(d[1])
			w.str(", ")
			w.int(d[2])
		}
	}
	dims(".maxntid", f.MaxNTID)
	dims(".reqntid", f.ReqNTID)
	if f.MinNCTAPerSM != 0 {
		w.str("\n.minnctapersm ")
		w.int(f.MinNCTAPerSM)
	}
	if f.MaxNReg != 0 {
		w.str("\n.maxnreg ")
		w.int(f.MaxNReg)
	}
	if f.ExplicitCluster {
		w.str("\n.explicitcluster")
	}
	dims(".reqnctapercluster", f.ReqNCTAPerCluster)
	if f.MaxClusterRank != 0 {
		w.str("\n.maxclusterrank ")
		w.int(f.MaxClusterRank)
	}
	if !f.HasBody {
		w.str(";\n")
		return
	}
	w.str("\n{\n")
	w.loc = Loc{}
	w.body(f.Body, 1)
	w.str("}\n")
}

func (w *printer) indent(n int) {
	for i := 0; i < n; i++ {
		w.b.WriteByte('\t')
	}
}

func (w *printer) body(stmts []Stmt, depth int) {
	for i := range stmts {
		s := &stmts[i]
		switch s.Kind {
		case StmtInstr:
			if s.Instr.Loc != w.loc {
				w.loc = s.Instr.Loc
				w.locChain(depth, w.loc.Pos(), w.loc.Inlined)
			}
			w.indent(depth)
			s.Instr.appendTo(&w.b)
			w.str(";\n")
		case StmtLabel:
			w.str(s.Label + ":\n")
		case StmtDecl:
			w.indent(depth)
			w.decl(s.Decl)
			w.str(";\n")
		case StmtBlock:
			w.indent(depth)
			w.str("{\n")
			w.body(s.Block, depth+1)
			w.indent(depth)
			w.str("}\n")
		case StmtPragma:
			w.indent(depth)
			w.str(".pragma ")
			w.quoted(s.Text)
			w.str(";\n")
		case StmtProto:
			w.indent(depth)
			w.str(s.Label + ": .callprototype ")
			if s.Proto != nil {
				if len(s.Proto.Returns) > 0 {
					w.params(s.Proto.Returns)
					w.str(" ")
				}
				w.str("_ ")
				w.params(s.Proto.Params)
				if s.Proto.NoReturn {
					w.str(" .noreturn")
				}
			}
			w.str(";\n")
		case StmtBranchTargets, StmtCallTargets:
			w.indent(depth)
			if s.Kind == StmtBranchTargets {
				w.str(s.Label + ": .branchtargets ")
			} else {
				w.str(s.Label + ": .calltargets ")
			}
			w.str(strings.Join(s.Targets, ", "))
			w.str(";\n")
		}
	}
}
