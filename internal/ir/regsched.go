package ir

import (
	"slices"

	"github.com/warpsim/warpsim/ptx"
)

// Before ptxas allocates registers it schedules each basic block for
// latency, and that order, not the PTX's, sets how many values are live at
// once. The register estimate (estimateRegs) therefore measures liveness
// on the order scheduleForRegs gives: ptxas's two steps as they are seen
// in its SASS (testdata/occupancy/ptxas):
//
//   - If-conversion. A conditional forward branch over a short stretch of
//     straight code (`if (i < n) b[i] = v;`) becomes predicated code, so the
//     stretch joins the blocks around it and is scheduled with them.
//   - List scheduling by critical path. Within a block an instruction is
//     issued as soon as its operands are ready, the one heading the longest
//     latency path first: loads from memory and the address arithmetic
//     they need move up, together with the loads of the other unrolled
//     iterations, and stores and the arithmetic on loaded values move
//     down. Memory order is kept: a load does not pass a store unless it
//     reads memory no store writes (ld.global.nc, constant and parameter
//     space), nor a store a load; barriers, atomics, warp-wide operations,
//     clock reads and calls stay in place relative to every memory access.
//
// The loaded values of a block and their addresses are then live at once,
// as in ptxas's SASS (occ_stream, testdata/timing/h100/sass: its four
// loads, their four 64-bit addresses and the four store addresses live
// together, 32 registers by ptxas's count where the PTX's order needs 16).

// regTarget is the registers a thread may have with every warp slot of an
// SM full (65,536 registers over 2,048 threads on sm_70 to sm_90): ptxas's
// scheduler reorders for latency only as far as this, trading latency
// hiding for occupancy. matmulCoarse's seven variants need 22 to 30
// registers in the PTX's order and up to 255 with every shared load
// hoisted; ptxas gives each 30 or 32.
const regTarget = 32

// RegTarget is regTarget, for the timing model's hoisting bound.
const RegTarget = regTarget

// LaunchBoundsRegs is the registers a thread ptxas lets itself use for
// latency when the kernel's launch bounds name both its largest block
// and the blocks an SM must hold (.maxntid and .minnctapersm:
// __launch_bounds__(threads, blocks)): the SM's 65,536 registers over
// those blocks' threads, in ptxas's steps of eight, at most 255 (and
// .maxnreg). ptxas then hoists a loop's loads as far as that allows:
// testdata/timing/hoist's (256, 1) kernels hold every load of their
// unrolled bodies ahead (48 to 94 registers), their (1024, 2) twins keep
// regTarget's 32 and hoist 1 to 16 loads of 16 to 48. 0 without both
// bounds (regTarget: ptxas keeps every warp slot).
func LaunchBoundsRegs(f *Func) int {
	threads := max(f.MaxNTID[0], 1) * max(f.MaxNTID[1], 1) * max(f.MaxNTID[2], 1)
	if f.MinBlocks <= 0 || f.MaxNTID[0] <= 0 {
		return 0
	}
	regs := min(65536/(threads*f.MinBlocks)/8*8, 255)
	if f.MaxNReg > 0 {
		regs = min(regs, f.MaxNReg)
	}
	return regs
}

// regSqueezeMax is the most registers the PTX's order may need for ptxas
// to still bring the kernel down to regTarget — rematerializing values,
// scheduling for pressure rather than latency, moving warp-uniform values
// to uniform registers — rather than give up occupancy. Every kernel of the
// tuned half whose PTX order needs 33 to 44 registers (matmulCoarse's
// widest variants, btx_mb's k_tx, cluster_sregs, Triton's f16 layer norm)
// has 25 to 32 on the H100, and every one needing 58 or more keeps more
// than 32; 48 is between, fitted, no more.
const regSqueezeMax = 48

