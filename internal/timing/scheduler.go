// The warp scheduler: per SM sub-partition, at most one instruction a
// cycle from the warps ready to issue (pick: greedy-then-oldest or loose
// round-robin), stepped through the engine (execute), with the warp-cycles
// between two issues charged to their stall reasons (chargeStalls, under
// Nsight Compute's warp-state names); barriers and grid barriers release
// their warps here.

package timing

import (
	"math"
	"math/bits"
	"sort"
	"sync/atomic"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// Stall reasons, under Nsight Compute's warp-state names.
const (
	stallSelected = iota
	stallNotSelected
	stallLongScoreboard
	stallShortScoreboard
	stallWait
	stallBarrier
	stallMathPipeThrottle
	stallLGThrottle
	stallMIOThrottle
	stallBranchResolving
	stallDispatch
	stallSleeping
	stallNoInstruction
	numStalls
)

// StallNames are the stall reasons' ncu names (smsp__average_warp_latency_issue_stalled_NAME).
var StallNames = []string{"selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait",
	"barrier", "math_pipe_throttle", "lg_throttle", "mio_throttle", "branch_resolving", "dispatch_stall", "sleeping", "no_instruction"}

type warpT struct {
	// The fields a scheduler reads of every warp it looks at (readyAt),
	// first: one cache line of the host's.
	next *ir.Inst
	dep  uint64 // cached: max(ready, the next instruction's sources' ready cycles)
	// fetchIn is the instruction the warp last looked up in its SM's
	// instruction cache, there from cycle fetchAt (fetch.go).
	fetchIn   *ir.Inst
	fetchAt   uint64
	done      bool
	atBar     bool
	draining  bool
	depValid  bool
	depWhy    uint8
	readyWhy  uint8 // the stall reason while ready binds
	blk       *blockT
	sp        *spT
	idx       int
	spi       int    // its index in sp.warps (and sp.scan)
	ready     uint64 // earliest issue of the warp itself (one issue a cycle, barrier release, calls)
	lastIssue uint64
	// fn and pc are the function (index in the program) and instruction
	// the warp issued last, for the stalls by instruction; barWait is the
	// wait at a barrier not yet charged (to the instruction after it).
	fn, pc    int32
	barWait   uint64
	regReady  []uint64
	regKind   []uint8
	storeData uint64 // when the data of the warp's stores issued so far is ready
	// sharedFeed is when the warp's last shared access has sent its
	// wavefronts to the SM's pipe (SharedWarpCycles).
	sharedFeed uint64
	// gstoreData is storeData of its global stores (LoadAfterStore).
	gstoreData uint64
	// tensorLast is when the warp's MMAs issued so far are counted done
	// (TensorPipe.Release): its branches and barriers wait for it.
	tensorLast uint64
	hoisted    uint64 // when the arithmetic issued ahead of its loads (HoistLoads) is done
	// chainIssued is when the last instruction issued ahead of a
	// fixed-latency result (Params.HoistFixed) issues in ptxas's order:
	// the block's end comes after it.
	chainIssued uint64
	// unrollAt is the back edge of an unrolled loop (ir.BraUnrolled) the
	// warp reached last, unrollN how many times in a row (LoopUnroll).
	unrollAt *ir.Inst
	unrollN  int
	// heldUntil and heldWords are the registers of loads that arithmetic
	// the warp issued ahead of them (HoistLoads) still waits for: until
	// when (a cycle or a future) and how many (holdLoads; heldN entries).
	heldUntil [maxHeld]uint64
	heldWords [maxHeld]uint16
	heldN     int
	slowEnd   uint64 // when its last out-of-line division or square root returns (slowpath.go)
	// lazy are its parameter reads whose line of constant bank 0 its
	// block had not asked for: read where a consumer needs them, as
	// ptxas places them (constbank.go).
	lazy []lazyParam
	// lazyRegs has the lazyBit of every register of lazy (and maybe
	// others): an instruction none of whose registers' bits are set reads
	// and writes none of lazy's (dropLazy, lazyParams look no further).
	lazyRegs uint64
	// (The fields above are those the scheduler and the scoreboard read
	// for most instructions: the first four of the host's cache lines.)
	age uint64
	// mmaStart is when the warp's last wmma.mma reads its fragments (a
	// cycle or a future; WmmaReuse).
	mmaStart uint64
	// chainAt is when the warp's last MMA's accumulator is there for the
	// next MMA of its block (0: not forwarded; TensorPipe.ChainLatency),
	// chain those of its MMAs so far.
	chainAt uint64
	chain   chainFwd
	// tmapRelease is when the warp's last tensormap.cp_fenceproxy reached
	// global memory (a fence.proxy.tensormap acquire waits for it).
	tmapRelease uint64
	// stored is when the L2 has taken the warp's global stores issued so
	// far (a future until the replay answers; 0: none); draining, after
	// the warp exited at exitAt, that it stays resident until then (drain).
	stored uint64
	exitAt uint64
	// storesLeft are when the warp's last StoreWindow global stores left
	// the SM (a ring, next at storeNext: storeGate); lastLeft the last.
	storesLeft [maxStoreWindow]uint64
	storeNext  int
	lastLeft   uint64
	// cpAsyncNext is the cycle the warp may issue its next cp.async
	// (CpAsyncWarpCycles after its last: cpAsyncGate).
	cpAsyncNext uint64
	// loadNext is the cycle the warp may issue its next global load
	// (LoadWarpCycles after its last).
	loadNext uint64
	// loadsDone are when the warp's last LoadWindow global loads' data
	// came (cycles or futures; a ring, next at loadCount: loadGate).
	loadsDone [maxLoadWindow]uint64
	loadCount int
	// redsDone are when the L2 performed the warp's last RedWindow global
	// reds (cycles or futures; a ring, next at redNext: redGate).
	redsDone [maxRedWindow]uint64
	redNext  int
	// wgmma and cpAsync are the warp's wgmma.mma_async and cp.async
	// commit groups, bulk its bulk-async groups (copies and reductions out
	// of shared memory); their wait_group instructions wait there.
	wgmma, cpAsync, bulk groupsT
}

type spT struct {
	idx   int      // its index in the SM (its fetch stream: fetch.go)
	warps []*warpT // resident, oldest first
	// scan is what pick's scan knows of each of warps without reading it
	// (warps[i]'s at scan[i]): readyAt of a warp that readyAt answers
	// without readyAtSlow, less its pipe's cycle, until the warp changes.
	scan []scanEntry
	// skip has bit i set for warps[i] (i < 64) whose scanEntry is valid
	// with at after the cycle pick set it: a warp that cannot issue before
	// at, which the scan passes over without reading it (its time still
	// counts in pick's answer when no warp can issue); skipAt is the
	// earliest at of those warps, when pick looks at them again (unskip).
	// changed clears a warp's bit with its scanEntry.
	skip   uint64
	skipAt uint64
	pipe   [ir.NumClasses]uint64
	last   *warpT
	rr     int
	check  uint64 // earliest cycle anything here can issue
	// starveAt is when pick next looks for a starved warp
	// (IssueStarveCycles).
	starveAt uint64
	busy     uint64 // the issue port is taken by an expanded instruction until then
	// tensorFree is when the tensor pipe is free, in 1/TensorFrac cycle.
	tensorFree uint64
}

// scanEntry is a warp's readiness as pick's scan reads it: when valid,
// readyAt is max(at, the sub-partition's pipe[class]) (at is MaxUint64
// for a finished warp or one at a barrier). Every write to a field that
// readyAt's fast path reads (done, atBar, draining, next, depValid, dep,
// fetchIn, fetchAt) clears it (warpT.changed); only pick's scan sets it,
// from those fields.
type scanEntry struct {
	at    uint64
	class ir.Class
	valid bool
	// fut: at is when a future the warp waits for is written, which only
	// the quantum's start changes (dropFutures).
	fut bool
}

// changed clears w's scanEntry: a field readyAt reads changed.
func (w *warpT) changed() {
	if sp := w.sp; sp != nil && w.spi < len(sp.scan) && sp.warps[w.spi] == w {
		sp.scan[w.spi].valid = false
		sp.skip &^= 1 << uint(w.spi)
	}
}

// resetSkip empties sp.skip (its warps moved in sp.warps).
func (sp *spT) resetSkip() {
	sp.skip, sp.skipAt = 0, math.MaxUint64
}

// unskip takes the warps whose scanEntry's cycle has come (at most now)
// out of sp.skip and sets skipAt to the earliest of the others'.
func (sp *spT) unskip(now uint64) {
	at := uint64(math.MaxUint64)
	for m := sp.skip; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if e := sp.scan[i].at; e <= now {
			sp.skip &^= 1 << uint(i)
		} else {
			at = min(at, e)
		}
	}
	sp.skipAt = at
}

