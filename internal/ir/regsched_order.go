// The order the estimate measures: if-conversion, branch marks, counted loops and each block's list scheduler.

package ir

import (
	"slices"

	"github.com/warpsim/warpsim/ptx"
)

// ifConvertMax is the longest stretch (in IR instructions) a conditional
// forward branch may skip and still be turned into predicated code.
const ifConvertMax = 12

// schedLatency is an instruction's latency for the critical-path priority,
// in cycles: what the H100's pipes take (docs/timing-model.md), rounded.
func schedLatency(in *Inst) int {
	switch in.Class {
	case ClassLdGlobal, ClassLocal:
		if in.Op == OpSt || in.Op == OpSust {
			return 1
		}
		return 400
	case ClassShared:
		if in.Op == OpSt {
			return 1
		}
		return 30
	case ClassConst:
		return 8
	case ClassSFU:
		return 20
	case ClassFP64:
		return 8
	case ClassIMul:
		return 5
	case ClassStGlobal:
		return 1
	}
	return 4
}

// memKind sorts instructions for the memory-order edges.
type memKind uint8

const (
	memNone  memKind = iota // no memory effect: moves with its operands
	memLoad                 // reads memory a store may write
	memRO                   // reads memory no store writes: moves freely
	memStore                // writes memory
	memFixed                // keeps its place among all memory accesses
)

func memKindOf(in *Inst) memKind {
	switch in.Op {
	case OpLd:
		if in.Flags&FlagStrong != 0 {
			return memFixed
		}
		if in.Flags&FlagNC != 0 || in.Space == ptx.SpaceConst || in.Space == ptx.SpaceParam {
			return memRO
		}
		return memLoad
	case OpTex:
		return memRO
	case OpSuld, OpPrefetch:
		return memLoad
	case OpSt, OpSust:
		return memStore
	case OpMovSreg:
		switch Sreg(in.Imm) {
		case SregClock, SregClock64, SregGlobaltimer, SregGlobaltimerLo, SregGlobaltimerHi:
			return memFixed
		}
		return memNone
	case OpTensor:
		// wmma.mma reads and writes registers only, wmma.load is a load
		// and wmma.store a store: ptxas moves them as it does those
		// (testdata/programs3/nvcc, the SASS of wmma_f64, gemm_half_acc
		// and wmma_sq: fragment loads above the MMAs of earlier
		// fragments, as far as the registers allow). mma.sync, ldmatrix
		// and the rest keep their places: the estimate of Triton's
		// mma.sync kernels was chosen with them so.
		switch in.Mode {
		case TensorWmmaMMA:
			return memNone
		case TensorWmmaLoad:
			return memLoad
		case TensorWmmaStore:
			return memStore
		}
		return memFixed
	}
	switch in.Class {
	case ClassAtomic, ClassBranch, ClassBarrier, ClassWarp, ClassDevRT, ClassTensor:
		return memFixed
	}
	if in.Op == OpAsync || in.Op == OpTensor || in.Op == OpCall || in.Op == OpVprintf || in.Op == OpLibcall || in.Op == OpExt {
		return memFixed
	}
	return memNone
}

// scheduleForRegs is f with each basic block's instructions in the order
// ptxas's scheduler would issue them (short forward branches turned into
// predicated code first), for the register estimate only: the copy shares
// everything with f but Code.
func scheduleForRegs(f *Func) *Func { return scheduleForRegsInto(f, nil) }