// regEstimate is the register estimate of f: the most 32-bit values live
// at once (plus the two registers ptxas counts beyond them, estimateRegs),
// with the address arithmetic ptxas folds into memory instructions taken
// out (foldAddresses), in the PTX's order, or in ptxas's scheduled order
// (scheduleForRegs) as far as regTarget allows: reordering for latency
// only ever raises the count, and not past regTarget; a kernel whose PTX
// order needs a little more than regTarget (up to regSqueezeMax) is
// brought down to it, unless its wgmma accumulators hold it (hasWgmma).
// Liveness sees every register of a wgmma.mma_async (tensorRegs).
//
// scratch, when not nil, holds the scheduled copy of the code between
// calls (lowering a module reuses one for all its functions:
// TestModuleMemoryBound).
//
// live is the liveness the count starts from, per pc (Func.LiveWords),
// liveConst the same without constant-bank values (Func.LiveWordsConst);
// hoisted the count of the scheduled order, every load hoisted
// (Func.HoistRegs).
func regEstimate(f *Func, width []uint8, scratch *[]Inst) (est int, live, liveConst []uint16, hoisted int) {
	orig := f
	width = immediateWidths(f, width)
	f = foldAddresses(f)
	live = make([]uint16, len(f.Code))
	plain := estimateRegsLive(f, width, live)
	if gw := constantBankWidths(f, width); gw != nil {
		// The same liveness with the values ptxas reads from the constant
		// bank where it uses them left out (Func.LiveWordsConst).
		liveConst = make([]uint16, len(f.Code))
		estimateRegsLive(f, gw, liveConst)
	}
	if plain > regSqueezeMax {
		// Short of registers, ptxas schedules for pressure: addresses
		// are computed where they are used (sinkAddresses).
		plain = estimateRegs(sinkAddresses(f), width)
	}
	sched := estimateRegs(scheduleForRegsInto(f, scratch), width)
	hoisted = max(sched, plain)
	if plain > regTarget && plain <= regSqueezeMax && !hasWgmma(f) {
		return regTarget, live, liveConst, hoisted
	}
	est = max(plain, min(sched, regTarget), wgmmaFloor(f))
	if est == regTarget && sched >= regTarget {
		// The loads fill the target; guards beyond the predicate
		// registers take general ones on top.
		est += spilledPredicates(orig)
	}
	return est, live, liveConst, hoisted
}

// constantBankWidths is width with the kernel's constant-bank values
// taken out (width 0), for a liveness that bounds the loads the timing
// model hoists (Func.LiveWordsConst, Params.ConstBankLive): a value written once, by an unguarded
// ld.param or ld.const at a fixed address (rematerializable), or by a
// cvta.to.global or mov of such a value. ptxas does not hold them in
// registers across a loop that does not read them: it reads the constant
// bank again where they are used (LDC, or a c[0x0][…] operand). In the
// SASS of testdata/programs9/mm3 (nvcc 13), the pointers to A, B and E are
// read again after the k loop (LDC.64 R6, c[0x0][0x220], …, 0x230) and
// the loop keeps seven of its 64-bit loads in flight within 32 registers,
// where the PTX's order, the six parameters live through the loop, leaves
// room for one pair. nil when f has none.
func constantBankWidths(f *Func, width []uint8) []uint8 {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return nil
	}
	_, defs := slotCounts(f)
	remat := rematerializable(f, defs)
	for _, c := range f.Consts {
		// Immediates are immediateWidths' to judge.
		delete(remat, c.Slot)
	}
	for pc := range f.Code {
		in := &f.Code[pc]
		d, a := in.D[0], in.A[0]
		if (in.Op == OpCvta && in.Mode == 1 && in.Space == ptx.SpaceGlobal || in.Op == OpMov) &&
			in.Guard < 0 && d >= 0 && in.D[1] < 0 && defs[d] == 1 && a >= 0 && remat[a] {
			remat[d] = true
		}
	}
	var out []uint8
	for s := range remat {
		if s < 0 || int(s) >= n || int(s) >= len(width) || width[s] == 0 {
			continue
		}
		if out == nil {
			out = append([]uint8(nil), width...)
		}
		out[s] = 0
	}
	return out
}

// predicateRegs is the predicate registers a thread has (P0 to P6; PT is
// the constant true).
const predicateRegs = 7