// skipAhead is how far ahead of the current cycle a warp's scanEntry
// must be for pick to put it in sp.skip: a warp that waits longer (for a
// load, a barrier, its end, a dependent ALU result) than those the scan
// looks at every cycle or two. (Any value gives the same picks; 8 took
// 1% fewer host instructions than 32 on BenchmarkTimingReduce, where
// 0 spent more in unskip than the scan saved.)
const skipAhead = 8

// skippedBest is the earliest cycle a warp of sp.skip other than sp.last
// can issue (readyAt's answer, from its scanEntry), or MaxUint64.
func (sp *spT) skippedBest() uint64 {
	best := uint64(math.MaxUint64)
	for m := sp.skip; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if sp.warps[i] == sp.last {
			continue
		}
		e := &sp.scan[i]
		best = min(best, max(e.at, sp.pipe[e.class]))
	}
	return best
}

// remember sets the scanEntry of w, sp.warps[i], just answered by
// readyAt, when readyAt's fast path answers it as its fields stand, or
// readyAtSlow for a warp that waits for a future (quantum is the
// quantum's length): until the quantum ends, as readyAtSlow does.
func (sp *spT) remember(sm *smT, i int, w *warpT, quantum uint64) {
	e := &sp.scan[i]
	if w.done || w.atBar {
		*e = scanEntry{at: math.MaxUint64, valid: true}
		return
	}
	if w.draining || w.next == nil || !w.depValid || sm.fetch != nil && w.fetchIn != w.next {
		return
	}
	at, fut := w.dep, false
	if at >= futBit {
		if !isFut(at) {
			return
		}
		// (readyAtSlow's cycle for a future.)
		at, fut = sm.end, true
		if arenaOf(w.dep) == sm.cur {
			at += quantum
		}
	}
	if sm.fetch != nil {
		at = max(at, w.fetchAt)
	}
	*e = scanEntry{at: at, class: w.next.Class, valid: true, fut: fut}
}

