// The register estimate ptxas's allocation reaches: its targets, the estimate over the scheduled order, its floors.

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

// unrollMaxFreeInsts: ptxas unrolls an innermost counted loop with no
// global load again, unrollFactor times, when its body is one block of
// register arithmetic (shared-memory loads allowed), carries no nounroll
// pragma and is at most unrollMaxFreeInsts instructions long. In the SASS
// of testdata/timing/fp64pipe and rowwalk (nvcc's bodies of 1 to 8 DFMA,
// FFMA or IMAD chains, four steps each): every body of 7 to 21
// instructions is four times the PTX's (dfma1 19 SASS instructions for 16
// steps, mix_f 67, dfmi4 and rowwalk's dchain4 69), every one of 35 or
// more keeps nvcc's four steps (dfma8, dadd8, mix_df, mix_di 35, dfmi8 37,
// mix_dfi 51). Left out: loops with atomics (rowwalk's sm_atom, 23
// instructions, 19 in the SASS: not unrolled) and with stores —
// testdata/programs8's lud loops, which load and store shared memory (26
// to 35 instructions), are unrolled in the H100's SASS (71 instructions
// against the remainder loop's 23), but no recording here times such a
// loop.
const unrollMaxFreeInsts = 32

// unrolledFreeLoop says whether the instruction at pc is the back edge
// of an innermost loop with no global load that ptxas unrolls again
// (unrollMaxFreeInsts; the caller checks that it is counted).
func unrolledFreeLoop(f *Func, pc int) bool {
	in := &f.Code[pc]
	if in.Op != OpBra || !in.Backward || in.Target < 0 || int(in.Target) > pc {
		return false
	}
	h := int(in.Target)
	if pc-h+1 > unrollMaxFreeInsts || slices.ContainsFunc(f.noUnroll, func(p int32) bool { return int(p) >= h && int(p) <= pc }) {
		return false
	}
	for q := h; q < pc; q++ {
		r := &f.Code[q]
		switch {
		case r.Op == OpBra && r.Mode == BraPredicated:
		case slowPath(r) || r.Op == OpMovSreg:
			return false
		case r.Op == OpLd && r.Class == ClassShared:
		case r.Class == ClassALU, r.Class == ClassFMA, r.Class == ClassFP64, r.Class == ClassSFU, r.Class == ClassConv, r.Class == ClassIMul:
			if r.Op == OpLd || r.Op == OpSt || r.Op == OpAtom || r.Op == OpRed {
				return false
			}
		default:
			return false
		}
	}
	return true
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
	_, ok := f.constValue(s)
	return s >= 0 && ok
}

// constValue is the immediate a constant slot holds.
func (f *Func) constValue(s int32) (uint64, bool) {
	for _, c := range f.Consts {
		if c.Slot == s {
			return c.Value, true
		}
	}
	return 0, false
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