// unrollFactor and unrollMaxInsts: ptxas unrolls an innermost loop again,
// unrollFactor times, when its body is one block once its guards are
// if-converted, holds a global load, is at most unrollMaxInsts
// instructions long and carries no nounroll pragma. In the SASS of
// testdata/timing/mlp (h100/ldg.txt) and testdata/timing/shortocc: every
// such loop of nvcc's (its body four iterations long, 20 to 43
// instructions: guarded and plain sums of floats, ints and doubles, a
// guarded max, plain copies) has 16 loads where the PTX has 4, every one
// of 51 instructions or more (guarded copies, a dot product, a restrict
// copy, a sum with more arithmetic) and every loop with the pragma keeps
// nvcc's 4; the bound lies between 43 and 51.
//
// A loop whose trip count is a compile-time constant (constTrip) has its
// own bounds, from the SASS of testdata/programs9's nvcc builds (issue 19,
// fourteenth round): every such body of at most 16 global loads and at
// most unrollMaxConstInsts instructions is unrolled again (15 loops, 11 to
// 53 instructions: corr's and covar's mean_kernel, 53 instructions and 16
// loads, ×4 and ×3; gemver, mm2, syrk, atax2, std, gramschmidt ×4 to ×6;
// layer3 ×27, layer4 whole), every one with 24 loads or more is not (10
// loops of 53 to 93 instructions: bicg_kernel2, 53 instructions and 32
// loads, keeps its 32 LDG). ptxas unrolls those loops by 3 to 27; the
// model takes unrollFactor for every one.
const (
	unrollFactor        = 4
	unrollMaxInsts      = 48
	unrollMaxConstInsts = 53
	unrollMaxConstLoads = 16
)

// spilledPredicates is the general registers ptxas takes for predicates
// in f's unrolled loops: an unrolled loop's guarded loads are hoisted
// above the arithmetic they feed, each guard live from its load to its
// use, so unrollFactor times the body's guards are live at once; those
// beyond predicateRegs are saved into general registers (P2R), up to
// predicateRegs a register. The guarded sums and max of testdata/timing/
// mlp (and shortocc's g_sum), 16 guards live in ptxas's unrolled loop,
// have P2R in their SASS and 34 registers by ptxas's count, the unguarded
// sum and every loop not unrolled none and at most 32.
func spilledPredicates(f *Func) int {
	extra := 0
	for pc := range f.Code {
		guards, ok := unrolledLoop(f, pc)
		if !ok {
			continue
		}
		if live := unrollFactor * guards; live > predicateRegs {
			extra = max(extra, (live-predicateRegs+predicateRegs-1)/predicateRegs)
		}
	}
	return extra
}

// unrolledLoop says whether the instruction at pc is the back edge of an
// innermost loop that ptxas unrolls again (unrollFactor), and how many of
// its body's global loads are guarded by a branch ptxas if-converts.
func unrolledLoop(f *Func, pc int) (guards int, ok bool) {
	in := &f.Code[pc]
	if in.Op != OpBra || !in.Backward || in.Target < 0 || int(in.Target) > pc {
		return 0, false
	}
	h := int(in.Target)
	maxInsts, maxLoads := unrollMaxInsts, pc-h+1
	if constTrip(f, pc) {
		maxInsts, maxLoads = unrollMaxConstInsts, unrollMaxConstLoads
	}
	if pc-h+1 > maxInsts || slices.ContainsFunc(f.noUnroll, func(p int32) bool { return int(p) >= h && int(p) <= pc }) {
		return 0, false
	}
	loads := 0
	for q := h; q < pc; q++ {
		r := &f.Code[q]
		switch {
		case r.Op == OpBra && r.Mode == BraPredicated:
			for x := q + 1; x < int(r.Target); x++ {
				if globalLoad(&f.Code[x]) {
					guards++
					break
				}
			}
		case r.Class == ClassBranch || r.Class == ClassBarrier || slowPath(r):
			return 0, false // not one block: ptxas leaves it
		case globalLoad(r):
			loads++
		}
	}
	return guards, loads > 0 && loads <= maxLoads
}

