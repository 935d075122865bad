// The scoreboard and the pipes: a warp's next instruction waits until the
// registers it reads are written (depReady: long_scoreboard for memory
// producers, short_scoreboard for MUFU, shuffles, shared memory and S2R,
// wait for fixed-latency ones) and until its class's pipe on the
// sub-partition is free again (Params.Interval cycles per instruction:
// 32 lanes over the pipe's width). This file holds those gates;
// complete (scoreboard_complete.go) charges an issued instruction's pipe
// and latency, scoreboard_memory.go what a memory instruction takes of the
// L1, the atomic path and fences, scoreboard_hoist.go the scheduling of
// ptxas's the model follows (if-converted branches, unrolled loops, loads
// hoisted as far as registers allow). slots.go says how many issue slots
// and what dependent chain the PTX instructions ptxas expands take.

package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// register producer kinds, for the stall a dependent instruction shows.
const (
	prodFixed uint8 = iota
	prodLong
	prodShort
	// prodHoisted: arithmetic issued ahead of the loads it consumes
	// (HoistLoads), whose consumers wait as for a load.
	prodHoisted
	// prodShfl: a shuffle's result under Params.HoistShfl, whose
	// consumers ptxas schedules as those of a load (they wait as for
	// short_scoreboard).
	prodShfl
	// prodChain: a fixed-latency result of a class ptxas list-schedules
	// (Params.HoistFixed), whose consumers of such a class issue ahead of
	// it.
	prodChain
)

// maxStoreWindow bounds Params.StoreWindow, maxRedWindow
// Params.RedWindow.
const (
	maxStoreWindow = 8
	maxRedWindow   = 64
	maxLoadWindow  = 64
)

// loadGate is when warp w may issue its next global load: when the data
// of its load LoadWindow loads back has come (a cycle, or a future: the
// L2's answer). One warp keeps only so many loads in flight: on the H100
// a thread's 48 to 128 independent loads of distinct lines take an L2
// hit's latency for every 32 of them, a DRAM read's for every 26 to 32,
// where a warp's 32 lanes reading a line each keep hundreds of lines in
// flight (testdata/timing/inflight; programs9's gramschmidt_kernel1, one
// thread with ptxas's 80 loads a loop body).
func (s *gridState) loadGate(w *warpT) uint64 {
	n := min(s.p.LoadWindow, maxLoadWindow)
	if n <= 0 || w.loadCount < n {
		return 0
	}
	return w.loadsDone[w.loadCount%n]
}

// redGate is when warp w may issue its next global red: when the L2 has
// performed its red RedWindow reds back (a cycle, or a future: the L2's
// answer). A loop of reds runs at the SM's pace until the L2 falls
// behind, then at the L2's (testdata/timing/syncmem, red_mb.cu: 132 SMs
// of 16 warps updating lines of their own take 281 cycles a red a warp
// where one SM's warps take 79).
func (s *gridState) redGate(w *warpT) uint64 {
	n := min(s.p.RedWindow, maxRedWindow)
	if n <= 0 || w.redNext < n {
		return 0
	}
	return w.redsDone[w.redNext%n]
}

// storeGate is when warp w may issue its next global store: when the L2
// has taken its store StoreWindow stores back. The H100 keeps only so many
// of a warp's stores waiting for the L2 (the rest wait in the warp,
// lg_throttle), so that when the L2 is behind, every warp's stores go in
// turn and all of them wait till near the end (testdata/timing/blocks:
// st32's blocks of 256 all live until the kernel's end, 47% occupancy,
// not one warp after another). The L2's answers come a replay later, so
// the wait is estimated: when that store left the SM plus the mean wait
// of the stores of the last replay that ran any, two quanta ago or
// before (lastLag), a cycle.
func (s *gridState) storeGate(w *warpT) uint64 {
	n := s.p.StoreWindow
	if w.storeNext < n {
		return 0
	}
	l := s.lastLag[(w.blk.sm.cur+1)%3]
	if l.n == 0 {
		return 0
	}
	return w.storesLeft[w.storeNext%n] + uint64(l.sum/float64(l.n))
}