// dropFutures clears the scanEntries that a future set (remember): a
// quantum begins.
func (sp *spT) dropFutures() {
	for i := range sp.scan {
		if e := &sp.scan[i]; e.fut {
			e.valid, e.fut = false, false
			if i < 64 {
				sp.skip &^= 1 << uint(i)
			}
		}
	}
}

// issue lets sub-partition sp issue one instruction at sm.now, if any warp
// can; it sets sp.check to the next cycle worth looking at otherwise.
func (s *gridState) issue(sm *smT, sp *spT) bool {
	if sp.busy > sm.now {
		sp.check = sp.busy
		return false
	}
	w, best := s.pick(sm, sp)
	if w == nil {
		sp.check = best
		return false
	}
	s.execute(sm, sp, w)
	return true
}

// pick is the warp sp's scheduler issues from at sm.now, or nil and the
// earliest cycle a warp could issue (with a warp, the cycle is not
// meaningful). Greedy-then-oldest (GTO) keeps
// issuing from the warp that issued last while it can, and otherwise takes
// the oldest ready warp (sp.warps is oldest first); loose round-robin
// (LRR) takes the first ready warp after the one it picked last.
func (s *gridState) pick(sm *smT, sp *spT) (*warpT, uint64) {
	best := uint64(math.MaxUint64)
	if s.d.lrr {
		n := len(sp.warps)
		for k := 0; k < n; k++ {
			w := sp.warps[(sp.rr+k)%n]
			if w.done || w.atBar {
				continue
			}
			if t := s.readyAt(sm, sp, w); t <= sm.now {
				sp.rr = (sp.rr + k + 1) % n
				return w, best
			} else if t < best {
				best = t
			}
		}
		return nil, best
	}
	if len(sp.scan) != len(sp.warps) {
		// (Warps placed other than by placeWarps: tests.)
		sp.scan = make([]scanEntry, len(sp.warps))
		for i, w := range sp.warps {
			w.spi = i
		}
		sp.resetSkip()
	}
	if sm.now >= sp.skipAt {
		sp.unskip(sm.now)
	}
	if lim := uint64(s.p.IssueStarveCycles); lim > 0 && sm.now >= sp.starveAt {
		// A few times in every lim cycles: a starved warp waits at most
		// about 5/4 lim.
		sp.starveAt = sm.now + max(lim/4, 1)
		if w := s.starved(sm, sp, lim); w != nil {
			return w, best
		}
	}
	if w := sp.last; w != nil {
		t := s.readyAt(sm, sp, w)
		if t <= sm.now {
			return w, best
		}
		best = t
	}
	if n := len(sp.warps); n <= 64 {
		// The warps in sp.skip cannot issue now: the scan passes over
		// them, in the order of the rest (oldest first).
		cand := ^sp.skip
		if n < 64 {
			cand &= 1<<uint(n) - 1
		}
		for ; cand != 0; cand &= cand - 1 {
			i := bits.TrailingZeros64(cand)
			w := sp.warps[i]
			if w == sp.last {
				continue
			}
			var t uint64
			e := &sp.scan[i]
			if e.valid {
				t = max(e.at, sp.pipe[e.class])
			} else {
				t = s.readyAt(sm, sp, w)
				sp.remember(sm, i, w, s.quantum)
			}
			if t <= sm.now {
				return w, best
			}
			best = min(best, t)
			if e.valid && e.at > sm.now+skipAhead {
				sp.skip |= 1 << uint(i)
				sp.skipAt = min(sp.skipAt, e.at)
			}
		}
		if best > sp.skipAt {
			// (A skipped warp's cycle is skipAt or later.)
			best = min(best, sp.skippedBest())
		}
		return nil, best
	}
	for i, w := range sp.warps {
		if w == sp.last {
			continue
		}
		var t uint64
		if e := &sp.scan[i]; e.valid {
			t = max(e.at, sp.pipe[e.class])
		} else {
			t = s.readyAt(sm, sp, w)
			sp.remember(sm, i, w, s.quantum)
		}
		if t <= sm.now {
			return w, best
		} else if t < best {
			best = t
		}
	}
	return nil, best
}

// starved is the oldest warp of sp, other than the greedy one, that can
// issue at sm.now and has been ready lim cycles or more without issuing
// (since its operands' cycle or its last issue, whichever is later), or
// nil (IssueStarveCycles).
func (s *gridState) starved(sm *smT, sp *spT, lim uint64) *warpT {
	if sm.now < lim {
		return nil
	}
	for i, w := range sp.warps {
		if w == sp.last || i < 64 && sp.skip>>uint(i)&1 != 0 {
			// (A warp of sp.skip cannot issue now.)
			continue
		}
		e := &sp.scan[i]
		if !e.valid {
			if s.readyAt(sm, sp, w) > sm.now {
				continue
			}
			sp.remember(sm, i, w, s.quantum)
			if !e.valid {
				continue
			}
		}
		if e.at == math.MaxUint64 || max(e.at, sp.pipe[e.class]) > sm.now {
			continue
		}
		if max(e.at, w.lastIssue)+lim <= sm.now {
			return w
		}
	}
	return nil
}

