// The scoreboard and the pipes: a warp's next instruction waits until the
// registers it reads are written (depReady: long_scoreboard for memory
// producers, short_scoreboard for MUFU, shuffles, shared memory and S2R,
// wait for fixed-latency ones) and until its class's pipe on the
// sub-partition is free again (Params.Interval cycles per instruction:
// 32 lanes over the pipe's width); complete charges an issued
// instruction's pipe and latency. slots.go says how many issue slots and
// what dependent chain the PTX instructions ptxas expands take.

package timing

import (
	"math"
	"slices"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
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
		return w.dep, w.depWhy
	}
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
		if in.Op == ir.OpRed && in.Space != ptx.SpaceShared && s.p != nil && s.p.RedWindow > 0 {
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

// complete occupies in's pipe on sp for its issue interval and marks the
// registers in writes ready when its result is: a fixed latency per class
// (S2R's own), or what the memory system says for a global access (load,
// store, atomic), the shared-memory pipe's wavefronts for a shared one, an
// L1 hit for a local one; an instruction ptxas expands takes its issue
// slots and its dependent chain. The producer's kind (long: memory; short:
// MUFU, shuffles, shared memory, S2R; fixed) is the stall its consumers
// show.
func (s *gridState) complete(sm *smT, sp *spT, w *warpT, in *ir.Inst, rec *engine.StepRecord, slots uint64) {
	p := s.p
	interval, lat32 := p.Interval[in.Class], p.Latency[in.Class]
	if in.Class == ir.ClassTensor {
		interval, lat32 = s.tensorIssue(sm, sp, w, in)
	}
	sp.pipe[in.Class] = sm.now + uint64(interval)
	lat := uint64(lat32)
	// mem is when a global access's or a shared one's result is there (a
	// future while the L2 side has not answered); 0: lat says.
	var mem uint64
	kind := prodFixed
	switch in.Class {
	case ir.ClassSFU, ir.ClassWarp:
		kind = prodShort
	}
	if in.Op == ir.OpMovSreg {
		lat, kind = uint64(p.SregLatency), prodShort
	}
	if in.Op == ir.OpShfl && p.ShflImmLatency > 0 && s.immOperand(rec.Func, in.A[1]) {
		lat = uint64(p.ShflImmLatency)
	}
	if in.Op == ir.OpShfl && p.HoistShfl {
		kind = prodShfl
	}
	if in.Op == ir.OpAsync && in.Mode == ir.AsyncCopy {
		if p.CpAsyncWarpCycles > 0 {
			w.cpAsyncNext = sm.now + uint64(p.CpAsyncWarpCycles*float64(min(rec.Wavefronts, cpAsyncWarpWavefronts)+1)+0.5)
		}
		if rec.Space != engine.SpaceGlobal && p.CpAsyncQueueCycles > 0 {
			// A zero fill (src-size 0) reads no line but takes the L1's
			// data path as a copy does (testdata/timing/f16mm,
			// inflight_mb.cu: issued at a copy's rate; ../ldgsts: Triton's
			// zero-filled B copies, 8 wavefronts each).
			mem = sm.l1q.take(sm.now, cpAsyncL1Bytes(p, rec, true, 0))
		}
	}
	switch rec.Space {
	case engine.SpaceGlobal:
		if in.Op == ir.OpAtom || in.Op == ir.OpRed {
			mem = s.atomic(sm, in, rec)
			s.atomicLanes(sm, in, rec)
			if casLoop16(in) {
				mem = s.casRounds(sm, w, in, rec, mem)
			}
			if n := min(s.p.RedWindow, maxRedWindow); n > 0 && in.Op == ir.OpRed {
				w.redsDone[w.redNext%n] = mem
				sm.keep(&w.redsDone[w.redNext%n])
				w.redNext++
			}
			if in.Agg == ir.AggFullWarp && rec.Exec == 0xffffffff {
				// The full warp's scan: lane 31's ATOM, then a SHFL.IDX of
				// its result to every lane, which waits for it.
				w.ready, w.readyWhy = sm.fmax(w.ready, mem), stallLongScoreboard
				sm.keep(&w.ready)
			}
		} else if in.Op == ir.OpAsync && in.Mode == ir.AsyncTensormapCopy {
			// tensormap.cp_fenceproxy writes the map's line with an atomic
			// exchange a lane (ATOMG.E.EXCH: testdata/timing/tmcold); the
			// acquire waits for them to be done at the L2 (tensormapTiming),
			// after a DRAM fetch when the line is not in the L2.
			mem = s.atomicAck(sm, in, rec)
		} else if rec.Store {
			data := dataReady(sm, w, in)
			w.storeData = sm.fmax(w.storeData, data)
			sm.keep(&w.storeData)
			w.gstoreData = sm.fmax(w.gstoreData, data)
			sm.keep(&w.gstoreData)
			var taken, left uint64
			if len(rec.Parts) == 0 {
				// (eachPart's one call, without the closure: most stores.)
				t, l := s.store(sm, rec, data)
				taken, left = sm.fmax(taken, t), max(left, l)
			} else {
				eachPart(rec, func() {
					t, l := s.store(sm, rec, data)
					taken, left = sm.fmax(taken, t), max(left, l)
				})
			}
			w.stored = sm.fmax(w.stored, taken)
			sm.keep(&w.stored)
			w.lastLeft = left
			if n := s.p.StoreWindow; n > 0 {
				w.storesLeft[w.storeNext%n] = left
				w.storeNext++
			}
		} else if in.Op == ir.OpAsync && in.Mode == ir.AsyncCopy {
			// cp.async is a load through the SM's L1 into shared memory
			// (LDGSTS): .ca keeps its lines in L1, .cg reads through the
			// L2 (testdata/timing/cpasync: from L1 a round of a warp's
			// eight coalesced copies takes 116 cycles, through the L2 297);
			// it holds the L1's data path longer than a load (cpAsyncL1Bytes).
			l1 := sm.l1
			if funcs := s.g.Funcs(); int(rec.Func) < len(funcs) && int(in.Imm) < len(funcs[rec.Func].TensorOps) &&
				funcs[rec.Func].TensorOps[in.Imm].BypassL1 {
				sm.l1 = nil
			}
			mem = s.loadTaking(sm, rec, cpAsyncL1Bytes(p, rec, sm.l1 == nil, missingLines(sm.l1, rec.Sectors)), p.L2AccessBytes)
			sm.l1 = l1
		} else if in.Op == ir.OpAsync {
			// A TMA or bulk copy into shared memory reads through the
			// L2, not the SM's L1 (mbarrier.go waits for it).
			l1 := sm.l1
			sm.l1 = nil
			mem = s.tmaCopy(sm, rec, s.load(sm, rec))
			sm.l1 = l1
			if rec.TensorMap != 0 && !sm.holdsTensorMap(rec.TensorMap) {
				mem = sm.fadd(mem, uint64(p.TensorMapFetchCycles))
			}
		} else if in.Space == ptx.SpaceConst && p.ConstBlockBytes > 32 {
			mem = s.constLoad(sm, rec)
		} else {
			// A load the L1 does not keep (.cg, .cv, a strong load beyond
			// the CTA: ir.LdL2Only; ptxas's LDG.E.STRONG.GPU) is read from
			// the L2 every time (testdata/timing/tlb: the H100's
			// ld.global.cg chase over 16 lines takes an L2 hit's ~290
			// cycles a step), its lines taking the L2 their sectors'
			// bytes: mech.cu's rowreuse_cg, whose every request re-reads 32
			// lines from the L2, takes the H100 what the plain rowreuse
			// takes from its L1 (16.1 µs at k32, 49.8 at k128 against 53.5;
			// testdata/timing/mechanisms), where L2AccessBytes a line would
			// make it 50–75% slower.
			l1, lookup := sm.l1, p.L2AccessBytes
			if in.Op == ir.OpLd && in.Mode == ir.LdL2Only {
				sm.l1, lookup = nil, 0
			}
			if g, a := s.wmmaGroups(rec, in); g > 1 {
				mem = sm.fmax(mem, s.groupRounds(sm, rec, a, g, lookup))
			} else if len(rec.Parts) == 0 {
				// (eachPart's one call, without the closure: most loads.)
				mem = sm.fmax(mem, s.loadTaking(sm, rec, loadL1Bytes(p, sm.l1, rec.Sectors), lookup))
			} else {
				eachPart(rec, func() {
					mem = sm.fmax(mem, s.loadTaking(sm, rec, loadL1Bytes(p, sm.l1, rec.Sectors), lookup))
				})
			}
			sm.l1 = l1
			if p.LoadWarpCycles > 0 && in.Op == ir.OpLd {
				w.loadNext = sm.now + uint64(p.LoadWarpCycles*float64(countLines(rec.Sectors)+1)+0.5)
			}
			if n := min(p.LoadWindow, maxLoadWindow); n > 0 && in.Op == ir.OpLd {
				w.loadsDone[w.loadCount%n] = mem
				sm.keep(&w.loadsDone[w.loadCount%n])
				w.loadCount++
			}
		}
		kind = prodLong
	case engine.SpaceShared:
		// One wavefront per SM per cycle; each extra wavefront of a
		// conflicted access adds to its latency.
		wf := uint64(max(rec.Wavefronts, 1))
		start := sm.fmax(sm.now, sm.shared)
		if rec.Store && (in.Op == ir.OpSt || in.Op == ir.OpRed) {
			// A shared store waits for its data in the pipeline, and the
			// warp waits for it at the end of the basic block.
			data := dataReady(sm, w, in)
			w.storeData = sm.fmax(w.storeData, data)
			sm.keep(&w.storeData)
			start = sm.fmax(start, data)
		}
		sm.shared = sm.fadd(start, wf)
		sm.keep(&sm.shared)
		if p.SharedWarpCycles > 0 && len(rec.Parts) <= 1 {
			// The warp's accesses reach the pipe in order, each one's
			// wavefronts SharedWarpCycles apart: this one after the
			// warp's last one's. The pipe's rate is charged above (its
			// one wavefront a cycle is shared by the warps: their
			// wavefronts interleave).
			start = sm.fmax(start, w.sharedFeed)
			w.sharedFeed = sm.fadd(start, uint64(p.SharedWarpCycles)*wf)
			sm.keep(&w.sharedFeed)
		}
		if n := len(rec.Parts); n > 1 {
			// A wmma.load/store's requests (an LDSM's matrices) go
			// through the pipe one after another: the last one's
			// conflicts add to the latency.
			last := uint64(max(rec.Parts[n-1], 1))
			start, wf = sm.fadd(start, wf-last), last
		}
		mem = sm.fadd(start, uint64(p.SharedLatency)+uint64(p.SharedConflict)*(wf-1))
		if rec.RemoteLanes > 0 {
			mem = s.remoteShared(sm, w, in, rec, start)
		}
		kind = prodShort
	case engine.SpaceLocal:
		lat = uint64(p.L1HitLatency)
		kind = prodLong
		if rec.Store && in.Op == ir.OpSt {
			w.storeData = sm.fmax(w.storeData, dataReady(sm, w, in))
			sm.keep(&w.storeData)
		}
	}
	if len(rec.Parts) > 0 && p.LoadWarpCycles > 0 && wmmaMemOp(in) {
		w.loadNext = sm.now + uint64(wmmaWarpCycles(p, rec)+0.5)
	}
	if in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaLoad && mem != 0 {
		if funcs := s.g.Funcs(); int(rec.Func) < len(funcs) && int(in.Imm) < len(funcs[rec.Func].TensorOps) {
			if r := wmmaRounds(p, &funcs[rec.Func].TensorOps[in.Imm].Access); r > 1 {
				// ptxas's order inside the step (ir.markWmmaRounds): the
				// fragment's later loads go out when the earlier ones'
				// data is back and their consumers have run (the rounds
				// groupRounds sent through the memory system already
				// counted).
				round := uint64(p.L2HitLatency + 0.5)
				if rec.Space == engine.SpaceShared {
					round = uint64(p.SharedLatency)
				}
				if g, _ := s.wmmaGroups(rec, in); g > 1 {
					r -= g - 1
				}
				mem = sm.fadd(mem, uint64(r-1)*round)
			}
			if m := funcs[rec.Func].TensorOps[in.Imm].Access.Movm; m > 0 {
				// A fragment stored the other way round from the MMA's
				// is transposed a register at a time (MOVM.16.MT88, a
				// shuffle-like exchange: the warp pipe's interval and
				// latency) once its loads are back. Measured on the H100
				// (testdata/programs3/wmmamem): f16 A column-major from
				// global memory, 16 warps, 36.6 cycles a wmma.load an SM
				// against row-major's 32.2 (four MOVM at 4 cycles a
				// sub-partition); one warp's dependent chain 24 cycles
				// longer. Each MOVM also takes the SM's data path (the
				// L1's, which shared memory's crossbar is) a wavefront:
				// the 16-warp rows' 4.4 cycles more an SM.
				sm.l1q.take(sm.now, float64(m)*float64(p.L1BytesPerCycle))
				iv := uint64(p.Interval[ir.ClassWarp])
				at := max(sm.now, sp.pipe[ir.ClassWarp])
				sp.pipe[ir.ClassWarp] = at + uint64(m)*iv
				mem = sm.fadd(mem, uint64(m-1)*iv+uint64(p.Latency[ir.ClassWarp]))
			}
		}
	}
	lazyNow := false
	if off, ok := bank0Offset(p, in, rec); ok && w.blk != nil {
		// A parameter, %ntid or %nctaid: the block's constant cache. A
		// parameter on a line the block has not asked for is read where
		// it is first used (lazyParams).
		if in.Op == ir.OpLd && !hasLine(w.blk, off/uint64(p.ParamChunkBytes)) {
			dropLazy(w, in)
			lazyNow = true
			for _, r := range in.D {
				if r >= 0 && int(r) < len(w.regReady) {
					w.lazy = append(w.lazy, lazyParam{r, off})
					w.lazyRegs |= lazyBit(r)
				}
			}
		} else {
			mem, kind = bank0Read(p, w.blk, sm.now, lat, off), prodShort
		}
	} else if line, ok := s.symbolAddr(p, in); ok && w.blk != nil {
		// A global variable's address: the module's bank of addresses.
		at := symbolRead(p, w.blk, len(s.sms), sm.now, lat, line)
		if mem == 0 {
			mem = at
		} else {
			// An access through the symbol: its address first.
			mem = sm.fadd(mem, at-sm.now)
		}
		if kind == prodFixed {
			kind = prodShort
		}
	}
	if in.Op == ir.OpMembar && p.SharedWarpCycles > 0 && w.sharedFeed != 0 {
		// A fence (ptxas's MEMBAR; fence.proxy.async's MEMBAR.ALL.CTA and
		// FENCE.VIEW.ASYNC.S) waits for the warp's shared accesses to be
		// done: its last one's wavefronts sent (SharedWarpCycles).
		w.ready, w.readyWhy = sm.fmax(w.ready, w.sharedFeed), stallShortScoreboard
		sm.keep(&w.ready)
	}
	if in.Order != 0 && (in.Op == ir.OpAtom || in.Op == ir.OpRed || in.Op == ir.OpMembar) {
		mem = s.ordering(sm, w, in, mem)
	}
	if in.Op == ir.OpAsync || in.Op == ir.OpMembar {
		s.tensormapTiming(sm, w, in, rec, mem)
	}
	if kind == prodFixed && mem == 0 && p.HoistFixed[in.Class] {
		kind = prodChain
	}
	start := sm.now
	chainOnly := false
	if p.HoistLoads && s.hoistable(in) {
		// An arithmetic instruction issued before the loads it consumes
		// returned (depReady let it: ptxas would have scheduled the
		// block's later loads above it) starts when they have; its
		// consumers wait as for a load, and the warp at the block's end.
		// Till then the loads' registers are held (holdLoads).
		if r := srcReady(sm, w, in); r > start {
			if kind == prodChain && !lateLoadOperand(sm, w, in) {
				// Ahead of a fixed-latency result only (HoistFixed):
				// ptxas's code issues it when that result is there, and
				// the block's end (its last instruction) comes after that
				// issue, not after its result.
				chainOnly = true
				start = r
				w.chainIssued = max(w.chainIssued, r)
			} else if s.hoistWords > 0 {
				if funcs := s.g.Funcs(); int(rec.Func) < len(funcs) {
					holdLoads(sm, w, in, funcs[rec.Func], r)
				}
			}
			if !chainOnly {
				start, kind = r, prodHoisted
			}
		}
	}
	if p.WmmaReuse && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaMMA {
		w.mmaStart = start
		sm.keep(&w.mmaStart)
	}
	done := sm.fadd(start, slots-1+lat)
	if mem != 0 {
		done = sm.fadd(mem, slots-1)
	}
	if xu := intDivXU(in, p); xu > 0 {
		// Its XU operations queue behind the sub-partition's earlier XU
		// work (divisions, MUFU, conversions); the result is the chain's
		// after the sequence starts, and no sooner than the steps after
		// its last XU operation (divTail) after that operation.
		at := max(sm.now, sp.pipe[ir.ClassConv], sp.pipe[ir.ClassSFU])
		if !isFut(start) {
			at = max(at, start)
		}
		sp.pipe[ir.ClassConv], sp.pipe[ir.ClassSFU] = at+xu, at+xu
		done = sm.fmax(done, sm.fadd(start, uint64(chainLatency(in, p))))
		done = sm.fmax(done, at+xu+divTail(in, p))
	} else if slots > 1 {
		done = sm.fmax(done, sm.fadd(start, uint64(chainLatency(in, p))))
	}
	if hold := seqHold(in, p); hold > 0 {
		// ptxas's subroutine for a directed rounding form, or its inline
		// IEEE sequence with its branch around the slow path: the warp
		// runs it once its operands are there and its earlier calls have
		// returned, and issues nothing else until it is done.
		w.slowEnd = sm.fadd(sm.fmax(start, w.slowEnd), uint64(hold))
		if in.Op == ir.OpLibcall {
			// A libdevice routine's MUFU and double-precision operations
			// queue on the sub-partition's XU and FP64 pipes behind other
			// warps' (the routine's first at the call): it returns no
			// sooner than its last leaves them.
			at := sm.now
			if !isFut(start) {
				at = max(at, start)
			}
			c := &p.Libcall[in.Mode]
			for _, q := range [...]struct {
				class ir.Class
				n     uint32
			}{{ir.ClassSFU, c.XU}, {ir.ClassFP64, c.FP64}} {
				if q.n > 0 {
					from := max(at, sp.pipe[q.class])
					sp.pipe[q.class] = from + uint64(q.n)*uint64(p.Interval[q.class])
					w.slowEnd = sm.fmax(w.slowEnd, sp.pipe[q.class])
				}
			}
		}
		sm.keep(&w.slowEnd)
		w.ready = sm.fmax(w.ready, w.slowEnd)
		sm.keep(&w.ready)
		done = sm.fmax(done, w.slowEnd)
	}
	if slow := slowPathCycles(p, rec.SlowPaths); slow > 0 {
		// ptxas's subroutine for the lanes the inline sequence cannot
		// serve: once its operands are there (start: a hoisted division
		// waits for its loads first) and the warp's earlier calls have
		// returned, the warp runs it before it goes on, and the result
		// comes from it.
		w.slowEnd = sm.fadd(sm.fmax(start, w.slowEnd), slots+slow)
		sm.keep(&w.slowEnd)
		w.ready = sm.fmax(w.ready, w.slowEnd)
		sm.keep(&w.ready)
		done = sm.fmax(sm.fadd(done, slow), w.slowEnd)
	}
	if start != sm.now && !chainOnly {
		w.hoisted = sm.fmax(w.hoisted, done)
		sm.keep(&w.hoisted)
	}
	if in.Op == ir.OpTensor && (in.Mode == ir.TensorWgmma || in.Mode == ir.TensorWgmmaSync) {
		// wgmma is asynchronous: its accumulators are the warp's again
		// only after the wait_group that covers it (tensor.go).
		wgmmaGroup(sm, w, in, done)
		return
	}
	if in.Op == ir.OpAsync {
		s.asyncGroup(sm, w, in, rec.Func, done)
		s.bulkGroup(sm, w, in, rec)
		s.mbarrierTiming(sm, w, in, rec, done)
	}
	if len(w.lazy) > 0 && !lazyNow {
		dropLazy(w, in)
	}
	for _, r := range in.D {
		if r >= 0 && int(r) < len(w.regReady) {
			w.regReady[r] = done
			w.regKind[r] = kind
			sm.keep(&w.regReady[r])
		}
	}
	if w.chainAt != 0 && in.Op == ir.OpTensor && in.Mode == ir.TensorWmmaMMA {
		// Its accumulator, forwarded to the next MMA of the block
		// (TensorPipe.ChainLatency), from when it started (a future when
		// its operands were: HoistLoads).
		at := sm.fadd(start, w.chainAt-sm.now)
		for _, r := range in.D {
			if r >= 0 && int(r) < len(w.regReady) {
				w.chain.add(&sm.smQuantum, r, at, done)
			}
		}
	}
}

// tensormapTiming charges a device-side tensor map's instructions: each
// tensormap.replace holds the warp, tensormap.cp_fenceproxy's copy has
// reached the L2 when its atomic's answer is back (mem; an L2 round trip
// when the record has no global line), and fence.proxy.tensormap's acquire
// waits for it. A replace under a guard some lanes pass is a branch region
// in ptxas's code, which costs TensormapGuardCycles more.
func (s *gridState) tensormapTiming(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord, mem uint64) {
	p := s.p
	switch {
	case in.Op == ir.OpAsync && in.Mode == ir.AsyncTensormapReplace:
		c := uint64(p.TensormapReplaceCycles)
		if in.Guard >= 0 && rec.Exec != 0 {
			c += uint64(p.TensormapGuardCycles)
		}
		w.ready = max(w.ready, sm.now+c)
	case in.Op == ir.OpAsync && in.Mode == ir.AsyncTensormapCopy:
		w.ready = max(w.ready, sm.now+uint64(p.TensormapCopyCycles))
		if mem == 0 {
			mem = sm.now + uint64(p.L2HitLatency)
		}
		w.tmapRelease = mem
		sm.keep(&w.tmapRelease)
	case in.Op == ir.OpMembar && in.Mode == ir.MembarTensormapAcquire:
		// The copy's answer itself, not a new future made of it (which the
		// warp would wait for until the quantum after next, late): a
		// future is later than any cycle of this quantum (quantum.go).
		r := w.tmapRelease
		if !isFut(r) {
			r = max(r, sm.now+uint64(p.TensormapAcquireCycles))
		}
		if isFut(w.ready) || w.ready > sm.now {
			r = sm.fmax(w.ready, r)
		}
		w.ready, w.readyWhy = r, stallLongScoreboard
		sm.keep(&w.ready)
		// The map may have changed: the SM's TMA unit fetches it again at
		// its next use (testdata/timing/bulkwait, MODE 1). The model does
		// not track which map the fence names: it forgets them all.
		sm.tmaps = [len(sm.tmaps)]uint64{}
	}
}

// cpAsyncL1Bytes is what a cp.async (LDGSTS) takes of the L1's data path
// (in bytes of L1BytesPerCycle; testdata/timing/ldgsts, cpasync): at least
// CpAsyncCycles, and CpAsyncWavefrontCycles for each wavefront of its
// shared-memory writes (the record's Wavefronts: its lanes taken a global
// line at a time, bank conflicts within a line costing a wavefront each)
// plus CpAsyncIssueCycles; a .ca copy (through the L1) moves its bytes at
// CpAsyncBytesPerCycle and takes CpAsyncLineCycles for each line it
// allocates (missing lines, the missing ones of the L1).
func cpAsyncL1Bytes(p *Params, rec *engine.StepRecord, bypass bool, missing int) float64 {
	c := p.CpAsyncCycles
	if rec.Wavefronts > 0 && p.CpAsyncWavefrontCycles > 0 {
		c = max(c, float64(rec.Wavefronts)*p.CpAsyncWavefrontCycles+p.CpAsyncIssueCycles)
	}
	if !bypass {
		if p.CpAsyncBytesPerCycle > 0 {
			c = max(c, float64(rec.Bytes)/p.CpAsyncBytesPerCycle)
		}
		c = max(c, float64(missing)*p.CpAsyncLineCycles)
	}
	return max(l1DataBytes(p, rec.Sectors), c*float64(p.L1BytesPerCycle))
}

// constLoad times an ld.const (its data in global memory, as the engine
// keeps it): the constant caches fetch a ConstBlockBytes block for a miss,
// so the load asks for every sector of the blocks it touches
// (testdata/timing/syncmem, const_mb.cu: a chain through __constant__
// memory 64 bytes a step misses once in four steps, 128 bytes a step
// every other step, 256 bytes every step, each miss from DRAM 649-747
// cycles, from the L2 about 320).
func (s *gridState) constLoad(sm *smT, rec *engine.StepRecord) uint64 {
	per := uint64(s.p.ConstBlockBytes / 32)
	secs := sm.constSecs[:0]
	for _, sec := range rec.Sectors {
		b := sec / per * per
		if n := len(secs); n >= int(per) && secs[n-int(per)] == b {
			continue // the block just added
		}
		seen := false
		for i := 0; i < len(secs); i += int(per) {
			seen = seen || secs[i] == b
		}
		if !seen {
			for k := uint64(0); k < per; k++ {
				secs = append(secs, b+k)
			}
		}
	}
	sm.constSecs = secs
	orig := rec.Sectors
	rec.Sectors = secs
	sm.inConst = true
	mem := s.load(sm, rec)
	sm.inConst = false
	rec.Sectors = orig
	return mem
}

// lines counts the 128-byte lines of sectors (first-touch order, a
// line's sectors together).
func lines(sectors []uint64) int {
	n := 0
	for i := range sectors {
		if i == 0 || sectors[i]>>2 != sectors[i-1]>>2 {
			n++
		}
	}
	return n
}

// missingLines counts the lines of sectors (in first-touch order, a
// line's sectors together) of which the L1 c lacks a sector.
func missingLines(c *cache, sectors []uint64) int {
	if c == nil {
		return 0
	}
	n := 0
	for i := 0; i < len(sectors); {
		line, miss := sectors[i]>>2, false
		for ; i < len(sectors) && sectors[i]>>2 == line; i++ {
			miss = miss || !c.holds(sectors[i])
		}
		if miss {
			n++
		}
	}
	return n
}

// loadL1Bytes is what a global load into registers takes of the L1's
// data path (in bytes of L1BytesPerCycle): its sectors that miss the L1
// (every sector with no L1) at LoadMissBytesPerCycle, or its bytes and
// wavefronts (l1DataBytes) when more. Measured on the H100
// (testdata/timing/coldlines, coldlines_mb.cu's k_burst: one block of 1
// to 8 warps reading 4 to 256 128-byte lines at once, 16 bytes a lane):
// after the first few dozen requests an SM's loads leave at about two
// cycles a line, from the L2 and from DRAM alike (eight warps' 64 loads
// of four lines issue in 345-404 cycles, the last value of 256 lines from
// the L2 is back 871-942 cycles in where one line takes 348), where a hit
// takes one (testdata/timing/mechanisms2: l1wave); the model had a
// block's 256 lines leave in 256 cycles. Charged by the sector, not the
// line: the calibration's tiled matmuls, whose loads read half lines,
// were 2 points slower at two cycles a line (the bursts read whole
// lines and cannot tell). And at least LoadMissLineCycles for each line it
// misses: one sector of each of 32 lines takes an SM 32 cycles on the
// GH100 (testdata/timing/l1reuse, miss_rowsx: one data-stage wavefront,
// 16 cycles at 64 bytes a cycle), a whole line's four sectors the two
// that the rate gives. cp.async (cpAsyncL1Bytes) and
// the TMA unit's copies have their own rates.
func loadL1Bytes(p *Params, l1 *cache, sectors []uint64) float64 {
	n := l1DataBytes(p, sectors)
	if p.LoadMissBytesPerCycle <= 0 || len(sectors) == 0 {
		return n
	}
	m, lines, last := 0, 0, ^uint64(0) // the sectors that miss the L1, and their lines
	for _, sec := range sectors {
		if l1 != nil && l1.holds(sec) {
			continue
		}
		m++
		if sec>>2 != last {
			lines, last = lines+1, sec>>2
		}
	}
	miss := max(float64(m*32)/p.LoadMissBytesPerCycle, float64(lines)*p.LoadMissLineCycles)
	return max(n, miss*float64(p.L1BytesPerCycle))
}

// countLines is the number of 128-byte lines sectors (in line order, as
// a request's are) touch.
func countLines(sectors []uint64) int {
	m := 0
	for i := 0; i < len(sectors); m++ {
		line := sectors[i] >> 2
		for ; i < len(sectors) && sectors[i]>>2 == line; i++ {
		}
	}
	return m
}

// atomicLanes holds the SM's global atomics while it sends this one's
// addresses (AtomicLaneCycles each), an aggregated one's at least
// AtomicInstCycles (an atom of 32 bits, of 64 bits; a red): no
// sub-partition issues another before they have gone.
func (s *gridState) atomicLanes(sm *smT, in *ir.Inst, rec *engine.StepRecord) {
	p := s.p
	c := p.AtomicLaneCycles
	if c == 0 || vecAtomRest(in) {
		return // a vector atomic's lanes went with its first element
	}
	hold := float64(max(rec.AddrDistinct, 1)) * c
	agg := warpAggregated(in, rec)
	if in.Op == ir.OpRed && !agg && p.RedInstCycles > 0 {
		// A red goes to the L2 a line at a time (testdata/timing/syncmem:
		// one warp's red on a line of its own every 6.4 cycles, on 32
		// lines every 30.6; an atom on one line every 36.4).
		hold = max(float64(lines(rec.Sectors))*c, p.RedInstCycles)
	}
	if agg {
		switch {
		case in.Op == ir.OpRed:
			hold = max(hold, p.AtomicInstCycles[2])
		case ir.TypeSize(in.Type) >= 8:
			hold = max(hold, p.AtomicInstCycles[1])
		default:
			hold = max(hold, p.AtomicInstCycles[0])
		}
	}
	sm.atomics = max(sm.atomics, sm.now) + uint64(math.Ceil(hold))
	for i := range sm.sps {
		sm.sps[i].pipe[ir.ClassAtomic] = max(sm.sps[i].pipe[ir.ClassAtomic], sm.atomics)
	}
}

// ordering charges an instruction's memory order (ir.Order*): a fence, and
// the release half of an atomic's order, holds the warp for its scope's
// fence (the atomic leaves after it, so its result comes as much later);
// an acquiring atomic's warp waits for the result. mem is the atomic's
// result (a cycle or a future); ordering returns it as delayed.
func (s *gridState) ordering(sm *smT, w *warpT, in *ir.Inst, mem uint64) uint64 {
	p := s.p
	fence := uint64(fenceCycles(in, p))
	if in.Op == ir.OpMembar || in.Order&ir.OrderRelease != 0 && !vecAtomRest(in) {
		from := sm.now
		if p.StoreSectorCycles > 0 && in.Order&(ir.OrderSys|ir.OrderGPU|ir.OrderCluster) != 0 && w.lastLeft > from && !isFut(w.lastLeft) {
			// Its fence orders the warp's stores still queued at the SM's
			// store port after them (testdata/timing/stld: a membar.gl
			// ends 700 cycles after the port sent the last one).
			from = w.lastLeft
		}
		w.ready, w.readyWhy = sm.fmax(w.ready, from+fence), stallLongScoreboard
		sm.keep(&w.ready)
		if mem != 0 {
			mem = sm.fadd(mem, fence)
		}
	}
	if in.Op != ir.OpMembar && in.Order&ir.OrderAcquire != 0 && mem != 0 && !vecAtomMore(w, in) {
		w.ready, w.readyWhy = sm.fmax(w.ready, mem), stallLongScoreboard
		sm.keep(&w.ready)
	}
	return mem
}

// A vector atomic (sm_90's atom/red .v2/.v4.f32 on global memory) is one
// SASS instruction, one request of 8 or 16 bytes a lane, which the
// lowering makes one scalar element after another (Inst.Vec: the
// element). Its order applies to the instruction: the release fence before
// the first element, the acquire wait after the last; and the SM's atomic
// path sends a lane's address once. Measured on the H100
// (testdata/triton3/study, ncu over splitk_f16_atomic): sm_90's PTX, 128
// atom.acq_rel.gpu.add.v4.f32 warp instructions, took 768 L2 atomic
// requests and 74.6 k warp-cycles of membar stalls where sm_80's, 512
// scalar atomics over the same addresses, took 3,072 and 326 k: a fence an
// instruction, not an element (11.6 µs against 29.1).

// casLoop16 says whether in is a 16-bit floating-point atomic that ptxas
// makes a compare-and-swap loop on the 4-byte word holding it (the SM has
// no scalar f16 or bf16 atomic; f16x2 and bf16x2 it has). The sm_90 SASS
// of atom.acq_rel.gpu.add.noftz.f16 (testdata/triton3/study,
// atomic_f16_bf16): an LDG of the word, then a loop of HADD2, PRMT,
// MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR, ATOMG.E.CAS.STRONG.GPU, CCTL.IVALL,
// ISETP and BRA until the word held what the lane read.
func casLoop16(in *ir.Inst) bool {
	return in.Op == ir.OpAtom && (in.Type == ptx.F16 || in.Type == ptx.BF16) && in.Mode != ir.AtomCas && in.Mode != ir.AtomExch
}

// wmmaRounds is how many memory round trips a wmma.load's fragment takes
// to reach its MMA (ir.WmmaAccess.Rounds, WmmaRounds): 1 where ptxas
// loads it with the step's other loads — outside a loop under
// WmmaRoundsLoopOnly (ir.WmmaAccess.Reuse false).
func wmmaRounds(p *Params, a *ir.WmmaAccess) int {
	if !p.WmmaRounds || p.WmmaRoundsLoopOnly && !a.Reuse {
		return 1
	}
	return a.Rounds
}

// wmmaGroups is how many groups of its requests a global wmma.load sends
// one after another (ir.WmmaAccess.Groups, WmmaGroupRounds), and its
// access: 1 when they all go out at once.
func (s *gridState) wmmaGroups(rec *engine.StepRecord, in *ir.Inst) (int, *ir.WmmaAccess) {
	p := s.p
	if !p.WmmaRounds || !p.WmmaGroupRounds || in.Op != ir.OpTensor || in.Mode != ir.TensorWmmaLoad || rec.Space != engine.SpaceGlobal {
		return 1, nil
	}
	funcs := s.g.Funcs()
	if int(rec.Func) >= len(funcs) || int(in.Imm) >= len(funcs[rec.Func].TensorOps) {
		return 1, nil
	}
	a := &funcs[rec.Func].TensorOps[in.Imm].Access
	g := a.Groups
	if wmmaRounds(p, a) < 2 || g < 2 || len(rec.Parts) < g || a.Slices && !p.WmmaSliceGroups {
		return 1, nil
	}
	return g, a
}

// groupRounds sends a wmma.load's requests (rec.Parts) in g groups, each
// through the L1 and the L2 when the data of the group before is back, as
// ptxas's SASS does where it packs each group's bytes before it loads the
// next (wg.sass, gg of s8: four LDG.E.U8, IMAD, four more, IMAD, PRMT):
// a later group that reads lines no earlier one touched waits for their
// fetch from DRAM. It returns when the last group's data is back.
func (s *gridState) groupRounds(sm *smT, rec *engine.StepRecord, a *ir.WmmaAccess, g int, lookup float64) uint64 {
	p := s.p
	parts, secs, bytes := rec.Parts, rec.Sectors, rec.Bytes
	rec.Bytes = bytes / uint32(len(parts))
	var after, mem uint64
	for k := range g {
		var done uint64
		off := 0
		for i, n := range parts {
			if a.Group(i, len(parts), g) == k {
				rec.Sectors = secs[off : off+int(n)]
				done = sm.fmax(done, s.loadTakingAfter(sm, rec, loadL1Bytes(p, sm.l1, rec.Sectors), lookup, after))
			}
			off += int(n)
		}
		after, mem = done, done
	}
	rec.Sectors, rec.Bytes = secs, bytes
	return mem
}

// casRounds charges a 16-bit atomic's compare-and-swap loop (casLoop16):
// the word's load before it (an L2 round trip) and, lanes on one word
// succeeding one a round (rec.AddrMaxDup: the most lanes on one word), a
// round more for each further lane, each its release fence (the MEMBAR is
// in the loop) and its CAS's round trip. The warp waits for the loop
// whatever the atomic's order: its branch reads the CAS's result. On the
// H100 the study half's atomic_f16_bf16 took 414 ATOMG requests for 128
// warp-level atomics (ncu, sm_90 PTX: 3.2 rounds each; the rounds another
// warp's CAS on the word causes are atomicL2's).
func (s *gridState) casRounds(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord, mem uint64) uint64 {
	p := s.p
	extra := p.L2HitLatency + float64(max(rec.AddrMaxDup, 1)-1)*casRound(in, p)
	mem = sm.fadd(mem, uint64(extra+0.5))
	w.ready, w.readyWhy = sm.fmax(w.ready, mem), stallLongScoreboard
	sm.keep(&w.ready)
	return mem
}

// casRound is a 16-bit atomic's compare-and-swap round: the CAS's answer
// back at the SM, its release fence (the MEMBAR is in the loop) and the
// next CAS's way to the L2. CAS loops of other warps on a word serialize a
// round a success (atomicL2): on the H100 (testdata/triton3/study/slow,
// f16_w1…w8, f16_b2, b4: warps or blocks each with 8 atomics, lane l on
// word l) two warps take 5.5 µs longer than one, 688 ns (1,093 cycles) a
// further atomic (two blocks 6.6 µs), four 16.8 µs, eight 38.8 µs: about a
// round a further warp's atomic.
func casRound(in *ir.Inst, p *Params) float64 {
	per := p.L2HitLatency + p.AtomicReturnCycles
	if in.Order&ir.OrderRelease != 0 {
		per += float64(fenceCycles(in, p))
	}
	return per
}

// fenceCycles is the fence of in's scope (ordering).
func fenceCycles(in *ir.Inst, p *Params) uint32 {
	switch {
	case in.Order&ir.OrderSys != 0:
		return p.FenceSys
	case in.Order&(ir.OrderGPU|ir.OrderCluster) != 0:
		return p.FenceGPU
	}
	return p.FenceCTA
}

// vecAtomRest says whether in is a vector atomic's element after its
// first.
func vecAtomRest(in *ir.Inst) bool {
	return in.Vec > 0 && (in.Op == ir.OpAtom || in.Op == ir.OpRed)
}

// vecAtomMore says whether the warp's next instruction is a later element
// of the vector atomic whose element in is.
func vecAtomMore(w *warpT, in *ir.Inst) bool {
	n := w.next
	return n != nil && (in.Op == ir.OpAtom || in.Op == ir.OpRed) && n.Op == in.Op && n.Vec == in.Vec+1
}

// immOperand says whether slot is one of function fn's constants (an
// immediate operand in the PTX).
func (s *gridState) immOperand(fn int32, slot int32) bool {
	funcs := s.g.Funcs()
	if int(fn) >= len(funcs) || fn < 0 {
		return false
	}
	for _, c := range funcs[fn].Consts {
		if c.Slot == slot {
			return true
		}
	}
	return false
}

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
	if p == nil || !p.HoistLoads || p.LoopUnroll <= 1 || in.Op != ir.OpBra || in.Mode != ir.BraUnrolled {
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
