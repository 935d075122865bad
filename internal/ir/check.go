package ir

import (
	"fmt"
	"strconv"

	"github.com/warpsim/warpsim/ptx"
)

// This file holds the checks ptxas makes before it compiles a module and
// that the parser, which knows only syntax, cannot: the module directives,
// duplicate function definitions, and the types of register operands.
//
// Operand types follow the PTX ISA's rules ("Operand Type Information" and
// "Operand Size Exceeding Instruction-Type Size"):
//   - An operand's type must be compatible with the type the instruction
//     gives it: the same type; or a bit-size type (.bN) and any type of the
//     same size; or two integer types (signed or unsigned) of the same size.
//     Predicates match only predicates; floating-point types of the same
//     size (.f32 and .f16x2, .f16 and .bf16) do not match each other.
//   - ld, st and cvt relax this for their data operands, so that narrow
//     values live in ordinary registers: the register may be wider than the
//     instruction type. For a bit-size instruction type any register at least
//     as wide is allowed; for an integer type a bit-size or integer register
//     at least as wide; for a floating-point type a bit-size register at least
//     as wide or a register of exactly that type. A register narrower than the
//     instruction type is never allowed.
//
// Immediates, special registers, symbols and addresses are not checked here;
// lowering resolves them.

// maxCheckErrors is where Check stops, as the parser does.
const maxCheckErrors = 10

// knownVersions are the PTX ISA versions ptxas of CUDA 13.0 accepts in
// .version (recorded: testdata/check/ptxas/ptxas.txt); it rejects any other
// as "Unsupported .version".
var knownVersions = map[string]bool{
	"1.0": true, "1.1": true, "1.2": true, "1.3": true, "1.4": true, "1.5": true,
	"2.0": true, "2.1": true, "2.2": true, "2.3": true,
	"3.0": true, "3.1": true, "3.2": true,
	"4.0": true, "4.1": true, "4.2": true, "4.3": true,
	"5.0": true, "5.1": true,
	"6.0": true, "6.1": true, "6.2": true, "6.3": true, "6.4": true, "6.5": true,
	"7.0": true, "7.1": true, "7.2": true, "7.3": true, "7.4": true, "7.5": true, "7.6": true, "7.7": true, "7.8": true,
	"8.0": true, "8.1": true, "8.2": true, "8.3": true, "8.4": true, "8.5": true, "8.6": true, "8.7": true, "8.8": true,
	"9.0": true,
}

// targetMinVersion is the first PTX ISA version (major*10+minor) that
// supports each target, from the PTX ISA's target table; ptxas rejects an
// older .version ("PTX .version 6.5 does not support .target sm_90").
var targetMinVersion = map[string]int{
	"sm_75": 63, "sm_80": 70, "sm_86": 71, "sm_87": 74, "sm_89": 78, "sm_90": 78, "sm_90a": 80,
}

// versionNumber is "7.8" as 78; -1 when it is not of that form.
func versionNumber(v string) int {
	if len(v) != 3 || v[1] != '.' || v[0] < '0' || v[0] > '9' || v[2] < '0' || v[2] > '9' {
		return -1
	}
	return int(v[0]-'0')*10 + int(v[2]-'0')
}

// Check validates a parsed module as ptxas does before anything is lowered
// (see the rules above) and returns the errors it finds, sorted by
// position, at most maxCheckErrors of them.
func Check(m *ptx.Module) ptx.ErrorList {
	c := &checker{m: m}
	c.directives()
	c.duplicates()
	for _, f := range m.Funcs {
		if !f.HasBody || c.full() {
			continue
		}
		c.function(f)
	}
	c.errs.Sort()
	return c.errs
}

type checker struct {
	m    *ptx.Module
	errs ptx.ErrorList

	// Registers in scope: plain names, and the prefixes of "%r<N>" ranges.
	regs   map[string]*ptx.Var
	ranges map[string]*ptx.Var
	undo   []undoEntry // how to leave the open blocks
}

// undoEntry restores one name when a nested block closes.
type undoEntry struct {
	ranged bool
	name   string
	prev   *ptx.Var // nil: the name was not declared outside
}