// scheduleForRegsInto is scheduleForRegs with the copy of the code in
// *scratch (grown as needed) when scratch is not nil.
func scheduleForRegsInto(f *Func, scratch *[]Inst) *Func {
	n := len(f.Code)
	if n == 0 {
		return f
	}
	var code []Inst
	if scratch != nil {
		if cap(*scratch) < n {
			*scratch = make([]Inst, n, n+n/4)
		}
		code = (*scratch)[:n]
	} else {
		code = make([]Inst, n)
	}
	copy(code, f.Code)
	// Leaders: every branch target and the instruction after a block's
	// end, as estimateRegs splits blocks.
	targeted := branchTargets(f) // how many branches lead to pc
	// extraUse[pc]: the predicate a converted stretch's instruction now
	// depends on (-1: none).
	extraUse := make([]int32, n)
	for i := range extraUse {
		extraUse[i] = -1
	}
	forEachIfConversion(f, targeted, func(pc int) {
		in := &code[pc]
		for q := pc + 1; q < int(in.Target); q++ {
			extraUse[q] = in.Guard
		}
		extraUse[pc] = in.Guard
		*in = Inst{Op: OpNop, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Target: -1}
	})
	// Blocks after the conversion.
	leader := make([]bool, n+1)
	leader[0] = true
	for pc := 0; pc < n; pc++ {
		if targeted[pc] > 0 {
			leader[pc] = true
		}
		in := &code[pc]
		if in.Op == OpBra || in.Op == OpBrx || in.Op == OpRet || in.Op == OpExit || in.Op == OpTrap {
			leader[pc+1] = true
		}
	}
	out := &Func{}
	*out = *f
	out.Code = code
	s := newBlockScheduler(f.NumSlots)
	s.f = f
	for start := 0; start < n; {
		end := start + 1
		for end < n && !leader[end] {
			end++
		}
		s.schedule(code, extraUse, start, end)
		start = end
	}
	return out
}

// forEachIfConversion calls fn with the pc of each conditional forward
// branch of f that ptxas turns into predicated code: one skipping at most
// ifConvertMax instructions, none of them a branch, a return, a memory
// access that keeps its place (memFixed) or the target of another branch,
// to a target only it branches to. targeted counts the branches (not the
// fall-throughs) leading to each pc; a conversion takes its branch's out.
func forEachIfConversion(f *Func, targeted []int, fn func(pc int)) {
	n := len(f.Code)
	for pc := 0; pc < n; pc++ {
		in := &f.Code[pc]
		if in.Op != OpBra || in.Guard < 0 || in.Backward || int(in.Target) <= pc+1 || int(in.Target)-pc-1 > ifConvertMax {
			continue
		}
		ok := targeted[in.Target] == 1
		for q := pc + 1; ok && q < int(in.Target); q++ {
			r := &f.Code[q]
			if targeted[q] > 0 || r.Op == OpBra || r.Op == OpBrx || r.Op == OpRet || r.Op == OpExit || r.Op == OpTrap ||
				memKindOf(r) == memFixed {
				ok = false
			}
		}
		if !ok {
			continue
		}
		targeted[in.Target]--
		fn(pc)
		pc = int(in.Target) - 1
	}
}

// branchTargets counts, for each pc of f, the branches (not the
// fall-throughs) that lead to it.
func branchTargets(f *Func) []int {
	n := len(f.Code)
	targeted := make([]int, n+1)
	var buf []int32
	for pc := 0; pc < n; pc++ {
		buf = successors(f, pc, buf)
		for _, s := range buf {
			if int(s) != pc+1 {
				targeted[s]++
			}
		}
	}
	return targeted
}

// BraPredicated is the Mode of a bra that ptxas turns into predicated code
// (forEachIfConversion): the stretch it skips is scheduled with the code
// around it, so the timing model does not end a scheduling region there
// (Params.HoistLoads).
const BraPredicated uint8 = 1

// BraUnrolled is the Mode of the back edge of an innermost loop that
// ptxas unrolls again, UnrollFactor times (unrolledLoop): ptxas's loop
// body is UnrollFactor of the PTX's, one block, its loads hoisted and
// pipelined across the PTX's iterations, so the timing model ends a
// scheduling region at that branch only every UnrollFactor-th time a warp
// takes it (Params.LoopUnroll).
const BraUnrolled uint8 = 2

// BraUnrolledFree is the Mode of the back edge of an innermost counted
// loop with no global load that ptxas unrolls again, UnrollFactor times
// (unrolledFreeLoop): register arithmetic, shared-memory loads at most
// (Params.UnrollFree).
const BraUnrolledFree uint8 = 3

