// An instruction's modifiers, its emission (position, PTX text, inline site) and the reports of what cannot be lowered.

package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// mods is the classified modifier list of one instruction.
type mods struct {
	types []ptx.Type
	space ptx.Space
	vec   int
	rnd   uint8
	flags uint16
	nc    bool
	to    bool
	rest  []string
	hasCC bool
}

// ignoredMods are memory-ordering, scope, cache and alignment qualifiers
// that do not change results in a sequentially consistent engine.
var ignoredMods = map[string]bool{
	"ca": true, "cg": true, "cs": true, "lu": true, "cv": true, "wb": true, "wt": true,
	"volatile": true, "relaxed": true, "acquire": true, "release": true, "acq_rel": true, "sc": true,
	"weak": true, "mmio": true, "gpu": true, "sys": true, "cta": true, "cluster": true, "sync": true, "aligned": true,
	"uni": true, "ptr": true,
}

func parseMods(ms []string) mods {
	var m mods
	for _, s := range ms {
		if t, ok := ptx.TypeByName(s); ok {
			m.types = append(m.types, t)
			continue
		}
		if sp, ok := spaceNames[s]; ok && m.space == ptx.SpaceNone {
			m.space = sp
			continue
		}
		switch s {
		case "v2":
			m.vec = 2
		case "v4":
			m.vec = 4
		case "v8":
			m.vec = 8
		case "rn", "rz", "rm", "rp", "rna":
			m.rnd = rndNames[s]
		case "rni", "rzi", "rmi", "rpi":
			m.rnd = rndNames[s]
			m.flags |= FlagIntRound
		case "ftz":
			m.flags |= FlagFtz
		case "sat", "satfinite":
			m.flags |= FlagSat
		case "approx":
			m.flags |= FlagApprox
		case "full":
			m.flags |= FlagFull
		case "NaN":
			m.flags |= FlagNaN
		case "relu":
			m.flags |= FlagRelu
		case "xorsign", "abs": // min/max .xorsign.abs (alu.go)
			m.flags |= FlagXorSign
		case "shiftamt":
			m.flags |= FlagShiftAmt
		case "cc":
			m.hasCC = true
			m.flags |= FlagCC
		case "nc":
			m.nc = true
		case "to":
			m.to = true
		case "uni":
			m.flags |= FlagUni
		case "shared::cta":
			// the executing CTA's shared memory: .shared itself
			if m.space == ptx.SpaceNone {
				m.space = ptx.SpaceShared
			}
		default:
			if ignoredMods[s] || strings.Contains(s, "::") {
				continue
			}
			m.rest = append(m.rest, s)
		}
	}
	return m
}

func (m *mods) typ(i int) ptx.Type {
	if i < len(m.types) {
		return m.types[i]
	}
	return ptx.TypeNone
}

func (m *mods) has(s string) bool {
	for _, r := range m.rest {
		if r == s {
			return true
		}
	}
	return false
}

func opText(in *ptx.Instr) string {
	if len(in.Mods) == 0 {
		return in.Op
	}
	return in.Op + "." + strings.Join(in.Mods, ".")
}

// unsupported reports an instruction the engine cannot run.
func (fl *fnLowerer) unsupported(in *ptx.Instr) {
	fl.unsupportedf(in.Pos, "%s is not supported yet", opText(in))
}

// unsupportedf reports a construct the engine cannot run yet. It is an
// error of Lower like any other, but it is also kept in the function
// (Func.Unsupported) and in Program.Unsupported, so a loader may keep the
// module and refuse only the kernels that reach the function.
func (fl *fnLowerer) unsupportedf(p ptx.Pos, format string, args ...any) {
	e := &ptx.Error{Pos: fl.l.pos(p), Msg: fmt.Sprintf(format, args...)}
	fl.l.errs = append(fl.l.errs, e)
	fl.l.p.Unsupported = append(fl.l.p.Unsupported, e)
	if fl.f.Unsupported == "" {
		fl.f.Unsupported = e.Error()
	}
}

func (fl *fnLowerer) bad(in *ptx.Instr, format string, args ...any) {
	fl.l.errorf(in.Pos, "%s: %s", opText(in), fmt.Sprintf(format, args...))
}

// emit appends one instruction with the source's position and text.
func (fl *fnLowerer) emit(in Inst, src *ptx.Instr) int {
	pc := len(fl.f.Code)
	fl.f.Code = append(fl.f.Code, in)
	pos := fl.l.pos(src.Pos)
	li := LineInfo{PTXLine: pos.Line, PTXCol: pos.Column}
	if src.Loc.Line > 0 {
		li.SrcLine = src.Loc.Line
		li.SrcFile = fl.l.m.SourceFiles[src.Loc.File]
	}
	if s := fl.inlineSite(src.Loc.Inlined); s > 0 {
		for len(fl.f.Inlined) < pc {
			fl.f.Inlined = append(fl.f.Inlined, 0)
		}
		fl.f.Inlined = append(fl.f.Inlined, s)
	}
	fl.f.Lines = append(fl.f.Lines, li)
	fl.f.Text = append(fl.f.Text, formatInstr(src))
	return pc
}