// end raises *t (or *fut) to e, a cycle or a future, if e is later, and
// says whether it did.
func end(e uint64, t, fut *uint64) bool {
	if e <= *t {
		return false
	}
	if isFut(e) {
		*fut = e
	} else {
		*t = e
	}
	return true
}

// depReady is when warp w's next instruction's operands are ready, and
// why it waits until then; a future (quantum.go) when one of them waits
// for the L2 side's answer, which says only "not in this quantum".
func (s *gridState) depReady(w *warpT) (uint64, uint8) {
	if w.depValid {
		// (Inlined where it is called: the stalls read it again.)
		return w.dep, w.depWhy
	}
	return s.depCompute(w)
}

// depCompute is depReady for a warp whose operands' cycle is not known.
func (s *gridState) depCompute(w *warpT) (uint64, uint8) {
	t, why := w.ready, w.readyWhy
	var fut uint64
	if isFut(t) {
		fut, t = t, 0
	}
	in := w.next
	hoist := s.p != nil && s.p.HoistLoads && s.hoistable(in)
	chained := w.chain.n > 0 && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaMMA
	check := func(r int32) {
		if r >= 0 && int(r) < len(w.regReady) && w.regReady[r] > t {
			if hoist && (w.regKind[r] == prodLong || w.regKind[r] == prodHoisted || w.regKind[r] == prodShfl ||
				w.regKind[r] == prodChain && s.p.HoistFixed[in.Class]) {
				// Waits in the pipeline, not in the warp (complete).
				return
			}
			at := w.regReady[r]
			if chained {
				// An accumulator the MMA before forwards
				// (TensorPipe.ChainLatency).
				if at = w.chain.ready(r, at); at <= t {
					return
				}
			}
			if isFut(at) {
				fut, why = at, stallLongScoreboard
				return
			}
			t = at
			switch w.regKind[r] {
			case prodLong, prodHoisted:
				why = stallLongScoreboard
			case prodShort, prodShfl:
				why = stallShortScoreboard
			default:
				why = stallWait
			}
		}
	}
	check(in.Guard)
	gated := false
	if !plainDeps(in) {
		if in.Class == ir.ClassLdGlobal && in.Op == ir.OpLd && in.Flags&ir.FlagNC == 0 && s.p != nil && s.p.LoadAfterStore &&
			end(w.gstoreData, &t, &fut) {
			// A global load after a global store that may write what it reads
			// (not ld.global.nc: restrict, read-only data) stays after it in
			// ptxas's code, and the store issues only once its data is there
			// (a copy loop's iterations do not overlap).
			why = stallLongScoreboard
		}
		if in.Class == ir.ClassBranch && !predicatedBranch(s.p, in) && !unrolledBackEdge(s.p, w, in) || in.Class == ir.ClassBarrier || readsClock(in) {
			// ptxas moves loads above stores, and above the arithmetic that
			// consumes earlier loads, only within a basic block: at its end
			// the stores' data and that arithmetic's results must be there.
			// A short forward branch that ptxas turns into predicated code
			// (`if (i < n) s += a[i]`) ends no block: its stretch's loads are
			// hoisted with the rest (testdata/timing/mlp: four guarded loads
			// of nvcc's unrolled sum, in flight together on the H100).
			// Nor across a clock read (volatile: CS2R SR_CLOCKLO stays after
			// the stores before it, which issue once their data is there:
			// testdata/timing/tlb's chase, ld.global.cg; st.shared; clock64,
			// takes the load's latency between its clocks on the H100).
			for _, end := range [2]uint64{w.storeData, w.hoisted} {
				if end > t {
					if isFut(end) {
						fut = end
					} else {
						t = end
					}
					why = stallLongScoreboard
				}
			}
			if w.chainIssued > t {
				// The last instruction issued ahead of a fixed-latency
				// result (HoistFixed) waits for it in ptxas's code: the
				// block's end after it waits as that instruction did.
				t, why = w.chainIssued, stallWait
			}
		}
		if w.tensorLast > t && (in.Class == ir.ClassBranch || in.Class == ir.ClassBarrier) {
			// Nor do a warp's MMAs overlap across a basic block's end
			// (TensorPipe.Release).
			t, why = w.tensorLast, stallWait
		}
		if in.Class == ir.ClassStGlobal && in.Op == ir.OpSt && s.p != nil && s.p.StoreWindow > 0 {
			if g := s.storeGate(w); g > t && fut == 0 {
				t, why = g, stallLGThrottle
			}
		}
		if in.Class == ir.ClassStGlobal && in.Op == ir.OpSt && s.p != nil && s.p.StoreQueueCycles > 0 && fut == 0 {
			// The SM's store port has StoreQueueCycles queued at most.
			if q := w.blk.sm.stq.free - s.p.StoreQueueCycles; q > float64(t) {
				t, why = uint64(q), stallLGThrottle
			}
		}
		if s.p != nil && s.p.HoistLoads && s.hoistWords > 0 && w.heldN > 0 && (heldLoad(in) || heldShfl(s.p, in)) {
			// ptxas puts this load (or shuffle) above the consumers of
			// earlier loads and shuffles that the warp issued ahead only
			// while the registers they hold leave it room (registerGate).
			gateWhy := uint8(stallLongScoreboard)
			if in.Op == ir.OpShfl {
				gateWhy = stallShortScoreboard
			}
			if g := s.registerGate(w); isFut(g) {
				fut, why = g, gateWhy
			} else if g > t {
				t, why = g, gateWhy
			}
		}
		if s.p != nil && s.p.WmmaReuse && w.mmaStart != 0 && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaLoad && wmmaReuse(w, in) {
			// ptxas loads this k step's fragment into the registers the
			// step before's MMAs read: after they start.
			if g := w.mmaStart; isFut(g) {
				fut, why = g, stallLongScoreboard
			} else if g > t {
				t, why = g, stallLongScoreboard
			}
		}
		if in.Class == ir.ClassLdGlobal && in.Op == ir.OpLd && s.p != nil && s.p.LoadWindow > 0 {
			if g := s.loadGate(w); isFut(g) {
				fut, why = g, stallLGThrottle
			} else if g > t {
				t, why = g, stallLGThrottle
			}
		}
		if (in.Class == ir.ClassLdGlobal && in.Op == ir.OpLd || wmmaMemOp(in)) && w.loadNext > t && fut == 0 {
			// The LSU takes a warp's load a line at a time (LoadWarpCycles),
			// a wmma.load's or wmma.store's requests too.
			t, why = w.loadNext, stallLGThrottle
		}
		if wmmaMemOp(in) && in.Mode == ir.TensorWmmaStore && s.p != nil && s.p.StoreQueueCycles > 0 && fut == 0 {
			// Its stores wait, as st's do, while the SM's store port (or
			// shared-memory pipe) has StoreQueueCycles queued.
			q := w.blk.sm.stq.free - s.p.StoreQueueCycles
			if sh := float64(w.blk.sm.shared) - s.p.StoreQueueCycles; !isFut(w.blk.sm.shared) && sh > q {
				q = sh
			}
			if q > float64(t) {
				t, why = uint64(q), stallLGThrottle
			}
		}
		if in.Class == ir.ClassShared && in.Op == ir.OpSt && s.p != nil && s.p.StoreQueueCycles > 0 && fut == 0 && !isFut(w.blk.sm.shared) {
			// A shared store waits, as a wmma.store does, while the SM's
			// shared-memory pipe (one wavefront a cycle) has StoreQueueCycles
			// queued: a warp's conflicted stores cannot run ahead of the pipe
			// without bound (testdata/timing/stsconf).
			// So do the warp's own, its wavefronts SharedWarpCycles apart
			// (stsconf2: one warp's 32-way stores 63.4 cycles each).
			sh := w.blk.sm.shared
			if s.p.SharedWarpCycles > 0 && !isFut(w.sharedFeed) && w.sharedFeed > sh {
				sh = w.sharedFeed
			}
			if q := float64(sh) - s.p.StoreQueueCycles; q > float64(t) {
				t, why = uint64(q), stallMIOThrottle
			}
		}
		if in.Op == ir.OpAsync && in.Mode == ir.AsyncCopy && s.p != nil && fut == 0 {
			if g := s.cpAsyncGate(w); g > t {
				// The gate moves as other warps' copies queue: not cached.
				t, why, gated = g, stallLGThrottle, true
			}
		}
		if in.Op == ir.OpRed && in.Space != ptxtype.SpaceShared && s.p != nil && s.p.RedWindow > 0 {
			if g := s.redGate(w); isFut(g) {
				fut, why = g, stallLGThrottle
			} else if g > t {
				t, why = g, stallLGThrottle
			}
		}
	}
	if in.Op == ir.OpSt || in.Op == ir.OpRed {
		// A store issues once its address is known; its data is awaited
		// by the memory pipeline (dataReady). ptxas schedules independent
		// loads above earlier stores, which an in-order run of the PTX can
		// only reproduce by not stalling the warp on the store's data.
		check(in.A[0])
	} else {
		for _, r := range in.A {
			check(r)
		}
	}
	if len(w.lazy) > 0 && fut == 0 && s.p != nil {
		// A parameter's first consumer asks for its line (ptxas reads a
		// parameter where it is used).
		if at := s.lazyParams(w, in, t); at > t {
			t, why = at, stallShortScoreboard
		}
	}
	if fut != 0 {
		t = fut
	}
	w.dep, w.depWhy, w.depValid = t, why, !gated
	w.changed()
	if isFut(t) && w.blk != nil {
		// (begin recomputes it when the future's arena is resolved.)
		q := &w.blk.sm.smQuantum
		q.depWarps[arenaOf(t)] = append(q.depWarps[arenaOf(t)], w)
	}
	return t, why
}