// readyAt is the cycle warp w can issue its next instruction on sp
// (MaxUint64 when it cannot: finished or at a barrier): when its operands
// are ready (the scoreboard, depReady) and its instruction's pipe is free;
// when it waits for a future, the start of the quantum that writes it.
//
// It is the scheduler's innermost step, looking at every warp of a
// sub-partition until one is ready: a warp whose next instruction is known
// with its operands' cycle (no future) and its line fetched is answered
// here, without a call (readyAtSlow answers the rest, the same way).
func (s *gridState) readyAt(sm *smT, sp *spT, w *warpT) uint64 {
	if w.done || w.atBar {
		return math.MaxUint64
	}
	if w.draining || w.next == nil || !w.depValid || w.dep >= futBit || sm.fetch != nil && w.fetchIn != w.next {
		return s.readyAtSlow(sm, sp, w)
	}
	t := max(w.dep, sp.pipe[w.next.Class])
	if sm.fetch != nil {
		t = max(t, w.fetchAt)
	}
	return t
}

// readyAtSlow is readyAt for a warp that is draining, has no next
// instruction yet, or whose operands' cycle is not known or a future, or
// whose instruction is not fetched yet.
func (s *gridState) readyAtSlow(sm *smT, sp *spT, w *warpT) uint64 {
	w.changed()
	if w.done || w.atBar {
		return math.MaxUint64
	}
	if w.draining {
		return s.drained(sm, w)
	}
	if w.next == nil {
		w.next = w.blk.slot.Next(w.idx)
		w.depValid = false
		s.foldMovs(sm, w)
		if w.done || w.atBar {
			return math.MaxUint64
		}
		if w.draining {
			return s.drained(sm, w)
		}
		if w.next == nil {
			s.warpStopped(sm, w)
			if w.draining {
				return s.drained(sm, w)
			}
			return math.MaxUint64
		}
	}
	t := w.dep
	if !w.depValid {
		t, _ = s.depReady(w)
	}
	if isFut(t) {
		// Not before its future is written: at the next quantum's start
		// for the last quantum's futures, the one after for this one's.
		at := sm.end
		if arenaOf(t) == sm.cur {
			at += s.quantum
		}
		t = at
	}
	if p := sp.pipe[w.next.Class]; p > t {
		t = p
	}
	if sm.fetch != nil {
		if w.fetchIn != w.next {
			w.fetchIn = w.next
			w.fetchAt = sm.fetch.ready(s.code.lineOf(w.next), sm.now, sp.idx, s.p)
		}
		t = max(t, w.fetchAt)
	}
	return t
}

// warpStopped handles a warp that has no next instruction: it finished
// (or its lanes have all reached their end: it finishes now), or waits at
// a barrier.
func (s *gridState) warpStopped(sm *smT, w *warpT) {
	slot := w.blk.slot
	slot.Finish(w.idx)
	switch {
	case slot.Done(w.idx):
		s.warpExit(sm, w)
	case slot.WaitingAtBarrier(w.idx):
		w.atBar = true
		w.changed()
	}
}

// warpExit retires warp w, which has exited: at once, or, while the L2
// has not taken its global stores, when it has. The H100 keeps an exited
// warp resident until then (ncu's stall reason drain; testdata/timing/blocks:
// a warp whose stores wait behind the L2's read-modify-writes stays 5200
// cycles after its exit, as long as a __threadfence after the same stores
// takes; after stores the L2 takes at once, 43 cycles, as after none), and
// its block's place is not free before.
func (s *gridState) warpExit(sm *smT, w *warpT) {
	if w.done || w.draining {
		return
	}
	if s.p.StoreDrain && w.stored > sm.now && !(isFut(w.stored) && s.takenSoon(sm, w)) {
		s.touchSM(sm)
		w.draining, w.exitAt = true, sm.now
		w.changed()
		w.blk.draining++
		sm.drainers++
		s.releaseBarriers(w.blk)
		w.sp.check = min(w.sp.check, s.drained(sm, w))
		return
	}
	s.warpDone(sm, w)
}

// takenSoon says whether warp w's stores, which the replay has not
// answered yet, are taken by the L2 by now as far as the SM can tell: the
// stores of the last replay that ran any, two quanta ago or before, waited
// (on the mean) no longer than the time since w's last store left the SM.
// Then the warp retires at once, without waiting for the answer to come
// (up to two quanta late); without such stores it waits for the answer.
func (s *gridState) takenSoon(sm *smT, w *warpT) bool {
	l := s.lastLag[(sm.cur+1)%3]
	return l.n > 0 && w.lastLeft+uint64(l.sum/float64(l.n)) <= sm.now
}

