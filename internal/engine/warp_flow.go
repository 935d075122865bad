// Control flow on the reconvergence stack: exit, reconvergence, divergence, forward progress, waits, brx.

package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
)

// exit removes lanes from the warp.
func (wp *warp) exit(mask uint32) {
	wp.exited |= mask
	for i := range wp.stack {
		wp.stack[i].mask &^= mask
	}
}

// settle pops finished and reconverged entries and returns from calls
// whose lanes have all returned. It reports false when the warp is done.
func (wp *warp) settle() bool {
	for {
		n := len(wp.stack)
		fr := &wp.frames[len(wp.frames)-1]
		if n == fr.stackBase {
			if len(wp.frames) == 1 {
				wp.state = warpDone
				return false
			}
			wp.returnFrame()
			continue
		}
		top := &wp.stack[n-1]
		if top.mask == 0 || top.pc == top.rpc {
			wp.stack = wp.stack[:n-1]
			continue
		}
		return true
	}
}

// diverge splits the top entry at a divergent branch. The not-taken path
// runs first; both join at the branch's immediate post-dominator.
func (wp *warp) diverge(pc int, in *ir.Inst, mask, taken uint32) {
	n := len(wp.stack)
	top := &wp.stack[n-1]
	rpc := in.Reconv
	if rpc < 0 || rpc == top.rpc {
		// No reconvergence point below the enclosing one: replace the entry.
		rpc = top.rpc
		wp.stack = wp.stack[:n-1]
	} else {
		top.pc = rpc
	}
	wp.stack = append(wp.stack,
		entry{pc: in.Target, rpc: rpc, mask: taken},
		entry{pc: int32(pc + 1), rpc: rpc, mask: mask &^ taken})
}

// noteBackEdge implements forward progress under independent thread
// scheduling: a partial warp that keeps looping without writing memory
// while other lanes of the warp wait yields to them.
//
// A path that loops on a failed mbarrier wait yields at once to the warp's
// other paths (yieldWait): ptxas puts a YIELD before every retry of a wait
// (SYNCS.PHASECHK.TRANS64.TRYWAIT) and the H100 runs the other paths
// meanwhile (testdata/timing/syncmem's mbar_mb: thread 0 issues the copies
// while its warp's other lanes wait).
func (wp *warp) noteBackEdge() {
	if wp.waitFailed {
		wp.waitFailed = false
		if wp.w.l.cfg.ITS && wp.yieldWait() {
			wp.stored = false
			wp.backEdges = 0
			return
		}
	}
	if wp.stored {
		wp.stored = false
		wp.backEdges = 0
		return
	}
	wp.backEdges++
	if wp.backEdges < spinLimit || !wp.w.l.cfg.ITS {
		return
	}
	wp.backEdges = 0
	n := len(wp.stack)
	fr := &wp.frames[len(wp.frames)-1]
	if n-fr.stackBase < 2 {
		return
	}
	top := wp.stack[n-1]
	below := &wp.stack[n-2]
	if below.pc == top.rpc {
		// The lanes below wait at the join point: let them run ahead on
		// their own, and the looping lanes join only each other.
		waiting := below.mask &^ top.mask
		if waiting == 0 {
			return
		}
		below.mask = top.mask
		wp.stack = append(wp.stack, entry{pc: below.pc, rpc: below.rpc, mask: waiting})
		return
	}
	if below.rpc == top.rpc {
		// A sibling path has not run yet: run it first.
		wp.stack[n-1], wp.stack[n-2] = *below, top
	}
}