// plainDeps says whether instruction in waits for nothing in depReady but
// its registers (and lazily read parameters): no memory access, branch,
// barrier, clock read, shuffle or tensor operation, none of whose gates
// can apply; depReady skips them at once (the common case).
func plainDeps(in *ir.Inst) bool {
	switch in.Class {
	case ir.ClassLdGlobal, ir.ClassStGlobal, ir.ClassShared, ir.ClassBranch, ir.ClassBarrier:
		return false
	}
	switch in.Op {
	case ir.OpMovSreg, ir.OpLd, ir.OpSt, ir.OpRed, ir.OpShfl, ir.OpTensor, ir.OpAsync:
		return false
	}
	return true
}

// wmmaMemOp says whether in is a wmma.load or wmma.store.
func wmmaMemOp(in *ir.Inst) bool {
	return in.Op == ir.OpTensor && (in.Mode == ir.TensorWmmaLoad || in.Mode == ir.TensorWmmaStore)
}

// wmmaWarpCycles is how long the LSU takes a warp's wmma.load or
// wmma.store, its requests one after another (rec.Parts): LoadWarpCycles
// for each line of a global request, or each wavefront of a shared one
// (an LDSM's matrices each). Measured on the H100
// (testdata/programs3/wmmamem, one warp, four independent fragments an
// iteration): four LDG of eight lines each take 90 cycles a wmma.load,
// an LDSM of four 8-wavefront matrices 82.5, two LDG of eight lines
// 35.0, four STG of eight lines 62.1, where 2.24 a line gives 71.7, 71.7,
// 35.8 and 71.7 (ld's per-request line more, LoadWarpCycles*(lines+1),
// 80.6, 80.6, 40.3 and 80.6: the fit rows came out 2-30% slow with it).
func wmmaWarpCycles(p *Params, rec *engine.StepRecord) float64 {
	n := 0
	if rec.Space == engine.SpaceShared {
		for _, wf := range rec.Parts {
			n += max(int(wf), 1)
		}
	} else {
		eachPart(rec, func() { n += max(countLines(rec.Sectors), 1) })
	}
	return p.LoadWarpCycles * float64(n)
}