// markCutInlineSites sets InlineSite.Cut: a call the function itself made
// stands in a file of the function's own lines.
func markCutInlineSites(f *Func) {
	if len(f.InlineSites) == 0 {
		return
	}
	own := map[string]bool{}
	for pc, li := range f.Lines {
		if li.SrcLine > 0 && f.site(pc) == 0 {
			own[li.SrcFile] = true
		}
	}
	for i := range f.InlineSites {
		if s := &f.InlineSites[i]; s.Parent == 0 && !own[s.File] {
			s.Cut = true
		}
	}
}

// inlineSite is Func.Inlined's entry for the module's inlining record rec
// (ptx.Loc.Inlined) of the instruction just emitted, adding the record
// and the records it lies in to f.InlineSites once. A record whose function has no name in .debug_str
// ends the chain there (0: the function's own code, named by f).
func (fl *fnLowerer) inlineSite(rec int32) int32 {
	m := fl.l.m
	if rec <= 0 || int(rec) > len(m.Inlines) {
		return 0
	}
	if s, ok := fl.sites[rec]; ok {
		return s
	}
	r := m.Inlines[rec-1]
	var s int32
	if name := m.InlineNames[r.Func]; name != "" {
		var parent int32
		if r.Parent < rec { // a caller is recorded before its calls
			parent = fl.inlineSite(r.Parent)
		}
		// The first instruction to take a record (or a record within
		// it) is the call's first pc: pcs only grow.
		fl.f.InlineSites = append(fl.f.InlineSites, InlineSite{Func: name, File: m.SourceFiles[r.At.File], Line: r.At.Line, Parent: parent, PC: len(fl.f.Code) - 1})
		s = int32(len(fl.f.InlineSites))
	}
	if fl.sites == nil {
		fl.sites = map[int32]int32{}
	}
	fl.sites[rec] = s
	return s
}

func (fl *fnLowerer) newInst(op Op, src *ptx.Instr) Inst {
	in := Inst{Op: op, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Sym: -1}
	if src.Guard != "" {
		s, ok := fl.lookup(src.Guard)
		if !ok || s.kind != symReg {
			fl.bad(src, "undefined predicate %s", src.Guard)
		} else {
			in.Guard = s.slot
			in.GuardNeg = src.GuardNeg
		}
	}
	return in
}

// formatInstr writes an instruction back as PTX text for fault reports.
func formatInstr(in *ptx.Instr) string {
	var b strings.Builder
	if in.Guard != "" {
		b.WriteByte('@')
		if in.GuardNeg {
			b.WriteByte('!')
		}
		b.WriteString(in.Guard)
		b.WriteByte(' ')
	}
	b.WriteString(opText(in))
	for i, o := range in.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		formatOperand(&b, &o)
	}
	b.WriteByte(';')
	return b.String()
}

func formatOperand(b *strings.Builder, o *ptx.Operand) {
	switch o.Kind {
	case ptx.OpdReg:
		if o.Neg {
			b.WriteByte('!')
		}
		if o.Minus {
			b.WriteByte('-')
		}
		b.WriteString(o.Name)
	case ptx.OpdInt:
		b.WriteString(strconv.FormatInt(int64(o.Bits), 10))
	case ptx.OpdFloat:
		if o.FloatBits == 32 {
			fmt.Fprintf(b, "0f%08X", uint32(o.Bits))
		} else {
			fmt.Fprintf(b, "0d%016X", o.Bits)
		}
	case ptx.OpdSym:
		b.WriteString(o.Name)
		if o.Offset != 0 {
			fmt.Fprintf(b, "%+d", o.Offset)
		}
	case ptx.OpdAddr:
		b.WriteByte('[')
		b.WriteString(o.Name)
		if o.Offset != 0 || o.Name == "" {
			if o.Name == "" {
				fmt.Fprintf(b, "%d", o.Offset)
			} else {
				fmt.Fprintf(b, "%+d", o.Offset)
			}
		}
		// tex/tld4/suld forms: [tex, {x, y}], [tex, sampler, {x, y}].
		for i := range o.Elems {
			b.WriteString(", ")
			formatOperand(b, &o.Elems[i])
		}
		b.WriteByte(']')
	case ptx.OpdVector, ptx.OpdList:
		open, close := "{", "}"
		if o.Kind == ptx.OpdList {
			open, close = "(", ")"
		}
		b.WriteString(open)
		for i, e := range o.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			formatOperand(b, &e)
		}
		b.WriteString(close)
	case ptx.OpdSink:
		b.WriteByte('_')
	case ptx.OpdPair:
		for i, e := range o.Elems {
			if i > 0 {
				b.WriteByte('|')
			}
			formatOperand(b, &e)
		}
	}
}
