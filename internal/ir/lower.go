package ir

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// ExternResolver reports whether an extern function (.extern .func with no
// body) can be called natively, such as libdevice's __nv_sinf.
type ExternResolver func(name string) bool

// Lower lowers a parsed module. The error, when not nil, is a ptx.ErrorList
// of every unsupported or invalid construct found (up to a limit).
func Lower(m *ptx.Module, externs ExternResolver) (*Program, error) {
	l := &lowerer{m: m, externs: externs, p: &Program{
		FuncByName: map[string]int{},
		VarByName:  map[string]int{},
	}}
	if m.File != nil {
		l.p.Filename = m.File.Name()
	}
	if errs := Check(m); len(errs) > 0 {
		return l.p, errs
	}
	l.lowerModuleVars()
	for _, f := range m.Funcs {
		if _, dup := l.p.FuncByName[f.Name]; dup {
			// A declaration followed by its definition: keep the definition.
			i := l.p.FuncByName[f.Name]
			if f.HasBody {
				l.srcFuncs[i] = f
			}
			continue
		}
		l.p.FuncByName[f.Name] = len(l.p.Funcs)
		l.p.Funcs = append(l.p.Funcs, &Func{Name: f.Name, Entry: f.Entry})
		l.srcFuncs = append(l.srcFuncs, f)
	}
	for _, mv := range l.p.Vars {
		for i := range mv.Relocs {
			if r := &mv.Relocs[i]; r.funcName != "" {
				r.Func = int32(l.p.FuncByName[r.funcName])
			}
		}
	}
	for i, f := range l.srcFuncs {
		if f.HasBody {
			l.lowerFunc(l.p.Funcs[i], f)
		}
		if len(l.errs)-len(l.p.Unsupported) >= 10 {
			break
		}
	}
	if len(l.errs) == len(l.p.Unsupported) {
		l.layoutShared()
	}
	l.errs.Sort()
	return l.p, l.errs.Err()
}

type lowerer struct {
	m        *ptx.Module
	p        *Program
	externs  ExternResolver
	errs     ptx.ErrorList
	srcFuncs []*ptx.Func
	// regScratch is regEstimate's scheduled copy of a function's code,
	// reused for every function lowered.
	regScratch []Inst
}

func (l *lowerer) pos(p ptx.Pos) ptx.Position {
	if l.m.File == nil {
		return ptx.Position{}
	}
	return l.m.File.Position(p)
}

func (l *lowerer) errorf(p ptx.Pos, format string, args ...any) {
	l.errs.Add(l.pos(p), fmt.Sprintf(format, args...))
}

func varSize(v *ptx.Var) int {
	n := TypeSize(v.Type)
	if v.Vector > 0 {
		n *= v.Vector
	}
	for _, d := range v.Dims {
		n *= d
	}
	return n
}