func (c *checker) full() bool { return len(c.errs) >= maxCheckErrors }

func (c *checker) errorf(p ptx.Pos, format string, args ...any) {
	if c.full() {
		return
	}
	var pos ptx.Position
	if c.m.File != nil {
		pos = c.m.File.Position(p)
		if !pos.IsValid() {
			pos = ptx.Position{Filename: c.m.File.Name(), Line: 1, Column: 1}
		}
	}
	c.errs.Add(pos, fmt.Sprintf(format, args...))
}

// directives checks .version, .target and .address_size.
func (c *checker) directives() {
	m := c.m
	switch {
	case m.VersionPos == ptx.NoPos:
		c.errorf(ptx.NoPos, "missing .version directive: a PTX module starts with .version (ptxas rejects it)")
	case !knownVersions[m.Version]:
		c.errorf(m.VersionPos, "unknown PTX ISA version %s: known versions are 1.0 to 9.0 (CUDA 13.0)", m.Version)
	}
	if m.TargetPos == ptx.NoPos {
		c.errorf(m.VersionPos, "missing .target directive: a .target (for example .target sm_90) must follow .version")
	}
	if v := versionNumber(m.Version); v >= 0 && knownVersions[m.Version] {
		for _, t := range m.Target {
			if min, ok := targetMinVersion[t]; ok && v < min {
				c.errorf(m.TargetPos, "PTX ISA version %s does not support .target %s (it needs %d.%d or later)", m.Version, t, min/10, min%10)
			}
		}
	}
	if m.AddressSize == 32 {
		c.errorf(m.AddressSizePos, ".address_size 32 is not supported: warpsim runs 64-bit code only (ptxas rejects 32-bit addressing for sm_90 and later)")
	}
}

// duplicates reports functions defined (with a body) more than once;
// declarations may repeat and precede the definition.
func (c *checker) duplicates() {
	first := map[string]*ptx.Func{}
	for _, f := range c.m.Funcs {
		if !f.HasBody {
			continue
		}
		if g, ok := first[f.Name]; ok {
			c.errorf(f.Pos, "%s is defined twice (first definition at %s)", f.Name, c.m.File.Position(g.Pos))
			continue
		}
		first[f.Name] = f
	}
}

func (c *checker) function(f *ptx.Func) {
	c.regs = map[string]*ptx.Var{}
	c.ranges = map[string]*ptx.Var{}
	c.undo = c.undo[:0]
	c.block(f.Body)
}

func (c *checker) block(body []ptx.Stmt) {
	mark := len(c.undo)
	for i := range body {
		if c.full() {
			return
		}
		st := &body[i]
		switch st.Kind {
		case ptx.StmtDecl:
			c.declare(st.Decl, mark)
		case ptx.StmtBlock:
			c.block(st.Block)
		case ptx.StmtInstr:
			c.instr(st.Instr)
		}
	}
	for len(c.undo) > mark {
		u := c.undo[len(c.undo)-1]
		c.undo = c.undo[:len(c.undo)-1]
		tab := c.regs
		if u.ranged {
			tab = c.ranges
		}
		if u.prev == nil {
			delete(tab, u.name)
		} else {
			tab[u.name] = u.prev
		}
	}
}

// declare enters a register declaration; outside the function's top
// block it remembers what it shadows.
func (c *checker) declare(v *ptx.Var, mark int) {
	if v.Space != ptx.SpaceReg || v.Vector != 0 {
		return
	}
	ranged := v.RegRange > 0
	tab := c.regs
	if ranged {
		tab = c.ranges
	}
	c.undo = append(c.undo, undoEntry{ranged: ranged, name: v.Name, prev: tab[v.Name]})
	tab[v.Name] = v
}

// regType is the declared type of a register operand; ok is false for
// anything else (special registers, symbols, undefined names).
func (c *checker) regType(o *ptx.Operand) (ptx.Type, bool) {
	if o.Kind != ptx.OpdReg {
		return ptx.TypeNone, false
	}
	if v, ok := c.regs[o.Name]; ok {
		return v.Type, true
	}
	name := o.Name
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || (name[i] == '0' && i < len(name)-1) {
		return ptx.TypeNone, false
	}
	v, ok := c.ranges[name[:i]]
	if !ok {
		return ptx.TypeNone, false
	}
	n, err := strconv.Atoi(name[i:])
	if err != nil || n >= v.RegRange {
		return ptx.TypeNone, false
	}
	return v.Type, true
}