// yieldWait runs another path of the warp in place of the top one, whose
// mbarrier wait just failed, and reports whether it did. The waiting path
// also drops out of its join point: the paths it would have met there
// (siblings still on their way, lanes already waiting at the join) go on
// past it to the enclosing join, and the waiting lanes follow on their own
// once their wait succeeds. On the H100 a warp whose issuing lane waits in
// one loop and whose other lanes wait in another (mbar_mb.cu, nvcc's code)
// runs the code after the wait twice, once a path, in every round
// (testdata/timing/syncmem: the read loop's cycles doubled, the rounds'
// wait + second constant). Parked paths (syncWait) are left as they are.
func (wp *warp) yieldWait() bool {
	n := len(wp.stack)
	base := wp.frames[len(wp.frames)-1].stackBase
	if n-base < 2 {
		return false
	}
	y := wp.stack[n-1]
	// p: the nearest entry below holding lanes of the waiting path (its
	// join); the entries between are independent paths.
	p, between := -1, uint32(0)
	for i := n - 2; i >= base; i-- {
		e := &wp.stack[i]
		if e.mask&y.mask != 0 {
			p = i
			break
		}
		if e.parked {
			return false
		}
		if e.pc != e.rpc {
			between |= e.mask
		}
	}
	waiting := uint32(0)
	if p >= 0 && wp.stack[p].pc == y.rpc {
		join := &wp.stack[p]
		waiting = join.mask &^ y.mask &^ between &^ wp.exited
		if between == 0 && waiting == 0 {
			return false
		}
		for i := p + 1; i < n-1; i++ {
			if e := &wp.stack[i]; e.rpc == y.rpc && e.pc != e.rpc {
				e.rpc = join.rpc
			}
		}
		join.mask = y.mask
	} else if between == 0 {
		return false
	}
	// The waiting path goes just above its join (or to the bottom when no
	// entry holds its lanes), under the others.
	at := max(p+1, base)
	copy(wp.stack[at+1:n], wp.stack[at:n-1])
	wp.stack[at] = y
	if waiting != 0 {
		wp.stack = append(wp.stack, entry{pc: y.rpc, rpc: wp.stack[p].rpc, mask: waiting})
	}
	return true
}

// syncWait makes a warp-synchronous instruction (shfl, vote, match,
// redux, bar.warp .sync) wait, under independent thread scheduling, for
// the lanes its member mask names that noteBackEdge let run on another path:
// the GPU executes it once every named lane has arrived. Lanes parked at
// this instruction with the same join point are merged into the executing
// ones (exec grows); if named lanes are still missing and an independent
// path below holds them, the top entry parks here and that path runs
// first. It reports true when the warp parked. (Block barriers: barWait.)
func (wp *warp) syncWait(pc int, in *ir.Inst, exec *uint32) bool {
	var member uint32
	slot := in.A[1]
	switch in.Op {
	case ir.OpShfl:
		slot = in.A[3]
	case ir.OpBarWarp:
		slot = in.A[0]
	case ir.OpActivemask:
		return false
	}
	if slot < 0 {
		return false
	}
	m := wp.r(slot)
	for l := 0; l < 32; l++ {
		if *exec>>l&1 != 0 {
			member |= uint32(m[l])
		}
	}
	missing := member &^ *exec &^ wp.exited & wp.valid
	if missing == 0 {
		return false
	}
	n := len(wp.stack)
	base := wp.frames[len(wp.frames)-1].stackBase
	top := &wp.stack[n-1]
	for i := n - 2; i >= base && missing != 0; i-- {
		e := &wp.stack[i]
		if e.parked && e.pc == int32(pc) && e.rpc == top.rpc && e.mask&missing != 0 {
			top.mask |= e.mask
			e.mask, e.parked = 0, false
			*exec = top.mask
			if in.Guard >= 0 {
				*exec = wp.guardMask(in, top.mask)
			}
			missing = member &^ *exec &^ wp.exited & wp.valid
		}
	}
	if missing == 0 {
		return false
	}
	// The nearest path holding missing lanes, with every entry up to it
	// independent of the top one (no join point that holds its lanes).
	j := -1
	for i := n - 2; i >= base; i-- {
		e := &wp.stack[i]
		if e.mask&top.mask != 0 {
			break
		}
		if e.mask&missing != 0 {
			j = i
			break
		}
	}
	if j < 0 {
		return false
	}
	p := *top
	p.pc, p.parked = int32(pc), true
	copy(wp.stack[j+1:n], wp.stack[j:n-1])
	wp.stack[j] = p
	return true
}

