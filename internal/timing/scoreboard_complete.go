// An issued instruction's account (complete): its pipe, its issue slots and latency, the memory system's answer, and a device-side tensor map's instructions.

package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

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
		} else if in.Space == ptxtype.SpaceConst && p.ConstBlockBytes > 32 {
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