// want is what one operand position requires.
type want uint8

const (
	wSkip    want = iota
	wType         // compatible with the instruction type
	wWide         // compatible with twice the instruction type (mul.wide)
	wRelaxed      // ld/st/cvt data: the relaxed rules
	wPred         // a predicate
	wU32          // a 32-bit integer (shift amounts, lane indices, masks)
	wType2        // compatible with the instruction's second type
)

// Operand layouts of the instructions checked; an instruction not listed is
// left to lowering. Memory operands take wSkip.
var (
	layoutTT   = []want{wType, wType}
	layoutTTT  = []want{wType, wType, wType}
	layoutTTTT = []want{wType, wType, wType, wType}
)

var opLayouts = map[string][]want{
	"add": layoutTTT, "sub": layoutTTT, "min": layoutTTT, "max": layoutTTT,
	"div": layoutTTT, "rem": layoutTTT, "and": layoutTTT, "or": layoutTTT, "xor": layoutTTT,
	"copysign": layoutTTT, "addc": layoutTTT, "subc": layoutTTT, "mul24": layoutTTT,
	"abs": layoutTT, "neg": layoutTT, "not": layoutTT, "cnot": layoutTT,
	"rcp": layoutTT, "sqrt": layoutTT, "rsqrt": layoutTT, "sin": layoutTT, "cos": layoutTT,
	"ex2": layoutTT, "lg2": layoutTT, "tanh": layoutTT, "brev": layoutTT,
	"fma": layoutTTTT, "sad": layoutTTTT, "mad24": layoutTTTT, "madc": layoutTTTT,
	"prmt":       layoutTTTT,
	"lop3":       {wType, wType, wType, wType, wSkip},
	"shl":        {wType, wType, wU32},
	"shr":        {wType, wType, wU32},
	"shf":        {wType, wType, wType, wU32},
	"bfe":        {wType, wType, wU32, wU32},
	"bfi":        {wType, wType, wType, wU32, wU32},
	"popc":       {wU32, wType},
	"clz":        {wU32, wType},
	"bfind":      {wU32, wType},
	"selp":       {wType, wType, wType, wPred},
	"slct":       {wType, wType, wType, wType2},
	"setp":       {wPred, wType, wType, wPred},
	"set":        {wType, wType2, wType2, wPred},
	"testp":      {wPred, wType},
	"ld":         {wRelaxed, wSkip},
	"ldu":        {wRelaxed, wSkip},
	"st":         {wSkip, wRelaxed},
	"cvt":        {wRelaxed, wRelaxed},
	"atom":       {wType, wSkip, wType, wType},
	"red":        {wSkip, wType},
	"activemask": {wType},
	"redux":      {wType, wType, wU32},
	"dp4a":       {wU32, wU32, wU32, wU32},
	"dp2a":       {wU32, wU32, wU32, wU32},
	"nanosleep":  {wType},
	"cvta":       layoutTT,
}