// drained is when draining warp w can next be looked at: the cycle the L2
// takes its last store, or, while the replay has not said, the start of
// the quantum that will know. Once that cycle has come it retires the
// warp, as of that cycle: a warp whose stores were taken before the
// quantum that learnt it was counted active too long (its warp-cycles are
// taken back; its SM's active cycles, which other warps may have shared,
// are not), and its block's end is that cycle (exact while a block's
// place is free later than two quanta after its end: BlockRetireNS +
// BlockLaunch on the H100).
func (s *gridState) drained(sm *smT, w *warpT) uint64 {
	t := w.stored
	if isFut(t) {
		at := sm.end
		if arenaOf(t) == sm.cur {
			at += s.quantum
		}
		return at
	}
	if t > sm.now {
		return t
	}
	w.draining = false
	w.changed()
	w.blk.draining--
	end := max(t, w.exitAt)
	s.warpDoneAt(sm, w, end)
	sm.drainers--
	// warpDone counted it up to now; and the SM active up to now, which
	// no other warp was since busyUntil.
	sm.warpCyc -= sm.now - end
	sm.drainEnd = max(sm.drainEnd, end)
	if sm.resident == sm.waiting {
		if from := max(sm.drainEnd, sm.busyUntil); from < sm.now {
			sm.activeCy -= sm.now - from
		}
	}
	return math.MaxUint64
}

// warpDone retires warp w from its SM's residency and lets its block's
// barriers see it gone.
func (s *gridState) warpDone(sm *smT, w *warpT) {
	s.warpDoneAt(sm, w, sm.now)
}

// warpDoneAt is warpDone for a warp that was done at cycle at (at most
// now: drained).
func (s *gridState) warpDoneAt(sm *smT, w *warpT, at uint64) {
	if !w.done {
		w.done = true
		w.changed()
		w.blk.endAt = max(w.blk.endAt, at)
		s.touchSM(sm)
		sm.resident--
		sm.retire = true
	}
	s.releaseBarriers(w.blk)
}

// execute steps warp w at sm.now and charges its time: the stalls since it
// last issued, its issue slots, its pipe and its result's latency
// (complete), and what its event does to the warp.
func (s *gridState) execute(sm *smT, sp *spT, w *warpT) {
	in := w.next
	slots := uint64(execSlots(in, s.p))
	var st stallSpan
	s.chargeStalls(sm, sp, w, in, slots, &st)
	slot := w.blk.slot
	if in.Op == ir.OpMovSreg {
		// Only a special register's read sees the clock (%clock,
		// %clock64, %globaltimer): the clock is set for it alone.
		slot.SetClock(sm.now, s.nanos(sm.now))
	}
	rec := &sm.rec
	if in.Op == ir.OpDevRT {
		// (Only such a step runs grids inside it: one thread then.)
		s.d.syncEnd = 0
	}
	slot.Step(w.idx, rec)
	w.fn, w.pc = rec.Func, rec.PC
	if s.pcs != nil {
		s.chargePC(w, &st, slots)
	}
	if w.chain.n > 0 && (in.Class == ir.ClassBarrier || in.Class == ir.ClassBranch && !predicatedBranch(s.p, in) && !unrolledBackEdge(s.p, w, in)) {
		// A block's end: the next MMA reads the accumulators from the
		// registers (TensorPipe.ChainLatency).
		w.chain.n, w.chain.next = 0, 0
	}
	if ir.UnrolledBra(in, s.p.UnrollFree) {
		countUnrolled(w, in)
	}
	sm.steps++
	sm.issued += slots
	w.lastIssue = sm.now + slots - 1
	w.ready, w.readyWhy = sm.now+slots, stallDispatch
	if slots > 1 {
		sp.busy = sm.now + slots
	}
	w.next, w.depValid = nil, false
	w.changed()
	if rec.Event == engine.EventNone {
		// Its next instruction, asked now while the warp's state is in
		// the host's caches (readyAtSlow would ask when the scheduler next
		// looks at it: the same answer, since only the warp's own steps
		// change what a running warp executes next). nil: readyAtSlow
		// asks again, and handles a warp that stopped.
		w.next = slot.Next(w.idx)
	}
	sp.last = w
	s.complete(sm, sp, w, in, rec, slots)
	if in.Op == ir.OpVprintf && s.p.Printf.CallNS > 0 {
		s.printfCall(sm, w, rec)
	}
	s.event(sm, w, in, rec)
	s.foldMovs(sm, w)
}