// UnrolledBra says whether in is the back edge of a loop ptxas unrolls
// again: BraUnrolled, or BraUnrolledFree where free says the model takes
// those too.
func UnrolledBra(in *Inst, free bool) bool {
	return in.Op == OpBra && (in.Mode == BraUnrolled || free && in.Mode == BraUnrolledFree)
}

// UnrollStep is the Mode of the add (or sub) that steps the counter of a
// loop ptxas unrolls again (BraUnrolled, BraUnrolledFree) and of the setp
// that compares it for the back edge: ptxas's unrolled body steps its
// counter, compares it and branches once for its UnrollFactor PTX bodies
// (testdata/timing/fp64pipe's mix_f: 64 FFMA, one IADD3, one ISETP, one
// BRA), so the timing model charges them only where the unrolled body
// ends (Params.UnrollOverhead).
const UnrollStep uint8 = 1

// UnrollFactor is unrollFactor, for the timing model (Params.LoopUnroll).
const UnrollFactor = unrollFactor

// markPredicatedBranches sets Mode BraPredicated on f's branches that
// ptxas if-converts, BraUnrolled or BraUnrolledFree on the back edges of
// the loops it unrolls again, and UnrollStep on those loops' counter
// steps and compares.
func markPredicatedBranches(f *Func) {
	if len(f.Code) == 0 {
		return
	}
	forEachIfConversion(f, branchTargets(f), func(pc int) { f.Code[pc].Mode = BraPredicated })
	for pc := range f.Code {
		mode := uint8(0)
		if _, ok := unrolledLoop(f, pc); ok && countedLoop(f, pc) {
			mode = BraUnrolled
		} else if unrolledFreeLoop(f, pc) && countedLoop(f, pc) {
			mode = BraUnrolledFree
		}
		if mode == 0 {
			continue
		}
		f.Code[pc].Mode = mode
		iv, _, _ := loopCounter(f, pc)
		guard := f.Code[pc].Guard
		for q := int(f.Code[pc].Target); q < pc; q++ {
			in := &f.Code[q]
			if (in.Op == OpAdd || in.Op == OpSub) && in.D[0] == iv || in.Op == OpSetp && in.D[0] == guard {
				in.Mode = UnrollStep
			}
		}
	}
}

// UnrolledBackEdge is the back edge of the loop whose counter step or
// compare (UnrollStep) is at pc: the first backward branch after it that
// ends a loop ptxas unrolls again; -1 when none.
func UnrolledBackEdge(f *Func, pc int) int {
	for q := pc + 1; q < len(f.Code); q++ {
		in := &f.Code[q]
		if in.Backward && int(in.Target) <= pc && UnrolledBra(in, true) {
			return q
		}
		if in.Op == OpBra && in.Mode != BraPredicated || in.Op == OpBrx || in.Op == OpRet || in.Op == OpExit {
			return -1
		}
	}
	return -1
}

// unrolledLoadWords is Func.UnrolledLoadWords: over the loops whose back
// edge is BraUnrolled, the most registers one PTX body's global and local
// loads write (wmma fragments are not in such loops: unrolledLoop).
func unrolledLoadWords(f *Func) int {
	most := 0
	for pc := range f.Code {
		br := &f.Code[pc]
		if br.Op != OpBra || br.Mode != BraUnrolled || br.Target < 0 || int(br.Target) > pc {
			continue
		}
		words := 0
		for q := int(br.Target); q < pc; q++ {
			in := &f.Code[q]
			if in.Op != OpLd || in.Class != ClassLdGlobal && in.Class != ClassLocal {
				continue
			}
			for _, d := range in.D {
				words += f.SlotWords(d)
			}
		}
		most = max(most, words)
	}
	return most
}

// countedLoop says whether the loop whose back edge is at pc has a trip
// count ptxas can compute: its branch's predicate is set in the body by a
// comparison of a register the body steps once by an immediate with an
// immediate or a value the body does not write. ptxas unrolls only such
// a loop: testdata/timing/mechanisms' reread (i += blockDim.x, nvcc's
// loop of one iteration) keeps one LDG a body in its SASS, where the
// loops nvcc unrolled by four (k += 4) have sixteen.
func countedLoop(f *Func, pc int) bool {
	_, _, ok := loopCounter(f, pc)
	return ok
}