// barrier handles bar/barrier; it reports true when the warp must wait.
func (wp *warp) barrier(pc int, in *ir.Inst, exec uint32) bool {
	if wp.chk != nil && !wp.checkBarrier(pc, in, exec) {
		return true
	}
	lane := bits.TrailingZeros32(exec)
	// The H100 takes the id's low four bits: bar.sync 16, 64 ran as a
	// valid barrier (testdata/sanitize/probe4/barrier_id16).
	id := int(uint32(wp.r(in.A[0])[lane]) & (maxBarriers - 1))
	b := wp.blk
	br := &b.bars[id]
	if in.A[1] >= 0 {
		cnt := int(uint32(wp.r(in.A[1])[lane]))
		if cnt%32 != 0 {
			// probe4/count_odd: cudaErrorIllegalInstruction, under
			// compute-sanitizer too (with no report).
			wp.fault(FaultIllegal, pc, lane, 0, false, "barrier %d: thread count %d is not a multiple of the warp size", id, cnt)
			return true
		}
		if br.arrived > 0 && br.count != 0 && br.count != cnt && wp.chk == nil {
			// Warps waiting at one barrier with different thread counts:
			// an illegal instruction on the H100 (probe2/named_barrier,
			// probe4/count_interleaved). Under a checker synccheck
			// reports it (internal/sanitize/synccheck.go).
			wp.fault(FaultIllegal, pc, lane, 0, false, "barrier %d: warps wait for %d threads, this one for %d", id, br.count, cnt)
			return true
		}
		br.count = cnt
		br.need = (cnt + 31) / 32
	}
	br.arrived++
	b.armed |= 1 << id
	if in.Mode >= ir.BarRedPopc {
		p := wp.r(in.A[2])
		if !br.any {
			br.and, br.any = true, true
		}
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			v := p[l] != 0
			if in.Flags&ir.FlagNegB != 0 {
				v = !v
			}
			if v {
				br.popc++
				br.or = true
			} else {
				br.and = false
			}
		}
		wp.barRedDst = in.D[0]
		wp.barRedMode = in.Mode
		wp.barRedMask = exec
	}
	if in.Mode == ir.BarArrive {
		return false
	}
	wp.state = warpAtBarrier
	wp.barID = id
	wp.barPC = pc
	wp.barMask = exec
	br.waiting = append(br.waiting, wp)
	return true
}

// brx executes brx.idx: each lane jumps to the entry of the branch table
// its index selects. Lanes choosing different targets diverge, one stack
// entry per target, all joining at the instruction's post-dominator. It
// reports whether the warp diverged.
func (wp *warp) brx(pc int, in *ir.Inst, mask, exec uint32) bool {
	table := wp.fn.BranchTables[in.Imm]
	idx := wp.r(in.A[0])
	var targets [32]int32
	var groups [32]uint32
	n := 0
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		i := uint32(idx[l])
		if int(i) >= len(table) {
			wp.fault(FaultIllegal, pc, l, 0, false, "brx.idx index %d is outside its %d-entry branch table", i, len(table))
			return false
		}
		t := table[i]
		k := 0
		for k < n && targets[k] != t {
			k++
		}
		if k == n {
			targets[n] = t
			n++
		}
		groups[k] |= 1 << l
	}
	rest := mask &^ exec // guarded-off lanes fall through
	top := &wp.stack[len(wp.stack)-1]
	if n == 1 && rest == 0 {
		top.pc = targets[0]
		return false
	}
	rpc := in.Reconv
	if rpc < 0 || rpc == top.rpc {
		rpc = top.rpc
		wp.stack = wp.stack[:len(wp.stack)-1]
	} else {
		top.pc = rpc
	}
	if rest != 0 {
		wp.stack = append(wp.stack, entry{pc: int32(pc + 1), rpc: rpc, mask: rest})
	}
	for k := n - 1; k >= 0; k-- {
		wp.stack = append(wp.stack, entry{pc: targets[k], rpc: rpc, mask: groups[k]})
	}
	return true
}