// foldMovs steps the movs ptxas removes (ir.MovFolded, Params.MovFold)
// and the wmma.mma it computes once (ir.TensorOperands.RepeatOf,
// Params.WmmaRepeats) that are warp w's next instructions, as it reaches
// them: no issue slot, no pipe, no latency; the register each writes is
// ready when its source is (a repeat's: the earlier MMA's, forwarded to
// the next MMA as that one's are), and waits as its source does (its
// producer's kind), a lazily read parameter staying lazy in it.
func (s *gridState) foldMovs(sm *smT, w *warpT) {
	if !s.p.MovFold && !s.p.WmmaRepeats && !s.p.UnrollOverhead {
		return
	}
	for w.next != nil && !w.done && !w.draining && !w.atBar {
		in := w.next
		switch {
		case s.p.MovFold && in.Op == ir.OpMov && in.Mode == ir.MovFolded:
			foldMov(sm, w, in)
		case s.p.UnrollOverhead && in.Op == ir.OpBra && unrolledBackEdge(s.p, w, in):
			countUnrolled(w, in)
		case s.p.UnrollOverhead && in.Mode == ir.UnrollStep && (in.Op == ir.OpAdd || in.Op == ir.OpSub || in.Op == ir.OpSetp):
			if !s.foldStep(sm, w, in) {
				return
			}
		case s.p.WmmaRepeats && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaMMA:
			f, _ := w.blk.slot.NextAt(w.idx)
			if f == nil || int(in.Imm) >= len(f.TensorOps) || f.TensorOps[in.Imm].RepeatOf == 0 {
				return
			}
			orig := &f.Code[f.TensorOps[in.Imm].RepeatOf-1]
			for i, d := range in.D {
				a := orig.D[i]
				if d < 0 || int(d) >= len(w.regReady) || a < 0 || int(a) >= len(w.regReady) {
					continue
				}
				w.regReady[d], w.regKind[d] = w.regReady[a], w.regKind[a]
				sm.keep(&w.regReady[d])
				if w.chain.n > 0 {
					w.chain.copyReg(&sm.smQuantum, d, a)
				}
			}
		default:
			return
		}
		rec := &sm.rec
		slot := w.blk.slot
		slot.Step(w.idx, rec)
		w.fn, w.pc = rec.Func, rec.PC
		sm.steps++
		w.next, w.depValid = nil, false
		w.changed()
		if rec.Event != engine.EventNone {
			s.event(sm, w, in, rec)
			return
		}
		w.next = slot.Next(w.idx)
	}
}

// countUnrolled counts warp w's arrival at in, the back edge of a loop
// ptxas unrolls again (unrolledBackEdge).
func countUnrolled(w *warpT, in *ir.Inst) {
	if w.unrollAt != in {
		w.unrollAt, w.unrollN = in, 0
	}
	w.unrollN++
}

// foldStep folds in, warp w's next instruction, the counter step or
// compare of a loop ptxas unrolls again (ir.UnrollStep,
// Params.UnrollOverhead), where this PTX body does not end ptxas's
// unrolled body: the register it writes is ready when its sources are.
// False: it issues (the body's end, or a source a lazily read parameter).
func (s *gridState) foldStep(sm *smT, w *warpT, in *ir.Inst) bool {
	if in.Guard >= 0 {
		return false
	}
	f, pc := w.blk.slot.NextAt(w.idx)
	if f == nil {
		return false
	}
	q := ir.UnrolledBackEdge(f, pc)
	if q < 0 || !unrolledBackEdge(s.p, w, &f.Code[q]) {
		return false
	}
	at, kind := uint64(0), prodFixed
	for _, a := range in.A[:2] {
		if a < 0 || int(a) >= len(w.regReady) {
			continue
		}
		if w.lazyRegs&lazyBit(a) != 0 {
			return false
		}
		if r := w.regReady[a]; isFut(r) || r > at {
			kind = w.regKind[a]
		}
		at = sm.fmax(at, w.regReady[a])
	}
	dropLazy(w, in)
	for _, d := range in.D[:2] {
		if d >= 0 && int(d) < len(w.regReady) {
			w.regReady[d], w.regKind[d] = at, kind
			sm.keep(&w.regReady[d])
		}
	}
	return true
}

// foldMov sets the register a folded mov writes: ready when its source
// is, of its source's kind, a lazily read parameter staying lazy in it.
func foldMov(sm *smT, w *warpT, in *ir.Inst) {
	d, a := in.D[0], in.A[0]
	if d < 0 || int(d) >= len(w.regReady) {
		return
	}
	dropLazy(w, in)
	at, kind := uint64(0), prodFixed
	if a >= 0 && int(a) < len(w.regReady) {
		at, kind = w.regReady[a], w.regKind[a]
		for _, l := range w.lazy {
			if l.reg == a {
				w.lazy = append(w.lazy, lazyParam{d, l.off})
				w.lazyRegs |= lazyBit(d)
				break
			}
		}
	}
	w.regReady[d], w.regKind[d] = at, kind
	sm.keep(&w.regReady[d])
}

// throttleReason is the stall of a warp waiting for class c's pipe to
// take its instruction, as Nsight Compute names it: lg_throttle for the
// LSU's global and local accesses; mio_throttle for the instructions the
// SM sub-partition hands to the shared MIO unit through its MIO queue
// (MUFU, conversions, shuffles and the other warp-wide operations, shared
// memory), whose queue is what fills when their pipe is saturated;
// math_pipe_throttle for the ALU, FMA, fp64 and integer-multiply pipes.
// The H100 recordings of the throughput microbenchmarks say so
// (testdata/timing/h100/calibration.csv: tput_ex2, tput_rsqrt, tput_cvt
// and tput_shfl stall on mio_throttle, tput_iadd, tput_imad and tput_dfma
// on math_pipe_throttle; TestMIOThrottleAsOnH100).
func throttleReason(c ir.Class) uint8 {
	switch c {
	case ir.ClassLdGlobal, ir.ClassStGlobal, ir.ClassLocal, ir.ClassAtomic:
		return stallLGThrottle
	case ir.ClassSFU, ir.ClassConv, ir.ClassWarp, ir.ClassShared:
		return stallMIOThrottle
	}
	return stallMathPipeThrottle
}