// loopCounter is countedLoop's test: the loop's induction variable and the
// value it is compared with. The comparison is one of equality: a loop
// that leaves when `i < n` with i stepped by more than one (programs3's
// fp8_convert k_dot, `i += 128; setp.lt.s32`) needs a division and a
// test for i's overflow for its count, and keeps its body in the H100's
// SASS (8 LDG.E.U8, the PTX's four iterations); nvcc writes the loops it
// unrolled itself, and those of a constant count, with `setp.ne` against
// an exact count.
func loopCounter(f *Func, pc int) (iv, bound int32, ok bool) {
	br := &f.Code[pc]
	h := int(br.Target)
	if br.Op != OpBra || br.Guard < 0 || h < 0 || h > pc {
		return -1, -1, false
	}
	isConst := f.isConstSlot
	// writes is the body's instructions writing slot s, the last of them.
	writes := func(s int32) (n, last int) {
		for q := h; q < pc; q++ {
			if slices.Contains(f.Code[q].D[:], s) {
				n, last = n+1, q
			}
		}
		return n, last
	}
	n, at := writes(br.Guard)
	if n != 1 || f.Code[at].Op != OpSetp || f.Code[at].Cmp != CmpNe && f.Code[at].Cmp != CmpEq {
		return -1, -1, false
	}
	cmp := &f.Code[at]
	stepped := func(s int32) bool {
		if s < 0 || isConst(s) {
			return false
		}
		n, q := writes(s)
		if n != 1 {
			return false
		}
		in := &f.Code[q]
		if in.Op != OpAdd && in.Op != OpSub || in.Guard >= 0 {
			return false
		}
		return in.A[0] == s && isConst(in.A[1]) || in.Op == OpAdd && in.A[1] == s && isConst(in.A[0])
	}
	invariant := func(s int32) bool {
		if s < 0 {
			return false
		}
		n, _ := writes(s)
		return isConst(s) || n == 0
	}
	a, b := cmp.A[0], cmp.A[1]
	switch {
	case stepped(a) && invariant(b):
		return a, b, true
	case stepped(b) && invariant(a):
		return b, a, true
	}
	return -1, -1, false
}

// blockScheduler is the list scheduler's scratch space.
type blockScheduler struct {
	lastDef  []int32 // per slot, the block instruction that last wrote it (-1)
	lastUses [][]int32
	succ     [][]int32
	npred    []int
	prio     []int
	ready    []int32 // a heap: highest priority first, then the earliest
	order    []int32
	tmp      []Inst
	tdefs    []int32
	f        *Func // for the full operand lists of tensor instructions (tensorRegs)
}

func newBlockScheduler(slots int) *blockScheduler {
	s := &blockScheduler{lastDef: make([]int32, slots), lastUses: make([][]int32, slots)}
	for i := range s.lastDef {
		s.lastDef[i] = -1
	}
	return s
}