// slowPath says whether ptxas compiles in into a fast path and a call to
// a subroutine for the operands it does not handle (FCHK or a range test,
// then CALL.REL.NOINC): IEEE-rounded division, reciprocal and square root
// of floats. Such a body is not one block: programs9's adi_kernel3 and
// adi_kernel6 (a counted loop of 22 instructions, 7 loads and two
// div.rn.f32) keep their 7 LDG a body in the H100's SASS.
func slowPath(in *Inst) bool {
	switch in.Op {
	case OpDiv, OpRcp, OpSqrt:
		return IsFloat(in.Type) && in.Rnd != RndNone && in.Flags&FlagApprox == 0
	}
	return false
}

// constTrip says whether the loop whose back edge is at pc runs a number
// of times known when it is compiled: it is counted (countedLoop) with an
// immediate bound, and its induction variable is set before the loop only
// by moves of immediates (polybench's `for (j = 0; j < 1024; j++)`,
// unrolled by nvcc to `add 8; setp.ne 1024`), not by a computed count
// (nvcc's down-counter for a loop it unrolled, `setp.ne %r, 0` from n & ~3).
func constTrip(f *Func, pc int) bool {
	iv, bound, ok := loopCounter(f, pc)
	if !ok || !f.isConstSlot(bound) {
		return false
	}
	h := int(f.Code[pc].Target)
	inits := 0
	for q := range f.Code {
		if q >= h && q <= pc || !slices.Contains(f.Code[q].D[:], iv) {
			continue
		}
		in := &f.Code[q]
		if in.Op != OpMov || in.Guard >= 0 || !f.isConstSlot(in.A[0]) {
			return false
		}
		inits++
	}
	return inits > 0
}

// isConstSlot says whether slot s holds an immediate.
func (f *Func) isConstSlot(s int32) bool {
	return s >= 0 && slices.ContainsFunc(f.Consts, func(c Const) bool { return c.Slot == s })
}

// globalLoad says whether in reads global memory (a load that is not of
// the constant or parameter space).
func globalLoad(in *Inst) bool {
	return in.Op == OpLd && in.Class == ClassLdGlobal
}

// wgmmaAccBase is the register at which ptxas starts a wgmma's accumulator
// block: R24 in every sm_90a SASS of the repository's PTX that issues
// wgmma (testdata/occupancy/ptxas/h100/sass.tar.xz: Triton's sm_90
// matmuls, attention and grouped GEMM, the tensor probes, wgmma.ptx), the
// registers below it holding everything else.
const wgmmaAccBase = 24

// wgmmaFloor is the fewest registers ptxas gives a kernel issuing wgmma:
// its widest accumulator block from wgmmaAccBase, plus the two registers
// ptxas counts beyond the highest (estimateRegs) — Triton's tma_matmul,
// 32 accumulators, 58 by ptxas's count; wgmma.ptx's m64n8 to m64n256
// kernels, 4 to 128 accumulators, 30 to 154. 0 for other kernels.
func wgmmaFloor(f *Func) int {
	acc := 0
	for pc := range f.Code {
		in := &f.Code[pc]
		if in.Op == OpTensor && in.Mode == TensorWgmma && in.Imm >= 0 && int(in.Imm) < len(f.TensorOps) {
			acc = max(acc, len(f.TensorOps[in.Imm].D))
		}
	}
	if acc == 0 {
		return 0
	}
	return wgmmaAccBase + acc + 2
}

// hasWgmma reports whether f issues wgmma.mma_async: its accumulators stay
// in registers while the tensor cores work on them, so ptxas cannot bring
// the kernel down to regTarget by recomputing values (wgmma.ptx's m64n64
// kernels: 32 accumulators a thread, 58 registers by ptxas's count, where
// the PTX's order needs 41).
func hasWgmma(f *Func) bool {
	for pc := range f.Code {
		if in := &f.Code[pc]; in.Op == OpTensor && in.Mode == TensorWgmma {
			return true
		}
	}
	return false
}

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

// UnrollFactor is unrollFactor, for the timing model (Params.LoopUnroll).
const UnrollFactor = unrollFactor