// instr checks one instruction's guard and register operands.
func (c *checker) instr(in *ptx.Instr) {
	in = withoutCachePolicy(in) // cachehint.go
	c.cacheMods(in)             // cachemods.go
	c.minTarget(in)             // mintarget.go
	if in.Guard != "" {
		g := ptx.Operand{Kind: ptx.OpdReg, Name: in.Guard, Pos: in.Pos}
		if t, ok := c.regType(&g); ok && t != ptx.Pred {
			c.errorf(in.Pos, "%s: guard %s is a %s register; a guard must be a predicate (.pred)", opText(in), in.Guard, t)
			return
		}
	}
	var types []ptx.Type
	var vec, other bool
	for _, s := range in.Mods {
		if t, ok := ptx.TypeByName(s); ok {
			types = append(types, t)
			continue
		}
		switch s {
		case "v2", "v4", "v8":
			vec = true
		case "wide":
			other = true
		}
	}
	if len(types) == 0 {
		return
	}
	t, t2 := types[0], ptx.TypeNone
	if len(types) > 1 {
		t2 = types[1]
	}
	layout, ok := opLayouts[in.Op]
	switch in.Op {
	case "mul":
		layout, ok = layoutTTT, true
		if other {
			layout = []want{wWide, wType, wType}
		}
	case "mad":
		layout, ok = layoutTTTT, true
		if other {
			layout = []want{wWide, wType, wType, wWide}
		}
	case "mov":
		// Scalar moves only: the packing forms ({a, b}) size their elements
		// by the instruction type's halves.
		if len(in.Operands) == 2 && in.Operands[0].Kind == ptx.OpdReg && in.Operands[1].Kind == ptx.OpdReg {
			layout, ok = layoutTT, true
		}
	case "cvt":
		// Two types (cvt.dtype.atype) and two operands; the packing forms
		// (cvt.rn.f16x2.f32 d, a, b) and the 8-bit float formats are left
		// to lowering.
		if len(types) != 2 || len(in.Operands) != 2 {
			return
		}
	case "set":
		if len(types) != 2 {
			return
		}
	case "slct":
		if len(types) != 2 {
			return
		}
	case "atom", "red":
		if vec || len(types) != 1 {
			return
		}
	case "shfl":
		// shfl.sync.mode.b32 d[|p], a, b, c, membermask
		layout, ok = []want{wType, wType, wU32, wU32, wU32}, true
	case "vote":
		// vote.sync.ballot.b32 d, p, membermask; vote.sync.all.pred d, p, membermask
		layout, ok = []want{wType, wPred, wU32}, true
	case "match":
		// match.any.sync.b64 d, a, membermask: d is 32 bits whatever the type.
		layout, ok = []want{wU32, wType, wU32}, true
	}
	if !ok {
		return
	}
	if vec && in.Op != "ld" && in.Op != "ldu" && in.Op != "st" {
		return
	}
	for i := range in.Operands {
		if i >= len(layout) {
			break
		}
		o := &in.Operands[i]
		w := layout[i]
		if w == wSkip {
			continue
		}
		switch o.Kind {
		case ptx.OpdVector:
			if w != wRelaxed {
				continue
			}
			if !c.vectorElems(in, o) {
				return
			}
			for j := range o.Elems {
				if !c.operand(in, &o.Elems[j], w, t, t2, i) {
					return
				}
			}
		case ptx.OpdPair:
			// setp's d|q and shfl's d|p: the second is a predicate.
			if len(o.Elems) == 2 {
				if !c.operand(in, &o.Elems[0], w, t, t2, i) || !c.operand(in, &o.Elems[1], wPred, t, t2, i) {
					return
				}
			}
		default:
			if !c.operand(in, o, w, t, t2, i) {
				return
			}
		}
	}
}

// vectorElems checks that a vector operand's registers are of one size
// and compatible with each other, as ptxas requires ("Incompatible elements
// of vector expression"), before each is checked against the instruction.
func (c *checker) vectorElems(in *ptx.Instr, o *ptx.Operand) bool {
	first, have := ptx.TypeNone, false
	for j := range o.Elems {
		rt, ok := c.regType(&o.Elems[j])
		if !ok {
			continue
		}
		if !have {
			first, have = rt, true
			continue
		}
		if !compatible(first, rt) {
			c.errorf(o.Elems[j].Pos, "%s: vector element %s is %s, incompatible with the vector's first register (%s)",
				opText(in), o.Elems[j].Name, rt, first)
			return false
		}
	}
	return true
}