// stallSpan is what chargeStalls charged for one issue besides the issue
// itself, kept to charge the instruction with it (chargePC).
type stallSpan struct {
	bar, dep, pipe  uint64
	fetch           uint64
	depWhy, pipeWhy uint8
}

// chargeStalls charges the warp-cycles from the cycle after warp w last
// issued (or was released from a barrier) until it issues in at sm.now:
// waiting for its operands (the reason depReady gives),
// then for in's pipe (throttleReason) or for the scheduler to pick it
// (not_selected); and the issue itself (selected, one cycle per issue
// slot). It says what it charged in st.
func (s *gridState) chargeStalls(sm *smT, sp *spT, w *warpT, in *ir.Inst, slots uint64, st *stallSpan) {
	st.bar, w.barWait = w.barWait, 0 // (charged to the grid at the release)
	dep, why := s.depReady(w)
	from := w.lastIssue + 1
	if w.fetchIn == in && w.fetchAt > from {
		// Its instruction's line was not in the cache yet.
		f := min(w.fetchAt, sm.now)
		sm.stalls[stallNoInstruction] += f - from
		st.fetch = f - from
		from = f
	}
	if dep > from {
		sm.stalls[why] += dep - from
		st.dep, st.depWhy = dep-from, why
		from = dep
	}
	if sm.now > from {
		reason := uint8(stallNotSelected)
		if p := sp.pipe[in.Class]; p > from {
			reason = throttleReason(in.Class)
		}
		sm.stalls[reason] += sm.now - from
		st.pipe, st.pipeWhy = sm.now-from, reason
	}
	sm.stalls[stallSelected] += slots
}

// chargePC charges what chargeStalls charged to the instruction warp w
// issued (stalls by instruction; called after Step, which says which it
// was): a warp's stalls go to the instruction it waits to issue, its wait
// at a barrier to the instruction after the barrier.
func (s *gridState) chargePC(w *warpT, st *stallSpan, slots uint64) {
	// Rows are shared by the SMs: sums, in any order.
	row := s.pcRow(w)
	atomic.AddUint64(&row[stallBarrier], st.bar)
	atomic.AddUint64(&row[stallNoInstruction], st.fetch)
	atomic.AddUint64(&row[st.depWhy], st.dep)
	atomic.AddUint64(&row[st.pipeWhy], st.pipe)
	atomic.AddUint64(&row[stallSelected], slots)
}

// event applies what the instruction did besides computing to warp w:
// exits, barriers, calls, device-side launches and synchronizations, grid
// barriers, and a branch's resolution.
func (s *gridState) event(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord) {
	p := s.p
	switch rec.Event {
	case engine.EventExit:
		s.warpExit(sm, w)
		if s.cl != nil {
			s.clusterExit(w.blk, sm.now)
		}
	case engine.EventBarrier:
		w.atBar = true
		w.changed()
		s.releaseBarriers(w.blk)
	case engine.EventCall, engine.EventReturn:
		// A new frame: the scoreboard drains (its registers are others).
		t := sm.now + 1
		for i, r := range w.regReady {
			t = sm.fmax(t, r)
			w.regReady[i] = 0
		}
		w.ready, w.readyWhy = t, stallWait
		sm.keep(&w.ready)
	case engine.EventDevLaunch:
		for _, l := range rec.Launches {
			l.At, l.Timed = s.base+sm.now, true
			s.launched = append(s.launched, l)
		}
		w.ready, w.readyWhy = sm.now+uint64(p.DeviceLaunch), stallSleeping
	case engine.EventDevSync:
		// The children ran inside the step (Driver.RunGrid, nested): the
		// warp goes on when the last of them ended.
		t := sm.now
		if e := s.d.syncEnd; e > s.base+t {
			t = e - s.base
		}
		w.ready, w.readyWhy = t+uint64(p.DeviceSyncNS*p.ClockHz/1e9), stallSleeping
	}
	if in.Op == ir.OpCluster {
		s.clusterEvent(sm, w, in, rec)
	}
	if rec.GridReleased {
		s.releaseGrid(sm.now)
		w.ready = sm.fmax(w.ready, sm.now+s.gridSyncCycles())
		sm.keep(&w.ready)
	}
	if in.Class == ir.ClassBranch && rec.Event == engine.EventNone {
		w.ready, w.readyWhy = sm.now+uint64(p.Latency[ir.ClassBranch]), stallBranchResolving
	}
}

// gridSyncNS is what one grid.sync() of a cooperative grid took on the
// H100, from the last block's arrival to every warp going on, as this
// model counts it: 1.12 µs per barrier for 132 blocks of 256 threads
// (testdata/coop/timing/grid_sync_time.h100.txt), the arrivals' atomics and
// the spin on the barrier word in L2.
const gridSyncNS = 1118