// eachPart calls f once for each request of a wmma.load or wmma.store
// (engine.StepRecord.Parts) with rec narrowed to it: its sectors and its
// share of the bytes; once with rec as it is for any other access.
func eachPart(rec *engine.StepRecord, f func()) {
	if len(rec.Parts) == 0 {
		f()
		return
	}
	secs, bytes := rec.Sectors, rec.Bytes
	rec.Bytes = bytes / uint32(len(rec.Parts))
	off := 0
	for _, n := range rec.Parts {
		rec.Sectors = secs[off : off+int(n)]
		f()
		off += int(n)
	}
	rec.Sectors, rec.Bytes = secs, bytes
}

// cpAsyncWarpWavefronts caps the wavefronts CpAsyncWarpCycles counts: a
// warp's copies of 32 wavefronts (testdata/timing/ldgsts, cpasync) take
// 71-75 cycles each with their rounds' waits, the L1's work and the
// warp's next issue overlapping, which the gate and the L1's queue, one
// after the other, would overstate (and the model counts 16 wavefronts
// for Triton's tf32 B copies where Nsight Compute counts 9.6-10).
const cpAsyncWarpWavefronts = 8

// cpAsyncGate is when warp w may issue its next cp.async (LDGSTS):
// CpAsyncWarpCycles for each wavefront of its last one's shared-memory
// writes (at most cpAsyncWarpWavefronts), and one more, after it, and once its SM's L1 data path (the l1q, which
// cpAsyncL1Bytes charges) has no more than CpAsyncQueueCycles of work
// ahead of it. Measured on the H100 (testdata/timing/f16mm,
// inflight_mb.cu): one warp issues a 16-byte copy of four lines (four
// wavefronts) every 11.2 cycles, reading or zero-filling alike (and
// testdata/timing/ldgsts: one warp's copies of 8 and 32 wavefronts 22.5
// and 70.6 cycles each with their round's wait); four and eight warps
// slow to the L1's rate after a few dozen copies an SM, the rest waiting
// in the warps. Without it the model issued a stage of Triton's copies at
// the warps' issue rate and queued the L1's work behind them.
func (s *gridState) cpAsyncGate(w *warpT) uint64 {
	p := s.p
	g := w.cpAsyncNext
	if q := p.CpAsyncQueueCycles; q > 0 {
		if free := w.blk.sm.l1q.free - q; free > float64(g) {
			g = uint64(free)
		}
	}
	return g
}