// operand checks one register operand; false when it reported an error
// (one error per instruction, as ptxas reports).
func (c *checker) operand(in *ptx.Instr, o *ptx.Operand, w want, t, t2 ptx.Type, i int) bool {
	if o.Kind == ptx.OpdFloat {
		// A float literal where an integer is wanted: ptxas refuses it
		// ("Arguments mismatch"); bit-size types take 0f/0d bit patterns.
		it := t
		switch w {
		case wType2:
			it = t2
		case wU32:
			it = ptx.U32
		case wType, wWide:
		default:
			return true
		}
		if it != ptx.Pred && it != ptx.TypeNone && !isBitType(it) && !IsFloat(it) {
			c.errorf(o.Pos, "%s: a float literal cannot be an operand of a %s (integer) operation", opText(in), it)
			return false
		}
		return true
	}
	rt, ok := c.regType(o)
	if !ok {
		return true
	}
	role := "operand"
	if i == 0 && in.Op != "st" && in.Op != "red" {
		role = "destination"
	}
	switch w {
	case wType:
		if !compatible(t, rt) {
			c.errorf(o.Pos, "%s: %s %s is %s, which does not match the instruction type %s%s", opText(in), role, o.Name, rt, t, sizeHint(t, rt))
			return false
		}
	case wType2:
		if !compatible(t2, rt) {
			c.errorf(o.Pos, "%s: %s %s is %s, which does not match the operand type %s%s", opText(in), role, o.Name, rt, t2, sizeHint(t2, rt))
			return false
		}
	case wWide:
		wt := wideType(t)
		if wt != t && !compatible(wt, rt) {
			c.errorf(o.Pos, "%s: %s %s is %s; the .wide form needs %d bits", opText(in), role, o.Name, rt, 2*8*TypeSize(t))
			return false
		}
	case wPred:
		if rt != ptx.Pred {
			c.errorf(o.Pos, "%s: %s %s is %s; it must be a predicate (.pred)", opText(in), role, o.Name, rt)
			return false
		}
	case wU32:
		if !compatible(ptx.U32, rt) {
			c.errorf(o.Pos, "%s: %s %s is %s; it must be a 32-bit integer (.u32, .s32 or .b32)", opText(in), role, o.Name, rt)
			return false
		}
	case wRelaxed:
		it := t
		if in.Op == "cvt" && i == 1 {
			it = t2
		}
		if !relaxedCompatible(it, rt) {
			what := "must be at least as wide as"
			switch {
			case rt == ptx.Pred || it == ptx.Pred:
				what = "does not match"
			case TypeSize(rt) >= TypeSize(it) && IsFloat(it):
				what = "must be a bit-size register or exactly"
			case TypeSize(rt) >= TypeSize(it):
				what = "must be a bit-size or integer register for"
			}
			c.errorf(o.Pos, "%s: %s %s is %s, which %s %s", opText(in), role, o.Name, rt, what, it)
			return false
		}
	}
	return true
}

func sizeHint(it, rt ptx.Type) string {
	if it != ptx.Pred && rt != ptx.Pred && TypeSize(it) != TypeSize(rt) {
		return fmt.Sprintf(" (%d-bit register, %d-bit operation)", 8*TypeSize(rt), 8*TypeSize(it))
	}
	return ""
}

func isBitType(t ptx.Type) bool {
	switch t {
	case ptx.B8, ptx.B16, ptx.B32, ptx.B64, ptx.B128:
		return true
	}
	return false
}

// compatible is the PTX ISA's operand compatibility: equal types, a
// bit-size type with any type of its size, integers of one size.
func compatible(it, rt ptx.Type) bool {
	if it == rt {
		return true
	}
	if it == ptx.Pred || rt == ptx.Pred || TypeSize(it) != TypeSize(rt) {
		return false
	}
	if isBitType(it) || isBitType(rt) {
		return true
	}
	return !IsFloat(it) && !IsFloat(rt)
}

// relaxedCompatible is the rule for ld, st and cvt data operands: the
// register may be wider than the instruction type (see the file comment).
func relaxedCompatible(it, rt ptx.Type) bool {
	if it == ptx.Pred || rt == ptx.Pred {
		return it == rt
	}
	if TypeSize(rt) < TypeSize(it) {
		return false
	}
	switch {
	case isBitType(it):
		return true
	case IsFloat(it):
		return isBitType(rt) || rt == it
	default:
		return !IsFloat(rt)
	}
}

// instrCount is the number of instructions in a function body, nested
// blocks included: lowering sizes a function's code to it once.
func instrCount(body []ptx.Stmt) int {
	n := 0
	for i := range body {
		switch body[i].Kind {
		case ptx.StmtInstr:
			n++
		case ptx.StmtBlock:
			n += instrCount(body[i].Block)
		}
	}
	return n
}