func (s *gridState) gridSyncCycles() uint64 { return uint64(gridSyncNS * s.p.ClockHz / 1e9) }

// releaseGrid readies the warps of every block that a completed grid
// barrier (cooperative groups' grid.sync()) let go at cycle now,
// gridSyncNS later; it reports whether there were any. (A cooperative grid
// runs its SMs on one thread.)
func (s *gridState) releaseGrid(now uint64) bool {
	s.gridWaiters = s.gridWaiters[:0]
	for _, sm := range s.sms {
		for _, b := range sm.blocks {
			n := len(s.gridWaiters)
			for _, w := range b.warps {
				if w.atBar && !b.slot.WaitingAtBarrier(w.idx) {
					s.gridWaiters = append(s.gridWaiters, w)
				}
			}
			if len(s.gridWaiters) > n {
				s.releaseBarriers(b)
			}
		}
	}
	ready := now + s.gridSyncCycles()
	for _, w := range s.gridWaiters {
		sm := w.blk.sm
		w.ready = sm.fmax(w.ready, ready)
		sm.keep(&w.ready)
	}
	released := len(s.gridWaiters) > 0
	s.gridReleased = s.gridReleased || released
	return released
}

// releaseBarriers readies the warps of b that a barrier let go, the
// barrier's latency after now.
func (s *gridState) releaseBarriers(b *blockT) {
	s.releaseAt(b, b.sm.now+uint64(s.p.BarrierLatency))
}

// releaseAt readies the warps of b that a barrier let go at cycle ready
// (a cluster barrier's release may come from another SM, whose clock is
// before or after b's).
func (s *gridState) releaseAt(b *blockT, ready uint64) {
	sm := b.sm
	for _, w := range b.warps {
		if w.atBar && !b.slot.WaitingAtBarrier(w.idx) {
			w.atBar = false
			w.ready, w.readyWhy = ready, stallBarrier
			w.next, w.depValid = nil, false
			w.changed()
			// The wait at the barrier itself counts as barrier stall.
			if w.lastIssue+1 < sm.now {
				sm.stalls[stallBarrier] += sm.now - (w.lastIssue + 1)
				w.barWait += sm.now - (w.lastIssue + 1)
				w.lastIssue = sm.now - 1
			}
			w.sp.check = min(w.sp.check, w.ready)
		}
	}
}

// pcRow is the stalls account of the instruction warp w issued last
// (called after Step: the one it is issuing, which its stalls are charged
// to), or nil when stalls by instruction are off.
func (s *gridState) pcRow(w *warpT) *[numStalls]uint64 {
	if s.pcs == nil {
		return nil
	}
	f := s.pcs[w.fn]
	if f == nil {
		f = make([][numStalls]uint64, len(s.g.Funcs()[w.fn].Code))
		s.pcs[w.fn] = f
	}
	return &f[w.pc]
}

// pcStalls lists the stalls by instruction, by function name and pc, each
// scaled as the grid's (a sampled grid's by the blocks' ratio): reason by
// reason, the scaled values are rounded down and the rest of the grid's
// total given one warp-cycle at a time to the largest remainders (ties to
// the earlier instruction), so that they sum to total exactly.
func (s *gridState) pcStalls(scale float64, total []uint64) []engine.PCStall {
	funcs := s.g.Funcs()
	var out []engine.PCStall
	var raw [][numStalls]uint64
	for fi, rows := range s.pcs {
		for pc := range rows {
			if rows[pc] != ([numStalls]uint64{}) {
				out = append(out, engine.PCStall{Func: funcs[fi].Name, PC: pc, Stalls: make([]uint64, numStalls)})
				raw = append(raw, rows[pc])
			}
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := out[order[a]], out[order[b]]
		return x.Func < y.Func || x.Func == y.Func && x.PC < y.PC
	})
	sorted := make([]engine.PCStall, len(out))
	rawSorted := make([][numStalls]uint64, len(out))
	for i, k := range order {
		sorted[i], rawSorted[i] = out[k], raw[k]
	}
	frac := make([]float64, len(sorted))
	idx := make([]int, len(sorted))
	for r := 0; r < numStalls; r++ {
		var sum uint64
		for i := range sorted {
			v := float64(rawSorted[i][r]) * scale
			sorted[i].Stalls[r] = uint64(v)
			frac[i] = v - math.Floor(v)
			sum += sorted[i].Stalls[r]
		}
		if sum == total[r] || len(idx) == 0 {
			continue
		}
		for i := range idx {
			idx[i] = i
		}
		if sum < total[r] {
			sort.SliceStable(idx, func(a, b int) bool { return frac[idx[a]] > frac[idx[b]] })
			for k := 0; sum < total[r]; k = (k + 1) % len(idx) {
				sorted[idx[k]].Stalls[r]++
				sum++
			}
			continue
		}
		sort.SliceStable(idx, func(a, b int) bool { return frac[idx[a]] < frac[idx[b]] })
		for k := 0; sum > total[r]; k = (k + 1) % len(idx) {
			if sorted[idx[k]].Stalls[r] > 0 {
				sorted[idx[k]].Stalls[r]--
				sum--
			}
		}
	}
	return sorted
}