// markPredicatedBranches sets Mode BraPredicated on f's branches that
// ptxas if-converts, and BraUnrolled on the back edges of the loops it
// unrolls again.
func markPredicatedBranches(f *Func) {
	if len(f.Code) == 0 {
		return
	}
	forEachIfConversion(f, branchTargets(f), func(pc int) { f.Code[pc].Mode = BraPredicated })
	for pc := range f.Code {
		if _, ok := unrolledLoop(f, pc); ok && countedLoop(f, pc) {
			f.Code[pc].Mode = BraUnrolled
		}
	}
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

// foldAddresses is f with the address arithmetic ptxas folds into memory
// instructions taken out, for the register estimate only: a value written
// once as another value written once plus a constant (add.s64 %rd2, %rd1,
// 256), or as a copy of one (mov, cvta), and read only as the address of
// loads, stores, atomics, cp.async copies and ldmatrix/stmatrix/wmma
// accesses, needs no register of its own — SASS addresses are a register
// plus a 24-bit immediate ([R2.64+0x100], [R9+0x4120]), so ptxas reads
// the base and the offset where the access is. The uses read the base
// instead, and the instruction writing the folded value does nothing.
// 64-bit (global and generic) and 32-bit (shared window) addresses fold
// alike, and a constant is an immediate, a register written once by a mov
// of one, a shared variable's address (its offset in the block's window:
// SASS adds it as an immediate) or the sum of two constants: nvcc hoists
// cp.async's addresses out of the loop as base-plus-offset registers
// (ldgsts_mb's k_tri: `add.s32 %r3, %r42, %r49` with %r49 the buffer's
// address plus 16672, `add.s64 %rd2, %rd1, 8`), and ptxas's SASS reads
// them as [R9+0x4120] and [R2.64+0x8].
func foldAddresses(f *Func) *Func {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return f
	}
	defs := make([]int32, n) // how many instructions write each slot
	defAt := make([]int32, n)
	addrOnly := make([]bool, n)
	for i := range addrOnly {
		addrOnly[i] = true
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n }
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
				defAt[d] = int32(pc)
			}
		}
		for i, a := range in.A {
			if !valid(a) || addressOperand(in, i) {
				continue
			}
			addrOnly[a] = false
		}
		if valid(in.Guard) {
			addrOnly[in.Guard] = false
		}
		tensorRegs(f, in, func(d int32) {
			if valid(d) {
				defs[d]++
			}
		}, func(a int32) {
			if valid(a) {
				addrOnly[a] = false
			}
		})
	}
	// konst[s]: s holds a constant (value v[s]; a shared variable's
	// address counts as 0, SASS adds it as an immediate).
	konst := make([]bool, n)
	kval := make([]int64, n)
	for _, c := range f.Consts {
		if valid(c.Slot) {
			konst[c.Slot], kval[c.Slot] = true, int64(c.Value)
		}
	}
	for pc := range f.Code {
		in := &f.Code[pc]
		d := in.D[0]
		if !valid(d) || in.Guard >= 0 || defs[d] != 1 || in.D[1] >= 0 || IsFloat(in.Type) {
			continue
		}
		switch {
		case in.Op == OpMovAddr && in.SymKind == SymShared:
			konst[d], kval[d] = true, 0
		case in.Op == OpMov && valid(in.A[0]) && konst[in.A[0]] && in.A[0] != d:
			konst[d], kval[d] = true, kval[in.A[0]]
		case (in.Op == OpAdd || in.Op == OpSub) && valid(in.A[0]) && valid(in.A[1]) && konst[in.A[0]] && konst[in.A[1]] && in.A[0] != d && in.A[1] != d:
			v := kval[in.A[1]]
			if in.Op == OpSub {
				v = -v
			}
			konst[d], kval[d] = true, kval[in.A[0]]+v
		}
	}
	// base[s], off[s]: a folded slot's base and offset.
	base := make([]int32, n)
	off := make([]int64, n)
	for i := range base {
		base[i] = -1
	}
	var resolve func(s int32) (int32, int64)
	resolve = func(s int32) (int32, int64) {
		if base[s] < 0 {
			return s, 0
		}
		b, o := resolve(base[s])
		return b, o + off[s]
	}
	const maxOff = 1 << 23
	folded := false
	for pc := range f.Code {
		in := &f.Code[pc]
		d := in.D[0]
		if !valid(d) || in.Guard >= 0 || defs[d] != 1 || !addrOnly[d] || in.D[1] >= 0 {
			continue
		}
		var src int32 = -1
		var c int64
		switch in.Op {
		case OpAdd, OpSub:
			if sz := TypeSize(in.Type); sz != 8 && sz != 4 || IsFloat(in.Type) || !valid(in.A[0]) || !valid(in.A[1]) {
				continue
			}
			a, b := in.A[0], in.A[1]
			switch {
			case konst[b] && !konst[a]:
				src, c = a, kval[b]
				if in.Op == OpSub {
					c = -c
				}
			case konst[a] && !konst[b] && in.Op == OpAdd:
				src, c = b, kval[a]
			default:
				continue
			}
		case OpMov, OpCvta:
			if !valid(in.A[0]) || TypeSize(in.Type) != 8 {
				continue
			}
			if konst[in.A[0]] {
				continue
			}
			src = in.A[0]
		default:
			continue
		}
		if defs[src] != 1 || int(defAt[src]) > pc {
			continue
		}
		b, o := resolve(src)
		if o+c <= -maxOff || o+c >= maxOff {
			continue
		}
		base[d], off[d] = b, o+c
		folded = true
	}
	if !folded {
		return f
	}
	out := &Func{}
	*out = *f
	out.Code = append([]Inst(nil), f.Code...)
	for pc := range out.Code {
		in := &out.Code[pc]
		if d := in.D[0]; valid(d) && base[d] >= 0 {
			*in = Inst{Op: OpNop, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Target: -1}
			continue
		}
		for i, a := range in.A {
			if valid(a) && base[a] >= 0 && addressOperand(in, i) {
				in.A[i], _ = resolve(a)
			}
		}
	}
	return out
}

