// ptxas's scheduling the model follows: branches it if-converts or unrolls, arithmetic hoisted above the loads it consumes, and the registers that bound the hoisting.

package timing

import (
	"math"
	"slices"

	"github.com/warpsim/warpsim/internal/ir"
)

// predicatedBranch says whether in is a branch ptxas if-converts
// (ir.BraPredicated), when the model has its scheduling (HoistLoads).
func predicatedBranch(p *Params, in *ir.Inst) bool {
	return p != nil && p.HoistLoads && in.Op == ir.OpBra && in.Mode == ir.BraPredicated
}

// unrolledBackEdge says whether in, warp w's next instruction, is the back
// edge of a loop ptxas unrolls again (ir.BraUnrolled) that is not the end
// of ptxas's unrolled body this time (Params.LoopUnroll): the warp's
// LoopUnroll-th arrival in a row ends it.
func unrolledBackEdge(p *Params, w *warpT, in *ir.Inst) bool {
	if p == nil || !p.HoistLoads || p.LoopUnroll <= 1 || !ir.UnrolledBra(in, p.UnrollFree) {
		return false
	}
	n := 0
	if w.unrollAt == in {
		n = w.unrollN
	}
	return (n+1)%p.LoopUnroll != 0
}

// hoistable says whether instruction in may issue before the global or
// local loads it consumes have returned, as ptxas's list scheduling has
// it (Params.HoistLoads): the arithmetic pipes, whose results only
// registers see, and wmma.mma where the kernel's liveness is known
// (hoistMMA), so that the loads hoisted above it are bounded by its
// registers (registerGate) as the register estimate's schedule moves them
// (ir.memKindOf; not mma.sync, which that schedule keeps in place).
// Memory accesses, branches, barriers and warp-wide operations wait for
// their operands in the warp.
func (s *gridState) hoistable(in *ir.Inst) bool {
	switch in.Class {
	case ir.ClassALU, ir.ClassFMA, ir.ClassFP64, ir.ClassSFU, ir.ClassConv, ir.ClassIMul:
		return true
	case ir.ClassTensor:
		return s.hoistMMA && in.Mode == ir.TensorWmmaMMA
	case ir.ClassWarp:
		return in.Op == ir.OpShfl && s.p.HoistShfl
	}
	return false
}

// maxHeld bounds the entries of a warp's held registers (holdLoads).
const maxHeld = 16

// heldLoad says whether in is a load whose registers ptxas counts when it
// hoists it above the consumers of earlier loads (registerGate): a global
// or local ld, a wmma.load.
func heldLoad(in *ir.Inst) bool {
	return in.Op == ir.OpLd && (in.Class == ir.ClassLdGlobal || in.Class == ir.ClassLocal) ||
		in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaLoad
}

// heldShfl says whether in is a shuffle that the hoisting bound
// (registerGate) counts as it counts a load (Params.HoistShfl): ptxas
// interleaves the shuffles of independent chains only as far as its
// registers allow. testdata/triton3/study/sched's SASS (30 registers)
// has the eight argmin chains' shuffles three chains at a time, whatever
// the PTX's order.
func heldShfl(p *Params, in *ir.Inst) bool {
	return p.HoistShfl && in.Op == ir.OpShfl
}

// holdLoads notes that warp w issued in, of function f, ahead of the
// loads (or shuffles: heldShfl) it consumes, which return at until:
// ptxas's code has the loads and shuffles the warp issues from now on
// above in, and the values in reads stay in their registers until then
// (registerGate). The registers are those of its sources still waiting
// for a load or a shuffle (a fragment's whole width for an MMA, its
// accumulator's too where a wmma.load.c fills it: programs3's
// wmma_bf16, whose C fragment's four LDG.E.64 go out with step 0's
// loads and hold 8 of ptxas's 28 registers until the first HMMA reads
// them, testdata/timing/wmma20), not those of arithmetic issued ahead.
func holdLoads(sm *smT, w *warpT, in *ir.Inst, f *ir.Func, until uint64) {
	pending := func(r int32) bool {
		return r >= 0 && int(r) < len(w.regReady) && (w.regKind[r] == prodLong || w.regKind[r] == prodShfl) && w.regReady[r] > sm.now
	}
	words := 0
	if in.Op == ir.OpTensor && int(in.Imm) < len(f.TensorOps) {
		to := &f.TensorOps[in.Imm]
		for _, frag := range [3][]int32{to.A, to.B, to.C} {
			if len(frag) > 0 && (pending(frag[0]) || pending(frag[len(frag)-1])) {
				for _, r := range frag {
					words += f.SlotWords(r)
				}
			}
		}
	} else {
		for i, r := range in.A {
			if pending(r) && !slices.Contains(in.A[:i], r) {
				words += f.SlotWords(r)
			}
		}
	}
	if words == 0 {
		return
	}
	// A free entry (its loads returned), or else the one held longest,
	// which takes these too.
	k := -1
	for i := 0; i < maxHeld; i++ {
		if i >= w.heldN || !isFut(w.heldUntil[i]) && w.heldUntil[i] <= sm.now {
			k = i
			break
		}
	}
	if k < 0 {
		k = 0
		for i := 1; i < maxHeld; i++ {
			if isFut(w.heldUntil[i]) || !isFut(w.heldUntil[k]) && w.heldUntil[i] > w.heldUntil[k] {
				k = i
			}
		}
		until = sm.fmax(until, w.heldUntil[k])
		words += int(w.heldWords[k])
	}
	if k >= w.heldN {
		w.heldN = k + 1
	}
	w.heldUntil[k], w.heldWords[k] = until, uint16(min(words, math.MaxUint16))
	sm.keep(&w.heldUntil[k])
}