// srcReady is when the registers instruction in reads (its guard too) are
// ready: a cycle, or a future.

func srcReady(sm *smT, w *warpT, in *ir.Inst) uint64 {
	var t uint64
	if g := in.Guard; g >= 0 && int(g) < len(w.regReady) {
		t = w.regReady[g]
	}
	chained := w.chain.n > 0 && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaMMA
	for _, r := range in.A {
		if r >= 0 && int(r) < len(w.regReady) {
			at := w.regReady[r]
			if chained {
				at = w.chain.ready(r, at)
			}
			t = sm.fmax(t, at)
		}
	}
	return t
}

// readsClock reports whether in reads the SM's clock or the global timer.
func readsClock(in *ir.Inst) bool {
	if in.Op != ir.OpMovSreg {
		return false
	}
	switch ir.Sreg(in.Imm) {
	case ir.SregClock, ir.SregClock64, ir.SregGlobaltimer, ir.SregGlobaltimerLo, ir.SregGlobaltimerHi:
		return true
	}
	return false
}

// dataReady is when the registers a store writes out are ready.
func dataReady(sm *smT, w *warpT, in *ir.Inst) uint64 {
	t := sm.now
	for _, r := range in.A[1:] {
		if r >= 0 && int(r) < len(w.regReady) {
			t = sm.fmax(t, w.regReady[r])
		}
	}
	return t
}

// wmmaReuse says whether in, warp w's next instruction, a wmma.load,
// loads a loop's A or B fragment (ir.WmmaAccess.Reuse).
func wmmaReuse(w *warpT, in *ir.Inst) bool {
	f, _ := w.blk.slot.NextAt(w.idx)
	return f != nil && int(in.Imm) < len(f.TensorOps) && f.TensorOps[in.Imm].Access.Reuse
}