// addressOperand reports whether in's source A[i] is an address only (SASS
// takes a register plus an immediate there): the address of a load, store
// or atomic, of a cp.async copy's destination and source, of an ldmatrix,
// stmatrix or wmma load or store.
func addressOperand(in *Inst, i int) bool {
	switch in.Op {
	case OpLd, OpSt, OpAtom, OpRed:
		return i == 0
	case OpAsync:
		return in.Mode == AsyncCopy && i <= 1
	case OpTensor:
		switch in.Mode {
		case TensorLdmatrix, TensorStmatrix, TensorWmmaLoad, TensorWmmaStore:
			return i == 0
		}
	}
	return false
}

// sinkAddresses is f with the 64-bit address sums that ptxas computes next
// to their accesses taken out, for the register estimate of a kernel short
// of registers only: a value written once as the sum of two registers that
// stay live past the sum anyway (read again later, or defined before a
// loop around it), and read only as the address of loads, stores and
// atomics. Where the PTX computes many such addresses ahead of their
// accesses (Triton's masked matmul: 32 pointer sums, then the 32 masked
// loads), ptxas computes each into a scratch register just before its
// access (its SASS reuses three address registers for the 32 loads) rather
// than keep them all live. The accesses read the sum's first operand
// instead; the scratch register is among the two estimateRegs adds.
func sinkAddresses(f *Func) *Func {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return f
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n }
	defs := make([]int32, n)
	maxDef := make([]int32, n)   // the highest pc writing each slot
	lastRead := make([]int32, n) // the highest pc reading it
	addrOnly := make([]bool, n)
	for i := range addrOnly {
		addrOnly[i] = true
		maxDef[i], lastRead[i] = -1, -1
	}
	type loop struct{ head, tail int32 }
	var loops []loop
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
				maxDef[d] = int32(pc)
			}
		}
		for i, a := range in.A {
			if !valid(a) {
				continue
			}
			lastRead[a] = int32(pc)
			if i != 0 || in.Op != OpLd && in.Op != OpSt && in.Op != OpAtom && in.Op != OpRed {
				addrOnly[a] = false
			}
		}
		if valid(in.Guard) {
			addrOnly[in.Guard] = false
			lastRead[in.Guard] = int32(pc)
		}
		if in.Op == OpBra && int(in.Target) <= pc {
			loops = append(loops, loop{in.Target, int32(pc)})
		}
	}
	konst := map[int32]bool{}
	for _, c := range f.Consts {
		konst[c.Slot] = true
	}
	liveAfter := func(x int32, pc int32) bool {
		if lastRead[x] > pc {
			return true
		}
		for _, l := range loops {
			if l.head <= pc && pc <= l.tail && maxDef[x] < l.head {
				return true
			}
		}
		return false
	}
	sunk := make([]int32, n) // the operand an access reads instead, +1
	any := false
	for pc := range f.Code {
		in := &f.Code[pc]
		d, a, b := in.D[0], in.A[0], in.A[1]
		if in.Op != OpAdd || TypeSize(in.Type) != 8 || IsFloat(in.Type) || in.Guard >= 0 || in.D[1] >= 0 ||
			!valid(d) || !valid(a) || !valid(b) || defs[d] != 1 || !addrOnly[d] || konst[a] || konst[b] {
			continue
		}
		if !liveAfter(a, int32(pc)) || !liveAfter(b, int32(pc)) {
			continue
		}
		sunk[d] = a + 1
		any = true
	}
	if !any {
		return f
	}
	out := &Func{}
	*out = *f
	out.Code = append([]Inst(nil), f.Code...)
	for pc := range out.Code {
		in := &out.Code[pc]
		if d := in.D[0]; valid(d) && sunk[d] > 0 && in.Op == OpAdd {
			*in = Inst{Op: OpNop, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Target: -1}
			continue
		}
		if a := in.A[0]; valid(a) && sunk[a] > 0 {
			in.A[0] = sunk[a] - 1
		}
	}
	return out
}