// schedule reorders code[start:end] (one block; its last instruction, a
// branch or return, stays last) by critical-path list scheduling.
func (s *blockScheduler) schedule(code []Inst, extraUse []int32, start, end int) {
	m := end - start
	if m < 3 {
		return
	}
	last := end
	if t := &code[end-1]; t.Op == OpBra || t.Op == OpBrx || t.Op == OpRet || t.Op == OpExit || t.Op == OpTrap {
		last = end - 1 // the terminator keeps its place
	}
	k := last - start
	if k < 2 {
		return
	}
	s.succ = s.succ[:0]
	for i := 0; i < k; i++ {
		s.succ = append(s.succ, nil)
	}
	s.npred = append(s.npred[:0], make([]int, k)...)
	edge := func(from, to int32) {
		if from >= 0 && from != to {
			s.succ[from] = append(s.succ[from], to)
			s.npred[to]++
		}
	}
	var touched []int32
	var lastStore, lastFixed int32 = -1, -1
	var loadsSince []int32 // loads after the last store or fixed instruction
	var memSince []int32   // memory accesses after the last fixed instruction
	valid := func(x int32) bool { return x >= 0 && int(x) < len(s.lastDef) }
	for i := 0; i < k; i++ {
		in := &code[start+i]
		me := int32(i)
		use := func(a int32) {
			if !valid(a) {
				return
			}
			edge(s.lastDef[a], me)
			s.lastUses[a] = append(s.lastUses[a], me)
			touched = append(touched, a)
		}
		for _, a := range in.A {
			use(a)
		}
		use(in.Guard)
		if extraUse[start+i] >= 0 {
			use(extraUse[start+i])
		}
		def := func(d int32) {
			if !valid(d) {
				return
			}
			if in.Guard >= 0 {
				use(d) // a predicated write keeps the old value
			}
			edge(s.lastDef[d], me) // write after write
			for _, u := range s.lastUses[d] {
				edge(u, me) // write after read
			}
			s.lastUses[d] = s.lastUses[d][:0]
			s.lastDef[d] = me
			touched = append(touched, d)
		}
		if s.f != nil {
			s.tdefs = s.tdefs[:0]
			if tensorRegs(s.f, in, func(d int32) { s.tdefs = append(s.tdefs, d) }, use) {
				for _, d := range s.tdefs {
					def(d)
				}
			}
		}
		for _, d := range in.D {
			def(d)
		}
		switch memKindOf(in) {
		case memLoad:
			edge(lastStore, me)
			edge(lastFixed, me)
			loadsSince = append(loadsSince, me)
			memSince = append(memSince, me)
		case memRO:
			edge(lastFixed, me)
			memSince = append(memSince, me)
		case memStore:
			edge(lastStore, me)
			edge(lastFixed, me)
			for _, l := range loadsSince {
				edge(l, me)
			}
			loadsSince = loadsSince[:0]
			lastStore = me
			memSince = append(memSince, me)
		case memFixed:
			edge(lastFixed, me)
			for _, x := range memSince {
				edge(x, me)
			}
			memSince = memSince[:0]
			loadsSince = loadsSince[:0]
			lastFixed, lastStore = me, me
		}
	}
	for _, a := range touched {
		s.lastDef[a] = -1
		s.lastUses[a] = s.lastUses[a][:0]
	}
	// Priorities: the latency-weighted longest path to the block's end.
	s.prio = append(s.prio[:0], make([]int, k)...)
	for i := k - 1; i >= 0; i-- {
		p := 0
		for _, j := range s.succ[i] {
			p = max(p, s.prio[j])
		}
		s.prio[i] = p + schedLatency(&code[start+i])
	}
	// Issue: the ready instruction of highest priority, the earliest on ties.
	s.order = s.order[:0]
	s.ready = s.ready[:0]
	for i := 0; i < k; i++ {
		if s.npred[i] == 0 {
			s.push(int32(i))
		}
	}
	for len(s.ready) > 0 {
		best := s.pop()
		s.order = append(s.order, best)
		for _, j := range s.succ[best] {
			if s.npred[j]--; s.npred[j] == 0 {
				s.push(j)
			}
		}
	}
	s.tmp = append(s.tmp[:0], code[start:last]...)
	for i, j := range s.order {
		code[start+i] = s.tmp[j]
	}
}

// before orders the ready heap: higher priority first, then program order.
func (s *blockScheduler) before(a, b int32) bool {
	if s.prio[a] != s.prio[b] {
		return s.prio[a] > s.prio[b]
	}
	return a < b
}

func (s *blockScheduler) push(x int32) {
	s.ready = append(s.ready, x)
	for i := len(s.ready) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.before(s.ready[i], s.ready[p]) {
			break
		}
		s.ready[i], s.ready[p] = s.ready[p], s.ready[i]
		i = p
	}
}

func (s *blockScheduler) pop() int32 {
	h := s.ready
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s.before(h[l], h[m]) {
			m = l
		}
		if r < n && s.before(h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	s.ready = h
	return top
}
