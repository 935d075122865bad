package engine

import (
	"fmt"

	"github.com/warpsim/warpsim/internal/ir"
)

// Block barriers reached by part of a warp under independent thread
// scheduling (sm_70 and later).
//
// What the H100 does (testdata/engine/its, nvcc 13, sm_90): ptxas compiles
// a bar.sync, bar.red or bar.arrive that part of a warp may reach as
// WARPSYNC.ALL then the barrier, so the lanes that reach it wait there
// until every lane of the warp that has not exited reaches the same
// instruction; the warp then arrives at the block barrier once, with all
// of them (a reduction counts them all). Lanes that exit first are not
// waited for (halfExit, halfNoCall, namedExited); lanes still running — a
// loop, with or without stores — are (no early release). Lanes that reach
// another barrier instruction instead never come: the other arm of an
// if/else, the barrier after a loop the others are still in. The H100
// then hangs (halfLoopStore, halfLoopNoStore, iterSkewCount, iterSkewSync,
// ifElseAndOr, namedHalfLoop); warpsim stops the kernel with a barrier
// deadlock that names both instructions. Lanes waiting at the join point
// of the branch that holds the barrier (they skipped it) are let run on
// past the join: they exit, or reach the barrier again later, or another
// one (a deadlock). Where ptxas instead predicates a short branch's
// barrier, the converged warp executes it with the other lanes' guard off
// and arrives at once (ifElseCount: two barrier instances, one per arm),
// which warpsim cannot see in the PTX.

// barWait handles a barrier instruction at pc reached by the top path's
// lanes when they are not all the warp's live lanes. The lanes arrive; if
// every live lane of the warp has now arrived at this instruction, exec
// becomes all of them (those whose guard holds) and it reports false: the
// caller executes the barrier once for the warp. Otherwise the path parks
// here and another runs; it reports true.
func (wp *warp) barWait(pc int, in *ir.Inst, exec *uint32) bool {
	top := &wp.stack[len(wp.stack)-1]
	if wp.pend != 0 && (wp.pendPC != pc || wp.pendFi != wp.fi || wp.pendDepth != len(wp.frames)) {
		wp.barDeadlock(pc, top.mask)
		return true
	}
	if wp.pend == 0 {
		wp.pendPC, wp.pendFi, wp.pendDepth, wp.pendExec = pc, wp.fi, len(wp.frames), 0
	}
	wp.pend |= top.mask
	wp.pendExec |= *exec
	if live := wp.valid &^ wp.exited; wp.pend&live == live {
		*exec = wp.pendExec & live
		wp.unpark()
		return false
	}
	top.pc, top.barPark = int32(pc), true
	wp.barYield()
	return true
}

// barResume runs when a path parked at a barrier is on top of the stack:
// every other path of the warp waits or has finished. If the lanes not at
// the barrier have exited, the warp arrives; otherwise another path is
// let run. It reports false when the warp cannot go on (it waits at the
// block barrier, or faulted).
func (wp *warp) barResume() bool {
	if live := wp.valid &^ wp.exited; wp.pend&live == live {
		pc := wp.pendPC
		exec := wp.pendExec & live
		wp.unpark()
		if exec == 0 {
			return true
		}
		return !wp.barrier(pc, &wp.code[pc], exec)
	}
	return wp.barYield()
}

// unpark ends the warp's wait at its barrier instruction: the parked paths
// go on after it.
func (wp *warp) unpark() {
	for i := range wp.stack {
		if e := &wp.stack[i]; e.barPark {
			e.barPark = false
			e.pc++
		}
	}
	wp.pend = 0
}

// barYield lets the warp's other lanes run while the top path waits at
// its barrier: it moves the top path under the independent paths that can
// run, and lets lanes waiting at a join point of its own (they skipped
// the barrier) run on past it. With nothing left to run it stops the
// kernel with a barrier deadlock. It reports whether another path runs.
func (wp *warp) barYield() bool {
	n := len(wp.stack)
	base := wp.frames[len(wp.frames)-1].stackBase
	y := wp.stack[n-1]
	// Walk down: seen is every lane of the entries above; an entry holding
	// lanes of y is a join point of y's, whose lanes not above it wait
	// there.
	seen, runnable, skipped := y.mask, false, false
	p := -1 // y's nearest join point
	var released [32]entry
	nr := 0
	for i := n - 2; i >= base; i-- {
		e := &wp.stack[i]
		if e.pc == e.rpc || e.mask == 0 {
			continue // finished: its lanes wait at the join below
		}
		switch {
		case e.mask&y.mask != 0:
			if p < 0 {
				p = i
			}
			if w := e.mask &^ seen &^ wp.exited; w != 0 && nr < len(released) {
				// They skipped the barrier: they run on from the join
				// point on their own, to the join's own join.
				e.mask &^= w
				released[nr] = entry{pc: e.pc, rpc: e.rpc, mask: w}
				nr++
				if int(e.pc) == int(y.pc)+1 {
					// The barrier is the whole arm of the branch the lanes
					// skipped: ptxas predicates such a barrier (@P BAR).
					skipped = true
				}
			}
		case !e.barPark && !e.parked:
			runnable = true
		}
		seen |= e.mask
	}
	if !runnable && nr == 0 {
		wp.barDeadlock(int(y.pc), y.mask)
		return false
	}
	if skipped && wp.chk != nil {
		// compute-sanitizer's synccheck reports a predicated barrier
		// that part of the warp executes (testdata/sanitize/
		// divergent_barrier.cu, probe2/sync_partial: the lanes at it,
		// "Divergent thread(s) in warp"), not one that ptxas guards with
		// WARPSYNC.ALL, where the lanes wait for the others to exit
		// (testdata/engine/its: halfExit, halfNoCall: no report).
		if !wp.checkBarrier(wp.pendPC, &wp.code[wp.pendPC], wp.pendExec) {
			return false
		}
	}
	// y goes just above its join point, under the paths that can run;
	// the released lanes go on top, the nearest join's first.
	at := max(p+1, base)
	copy(wp.stack[at+1:n], wp.stack[at:n-1])
	wp.stack[at] = y
	for i := nr - 1; i >= 0; i-- {
		wp.stack = append(wp.stack, released[i])
	}
	return true
}

// barDeadlock stops the kernel: lanes of the warp wait at a barrier
// instruction for lanes of their warp that can never reach it.
func (wp *warp) barDeadlock(pc int, lanes uint32) {
	live := wp.valid &^ wp.exited
	var why string
	if wp.pend != 0 && wp.pendPC != pc {
		why = fmt.Sprintf("lanes %#08x of warp %d wait at this barrier instruction and lanes %#08x at another (%s)",
			lanes, wp.idx, wp.pend, wp.lineOf(wp.pendPC))
	} else {
		why = fmt.Sprintf("lanes %#08x of warp %d wait at this barrier instruction for lanes %#08x of theirs, which wait elsewhere",
			wp.pend|lanes, wp.idx, live&^(wp.pend|lanes))
	}
	wp.w.fault = wp.faultAt(FaultBarrierDeadlock, pc, lanes, 0, false,
		why+": on sm_70 and later every thread of a warp that has not exited must reach the same barrier instruction (the H100 hangs)")
	wp.state = warpDone
}

// lineOf names instruction pc of the executing function by its PTX line.
func (wp *warp) lineOf(pc int) string {
	if pc >= 0 && pc < len(wp.fn.Lines) {
		return fmt.Sprintf("PTX line %d: %s", wp.fn.Lines[pc].PTXLine, wp.fn.Text[pc])
	}
	return fmt.Sprintf("pc %d", pc)
}