// immediateWidths is width with the registers ptxas turns into immediate
// operands taken out (width 0), for the register estimate only: a 32-bit
// register written once, by a mov of a constant (mov.b32 %r9, 0f3DC6B27F,
// as Triton's PTX writes a polynomial's coefficients), and read only by
// arithmetic that takes an immediate operand and reads no other constant.
// ptxas folds the constant into each reader (Triton's math_f32 SASS:
// FFMA.FTZ R0, R7, R0, 0.1398...), so it needs no register.
func immediateWidths(f *Func, width []uint8) []uint8 {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return width
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n && int(s) < len(width) }
	isConst := make([]bool, n)
	for _, c := range f.Consts {
		if valid(c.Slot) {
			isConst[c.Slot] = true
		}
	}
	// cand: written once, by an unguarded mov of a constant, 32 bits wide.
	defs := make([]int32, n)
	cand := make([]bool, n)
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
			}
		}
		if d := in.D[0]; in.Op == OpMov && valid(d) && in.Guard < 0 && in.D[1] < 0 && valid(in.A[0]) && isConst[in.A[0]] && width[d] == 1 {
			cand[d] = true
		}
	}
	for s := range cand {
		if cand[s] && defs[s] != 1 {
			cand[s] = false
		}
	}
	// A reader keeps its operands registers unless it takes an immediate
	// and reads only this one constant.
	for pc := range f.Code {
		in := &f.Code[pc]
		consts := 0
		for _, a := range in.A {
			if valid(a) && (isConst[a] || cand[a]) {
				consts++
			}
		}
		ok := consts <= 1 && immediateReader(in.Op)
		for _, a := range in.A {
			if !ok && valid(a) && cand[a] {
				cand[a] = false
			}
		}
		// A tensor instruction's fragments and accumulators are registers.
		tensorRegs(f, in, func(d int32) {}, func(a int32) {
			if valid(a) {
				cand[a] = false
			}
		})
		if valid(in.Guard) {
			cand[in.Guard] = false
		}
	}
	var out []uint8
	for s, c := range cand {
		if !c {
			continue
		}
		if out == nil {
			out = append([]uint8(nil), width...)
		}
		out[s] = 0
	}
	if out == nil {
		return width
	}
	return out
}