// registerGate is when warp w's next instruction, a load (heldLoad) or a
// shuffle (heldShfl), may issue: when the registers live at it in the
// PTX's order (ir.Func.LiveWords), with those of the loads and shuffles
// the warp's arithmetic issued ahead still holds (holdLoads), fit the
// kernel's (hoistWords) —
// the earliest held entries released first. ptxas hoists loads above the
// arithmetic that consumes earlier ones as far as the registers allow:
// wmma_f64's SASS (testdata/programs3/nvcc) has ten of its sixteen
// fragment loads above the first DMMA, the other six each after a DMMA
// has freed its two; a future when that waits for the L2 side's answer.
func (s *gridState) registerGate(w *warpT) uint64 {
	f, pc := w.blk.slot.NextAt(w.idx)
	if f == nil || pc >= len(f.LiveWords) {
		return 0
	}
	live := int(liveWords(f, s.p.ConstBankLive)[pc])
	if in := &f.Code[pc]; s.p.WmmaRounds && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaLoad && int(in.Imm) < len(f.TensorOps) {
		live += wmmaLoadWords(f, &f.TensorOps[in.Imm])
	}
	return heldGate(w, live, s.hoistWords)
}

// wmmaLoadWords is how many more registers than its fragment's ptxas
// holds for a wmma.load while its data comes: a register a SASS load, so
// an 8-bit operand read a byte an element takes eight for m16n16k16 B (one
// per LDG.E.U8, packed into two once they are back: wg.sass, gg of s8 at
// 32 registers issues no load of the next k step above the step's IMMAs).
func wmmaLoadWords(f *ir.Func, to *ir.TensorOperands) int {
	words := 0
	for _, r := range to.D {
		words += f.SlotWords(r)
	}
	return max(to.Access.Insts-words, 0)
}

// heldGate is when warp w's held registers (holdLoads) have shrunk enough
// for live more registers to fit in budget: the earliest entries released
// first (cycles before futures); 0 when they fit now, a future when that
// waits for one.
func heldGate(w *warpT, live, budget int) uint64 {
	over := live - budget
	for i := 0; i < w.heldN; i++ {
		over += int(w.heldWords[i])
	}
	if over <= 0 {
		return 0
	}
	// Release entries earliest first (cycles before futures) until the
	// rest fit.
	var done [maxHeld]bool
	var t uint64
	for over > 0 {
		k := -1
		for i := 0; i < w.heldN; i++ {
			if done[i] {
				continue
			}
			if k < 0 || !isFut(w.heldUntil[i]) && (isFut(w.heldUntil[k]) || w.heldUntil[i] < w.heldUntil[k]) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		done[k] = true
		over -= int(w.heldWords[k])
		if isFut(w.heldUntil[k]) {
			return w.heldUntil[k]
		}
		t = max(t, w.heldUntil[k])
	}
	return t
}

// lateLoadOperand says whether an operand of in (its guard too) is not
// there yet and comes from memory, a shuffle or arithmetic issued ahead of
// its loads: in is then hoisted as HoistLoads has it, not only ahead of a
// fixed-latency chain (HoistFixed).
func lateLoadOperand(sm *smT, w *warpT, in *ir.Inst) bool {
	late := func(r int32) bool {
		if r < 0 || int(r) >= len(w.regReady) || !isFut(w.regReady[r]) && w.regReady[r] <= sm.now {
			return false
		}
		return w.regKind[r] != prodChain && w.regKind[r] != prodFixed
	}
	return late(in.Guard) || slices.ContainsFunc(in.A[:], late)
}