func varAlign(v *ptx.Var) int {
	if v.Align > 0 {
		return v.Align
	}
	n := TypeSize(v.Type)
	if v.Vector > 0 {
		n *= v.Vector
	}
	if n == 0 {
		n = 1
	}
	return n
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

func (l *lowerer) addVar(v *ptx.Var, name string) int {
	mv := &Var{Name: name, Space: v.Space, Size: varSize(v), Align: varAlign(v), Extern: v.Linkage == ptx.LinkExtern}
	if v.Space == ptx.SpaceShared && len(v.Dims) > 0 && v.Dims[0] == 0 {
		mv.Size = 0 // dynamic shared: sized at launch
	}
	if len(v.Init) > 0 && (v.Space == ptx.SpaceGlobal || v.Space == ptx.SpaceConst) {
		mv.Init = make([]byte, mv.Size)
		es := TypeSize(v.Type)
		for i, in := range v.Init {
			off := i * es
			if off+es > len(mv.Init) {
				l.errorf(in.Pos, "too many initializers for %s", v.Name)
				break
			}
			switch in.Kind {
			case ptx.InitInt, ptx.InitFloat:
				bits := in.Bits
				if in.Kind == ptx.InitInt && IsFloat(v.Type) {
					bits = floatBitsOfInt(int64(in.Bits), v.Type)
				}
				putLE(mv.Init[off:off+es], bits)
			case ptx.InitSymbol, ptx.InitGeneric:
				mv.Relocs = append(mv.Relocs, Reloc{Offset: off, Size: es, Var: -1, Func: -1, Addend: in.Offset,
					Generic: in.Kind == ptx.InitGeneric, Mask: in.Mask, name: in.Sym, pos: in.Pos})
			}
		}
	}
	idx := len(l.p.Vars)
	l.p.Vars = append(l.p.Vars, mv)
	l.p.VarByName[name] = idx
	return idx
}

func floatBitsOfInt(v int64, t ptx.Type) uint64 {
	switch t {
	case ptx.F32:
		return uint64(math.Float32bits(float32(v)))
	case ptx.F64:
		return math.Float64bits(float64(v))
	}
	return uint64(v)
}

func putLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

func (l *lowerer) lowerModuleVars() {
	for _, v := range l.m.Vars {
		switch v.Space {
		case ptx.SpaceGlobal, ptx.SpaceConst, ptx.SpaceShared:
			if _, dup := l.p.VarByName[v.Name]; dup {
				l.errorf(v.Pos, "%s redeclared", v.Name)
				continue
			}
			l.addVar(v, v.Name)
		default:
			l.errorf(v.Pos, "module-scope %s variable %s is not supported yet", spaceName(v.Space), v.Name)
		}
	}
	for _, mv := range l.p.Vars {
		for i := range mv.Relocs {
			r := &mv.Relocs[i]
			t, ok := l.p.VarByName[r.name]
			if !ok {
				if _, isFunc := l.funcDeclared(r.name); isFunc {
					r.funcName = r.name
				} else {
					l.errs.Add(l.pos(r.pos), fmt.Sprintf("undefined symbol %s", r.name))
				}
				continue
			}
			r.Var = int32(t)
		}
	}
}

func (l *lowerer) funcDeclared(name string) (*ptx.Func, bool) {
	for _, f := range l.m.Funcs {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

func spaceName(s ptx.Space) string {
	switch s {
	case ptx.SpaceReg:
		return ".reg"
	case ptx.SpaceConst:
		return ".const"
	case ptx.SpaceGlobal:
		return ".global"
	case ptx.SpaceLocal:
		return ".local"
	case ptx.SpaceParam:
		return ".param"
	case ptx.SpaceShared:
		return ".shared"
	case ptx.SpaceTex:
		return ".tex"
	}
	return "generic"
}

// layoutShared gives each kernel its static shared layout: the shared
// variables it and its callees use, in declaration order.
func (l *lowerer) layoutShared() {
	n := len(l.p.Funcs)
	l.p.SharedOffsets = make([][]int32, n)
	l.p.StaticShared = make([]int, n)
	l.p.DynSharedAlign = make([]int, n)
	for k, f := range l.p.Funcs {
		if !f.Entry {
			continue
		}
		used := map[int32]bool{}
		dyn := false
		seen := map[int32]bool{}
		var visit func(i int32)
		visit = func(i int32) {
			if seen[i] {
				return
			}
			seen[i] = true
			g := l.p.Funcs[i]
			for _, s := range g.sharedUsed {
				used[s] = true
			}
			dyn = dyn || g.UsesDynShared
			for _, c := range g.calls {
				visit(c)
			}
		}
		visit(int32(k))
		offs := make([]int32, len(l.p.Vars))
		size := 0
		dynAlign := 16
		for i, v := range l.p.Vars {
			offs[i] = -1
			if v.Space != ptx.SpaceShared || !used[int32(i)] {
				continue
			}
			if v.Size == 0 {
				if v.Align > dynAlign {
					dynAlign = v.Align
				}
				continue
			}
			size = alignUp(size, v.Align)
			offs[i] = int32(size)
			size += v.Size
		}
		// Dynamic shared arrays all alias the area after the static ones.
		for i, v := range l.p.Vars {
			if v.Space == ptx.SpaceShared && v.Size == 0 && used[int32(i)] {
				offs[i] = int32(alignUp(size, dynAlign))
			}
		}
		_ = dyn
		l.p.SharedOffsets[k] = offs
		l.p.StaticShared[k] = size
		l.p.DynSharedAlign[k] = dynAlign
		f.UsesDynShared = dyn
	}
}

// symKind says what a name in a function scope refers to.
type symKind uint8

const (
	symReg symKind = iota
	symFrame
	symKParam
	symModVar
)

type symbol struct {
	kind  symKind
	slot  int32
	typ   ptx.Type
	off   int
	size  int
	align int
	vidx  int32
	// top: a .local variable, off bytes below its frame's top (symFrame)
	top bool
}

type fixup struct {
	pc    int
	label int32 // label id (index in labelPC)
}

// regRange is a ".reg .T %name<n>;" declaration whose registers get their
// slots on first use (lookup), so a function that declares more registers
// than it uses (ptxas accepts millions) costs only the ones it uses.
type regRange struct {
	n   int
	typ ptx.Type
}

type fnLowerer struct {
	l           *lowerer
	f           *Func
	src         *ptx.Func
	scopes      []map[string]symbol
	ranges      []map[string]regRange // per scope, lazily allocated register ranges by name prefix; nil when none
	nslots      int32
	consts      map[uint64]int32
	labelScopes []map[string]int32 // per { } block, its labels and .branchtargets names → label id
	labelPC     []int32            // per label id, its pc; -1 until the label is reached
	labelTable  []int32            // per label id, the index of its .branchtargets list in tableLabels; -1 for a plain label
	fixups      []fixup
	frame       int
	localTop    int // bytes of .local variables, laid at the frame's top
	sink        int32
	ccSlot      int32
	used        map[int32]bool
	slotW       []uint8 // per register slot, its width in 32-bit units (0 for predicates)
	calls       map[int32]bool
	nerrors     int
	slotsFull   bool            // maxSlotsPerFunc was reported
	tableLabels [][]int32       // per .branchtargets list, its label ids
	sites       map[int32]int32 // ptx.Loc.Inlined → Func.Inlined (inlineSite)
}

func (fl *fnLowerer) lookup(name string) (symbol, bool) {
	for i := len(fl.scopes) - 1; i >= 0; i-- {
		if s, ok := fl.scopes[i][name]; ok {
			return s, true
		}
		if fl.ranges[i] != nil {
			if s, ok := fl.rangeReg(i, name); ok {
				return s, true
			}
		}
	}
	if vi, ok := fl.l.p.VarByName[name]; ok {
		return symbol{kind: symModVar, vidx: int32(vi)}, true
	}
	return symbol{}, false
}

// rangeReg resolves name against the lazily allocated register ranges of
// scope i: "%r12" is register 12 of "%r<n>" (or 2 of "%r1<n>") when the
// index is below n and written without leading zeros. The register gets its
// slot now, on first use, and is entered in scope i.
func (fl *fnLowerer) rangeReg(i int, name string) (symbol, bool) {
	k := len(name)
	for k > 0 && name[k-1] >= '0' && name[k-1] <= '9' {
		k--
	}
	for j := k; j < len(name); j++ { // longest prefix first
		digits := name[j:]
		if len(digits) > 1 && digits[0] == '0' {
			continue
		}
		r, ok := fl.ranges[i][name[:j]]
		if !ok {
			continue
		}
		idx, err := strconv.Atoi(digits)
		if err != nil || idx >= r.n {
			continue
		}
		if int(fl.nslots) >= maxSlotsPerFunc {
			if !fl.slotsFull {
				fl.slotsFull = true
				fl.l.errorf(fl.src.Pos, "function %s uses more than %d registers", fl.f.Name, maxSlotsPerFunc)
			}
			return symbol{kind: symReg, slot: fl.sink, typ: r.typ}, true
		}
		s := symbol{kind: symReg, slot: fl.newSlot(r.typ), typ: r.typ}
		fl.scopes[i][name] = s
		return s, true
	}
	return symbol{}, false
}

func (fl *fnLowerer) newSlot(t ptx.Type) int32 {
	s := fl.nslots
	fl.nslots++
	w := uint8((TypeSize(t) + 3) / 4)
	if t == ptx.Pred {
		w = 0
	}
	if t == ptx.B128 {
		// A .b128 register is two 64-bit slots, s (low half) and s+1.
		fl.nslots++
		fl.slotW = append(fl.slotW, 2, 2)
		return s
	}
	fl.slotW = append(fl.slotW, w)
	return s
}

// reg128 is a .b128 register operand's two slots (low, high); the sink
// "_" gets a fresh pair.
func (fl *fnLowerer) reg128(src *ptx.Instr, o *ptx.Operand) (lo, hi int32) {
	o = scalarOperand(o)
	if o.Kind == ptx.OpdSink {
		s := fl.newSlot(ptx.B128)
		return s, s + 1
	}
	if o.Kind == ptx.OpdReg || o.Kind == ptx.OpdSym {
		if s, ok := fl.lookup(o.Name); ok && s.kind == symReg && s.typ == ptx.B128 {
			return s.slot, s.slot + 1
		}
	}
	if o.Name == "" {
		fl.bad(src, "expected a .b128 register")
	} else {
		fl.bad(src, "expected a .b128 register, found %s", o.Name)
	}
	return fl.sink, fl.sink
}

func (fl *fnLowerer) constSlot(v uint64) int32 {
	if s, ok := fl.consts[v]; ok {
		return s
	}
	s := fl.newSlot(ptx.B64)
	fl.slotW[s] = 0
	fl.consts[v] = s
	fl.f.Consts = append(fl.f.Consts, Const{Slot: s, Value: v})
	return s
}

func (fl *fnLowerer) declare(v *ptx.Var) {
	top := len(fl.scopes) - 1
	scope := fl.scopes[top]
	switch v.Space {
	case ptx.SpaceReg:
		n := v.RegRange
		if v.Vector > 0 {
			fl.l.errorf(v.Pos, "vector register %s is not supported yet", v.Name)
			return
		}
		if n == 0 {
			if s, dup := scope[v.Name]; dup && s.kind == symReg {
				// ptxas: "Duplicate definition of variable"; an inner block may shadow it
				fl.l.errorf(v.Pos, "register %s redefined in the same block", v.Name)
				return
			}
			scope[v.Name] = symbol{kind: symReg, slot: fl.newSlot(v.Type), typ: v.Type}
			return
		}
		if _, dup := fl.ranges[top][v.Name]; dup {
			fl.l.errorf(v.Pos, "register %s<%d> redefined in the same block", v.Name, n)
			return
		}
		if int(fl.nslots)+n > maxEagerRegs {
			// Many registers: each gets its slot on first use (rangeReg).
			if fl.ranges[top] == nil {
				fl.ranges[top] = map[string]regRange{}
			}
			fl.ranges[top][v.Name] = regRange{n: n, typ: v.Type}
			return
		}
		for i := 0; i < n; i++ {
			scope[v.Name+strconv.Itoa(i)] = symbol{kind: symReg, slot: fl.newSlot(v.Type), typ: v.Type}
		}
	case ptx.SpaceLocal:
		// .local variables make the frame, laid from its top, so a write
		// past the kernel's last array leaves the stack as on the GPU;
		// .param variables (the scratch of the calls it makes, which the
		// GPU passes in registers) lie apart, in the parameter scratch
		// (engine/stack.go).
		a := varAlign(v)
		fl.localTop = alignUp(fl.localTop+varSize(v), a)
		scope[v.Name] = symbol{kind: symFrame, off: fl.localTop, size: varSize(v), align: a, typ: v.Type, top: true}
		fl.f.LocalBytes += varSize(v)
		fl.f.Locals = append(fl.f.Locals, Param{Name: v.Name, Offset: -fl.localTop, Size: varSize(v), Align: a})
	case ptx.SpaceParam:
		a := varAlign(v)
		fl.frame = alignUp(fl.frame, a)
		scope[v.Name] = symbol{kind: symFrame, off: fl.frame, size: varSize(v), align: a, typ: v.Type}
		fl.frame += varSize(v)
	case ptx.SpaceShared, ptx.SpaceGlobal, ptx.SpaceConst:
		name := fl.f.Name + "::" + v.Name
		vi := fl.l.addVar(v, name)
		scope[v.Name] = symbol{kind: symModVar, vidx: int32(vi)}
	default:
		fl.l.errorf(v.Pos, "%s variable %s is not supported yet", spaceName(v.Space), v.Name)
	}
}

func (l *lowerer) lowerFunc(f *Func, src *ptx.Func) {
	fl := &fnLowerer{l: l, f: f, src: src, consts: map[uint64]int32{},
		used: map[int32]bool{}, calls: map[int32]bool{}}
	fl.scopes = []map[string]symbol{{}}
	fl.ranges = []map[string]regRange{nil}
	if n := instrCount(src.Body) + 1; n > 1 { // sized once: no append slack in big modules
		f.Code, f.Lines, f.Text = make([]Inst, 0, n), make([]LineInfo, 0, n), make([]string, 0, n)
	}
	f.ReqNTID, f.MaxNTID, f.MinBlocks, f.MaxNReg = src.ReqNTID, src.MaxNTID, src.MinNCTAPerSM, src.MaxNReg
	f.ClusterDims = src.ReqNCTAPerCluster
	// Parameters.
	if f.Entry {
		off := 0
		for _, p := range src.Params {
			a := varAlign(p)
			if p.Align > 0 {
				a = p.Align
			}
			off = alignUp(off, a)
			sz := varSize(p)
			f.Params = append(f.Params, Param{Name: p.Name, Offset: off, Size: sz, Align: a, Type: p.Type})
			fl.scopes[0][p.Name] = symbol{kind: symKParam, off: off, size: sz, typ: p.Type}
			off += sz
		}
		f.ParamBytes = off
	} else {
		for _, p := range src.Returns {
			a := varAlign(p)
			fl.frame = alignUp(fl.frame, a)
			f.Rets = append(f.Rets, Param{Name: p.Name, Offset: fl.frame, Size: varSize(p), Align: a})
			fl.scopes[0][p.Name] = symbol{kind: symFrame, off: fl.frame, size: varSize(p), typ: p.Type}
			fl.frame += varSize(p)
		}
		for _, p := range src.Params {
			if p.Space == ptx.SpaceReg {
				l.errorf(p.Pos, ".reg parameter %s is not supported yet", p.Name)
				continue
			}
			a := varAlign(p)
			fl.frame = alignUp(fl.frame, a)
			f.Params = append(f.Params, Param{Name: p.Name, Offset: fl.frame, Size: varSize(p), Align: a})
			fl.scopes[0][p.Name] = symbol{kind: symFrame, off: fl.frame, size: varSize(p), typ: p.Type}
			fl.frame += varSize(p)
		}
	}
	fl.sink = fl.newSlot(ptx.B64)
	fl.ccSlot = fl.newSlot(ptx.B32)
	fl.lowerBlock(src.Body)
	// Labels are resolved when a branch is lowered (every label of a block
	// is known on entering it), so only the pcs are left to fill in; a
	// label id whose pc is still -1 sits after an aborted lowering.
	for _, fx := range fl.fixups {
		t := fl.labelPC[fx.label]
		if t < 0 {
			continue
		}
		f.Code[fx.pc].Target = t
		f.Code[fx.pc].Backward = int(t) <= fx.pc
	}
	for _, ids := range fl.tableLabels {
		pcs := make([]int32, len(ids))
		for j, id := range ids {
			pcs[j] = 0
			if id >= 0 && fl.labelPC[id] >= 0 {
				pcs[j] = fl.labelPC[id]
			}
		}
		f.BranchTables = append(f.BranchTables, pcs)
	}
	// A function whose last instruction falls through ends with an implicit return.
	if n := len(f.Code); n == 0 || !endsFlow(f.Code[n-1]) {
		f.Code = append(f.Code, Inst{Op: OpRet, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1})
		li := LineInfo{}
		if n > 0 {
			li = f.Lines[n-1]
		}
		f.Lines = append(f.Lines, li)
		f.Text = append(f.Text, "ret; // implicit")
	}
	markCutInlineSites(f)
	f.NumSlots = int(fl.nslots)
	f.FrameBytes = alignUp(fl.localTop, 16)
	f.ScratchBytes = alignUp(fl.frame, 16)
	for i := range f.Locals {
		f.Locals[i].Offset += f.FrameBytes // was the distance below the top, negated
	}
	for s := range fl.used {
		f.sharedUsed = append(f.sharedUsed, s)
	}
	for c := range fl.calls {
		f.calls = append(f.calls, c)
	}
	contract(f, fl.labelPC)
	computeReconvergence(f)
	markWarpAggregated(f)
	specialize(f)
	markPredicatedBranches(f) // after specialize: it reads the classes
	markWmmaRounds(f)
	markWmmaReuse(f)
	markWmmaRepeats(f)
	f.slotWidths = fl.slotW
	markFoldedMovs(f)
	if f.Entry {
		// Only a kernel's count is asked for (occupancy, the launch
		// check): a device function's would be scheduled for nothing.
		f.RegEstimate, f.LiveWords, f.LiveWordsConst, f.HoistRegs = regEstimate(f, fl.slotW, &fl.l.regScratch)
		f.UnrolledLoadWords = unrolledLoadWords(f)
	}
}

func endsFlow(in Inst) bool {
	if in.Guard >= 0 {
		return false
	}
	switch in.Op {
	case OpBra, OpRet, OpExit, OpTrap:
		return true
	}
	return false
}

// maxEagerRegs bounds the registers a function's range declarations
// ("%r<n>") get slots for when declared, in declaration order; past it a
// range's registers get slots on first use. ptxas accepts far more declared
// registers (10,000,000 in testdata/ptx/scopes).
const maxEagerRegs = 1 << 16

// maxSlotsPerFunc bounds the register slots a function uses (each costs 256
// bytes a warp): it keeps a hostile file from exhausting memory, far above
// what compilers emit (ptxas spills long before).
const maxSlotsPerFunc = 1 << 22

var (
	noSlots4 = [4]int32{-1, -1, -1, -1}
	noSlots5 = [5]int32{-1, -1, -1, -1, -1}
)

// enterLabels opens the label scope of a { } block (or of the function
// body): every label and .branchtargets name the block itself defines gets
// an id now, so branches may name labels further down. As ptxas does, a
// label is visible in its block and the blocks nested in it, where a label
// of the same name shadows it; a block's siblings and enclosing blocks do
// not see it ("Unknown symbol"), and one block defining a name twice is an
// error ("Duplicate definition of label"). testdata/ptx/scopes records
// ptxas's verdicts and which label the H100 took.
func (fl *fnLowerer) enterLabels(body []ptx.Stmt) map[string]int32 {
	var labels map[string]int32
	for i := range body {
		st := &body[i]
		if st.Kind != ptx.StmtLabel && st.Kind != ptx.StmtBranchTargets {
			continue
		}
		if labels == nil {
			labels = map[string]int32{}
		}
		if _, dup := labels[st.Label]; dup {
			fl.l.errorf(st.Pos, "label %s redefined", st.Label)
			continue
		}
		id := int32(len(fl.labelPC))
		labels[st.Label] = id
		fl.labelPC = append(fl.labelPC, -1)
		t := int32(-1)
		if st.Kind == ptx.StmtBranchTargets {
			t = int32(len(fl.tableLabels))
			fl.tableLabels = append(fl.tableLabels, nil)
		}
		fl.labelTable = append(fl.labelTable, t)
	}
	return labels
}

// findLabel resolves a label name from the innermost open block outwards;
// an unknown name is reported at pos and gives -1.
func (fl *fnLowerer) findLabel(name string, pos ptx.Pos) int32 {
	if id, ok := fl.lookupLabel(name); ok {
		return id
	}
	fl.l.errorf(pos, "undefined label %s", name)
	return -1
}

func (fl *fnLowerer) lookupLabel(name string) (int32, bool) {
	for i := len(fl.labelScopes) - 1; i >= 0; i-- {
		if id, ok := fl.labelScopes[i][name]; ok {
			return id, true
		}
	}
	return 0, false
}

func (fl *fnLowerer) lowerBlock(body []ptx.Stmt) {
	labels := fl.enterLabels(body)
	fl.labelScopes = append(fl.labelScopes, labels)
	defer func() { fl.labelScopes = fl.labelScopes[:len(fl.labelScopes)-1] }()
	for i := range body {
		if fl.nerrors > 10 {
			return
		}
		st := &body[i]
		switch st.Kind {
		case ptx.StmtDecl:
			fl.declare(st.Decl)
		case ptx.StmtLabel:
			id := labels[st.Label]
			if fl.labelPC[id] >= 0 {
				continue // a duplicate, reported by enterLabels
			}
			fl.labelPC[id] = int32(len(fl.f.Code))
		case ptx.StmtBranchTargets:
			id := labels[st.Label]
			if t := fl.labelTable[id]; t >= 0 && fl.tableLabels[t] == nil {
				ids := make([]int32, len(st.Targets))
				for j, n := range st.Targets {
					ids[j] = fl.findLabel(n, st.Pos)
				}
				fl.tableLabels[t] = ids
			}
		case ptx.StmtPragma:
			if st.StmtData != nil && strings.TrimSpace(st.Text) == "nounroll" {
				fl.f.noUnroll = append(fl.f.noUnroll, int32(len(fl.f.Code)))
			}
		case ptx.StmtBlock:
			fl.scopes = append(fl.scopes, map[string]symbol{})
			fl.ranges = append(fl.ranges, nil)
			fl.lowerBlock(st.Block)
			fl.scopes = fl.scopes[:len(fl.scopes)-1]
			fl.ranges = fl.ranges[:len(fl.ranges)-1]
		case ptx.StmtInstr:
			n := len(fl.l.errs)
			fl.lowerInstr(st.Instr)
			fl.nerrors += len(fl.l.errs) - n
		}
	}
}

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

// reg resolves a register operand to its slot.
func (fl *fnLowerer) reg(src *ptx.Instr, o *ptx.Operand) int32 {
	o = scalarOperand(o)
	if o.Kind == ptx.OpdSink {
		return fl.sink
	}
	if o.Kind != ptx.OpdReg && o.Kind != ptx.OpdSym || o.Minus {
		fl.bad(src, "expected a register operand")
		return fl.sink
	}
	s, ok := fl.lookup(o.Name)
	if !ok || s.kind != symReg {
		if _, isS := sregNames[o.Name]; isS {
			fl.bad(src, "special register %s cannot be written", o.Name)
		} else {
			fl.bad(src, "undefined register %s", o.Name)
		}
		return fl.sink
	}
	return s.slot
}

// scalarOperand unwraps a one-element brace list ("{ %r1 }"), which ptxas
// accepts wherever a scalar operand stands; Triton's inline assembly writes
// scalar loads and stores that way.
func scalarOperand(o *ptx.Operand) *ptx.Operand {
	if o.Kind == ptx.OpdVector && len(o.Elems) == 1 {
		return &o.Elems[0]
	}
	return o
}

// value resolves a source operand of type t to a slot, turning immediates
// into constant slots and special registers or symbol addresses into a
// preceding instruction writing a temporary.
func (fl *fnLowerer) value(src *ptx.Instr, o *ptx.Operand, t ptx.Type) int32 {
	o = scalarOperand(o)
	switch o.Kind {
	case ptx.OpdReg:
		if o.Minus {
			fl.bad(src, "a negated register (-%s) is only allowed in vmad", o.Name)
			return fl.sink
		}
		if sr, ok := sregNames[o.Name]; ok {
			tmp := fl.newSlot(ptx.B64)
			in := fl.newInst(OpMovSreg, src)
			in.Guard = -1
			in.D[0] = tmp
			in.Imm = int64(sr)
			in.Type = ptx.U32
			if sr == SregClock64 || sr == SregGlobaltimer {
				in.Type = ptx.U64
			}
			fl.emit(in, src)
			return tmp
		}
		s, ok := fl.lookup(o.Name)
		if !ok {
			if clusterSreg(o.Name) {
				fl.unsupportedf(src.Pos, "special register %s is not supported yet", o.Name)
				return fl.sink
			}
			fl.bad(src, "undefined register %s", o.Name)
			return fl.sink
		}
		if s.kind != symReg {
			return fl.addrTemp(src, o.Name, 0)
		}
		if o.Neg {
			// "!%p" as a value: materialize the complement.
			tmp := fl.newSlot(ptx.Pred)
			in := fl.newInst(OpNot, src)
			in.Guard = -1
			in.Type = ptx.Pred
			in.D[0] = tmp
			in.A[0] = s.slot
			fl.emit(in, src)
			return tmp
		}
		return s.slot
	case ptx.OpdInt:
		return fl.constSlot(fl.immBits(o, t))
	case ptx.OpdFloat:
		return fl.constSlot(fl.immBits(o, t))
	case ptx.OpdSym:
		if o.Name == "WARP_SZ" {
			return fl.constSlot(32)
		}
		if s, ok := fl.lookup(o.Name); ok && s.kind == symReg && o.Offset == 0 {
			return s.slot // a register named without "%" ("p" in inline asm)
		}
		return fl.addrTemp(src, o.Name, o.Offset)
	case ptx.OpdSink:
		return fl.sink
	}
	fl.bad(src, "unexpected operand")
	return fl.sink
}

func (fl *fnLowerer) immBits(o *ptx.Operand, t ptx.Type) uint64 {
	if o.Kind == ptx.OpdInt {
		return o.Bits
	}
	// float literal
	switch t {
	case ptx.F32:
		if o.FloatBits == 64 {
			return uint64(math.Float32bits(float32(math.Float64frombits(o.Bits))))
		}
		return o.Bits
	case ptx.F64:
		if o.FloatBits == 32 {
			return math.Float64bits(float64(math.Float32frombits(uint32(o.Bits))))
		}
		return o.Bits
	}
	return o.Bits
}

// addrTemp emits "mov tmp, sym+off" and returns tmp.
func (fl *fnLowerer) addrTemp(src *ptx.Instr, name string, off int64) int32 {
	tmp := fl.newSlot(ptx.B64)
	in := fl.newInst(OpMovAddr, src)
	in.Guard = -1
	in.D[0] = tmp
	in.Type = ptx.U64
	if !fl.setSym(src, &in, name, off) {
		return fl.sink
	}
	fl.emit(in, src)
	return tmp
}

// setSym resolves a symbol reference into in's SymKind/Sym/Imm.
func (fl *fnLowerer) setSym(src *ptx.Instr, in *Inst, name string, off int64) bool {
	s, ok := fl.lookup(name)
	if !ok {
		if fi, isFunc := fl.l.p.FuncByName[name]; isFunc {
			if !fl.l.srcFuncs[fi].HasBody {
				fl.unsupportedf(src.Pos, "%s: address of extern function %s is not supported yet", opText(src), name)
				return false
			}
			in.SymKind = SymFunc
			in.Sym = int32(fi)
			in.Imm = off
			fl.calls[int32(fi)] = true
			return true
		} else {
			fl.bad(src, "undefined symbol %s", name)
		}
		return false
	}
	switch s.kind {
	case symFrame:
		in.SymKind = SymFrame
		in.Imm = int64(s.off) + off
		if s.top {
			in.SymKind = SymFrameTop
			in.Imm = off - int64(s.off)
		}
	case symKParam:
		in.SymKind = SymKParam
		in.Imm = int64(s.off) + off
	case symModVar:
		v := fl.l.p.Vars[s.vidx]
		in.Sym = s.vidx
		in.Imm = off
		if v.Space == ptx.SpaceShared {
			in.SymKind = SymShared
			fl.used[s.vidx] = true
			if v.Size == 0 {
				fl.f.UsesDynShared = true
			}
		} else {
			in.SymKind = SymGlobal
		}
	default:
		fl.bad(src, "%s is a register, not an address", name)
		return false
	}
	return true
}

// addr resolves an address operand "[base+off]" into in.A[0], Imm and the symbol.
func (fl *fnLowerer) addr(src *ptx.Instr, in *Inst, o *ptx.Operand) bool {
	if o.Kind != ptx.OpdAddr {
		// Some emitters write a bare symbol for param addresses.
		if o.Kind == ptx.OpdSym {
			return fl.setSym(src, in, o.Name, o.Offset)
		}
		fl.bad(src, "expected an address operand")
		return false
	}
	in.A[0] = -1
	if o.Name == "" {
		in.Imm = o.Offset
		return true
	}
	if s, ok := fl.lookup(o.Name); ok && s.kind == symReg {
		in.A[0] = s.slot
		in.Imm = o.Offset
		return true
	}
	if _, ok := sregNames[o.Name]; ok {
		in.A[0] = fl.value(src, &ptx.Operand{Kind: ptx.OpdReg, Name: o.Name}, ptx.U64)
		in.Imm = o.Offset
		return true
	}
	return fl.setSym(src, in, o.Name, o.Offset)
}

func (fl *fnLowerer) need(src *ptx.Instr, n int) bool {
	if len(src.Operands) != n {
		fl.bad(src, "expected %d operands, found %d", n, len(src.Operands))
		return false
	}
	return true
}

func (fl *fnLowerer) needTypes(src *ptx.Instr, m *mods, n int) bool {
	if len(m.types) < n {
		fl.bad(src, "missing type")
		return false
	}
	return true
}

var aluOps = map[string]Op{
	"add": OpAdd, "sub": OpSub, "mul": OpMul, "mad": OpMad, "mul24": OpMul24, "mad24": OpMad24,
	"div": OpDiv, "rem": OpRem, "min": OpMin, "max": OpMax, "abs": OpAbs, "neg": OpNeg,
	"and": OpAnd, "or": OpOr, "xor": OpXor, "not": OpNot, "cnot": OpCnot, "shl": OpShl, "shr": OpShr,
	"lop3": OpLop3, "popc": OpPopc, "clz": OpClz, "brev": OpBrev, "bfind": OpBfind, "fns": OpFns,
	"bfe": OpBfe, "bfi": OpBfi, "prmt": OpPrmt, "shf": OpShf, "sad": OpSad, "dp4a": OpDp4a, "dp2a": OpDp2a,
	"fma": OpFma, "rcp": OpRcp, "sqrt": OpSqrt, "rsqrt": OpRsqrt, "sin": OpSin, "cos": OpCos,
	"ex2": OpEx2, "lg2": OpLg2, "tanh": OpTanh, "copysign": OpCopysign,
	"addc": OpAdd, "subc": OpSub, "madc": OpMad,
}

// aluOperands is how many operands, the destination included, each ALU
// instruction takes.
var aluOperands = map[string]int{
	"add": 3, "sub": 3, "mul": 3, "div": 3, "rem": 3, "min": 3, "max": 3, "and": 3, "or": 3, "xor": 3,
	"shl": 3, "shr": 3, "mul24": 3, "copysign": 3, "addc": 3, "subc": 3,
	"mad": 4, "mad24": 4, "fma": 4, "madc": 4, "bfe": 4, "prmt": 4, "shf": 4, "sad": 4, "dp4a": 4, "dp2a": 4,
	"fns": 4, "bfi": 5, "lop3": 5,
	"abs": 2, "neg": 2, "not": 2, "cnot": 2, "popc": 2, "clz": 2, "brev": 2, "bfind": 2, "rcp": 2, "sqrt": 2,
	"rsqrt": 2, "sin": 2, "cos": 2, "ex2": 2, "lg2": 2, "tanh": 2,
}

func (fl *fnLowerer) lowerInstr(src *ptx.Instr) {
	if (src.Op == "st" || src.Op == "red") && hasMod(src.Mods, "async") && fl.lowerAsyncExt(src) { // asyncext.go
		return
	}
	if fl.lowerCluster(src) { // cluster.go
		return
	}
	src = withoutCachePolicy(src) // cachehint.go
	m := parseMods(src.Mods)
	ops := src.Operands
	switch src.Op {
	case "mov":
		fl.lowerMov(src, &m)
	case "ld", "ldu":
		fl.lowerLd(src, &m)
	case "st":
		fl.lowerSt(src, &m)
	case "cvt":
		fl.lowerCvt(src, &m)
	case "cvta":
		if !fl.need(src, 2) || !fl.needTypes(src, &m, 1) {
			return
		}
		in := fl.newInst(OpCvta, src)
		in.Type = m.typ(0)
		in.Space = m.space
		if m.to {
			in.Mode = 1
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		fl.emit(in, src)
	case "isspacep":
		if !fl.need(src, 2) {
			return
		}
		in := fl.newInst(OpIsspacep, src)
		in.Space = m.space
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.U64)
		fl.emit(in, src)
	case "setp", "set":
		fl.lowerSetp(src, &m)
	case "selp":
		if !fl.need(src, 4) || !fl.needTypes(src, &m, 1) {
			return
		}
		in := fl.newInst(OpSelp, src)
		in.Type = m.typ(0)
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], in.Type)
		in.A[2] = fl.value(src, &ops[3], ptx.Pred)
		fl.emit(in, src)
	case "slct":
		if !fl.need(src, 4) || !fl.needTypes(src, &m, 2) {
			return
		}
		in := fl.newInst(OpSlct, src)
		in.Type, in.Type2 = m.typ(0), m.typ(1)
		in.Flags = m.flags
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], in.Type)
		in.A[2] = fl.value(src, &ops[3], in.Type2)
		fl.emit(in, src)
	case "testp":
		if !fl.need(src, 2) || !fl.needTypes(src, &m, 1) || len(m.rest) != 1 {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpTestp, src)
		in.Type = m.typ(0)
		switch m.rest[0] {
		case "finite":
			in.Mode = TestFinite
		case "infinite":
			in.Mode = TestInfinite
		case "number":
			in.Mode = TestNumber
		case "notanumber":
			in.Mode = TestNotANumber
		case "normal":
			in.Mode = TestNormal
		case "subnormal":
			in.Mode = TestSubnormal
		default:
			fl.unsupported(src)
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		fl.emit(in, src)
	case "brx":
		if !m.has("idx") || len(ops) != 2 || ops[1].Kind != ptx.OpdSym {
			fl.unsupported(src)
			return
		}
		id, ok := fl.lookupLabel(ops[1].Name)
		if !ok || fl.labelTable[id] < 0 {
			fl.bad(src, "undefined .branchtargets list %s", ops[1].Name)
			return
		}
		in := fl.newInst(OpBrx, src)
		in.Imm = int64(fl.labelTable[id])
		in.A[0] = fl.value(src, &ops[0], ptx.U32)
		fl.emit(in, src)
	case "bra":
		if !fl.need(src, 1) {
			return
		}
		in := fl.newInst(OpBra, src)
		in.Flags = m.flags
		id := fl.findLabel(ops[0].Name, src.Pos)
		pc := fl.emit(in, src)
		if id >= 0 {
			fl.fixups = append(fl.fixups, fixup{pc: pc, label: id})
		}
	case "call":
		fl.lowerCall(src, &m)
	case "ret":
		in := fl.newInst(OpRet, src)
		if fl.f.Entry {
			in.Op = OpExit
		}
		fl.emit(in, src)
	case "exit":
		fl.emit(fl.newInst(OpExit, src), src)
	case "trap":
		fl.emit(fl.newInst(OpTrap, src), src)
	case "brkpt":
		fl.emit(fl.newInst(OpBrkpt, src), src)
	case "membar", "fence":
		in := fl.newInst(OpMembar, src)
		if src.Op == "fence" && (m.has("proxy") || len(m.rest) > 0 && strings.HasPrefix(m.rest[0], "proxy")) {
			if hasMod(src.Mods, "tensormap::generic") && hasMod(src.Mods, "acquire") {
				in.Mode = MembarTensormapAcquire
			}
			fl.emit(in, src)
			return
		}
		if msg := fenceModsError(src.Op, src.Mods); msg != "" {
			fl.bad(src, "%s", msg)
			return
		}
		in.Order = fenceOrder(src.Mods)
		fl.emit(in, src)
	case "prefetch", "prefetchu":
		fl.emit(fl.newInst(OpPrefetch, src), src)
	case "bar", "barrier":
		fl.lowerBar(src, &m)
	case "atom", "red":
		fl.lowerAtom(src, &m)
	case "shfl":
		fl.lowerShfl(src, &m)
	case "vote":
		fl.lowerVote(src, &m)
	case "match":
		if len(ops) != 3 || !fl.needTypes(src, &m, 1) {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpMatch, src)
		in.Type = m.typ(0)
		if m.has("all") {
			in.Mode = 1
		}
		fl.dstMaybePair(src, &in, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
		fl.emit(in, src)
	case "redux":
		if len(ops) != 3 || !fl.needTypes(src, &m, 1) || len(m.rest) != 1 {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpRedux, src)
		in.Type = m.typ(0)
		op, ok := atomNames[m.rest[0]]
		if !ok || op > AtomXor || IsFloat(in.Type) {
			fl.unsupported(src)
			return
		}
		in.Mode = op
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
		fl.emit(in, src)
	case "activemask":
		if !fl.need(src, 1) {
			return
		}
		in := fl.newInst(OpActivemask, src)
		in.D[0] = fl.reg(src, &ops[0])
		fl.emit(in, src)
	case "pmevent", "nanosleep":
		fl.emit(fl.newInst(OpNop, src), src)
	case "tex", "tld4", "suld", "sust":
		fl.lowerTex(src, &m)
	case "mma", "wmma", "wgmma", "ldmatrix", "stmatrix", "movmatrix":
		fl.lowerTensor(src)
	case "cp", "mbarrier":
		fl.lowerAsync(src)
	case "tensormap":
		fl.lowerTensormap(src)
	default:
		if vop, ok := videoOps[src.Op]; ok {
			fl.lowerVideo(src, vop) // video.go
			return
		}
		if fl.lowerSm90(src, &m) || fl.lowerCacheOp(src) {
			return
		}
		op, ok := aluOps[src.Op]
		if !ok {
			fl.unsupported(src)
			return
		}
		fl.lowerALU(src, &m, op)
	}
}

func (fl *fnLowerer) dstMaybePair(src *ptx.Instr, in *Inst, o *ptx.Operand) {
	if o.Kind == ptx.OpdPair && len(o.Elems) == 2 {
		in.D[0] = fl.reg(src, &o.Elems[0])
		in.D[1] = fl.reg(src, &o.Elems[1])
		return
	}
	in.D[0] = fl.reg(src, o)
}

func (fl *fnLowerer) lowerALU(src *ptx.Instr, m *mods, op Op) {
	ops := src.Operands
	if want := aluOperands[src.Op]; len(ops) != want {
		if (op == OpMin || op == OpMax) && len(ops) == 4 {
			fl.unsupportedf(src.Pos, "three-input %s is not supported yet", src.Op)
			return
		}
		fl.bad(src, "%s takes %d operands, found %d", src.Op, want, len(ops))
		return
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	in.Rnd = m.rnd
	if in.Flags&FlagXorSign != 0 && (op != OpMin && op != OpMax || !hasMod(src.Mods, "xorsign") || !hasMod(src.Mods, "abs")) {
		fl.unsupported(src) // .xorsign.abs belongs to min and max
		return
	}
	if src.Op == "addc" || src.Op == "subc" || src.Op == "madc" {
		in.Flags |= FlagCarryIn
	}
	if in.Flags&(FlagCC|FlagCarryIn) != 0 {
		in.D[1] = fl.ccSlot
		in.A[4] = fl.ccSlot
	}
	if !fl.needTypes(src, m, 1) {
		return
	}
	in.Type = m.typ(0)
	in.Type2 = m.typ(1)
	nsrc := len(ops) - 1
	switch op {
	case OpMul, OpMad:
		switch {
		case m.has("hi"):
			in.Mode = MulHi
		case m.has("wide"):
			in.Mode = MulWide
		}
		if IsFloat(in.Type) {
			in.Mode = MulLo
		}
	case OpMul24, OpMad24:
		if m.has("hi") {
			in.Mode = MulHi
		}
	case OpShf:
		if m.has("l") {
			in.Mode |= 1
		}
		if m.has("clamp") {
			in.Mode |= 2
		}
	case OpPrmt:
		modes := []string{"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}
		for i, s := range modes {
			if m.has(s) {
				in.Mode = uint8(i + 1)
			}
		}
	case OpDp2a:
		if m.has("hi") {
			in.Mode = 1
		}
	case OpLop3:
		if nsrc != 4 {
			fl.bad(src, "expected 5 operands")
			return
		}
		if ops[4].Kind != ptx.OpdInt {
			fl.bad(src, "lut must be an immediate")
			return
		}
		in.Imm = int64(ops[4].Bits & 0xff)
		nsrc = 3
	}
	if op == OpMin || op == OpMax {
		if m.has("relu") {
			in.Flags |= FlagRelu
		}
	}
	if op == OpFma && in.Rnd == RndNone && in.Type != ptx.TypeNone && IsFloat(in.Type) && in.Flags&FlagApprox == 0 {
		fl.bad(src, "fma requires a rounding modifier")
		return
	}
	if len(ops) < 2 {
		fl.bad(src, "missing operands")
		return
	}
	for _, r := range m.rest {
		switch r {
		case "lo", "hi", "wide", "l", "r", "clamp", "wrap", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "relu":
		default:
			fl.unsupportedf(src.Pos, "%s is not supported yet", opText(src))
			return
		}
	}
	if in.Type == ptx.B128 || in.Type == ptx.TF32 {
		fl.unsupported(src)
		return
	}
	in.D[0] = fl.reg(src, &ops[0])
	srcType := in.Type
	for i := 0; i < nsrc && i < 4; i++ {
		t := srcType
		if op == OpMul && in.Mode == MulWide || op == OpMad && in.Mode == MulWide && i == 2 {
			if op == OpMad && i == 2 {
				t = wideType(in.Type)
			}
		}
		if (op == OpShl || op == OpShr) && i == 1 {
			t = ptx.U32
		}
		if (op == OpBfe || op == OpBfi) && i >= 1 && !(op == OpBfi && i == 1) {
			t = ptx.U32
		}
		if op == OpDp4a || op == OpDp2a {
			switch i {
			case 1:
				t = in.Type2
			case 2:
				t = ptx.U32
			}
		}
		in.A[i] = fl.value(src, &ops[1+i], t)
	}
	fl.emit(in, src)
}

func wideType(t ptx.Type) ptx.Type {
	switch t {
	case ptx.U16:
		return ptx.U32
	case ptx.S16:
		return ptx.S32
	case ptx.U32:
		return ptx.U64
	case ptx.S32:
		return ptx.S64
	}
	return t
}

func (fl *fnLowerer) lowerMov(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) {
		return
	}
	t := m.typ(0)
	d, a := &ops[0], &ops[1]
	if t == ptx.B128 {
		fl.lowerMov128(src, d, a)
		return
	}
	switch {
	case d.Kind == ptx.OpdVector:
		in := fl.newInst(OpUnpack, src)
		in.Type = t
		in.Type2 = elemType(t, len(d.Elems))
		in.Vec = uint8(len(d.Elems))
		if len(d.Elems) > 4 || in.Type2 == ptx.TypeNone {
			fl.unsupported(src)
			return
		}
		for i := range d.Elems {
			in.D[i] = fl.reg(src, &d.Elems[i])
		}
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	case a.Kind == ptx.OpdVector:
		in := fl.newInst(OpPack, src)
		in.Type = t
		in.Type2 = elemType(t, len(a.Elems))
		in.Vec = uint8(len(a.Elems))
		if len(a.Elems) > 4 || in.Type2 == ptx.TypeNone {
			fl.unsupported(src)
			return
		}
		in.D[0] = fl.reg(src, d)
		for i := range a.Elems {
			in.A[i] = fl.value(src, &a.Elems[i], in.Type2)
		}
		fl.emit(in, src)
	case a.Kind == ptx.OpdReg:
		if sr, ok := sregNames[a.Name]; ok {
			in := fl.newInst(OpMovSreg, src)
			in.Type = t
			in.D[0] = fl.reg(src, d)
			in.Imm = int64(sr)
			fl.emit(in, src)
			return
		}
		if s, ok := fl.lookup(a.Name); ok && s.kind != symReg {
			fl.movAddr(src, t, d, a.Name, 0)
			return
		}
		in := fl.newInst(OpMov, src)
		in.Type = t
		in.D[0] = fl.reg(src, d)
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	case a.Kind == ptx.OpdSym && a.Name != "WARP_SZ" && !fl.namesRegister(a):
		fl.movAddr(src, t, d, a.Name, a.Offset)
	default:
		in := fl.newInst(OpMov, src)
		in.Type = t
		in.D[0] = fl.reg(src, d)
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	}
}

// lowerMov128 lowers mov.b128: unpacking a .b128 register into two 64-bit
// halves ({lo, hi}), packing two halves into one, or copying one: one
// 64-bit move per half.
func (fl *fnLowerer) lowerMov128(src *ptx.Instr, d, a *ptx.Operand) {
	var dst, val [2]int32
	switch {
	case d.Kind == ptx.OpdVector && a.Kind != ptx.OpdVector:
		if len(d.Elems) != 2 {
			fl.bad(src, "expected {lo, hi}: two 64-bit halves")
			return
		}
		dst[0], dst[1] = fl.reg(src, &d.Elems[0]), fl.reg(src, &d.Elems[1])
		val[0], val[1] = fl.reg128(src, a)
		if dst[0] == val[1] {
			fl.unsupportedf(src.Pos, "%s: a low half written over the high half it unpacks is not supported yet", opText(src))
			return
		}
	case a.Kind == ptx.OpdVector && d.Kind != ptx.OpdVector:
		if len(a.Elems) != 2 {
			fl.bad(src, "expected {lo, hi}: two 64-bit halves")
			return
		}
		dst[0], dst[1] = fl.reg128(src, d)
		val[0], val[1] = fl.value(src, &a.Elems[0], ptx.B64), fl.value(src, &a.Elems[1], ptx.B64)
		if dst[0] == val[1] {
			fl.unsupportedf(src.Pos, "%s: a pack whose high half is its own low half is not supported yet", opText(src))
			return
		}
	case (a.Kind == ptx.OpdReg || a.Kind == ptx.OpdSym) && d.Kind != ptx.OpdVector:
		dst[0], dst[1] = fl.reg128(src, d)
		val[0], val[1] = fl.reg128(src, a)
	default:
		fl.unsupported(src)
		return
	}
	for k := range 2 {
		in := fl.newInst(OpMov, src)
		in.Type = ptx.B64
		in.D[0], in.A[0] = dst[k], val[k]
		fl.emit(in, src)
	}
}

func (fl *fnLowerer) movAddr(src *ptx.Instr, t ptx.Type, d *ptx.Operand, name string, off int64) {
	in := fl.newInst(OpMovAddr, src)
	in.Type = t
	in.D[0] = fl.reg(src, d)
	if fl.setSym(src, &in, name, off) {
		fl.emit(in, src)
	}
}

// elemType is the element type of a vector pack/unpack of t into n parts.
func elemType(t ptx.Type, n int) ptx.Type {
	if n == 0 {
		return ptx.TypeNone
	}
	switch TypeSize(t) / n {
	case 1:
		return ptx.B8
	case 2:
		return ptx.B16
	case 4:
		return ptx.B32
	case 8:
		return ptx.B64
	}
	return ptx.TypeNone
}

func (fl *fnLowerer) memSpace(src *ptx.Instr, m *mods) bool {
	if hasMod(src.Mods, "shared::cluster") {
		fl.unsupported(src) // distributed shared memory: a cluster's addresses
		return false
	}
	if m.space == ptx.SpaceNone {
		m.space = ptx.SpaceGeneric
	}
	for _, r := range m.rest {
		switch r {
		case "L1", "L2", "evict_normal", "evict_first", "evict_last", "no_allocate", "unified":
		default:
			fl.unsupported(src)
			return false
		}
	}
	return true
}

func (fl *fnLowerer) lowerLd(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) || !fl.memSpace(src, m) {
		return
	}
	in := fl.newInst(OpLd, src)
	in.Type = m.typ(0)
	in.Space = m.space
	if in.Type == ptx.B128 && m.vec > 0 || m.vec > 4 {
		fl.unsupported(src)
		return
	}
	if !fl.addr(src, &in, &ops[1]) {
		return
	}
	if in.Type == ptx.B128 {
		// ld.b128 is ld.v2.b64 into the register's two halves.
		in.Type, in.Vec = ptx.B64, 2
		in.D[0], in.D[1] = fl.reg128(src, &ops[0])
	} else if m.vec > 0 {
		if ops[0].Kind != ptx.OpdVector || len(ops[0].Elems) != m.vec {
			fl.bad(src, "expected a vector of %d registers", m.vec)
			return
		}
		in.Vec = uint8(m.vec)
		for i := range ops[0].Elems {
			in.D[i] = fl.reg(src, &ops[0].Elems[i])
		}
	} else {
		in.Vec = 1
		in.D[0] = fl.reg(src, &ops[0])
	}
	if d := in.D[0]; d >= 0 && int(d) < len(fl.slotW) && fl.slotW[d] == 2 {
		in.Cmp = LdWideDest // a signed load into a 64-bit register sign-extends to 64 bits
	}
	fl.checkSpaceSym(src, &in)
	if strongLoad(src.Mods) && (in.Space == ptx.SpaceGlobal || in.Space == ptx.SpaceGeneric) {
		in.Flags |= FlagStrong
	}
	if slices.Contains(src.Mods, "nc") {
		in.Flags |= FlagNC
	}
	if in.Flags&FlagStrong != 0 || slices.Contains(src.Mods, "cg") || slices.Contains(src.Mods, "cv") {
		in.Mode = LdL2Only
	}
	fl.emit(in, src)
}

// strongLoad reports whether a load's modifiers make it a strong
// (volatile, relaxed, acquire or sc) access beyond the CTA's scope.
func strongLoad(ms []string) bool {
	strong, cta := false, false
	for _, m := range ms {
		switch m {
		case "volatile", "relaxed", "acquire", "sc":
			strong = true
		case "cta":
			cta = true
		}
	}
	return strong && !cta
}

func (fl *fnLowerer) checkSpaceSym(src *ptx.Instr, in *Inst) {
	if in.SymKind == SymKParam && in.Space != ptx.SpaceParam && in.Space != ptx.SpaceGeneric {
		fl.bad(src, "kernel parameter used in %s space", spaceName(in.Space))
	}
	if in.SymKind == SymKParam && in.Space == ptx.SpaceGeneric {
		in.Space = ptx.SpaceParam
	}
	if in.SymKind == SymFrame || in.SymKind == SymFrameTop {
		// Local and .param variables of a function body live in its frame.
		in.Space = ptx.SpaceLocal
	}
	if in.Space == ptx.SpaceParam && in.SymKind == SymNone && fl.f.Entry {
		in.SymKind = SymKParam // ld.param through a register holding a param-space address
	}
	if in.Space == ptx.SpaceParam && !fl.f.Entry && in.SymKind == SymNone {
		in.Space = ptx.SpaceLocal
	}
}

func (fl *fnLowerer) lowerSt(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if hasMod(src.Mods, "async") {
		fl.unsupported(src) // st.async: a remote store completing an mbarrier
		return
	}
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) || !fl.memSpace(src, m) {
		return
	}
	in := fl.newInst(OpSt, src)
	in.Type = m.typ(0)
	in.Space = m.space
	if in.Type == ptx.B128 && m.vec > 0 || m.vec > 4 {
		fl.unsupported(src)
		return
	}
	if !fl.addr(src, &in, &ops[0]) {
		return
	}
	if in.Type == ptx.B128 {
		// st.b128 is st.v2.b64 of the register's two halves.
		in.Type, in.Vec = ptx.B64, 2
		in.A[1], in.A[2] = fl.reg128(src, &ops[1])
	} else if m.vec > 0 {
		if ops[1].Kind != ptx.OpdVector || len(ops[1].Elems) != m.vec {
			fl.bad(src, "expected a vector of %d values", m.vec)
			return
		}
		in.Vec = uint8(m.vec)
		for i := range ops[1].Elems {
			in.A[1+i] = fl.value(src, &ops[1].Elems[i], in.Type)
		}
	} else {
		in.Vec = 1
		in.A[1] = fl.value(src, &ops[1], in.Type)
	}
	if in.Space == ptx.SpaceParam && fl.f.Entry && in.SymKind == SymKParam {
		fl.bad(src, "kernel parameters are read-only")
		return
	}
	fl.checkSpaceSym(src, &in)
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerCvt(src *ptx.Instr, m *mods) {
	if fl.lowerCvtExt(src, m) {
		return
	}
	ops := src.Operands
	if !fl.needTypes(src, m, 2) {
		return
	}
	in := fl.newInst(OpCvt, src)
	in.Type, in.Type2 = m.typ(0), m.typ(1)
	in.Rnd = m.rnd
	in.Flags = m.flags
	if len(m.rest) > 0 || in.Type == ptx.TF32 || in.Type2 == ptx.TF32 || in.Type == ptx.B128 {
		fl.unsupported(src)
		return
	}
	if in.Type == ptx.F16x2 || in.Type == ptx.BF16x2 {
		// cvt.rn.f16x2.f32 d, a, b: a goes to the upper half.
		if len(ops) != 3 {
			fl.bad(src, "expected 3 operands")
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type2)
		in.A[1] = fl.value(src, &ops[2], in.Type2)
		fl.emit(in, src)
		return
	}
	if !fl.need(src, 2) {
		return
	}
	in.D[0] = fl.reg(src, &ops[0])
	in.A[0] = fl.value(src, &ops[1], in.Type2)
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerSetp(src *ptx.Instr, m *mods) {
	ops := src.Operands
	op := OpSetp
	if src.Op == "set" {
		op = OpSet
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	cmpSet, boolSet := false, false
	for _, r := range m.rest {
		if c, ok := cmpNames[r]; ok && !cmpSet {
			in.Cmp = c
			cmpSet = true
			continue
		}
		switch r {
		case "and":
			in.BoolOp = BoolAnd
		case "or":
			in.BoolOp = BoolOr
		case "xor":
			in.BoolOp = BoolXor
		default:
			fl.unsupported(src)
			return
		}
		boolSet = true
	}
	if !cmpSet {
		fl.bad(src, "missing comparison")
		return
	}
	if op == OpSet {
		if !fl.needTypes(src, m, 2) {
			return
		}
		in.Type, in.Type2 = m.typ(0), m.typ(1)
	} else {
		if !fl.needTypes(src, m, 1) {
			return
		}
		in.Type2 = m.typ(0)
		in.Type = ptx.Pred
	}
	want := 3
	if boolSet {
		want = 4
	}
	if !fl.need(src, want) {
		return
	}
	fl.dstMaybePair(src, &in, &ops[0])
	if in.D[1] >= 0 {
		in.Flags |= FlagPair
	}
	in.A[0] = fl.value(src, &ops[1], in.Type2)
	in.A[1] = fl.value(src, &ops[2], in.Type2)
	if boolSet {
		c := ops[3]
		if c.Kind == ptx.OpdReg && c.Neg {
			in.Flags |= FlagNegB
			c.Neg = false
		}
		in.A[2] = fl.value(src, &c, ptx.Pred)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerBar(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if hasMod(src.Mods, "cluster") {
		fl.unsupported(src) // barrier.cluster: thread-block clusters
		return
	}
	if src.Op == "bar" && m.has("warp") {
		in := fl.newInst(OpBarWarp, src)
		if len(ops) == 1 {
			in.A[0] = fl.value(src, &ops[0], ptx.B32)
		}
		fl.emit(in, src)
		return
	}
	in := fl.newInst(OpBar, src)
	red := false
	for _, r := range m.rest {
		switch r {
		case "arrive":
			in.Mode = BarArrive
		case "red":
			red = true
		case "popc":
			in.Mode = BarRedPopc
		case "and":
			in.Mode = BarRedAnd
		case "or":
			in.Mode = BarRedOr
		default:
			fl.unsupported(src)
			return
		}
	}
	in.Type = m.typ(0)
	if red {
		// bar.red.op.type d, a{, b}, {!}c
		if len(ops) < 3 || len(ops) > 4 {
			fl.bad(src, "expected 3 or 4 operands")
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.U32)
		if len(ops) == 4 {
			in.A[1] = fl.value(src, &ops[2], ptx.U32)
		}
		c := ops[len(ops)-1]
		if c.Kind == ptx.OpdReg && c.Neg {
			in.Flags |= FlagNegB
			c.Neg = false
		}
		in.A[2] = fl.value(src, &c, ptx.Pred)
		fl.emit(in, src)
		return
	}
	if len(ops) < 1 || len(ops) > 2 {
		fl.bad(src, "expected 1 or 2 operands")
		return
	}
	in.A[0] = fl.value(src, &ops[0], ptx.U32)
	if len(ops) == 2 {
		in.A[1] = fl.value(src, &ops[1], ptx.U32)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerAtom(src *ptx.Instr, m *mods) {
	ops := src.Operands
	op := OpAtom
	if src.Op == "red" {
		op = OpRed
	}
	in := fl.newInst(op, src)
	if !fl.needTypes(src, m, 1) {
		return
	}
	in.Type = m.typ(0)
	in.Order = atomOrder(src.Mods)
	if hasMod(src.Mods, "shared::cluster") {
		fl.unsupported(src) // distributed shared memory: a cluster's addresses
		return
	}
	if m.space == ptx.SpaceNone {
		m.space = ptx.SpaceGeneric
	}
	in.Space = m.space
	found, noftz := false, false
	for _, r := range m.rest {
		if a, ok := atomNames[r]; ok && !found {
			in.Mode = a
			found = true
			continue
		}
		if r == "noftz" && !noftz {
			noftz = true
			continue
		}
		fl.unsupported(src)
		return
	}
	if !found || len(m.types) > 1 || !atomTypeOK(in.Type, in.Mode, m.vec, noftz) {
		fl.unsupported(src)
		return
	}
	if in.Space != ptx.SpaceGlobal && in.Space != ptx.SpaceShared && in.Space != ptx.SpaceGeneric ||
		m.vec > 0 && in.Space == ptx.SpaceShared {
		fl.unsupported(src)
		return
	}
	n := 3
	if in.Mode == AtomCas {
		n = 4
	}
	if op == OpRed {
		n--
	}
	if !fl.need(src, n) {
		return
	}
	i := 0
	if op == OpAtom {
		i = 1
	}
	if !fl.addr(src, &in, &ops[i]) {
		return
	}
	if in.Type == ptx.B128 {
		fl.lowerAtom128(src, in, ops, i)
		return
	}
	if m.vec > 0 {
		fl.lowerAtomVec(src, in, ops, i, m.vec)
		return
	}
	if op == OpAtom {
		in.D[0] = fl.reg(src, &ops[0])
	}
	in.A[1] = fl.value(src, &ops[i+1], in.Type)
	if in.Mode == AtomCas {
		in.A[2] = fl.value(src, &ops[i+2], in.Type)
	}
	fl.emit(in, src)
}

// atomOrder is the memory order of an atom or red with modifiers ms: its
// semantics (relaxed when none is given) and scope (.gpu when none is).
func atomOrder(ms []string) uint8 {
	var o uint8
	switch {
	case hasMod(ms, "acquire"):
		o = OrderAcquire
	case hasMod(ms, "release"):
		o = OrderRelease
	case hasMod(ms, "acq_rel"), hasMod(ms, "sc"):
		o = OrderAcquire | OrderRelease
	}
	return o | orderScope(ms, OrderGPU)
}

// fenceOrder is the memory order of membar.{cta,gl,sys} or
// fence.{sc,acq_rel}.{cta,cluster,gpu,sys}: both ways, at its scope.
func fenceOrder(ms []string) uint8 {
	o := OrderAcquire | OrderRelease
	if hasMod(ms, "gl") {
		return o | OrderGPU
	}
	return o | orderScope(ms, OrderGPU)
}

// fenceModsError says what is wrong with the modifiers of membar (one of
// .cta, .gl, .sys) or fence ([.sc|.acq_rel] or .mbarrier_init.release,
// then one of .cta, .cluster, .gpu, .sys), as ptxas refuses them; "" when
// nothing is. (The .proxy forms are lowered before.)
func fenceModsError(op string, ms []string) string {
	scopes := 0
	for _, m := range ms {
		switch {
		case op == "membar" && (m == "cta" || m == "gl" || m == "sys"),
			op == "fence" && (m == "cta" || m == "cluster" || m == "gpu" || m == "sys"):
			scopes++
		case op == "fence" && (m == "sc" || m == "acq_rel" || m == "mbarrier_init" || m == "release"):
		default:
			return fmt.Sprintf("%s does not take .%s", op, m)
		}
	}
	switch {
	case scopes != 1 && op == "membar":
		return "membar takes one level: .cta, .gl or .sys"
	case scopes != 1:
		return "fence takes one scope: .cta, .cluster, .gpu or .sys"
	case hasMod(ms, "release") != hasMod(ms, "mbarrier_init"):
		return "fence.release is only fence.mbarrier_init.release.cluster"
	}
	return ""
}

// orderScope is the scope bit modifiers ms name (def when none; 0 for .cta).
func orderScope(ms []string, def uint8) uint8 {
	switch {
	case hasMod(ms, "cta"):
		return 0
	case hasMod(ms, "cluster"):
		return OrderCluster
	case hasMod(ms, "gpu"):
		return OrderGPU
	case hasMod(ms, "sys"):
		return OrderSys
	}
	return def
}

// atomTypeOK reports whether atom/red support a type, operation and vector
// width (vec 0: scalar): the integer and f32/f64 forms, add.noftz on f16,
// bf16 and their packed pairs, the sm_90 vector forms (global only:
// add/min/max.noftz on .v2/.v4/.v8 f16/bf16 and .v2/.v4 f16x2/bf16x2, add on
// .v2/.v4 f32), and cas/exch on b128.
func atomTypeOK(t ptx.Type, mode uint8, vec int, noftz bool) bool {
	switch t {
	case ptx.F16, ptx.BF16, ptx.F16x2, ptx.BF16x2:
		if !noftz {
			return false
		}
		switch vec {
		case 0:
			return mode == AtomAdd
		case 2, 4:
		case 8:
			if t == ptx.F16x2 || t == ptx.BF16x2 {
				return false
			}
		default:
			return false
		}
		return mode == AtomAdd || mode == AtomMin || mode == AtomMax
	case ptx.B128:
		return !noftz && vec == 0 && (mode == AtomCas || mode == AtomExch)
	}
	if noftz {
		return false
	}
	if vec > 0 {
		return t == ptx.F32 && mode == AtomAdd && (vec == 2 || vec == 4)
	}
	return true
}

// lowerAtomVec lowers a vector atom/red (sm_90, global) to one scalar
// atomic per element at consecutive addresses: the PTX ISA makes each
// element its own atomic operation.
func (fl *fnLowerer) lowerAtomVec(src *ptx.Instr, in Inst, ops []ptx.Operand, i, vec int) {
	var d, b []ptx.Operand
	if in.Op == OpAtom {
		d = ops[0].Elems
		if ops[0].Kind != ptx.OpdVector || len(d) != vec {
			fl.bad(src, "expected a vector of %d registers", vec)
			return
		}
	}
	b = ops[i+1].Elems
	if ops[i+1].Kind != ptx.OpdVector || len(b) != vec {
		fl.bad(src, "expected a vector of %d operands", vec)
		return
	}
	bs := make([]int32, vec)
	for k := range b {
		bs[k] = fl.value(src, &b[k], in.Type)
	}
	ds := make([]int32, len(d))
	for k := range d {
		ds[k] = fl.reg(src, &d[k])
	}
	// An element's result written over an input of a later element (its
	// address or operand): the hardware reads every input first, so the
	// inputs are copied to fresh registers before the elements run.
	conflict := func(s int32, from int) bool {
		for _, r := range ds[:min(from, len(ds))] {
			if r == s {
				return true
			}
		}
		return false
	}
	copyIn := func(s int32, t ptx.Type) int32 {
		tmp := fl.newSlot(t)
		mv := fl.newInst(OpMov, src)
		mv.Type, mv.D[0], mv.A[0] = t, tmp, s
		fl.emit(mv, src)
		return tmp
	}
	if in.A[0] >= 0 && conflict(in.A[0], vec-1) {
		in.A[0] = copyIn(in.A[0], ptx.B64)
	}
	for k := range bs {
		if conflict(bs[k], k) {
			bs[k] = copyIn(bs[k], in.Type)
		}
	}
	size := int64(TypeSize(in.Type))
	for k := 0; k < vec; k++ {
		e := in
		e.Imm = in.Imm + int64(k)*size
		e.Vec = uint8(k) // 0 for the first: one warp instruction for the counters
		e.A[1] = bs[k]
		if in.Op == OpAtom {
			e.D[0] = ds[k]
		}
		fl.emit(e, src)
	}
}

// lowerAtom128 lowers atom.cas.b128/atom.exch.b128: D[0], D[1] the old
// value's halves, A[1], A[2] the operand b's, A[3], A[4] c's (cas).
func (fl *fnLowerer) lowerAtom128(src *ptx.Instr, in Inst, ops []ptx.Operand, i int) {
	if in.Op == OpAtom {
		in.D[0], in.D[1] = fl.reg128(src, &ops[0])
	}
	in.A[1], in.A[2] = fl.reg128(src, &ops[i+1])
	if in.Mode == AtomCas {
		in.A[3], in.A[4] = fl.reg128(src, &ops[i+2])
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerShfl(src *ptx.Instr, m *mods) {
	ops := src.Operands
	in := fl.newInst(OpShfl, src)
	in.Type = ptx.B32
	mode := -1
	for _, r := range m.rest {
		switch r {
		case "up":
			mode = int(ShflUp)
		case "down":
			mode = int(ShflDown)
		case "bfly":
			mode = int(ShflBfly)
		case "idx":
			mode = int(ShflIdx)
		default:
			fl.unsupported(src)
			return
		}
	}
	if mode < 0 {
		fl.unsupported(src)
		return
	}
	in.Mode = uint8(mode)
	sync := false
	for _, s := range src.Mods {
		if s == "sync" {
			sync = true
		}
	}
	want := 4
	if sync {
		want = 5
	}
	if !fl.need(src, want) {
		return
	}
	fl.dstMaybePair(src, &in, &ops[0])
	in.A[0] = fl.value(src, &ops[1], ptx.B32)
	in.A[1] = fl.value(src, &ops[2], ptx.B32)
	in.A[2] = fl.value(src, &ops[3], ptx.B32)
	if sync {
		in.A[3] = fl.value(src, &ops[4], ptx.B32)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerVote(src *ptx.Instr, m *mods) {
	ops := src.Operands
	in := fl.newInst(OpVote, src)
	mode := -1
	for _, r := range m.rest {
		switch r {
		case "all":
			mode = int(VoteAll)
		case "any":
			mode = int(VoteAny)
		case "uni":
			mode = int(VoteUni)
		case "ballot":
			mode = int(VoteBallot)
		default:
			fl.unsupported(src)
			return
		}
	}
	// "uni" is in ignoredMods for bra.uni; recover it here.
	for _, s := range src.Mods {
		if s == "uni" {
			mode = int(VoteUni)
		}
	}
	if mode < 0 || len(ops) < 2 || len(ops) > 3 {
		fl.unsupported(src)
		return
	}
	if len(ops) == 2 && slices.Contains(src.Mods, "sync") {
		fl.bad(src, "vote.sync takes 3 operands (d, predicate, membermask), found 2")
		return
	}
	in.Mode = uint8(mode)
	in.D[0] = fl.reg(src, &ops[0])
	p := ops[1]
	if p.Kind == ptx.OpdReg && p.Neg {
		in.Flags |= FlagNegB
		p.Neg = false
	}
	in.A[0] = fl.value(src, &p, ptx.Pred)
	if len(ops) == 3 {
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerCall(src *ptx.Instr, m *mods) {
	ops := src.Operands
	var rets, args []ptx.Operand
	callee := ""
	indirect := false
	for i := range ops {
		o := &ops[i]
		switch o.Kind {
		case ptx.OpdList:
			if callee == "" {
				rets = o.Elems
			} else if args == nil {
				args = o.Elems
				if args == nil {
					args = []ptx.Operand{}
				}
			}
		case ptx.OpdSym:
			if callee == "" {
				callee = o.Name
			}
		case ptx.OpdReg:
			if callee == "" {
				callee = o.Name
				indirect = true
			}
		}
	}
	if callee == "" {
		fl.bad(src, "missing callee")
		return
	}
	cs := CallSite{Callee: -1}
	if indirect {
		fl.lowerIndirectCall(src, m, &cs, callee, rets, args)
		return
	}
	fi, ok := fl.l.p.FuncByName[callee]
	if !ok {
		fl.bad(src, "undefined function %s", callee)
		return
	}
	target := fl.l.srcFuncs[fi]
	if !target.HasBody {
		_, devrt := DevRTNames[callee]
		switch {
		case callee == "vprintf", devrt:
		case fl.l.externs != nil && fl.l.externs(callee):
		default:
			fl.unsupportedf(src.Pos, "call to %s is not supported yet", callee)
			return
		}
		cs.Extern = callee
	} else {
		cs.Callee = int32(fi)
		fl.calls[int32(fi)] = true
	}
	if len(rets) != len(target.Returns) || len(args) != len(target.Params) {
		fl.bad(src, "%s takes %d arguments and %d results", callee, len(target.Params), len(target.Returns))
		return
	}
	for i, a := range args {
		p, ok := fl.frameVar(src, &a)
		if !ok {
			return
		}
		cs.Args = append(cs.Args, p)
		cs.ArgType = append(cs.ArgType, target.Params[i].Type)
	}
	for i, r := range rets {
		p, ok := fl.frameVar(src, &r)
		if !ok {
			return
		}
		cs.Rets = append(cs.Rets, p)
		cs.RetType = target.Returns[i].Type
	}
	op := OpCall
	devrt, isDevRT := DevRTNames[callee]
	switch {
	case isDevRT:
		op = OpDevRT
	case callee == "vprintf":
		op = OpVprintf
	case cs.Extern != "":
		op = OpLibcall
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	in.Mode = devrt
	if op == OpLibcall {
		in.Mode = LibcallKind(cs.Extern)
		if fl.constArgs(&cs) {
			in.Mode = LibcallFolded
		}
	}
	in.Imm = int64(len(fl.f.Calls))
	fl.f.Calls = append(fl.f.Calls, cs)
	fl.emit(in, src)
}

// lowerIndirectCall lowers "call (r), %rd, (a), proto": the callee is
// chosen per lane at run time from the function address in the register.
func (fl *fnLowerer) lowerIndirectCall(src *ptx.Instr, m *mods, cs *CallSite, reg string, rets, args []ptx.Operand) {
	cs.Indirect = true
	cs.Target = fl.value(src, &ptx.Operand{Kind: ptx.OpdReg, Name: reg}, ptx.U64)
	for _, a := range args {
		p, ok := fl.frameVar(src, &a)
		if !ok {
			return
		}
		cs.Args = append(cs.Args, p)
	}
	for _, r := range rets {
		p, ok := fl.frameVar(src, &r)
		if !ok {
			return
		}
		cs.Rets = append(cs.Rets, p)
	}
	// Any function whose address is taken may be called.
	in := fl.newInst(OpCall, src)
	in.Flags = m.flags
	in.A[0] = cs.Target
	in.Imm = int64(len(fl.f.Calls))
	fl.f.Calls = append(fl.f.Calls, *cs)
	fl.emit(in, src)
}

// frameVar resolves a call argument: a .param variable of the caller's frame.
func (fl *fnLowerer) frameVar(src *ptx.Instr, o *ptx.Operand) (Param, bool) {
	if o.Kind != ptx.OpdSym && o.Kind != ptx.OpdReg {
		fl.l.errorf(src.Pos, "%s: immediate call arguments are not supported yet", opText(src))
		return Param{}, false
	}
	s, ok := fl.lookup(o.Name)
	if !ok {
		fl.bad(src, "undefined %s", o.Name)
		return Param{}, false
	}
	if s.kind != symFrame {
		fl.l.errorf(src.Pos, "%s: argument %s must be a .param variable (register arguments are not supported yet)", opText(src), o.Name)
		return Param{}, false
	}
	return Param{Name: o.Name, Offset: s.off, Size: s.size, Align: s.align}, true
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

// constArgs says whether every argument of call site cs is a constant: the
// call's argument stores, just before it, store constant slots (clang's
// code of `powf(2.0f, (float)i)` in an unrolled loop). A compiler that sees
// libdevice's code (nvcc; clang with libdevice linked) computes such a call
// when it compiles: no instruction is left but the result's move. warpsim
// cc links no libdevice, so clang's PTX keeps the call, and the timing
// model costs it as that move (LibcallFolded).
func (fl *fnLowerer) constArgs(cs *CallSite) bool {
	if len(cs.Args) == 0 {
		return false
	}
	consts := make(map[int32]bool, len(fl.consts))
	for _, slot := range fl.consts {
		consts[slot] = true
	}
	for _, a := range cs.Args {
		found := false
		for i := len(fl.f.Code) - 1; i >= 0; i-- {
			st := &fl.f.Code[i]
			if st.Op != OpSt || st.SymKind != SymFrame || st.A[0] >= 0 {
				break // past the call's argument stores
			}
			if int(st.Imm) != a.Offset {
				continue
			}
			for _, v := range st.A[1:] {
				if v >= 0 && !consts[v] {
					return false
				}
			}
			found = true
			break
		}
		if !found {
			return false
		}
	}
	return true
}