// immediateReader reports whether ptxas gives op's SASS an immediate
// source operand.
func immediateReader(op Op) bool {
	switch op {
	case OpAdd, OpSub, OpMul, OpMad, OpFma, OpMin, OpMax, OpAnd, OpOr, OpXor, OpShl, OpShr,
		OpSelp, OpSetp, OpSet, OpSlct, OpLop3, OpPrmt, OpShf, OpBfe, OpBfi:
		return true
	}
	return false
}

// tensorRegs calls def for every register an OpTensor or OpAsync
// instruction writes and use for every one it reads, from its full operand
// lists (Func.TensorOps): Inst.D and Inst.A hold only the first four
// destinations and five sources, and an MMA's fragments are more — an
// m16n8k16 mma.sync reads ten registers and its accumulator, a
// wgmma.mma_async m64n256 writes and reads 128 accumulators. The
// accumulators of a wgmma that accumulates (scale-d not the immediate 0)
// are read as well as written: they are live from the instruction that
// set them up to the wgmma, and from it to the reads after its
// wgmma.wait_group, as ptxas must keep them (wgmma.ptx's m64n256 kernels:
// 154 registers by ptxas's count). It covers the modes wholeFragments
// names and reports false for other instructions.
func tensorRegs(f *Func, in *Inst, def, use func(int32)) bool {
	if in.Op != OpTensor || !wholeFragments(in.Mode) || in.Imm < 0 || int(in.Imm) >= len(f.TensorOps) {
		return false
	}
	to := &f.TensorOps[in.Imm]
	for _, d := range to.D {
		def(d)
	}
	for _, l := range [][]int32{to.A, to.B, to.C} {
		for _, a := range l {
			use(a)
		}
	}
	if in.Op == OpTensor && in.Mode == TensorWgmma && (to.ScaleD >= 0 || to.Num != 0) {
		for _, d := range to.D {
			use(d)
		}
	}
	if in.Op == OpTensor && to.MMA != nil && to.MMA.Sparse {
		use(to.Meta)
	}
	return true
}

// wholeFragments says whether tensorRegs gives the full operand lists of
// an OpTensor instruction of mode m: wgmma.mma_async's, and the wmma
// forms' (a fragment of wmma.load, wmma.store and wmma.mma is up to
// eight registers, of which Inst.D and Inst.A hold four and the
// scoreboard's few). mma.sync's and ldmatrix's stay as Inst.D and Inst.A
// have them: the estimate of Triton's mma.sync kernels was chosen so
// (their full fragments make sm_80 matmuls 107 → 147 registers where
// ptxas has 90).
func wholeFragments(m uint8) bool {
	switch m {
	case TensorWgmma, TensorWmmaLoad, TensorWmmaStore, TensorWmmaMMA:
		return true
	}
	return false
}

// liveStepIn is liveStep with an OpTensor or OpAsync instruction's full
// operand lists (tensorRegs): its destinations die (when unguarded), then
// its sources, guard and accumulators come alive.
func liveStepIn(f *Func, in *Inst, live []uint64, sum *int, w func(int32) int) {
	if in.Op != OpTensor && in.Op != OpAsync {
		liveStep(in, live, sum, w)
		return
	}
	nslots := int32(len(live) * 64)
	kill := func(d int32) {
		if in.Guard < 0 && d >= 0 && d < nslots && live[d/64]&(1<<(d%64)) != 0 {
			live[d/64] &^= 1 << (d % 64)
			if sum != nil {
				*sum -= w(d)
			}
		}
	}
	gen := func(a int32) {
		if a >= 0 && a < nslots && live[a/64]&(1<<(a%64)) == 0 {
			live[a/64] |= 1 << (a % 64)
			if sum != nil {
				*sum += w(a)
			}
		}
	}
	for _, d := range in.D {
		kill(d)
	}
	var uses []int32
	if !tensorRegs(f, in, kill, func(a int32) { uses = append(uses, a) }) {
		liveStep(in, live, sum, w)
		return
	}
	for _, a := range in.A {
		gen(a)
	}
	for _, a := range uses {
		gen(a)
	}
	gen(in.Guard)
}
