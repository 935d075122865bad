// One function's lowering: its scope of symbols and register ranges, slots, declarations, labels and blocks.

package ir

import (
	"strconv"
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

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
		fl.l.errorf(v.Pos, "%s variable %s is not supported yet", v.Space, v.Name)
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
