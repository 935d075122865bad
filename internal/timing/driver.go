// Package timing is warpsim's clock: a cycle-level model of a GPU that
// steps the engine's warps one instruction at a time (engine.BlockSlot)
// and models only time. The block scheduler places blocks on SMs under the
// occupancy calculator's limits; each SM sub-partition's scheduler issues
// at most one instruction a cycle from its ready warps (greedy-then-oldest
// or loose round-robin); a register scoreboard makes dependent
// instructions wait for their producers' latencies; pipes of limited width
// (fp64, MUFU, conversions, integer multiply) throttle issue; memory
// requests go through a per-SM L1, a device-wide L2 and DRAM, with
// latencies and bandwidth-limited queues. Time is integer SM cycles, read
// as nanoseconds at the preset's clock.
//
// The model is single-threaded and processes cycles in order, SMs in index
// order within a cycle, so the same launch gives the same cycles on every
// run and for any number of workers (the functional blocks of a sampled
// grid run in parallel but do not affect time).
package timing

import (
	"math"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// Scheduler policies.
const (
	GTO = "gto" // greedy-then-oldest: keep issuing from the last warp while it can
	LRR = "lrr" // loose round-robin
)

// Options tune the model.
type Options struct {
	Scheduler string // GTO (default) or LRR
	// Sample lets a large grid be timed from its first waves in detail,
	// the rest run functionally and the time extrapolated. Grids of at
	// most SampleWaves+2 waves are always timed in full.
	Sample      bool
	SampleWaves int // waves timed in detail when sampling (default 3)
	// RegsPerThread overrides the kernel's register estimate for the block
	// scheduler's occupancy limit (0: the estimate).
	RegsPerThread func(kernel *ir.Func) int
}

// Driver is the timing driver: it implements engine.Driver and keeps the
// device's state between launches (the L2's contents, the timeline).
type Driver struct {
	arch *arch.Arch
	p    *Params
	opt  Options
	l2   *cache
	dram queue
	l2q  queue
	// Now is the device timeline in cycles: where the next grid starts.
	Now uint64
}

// New returns a timing driver for a preset.
func New(a *arch.Arch, opt Options) *Driver {
	p := ForArch(a)
	if opt.Scheduler == "" {
		opt.Scheduler = GTO
	}
	if opt.SampleWaves <= 0 {
		opt.SampleWaves = 3
	}
	return &Driver{arch: a, p: p, opt: opt,
		l2:   newCache(max(p.L2Bytes, 1<<20), 16),
		dram: queue{bytesPerCycle: p.DRAMBytesPerCycle},
		l2q:  queue{bytesPerCycle: p.L2BytesPerCycle}}
}

// Params are the driver's timing figures.
func (d *Driver) Params() *Params { return d.p }

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
	numStalls
)

// StallNames are the stall reasons' ncu names (smsp__average_warp_latency_issue_stalled_NAME).
var StallNames = []string{"selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait",
	"barrier", "math_pipe_throttle", "lg_throttle", "mio_throttle", "branch_resolving", "dispatch_stall", "sleeping"}

// register producer kinds, for the stall a dependent instruction shows.
const (
	prodFixed uint8 = iota
	prodLong
	prodShort
)

type warpT struct {
	blk   *blockT
	sp    *spT
	idx   int
	age   uint64
	next  *ir.Inst
	ready uint64 // earliest issue of the warp itself (one issue a cycle, barrier release, calls)
	// readyWhy is the stall reason while ready binds.
	readyWhy  uint8
	dep       uint64 // cached: max(ready, the next instruction's sources' ready cycles)
	depWhy    uint8
	depValid  bool
	lastIssue uint64
	done      bool
	atBar     bool
	regReady  []uint64
	regKind   []uint8
}

type blockT struct {
	slot   *engine.BlockSlot
	sm     *smT
	warps  []*warpT
	linear int
	live   int
}

type spT struct {
	warps []*warpT // resident, oldest first
	pipe  [ir.NumClasses]uint64
	last  *warpT
	rr    int
	check uint64 // earliest cycle anything here can issue
	busy  uint64 // the issue port is taken by an expanded instruction until then
}

type smT struct {
	id       int
	sps      []spT
	blocks   []*blockT
	free     []*engine.BlockSlot
	l1       *cache
	l1q      queue
	shared   uint64 // cycle the shared-memory pipe is free
	resident int    // resident warps
	lastT    uint64
	warpCyc  uint64
	activeCy uint64
}

// gridState is one grid being timed.
type gridState struct {
	d        *Driver
	g        *engine.GridRun
	p        *Params
	sms      []*smT
	now      uint64
	nextBlk  int
	limitBlk int // blocks timed in detail
	perSM    int
	wpb      int
	age      uint64
	rec      engine.StepRecord
	steps    int64
	stalls   [numStalls]uint64
	issued   uint64
	dramRd   uint64
	dramWr   uint64
	l2Hit    uint64
	l2Miss   uint64
	nslots   int
	lastDone uint64
}

// RunGrid times one grid. It implements engine.Driver.
func (d *Driver) RunGrid(g *engine.GridRun) error {
	a := d.arch
	fn := g.Kernel()
	regs := fn.RegEstimate
	if fn.MaxNReg > 0 && regs > fn.MaxNReg {
		regs = fn.MaxNReg
	}
	if d.opt.RegsPerThread != nil {
		if r := d.opt.RegsPerThread(fn); r > 0 {
			regs = r
		}
	}
	b := g.Block()
	occ := a.Occupancy(arch.OccupancyInput{BlockSize: int(b[0] * b[1] * b[2]), RegsPerThread: regs,
		StaticShared: g.SharedBytes()})
	perSM := max(occ.BlocksPerSM, 1)
	s := &gridState{d: d, g: g, p: d.p, perSM: perSM, wpb: g.WarpsPerBlock()}
	s.nslots = 0
	for _, f := range []*ir.Func{fn} {
		s.nslots = max(s.nslots, f.NumSlots)
	}
	for _, f := range progFuncs(g) {
		s.nslots = max(s.nslots, f.NumSlots)
	}
	nsm := max(a.SMs, 1)
	s.sms = make([]*smT, nsm)
	for i := range s.sms {
		sm := &smT{id: i, sps: make([]spT, d.p.SubPartitions), l1: newCache(d.p.L1Bytes, 4),
			l1q: queue{bytesPerCycle: float64(d.p.L1BytesPerCycle)}}
		s.sms[i] = sm
	}
	nb := g.Blocks()
	wave := perSM * nsm
	s.limitBlk = nb
	if d.opt.Sample && nb > (d.opt.SampleWaves+2)*wave {
		s.limitBlk = d.opt.SampleWaves * wave
	}
	// The queues and fill times are on the grid's own cycle count; the
	// L2's contents stay warm from the grid before.
	d.dram.free, d.l2q.free = 0, 0
	clear(d.l2.ready)
	err := s.run()
	if err == nil && s.limitBlk < nb {
		err = g.RunFunctional(s.limitBlk)
	}
	s.finish(nb, wave)
	return err
}

// progFuncs lists the functions a kernel may call (for scoreboard sizing).
func progFuncs(g *engine.GridRun) []*ir.Func { return g.Funcs() }

// run is the cycle loop.
func (s *gridState) run() error {
	// The first wave: each SM takes blocks up to its limit, SMs in turn.
	for r := 0; r < s.perSM; r++ {
		for _, sm := range s.sms {
			if s.nextBlk >= s.limitBlk {
				break
			}
			s.startBlock(sm, s.now)
		}
	}
	limit := s.g.StepLimit()
	for {
		if s.g.Stopped() {
			return nil
		}
		issuedAny := false
		next := uint64(math.MaxUint64)
		live := false
		for _, sm := range s.sms {
			if len(sm.blocks) == 0 {
				continue
			}
			live = true
			for i := range sm.sps {
				sp := &sm.sps[i]
				if sp.check > s.now {
					next = min(next, sp.check)
					continue
				}
				if s.issue(sm, sp) {
					issuedAny = true
					sp.check = s.now + 1
				}
				if f := s.fault(); f {
					return nil
				}
				next = min(next, sp.check)
			}
			s.retireBlocks(sm)
		}
		if !live {
			break
		}
		if s.steps > limit {
			for _, sm := range s.sms {
				if len(sm.blocks) > 0 {
					sm.blocks[0].slot.Watchdog()
					return nil
				}
			}
		}
		if issuedAny {
			s.now++
			continue
		}
		if next == math.MaxUint64 {
			// Nothing can ever issue: every live warp waits at a barrier
			// that cannot complete.
			for _, sm := range s.sms {
				for _, b := range sm.blocks {
					b.slot.Deadlocked()
					return nil
				}
			}
			break
		}
		s.now = max(s.now+1, next)
	}
	return nil
}

func (s *gridState) fault() bool {
	return s.rec.Event == engine.EventFault
}

// startBlock places the next block on sm, its warps ready at cycle t plus
// the block launch latency.
func (s *gridState) startBlock(sm *smT, t uint64) {
	var slot *engine.BlockSlot
	if n := len(sm.free); n > 0 {
		slot = sm.free[n-1]
		sm.free = sm.free[:n-1]
	} else {
		slot = s.g.NewSlot()
	}
	s.touchSM(sm)
	slot.Start(s.nextBlk)
	b := &blockT{slot: slot, sm: sm, linear: s.nextBlk, live: slot.Warps()}
	s.nextBlk++
	start := t + uint64(s.p.BlockLaunch)
	// Warps go to sub-partitions round-robin by their index in the SM.
	base := sm.resident
	for i := 0; i < slot.Warps(); i++ {
		s.age++
		w := &warpT{blk: b, idx: i, age: s.age, ready: start, readyWhy: stallDispatch, lastIssue: t}
		w.regReady = make([]uint64, s.nslots)
		w.regKind = make([]uint8, s.nslots)
		b.warps = append(b.warps, w)
		sp := &sm.sps[(base+i)%len(sm.sps)]
		w.sp = sp
		sp.warps = append(sp.warps, w)
		sp.check = min(sp.check, start)
	}
	sm.resident += slot.Warps()
	sm.blocks = append(sm.blocks, b)
}

// touchSM accounts the SM's resident warps up to now (achieved occupancy).
func (s *gridState) touchSM(sm *smT) {
	if s.now > sm.lastT {
		dt := s.now - sm.lastT
		sm.warpCyc += uint64(sm.resident) * dt
		if sm.resident > 0 {
			sm.activeCy += dt
		}
		sm.lastT = s.now
	}
}

// retireBlocks frees the slots of finished blocks and starts new ones.
func (s *gridState) retireBlocks(sm *smT) {
	for i := 0; i < len(sm.blocks); i++ {
		b := sm.blocks[i]
		if b.slot.Live() > 0 {
			continue
		}
		s.touchSM(sm)
		for _, w := range b.warps {
			if !w.done {
				w.done = true
				sm.resident--
			}
		}
		for k := range sm.sps {
			sp := &sm.sps[k]
			j := 0
			for _, w := range sp.warps {
				if w.blk != b {
					sp.warps[j] = w
					j++
				}
			}
			sp.warps = sp.warps[:j]
			if sp.last != nil && sp.last.blk == b {
				sp.last = nil
			}
		}
		sm.blocks = append(sm.blocks[:i], sm.blocks[i+1:]...)
		sm.free = append(sm.free, b.slot)
		i--
		s.lastDone = max(s.lastDone, s.now)
		if s.nextBlk < s.limitBlk {
			s.startBlock(sm, s.now)
		}
	}
}

// depReady is when warp w's next instruction's operands are ready, and
// why it waits until then.
func (s *gridState) depReady(w *warpT) (uint64, uint8) {
	if w.depValid {
		return w.dep, w.depWhy
	}
	t, why := w.ready, w.readyWhy
	in := w.next
	check := func(r int32) {
		if r >= 0 && int(r) < len(w.regReady) && w.regReady[r] > t {
			t = w.regReady[r]
			switch w.regKind[r] {
			case prodLong:
				why = stallLongScoreboard
			case prodShort:
				why = stallShortScoreboard
			default:
				why = stallWait
			}
		}
	}
	check(in.Guard)
	for _, r := range in.A {
		check(r)
	}
	if in.Op == ir.OpSt || in.Op == ir.OpAtom || in.Op == ir.OpRed {
		// Also writes of the destination wait for earlier writes (WAW) —
		// only loads' destinations matter here, already covered.
	}
	w.dep, w.depWhy, w.depValid = t, why, true
	return t, why
}

// issue lets sub-partition sp issue one instruction at s.now, if any warp
// can; it sets sp.check to the next cycle worth looking at otherwise.
func (s *gridState) issue(sm *smT, sp *spT) bool {
	if sp.busy > s.now {
		sp.check = sp.busy
		return false
	}
	best := uint64(math.MaxUint64)
	var pick *warpT
	try := func(w *warpT) bool {
		if w.done || w.atBar {
			return false
		}
		if w.next == nil {
			w.next = w.blk.slot.Next(w.idx)
			w.depValid = false
			if w.next == nil {
				s.warpStopped(sm, w)
				return false
			}
		}
		t, _ := s.depReady(w)
		if p := sp.pipe[w.next.Class]; p > t {
			t = p
		}
		if t <= s.now {
			pick = w
			return true
		}
		best = min(best, t)
		return false
	}
	if s.d.opt.Scheduler == LRR {
		n := len(sp.warps)
		for k := 0; k < n; k++ {
			if try(sp.warps[(sp.rr+k)%n]) {
				sp.rr = (sp.rr + k + 1) % n
				break
			}
		}
	} else {
		if sp.last == nil || !try(sp.last) {
			for _, w := range sp.warps {
				if w != sp.last && try(w) {
					break
				}
			}
		}
	}
	if pick == nil {
		sp.check = best
		return false
	}
	s.execute(sm, sp, pick)
	return true
}

// warpStopped handles a warp whose next instruction is nil: it finished,
// or waits at a barrier.
func (s *gridState) warpStopped(sm *smT, w *warpT) {
	slot := w.blk.slot
	switch {
	case slot.Done(w.idx):
		if !w.done {
			w.done = true
			s.touchSM(sm)
			sm.resident--
		}
		s.releaseBarriers(w.blk)
	case slot.WaitingAtBarrier(w.idx):
		w.atBar = true
	}
}

// execute steps warp w at s.now and charges its time.
func (s *gridState) execute(sm *smT, sp *spT, w *warpT) {
	in := w.next
	dep, why := s.depReady(w)
	// Stall accounting: the cycles since the warp could last issue.
	from := w.lastIssue + 1
	if dep > from {
		s.stalls[why] += dep - from
		from = dep
	}
	if s.now > from {
		reason := uint8(stallNotSelected)
		if p := sp.pipe[in.Class]; p > from {
			reason = stallMathPipeThrottle
			if isMem(in.Class) {
				reason = stallLGThrottle
			}
		}
		s.stalls[reason] += s.now - from
	}
	s.stalls[stallSelected]++
	slot := w.blk.slot
	slot.SetClock(s.now, s.nanos(s.now))
	rec := &s.rec
	slot.Step(w.idx, rec)
	s.steps++
	slots := uint64(issueSlots(in))
	s.issued += slots
	w.lastIssue = s.now + slots - 1
	w.ready, w.readyWhy = s.now+slots, stallDispatch
	if slots > 1 {
		sp.busy = s.now + slots
		s.stalls[stallSelected] += slots - 1
	}
	w.next, w.depValid = nil, false
	sp.last = w
	p := s.p
	sp.pipe[in.Class] = s.now + uint64(p.Interval[in.Class])
	lat := uint64(p.Latency[in.Class])
	kind := prodFixed
	switch in.Class {
	case ir.ClassSFU, ir.ClassWarp:
		kind = prodShort
	}
	switch rec.Space {
	case engine.SpaceGlobal:
		if in.Op == ir.OpAtom || in.Op == ir.OpRed {
			lat = s.atomic(sm, rec)
		} else if rec.Store {
			s.store(sm, rec)
		} else {
			lat = s.load(sm, rec)
		}
		kind = prodLong
	case engine.SpaceShared:
		start := max(s.now, sm.shared)
		sm.shared = start + uint64(max(rec.Wavefronts, 1))
		lat = sm.shared - s.now + uint64(p.SharedLatency)
		kind = prodShort
	case engine.SpaceLocal:
		lat = uint64(p.L1HitLatency)
		kind = prodLong
	}
	done := s.now + slots - 1 + lat
	for _, r := range in.D {
		if r >= 0 && int(r) < len(w.regReady) {
			w.regReady[r] = done
			w.regKind[r] = kind
		}
	}
	switch rec.Event {
	case engine.EventExit:
		if !w.done {
			w.done = true
			s.touchSM(sm)
			sm.resident--
		}
		s.releaseBarriers(w.blk)
	case engine.EventBarrier:
		w.atBar = true
		s.releaseBarriers(w.blk)
	case engine.EventCall, engine.EventReturn:
		// A new frame: the scoreboard drains (its registers are others).
		t := s.now + 1
		for i, r := range w.regReady {
			t = max(t, r)
			w.regReady[i] = 0
		}
		w.ready, w.readyWhy = t, stallWait
	case engine.EventDevLaunch:
		w.ready, w.readyWhy = s.now+uint64(p.DeviceLaunch), stallSleeping
	case engine.EventDevSync:
		w.ready, w.readyWhy = s.now+uint64(p.DeviceSync)+rec.SyncCycles, stallSleeping
	}
	if in.Class == ir.ClassBranch && rec.Event == engine.EventNone {
		w.ready, w.readyWhy = s.now+uint64(p.Latency[ir.ClassBranch]), stallBranchResolving
	}
}

func isMem(c ir.Class) bool {
	switch c {
	case ir.ClassLdGlobal, ir.ClassStGlobal, ir.ClassLocal, ir.ClassAtomic:
		return true
	}
	return false
}

// releaseBarriers readies the warps of b that a barrier let go.
func (s *gridState) releaseBarriers(b *blockT) {
	for _, w := range b.warps {
		if w.atBar && !b.slot.WaitingAtBarrier(w.idx) {
			w.atBar = false
			w.ready, w.readyWhy = s.now+uint64(s.p.BarrierLatency), stallBarrier
			w.next, w.depValid = nil, false
			// The wait at the barrier itself counts as barrier stall.
			if w.lastIssue+1 < s.now {
				s.stalls[stallBarrier] += s.now - (w.lastIssue + 1)
				w.lastIssue = s.now - 1
			}
			w.sp.check = min(w.sp.check, w.ready)
		}
	}
}

// load times a global load: every sector through L1, L2 and DRAM; the
// data is there when the last sector arrives.
func (s *gridState) load(sm *smT, rec *engine.StepRecord) uint64 {
	p := s.p
	d := s.d
	t0 := sm.l1q.take(s.now, float64(len(rec.Sectors)*32))
	done := t0 + uint64(p.L1HitLatency)
	for _, sec := range rec.Sectors {
		if hit, ready := sm.l1.lookup(sec); hit {
			done = max(done, ready, t0+uint64(p.L1HitLatency))
			continue
		}
		var at uint64
		if hit, ready := d.l2.lookup(sec); hit {
			s.l2Hit++
			at = max(d.l2q.take(t0, 32)+uint64(p.L2HitLatency), ready)
		} else {
			s.l2Miss++
			s.dramRd += 32
			at = d.dram.take(t0, 32) + uint64(p.DRAMLatency)
			if ev := d.l2.fill(sec, at, false); ev > 0 {
				s.writeBack(t0, ev)
			}
		}
		sm.l1.fill(sec, at, false)
		done = max(done, at)
	}
	return done - s.now
}

// store writes through L1 to L2 (write-back to DRAM on eviction).
func (s *gridState) store(sm *smT, rec *engine.StepRecord) {
	d := s.d
	t0 := sm.l1q.take(s.now, float64(len(rec.Sectors)*32))
	for _, sec := range rec.Sectors {
		at := d.l2q.take(t0, 32)
		if ev := d.l2.fill(sec, at, true); ev > 0 {
			s.writeBack(t0, ev)
		}
	}
}

// atomic times a global atomic, performed at L2: lanes on one address
// serialize there.
func (s *gridState) atomic(sm *smT, rec *engine.StepRecord) uint64 {
	d := s.d
	p := s.p
	n := max(len(rec.Sectors), 1)
	lanes := popcount(rec.Exec)
	perSector := uint64((lanes + n - 1) / n)
	t0 := sm.l1q.take(s.now, float64(n*32))
	done := t0
	for _, sec := range rec.Sectors {
		at := d.l2q.take(t0, 32*float64(perSector))
		if hit, _ := d.l2.lookup(sec); !hit {
			s.l2Miss++
			s.dramRd += 32
			at = d.dram.take(t0, 32) + uint64(p.DRAMLatency)
		} else {
			s.l2Hit++
		}
		if ev := d.l2.fill(sec, at, true); ev > 0 {
			s.writeBack(t0, ev)
		}
		done = max(done, at+uint64(p.AtomicLatency)+2*perSector)
	}
	return done - s.now
}

func (s *gridState) writeBack(t uint64, sectors int) {
	s.dramWr += uint64(sectors) * 32
	s.d.dram.take(t, float64(sectors*32))
}

func popcount(x uint32) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

func (s *gridState) nanos(cycles uint64) uint64 {
	return uint64(float64(s.d.Now+cycles) * 1e9 / s.p.ClockHz)
}

// finish fills the grid's timing account, extrapolating a sampled grid.
func (s *gridState) finish(nb, wave int) {
	end := s.now
	for _, sm := range s.sms {
		s.now = end
		s.touchSM(sm)
	}
	var warpCyc, active uint64
	for _, sm := range s.sms {
		warpCyc += sm.warpCyc
		active += sm.activeCy
	}
	cycles := end
	scale := 1.0
	sampled := s.limitBlk < nb
	if sampled && s.limitBlk > 0 {
		scale = float64(nb) / float64(s.limitBlk)
		cycles = uint64(float64(end) * scale)
	}
	tm := &engine.GridTiming{
		Cycles: cycles + uint64(s.p.KernelLaunch), StartCycle: s.d.Now,
		WarpCycles: uint64(float64(warpCyc) * scale), ActiveSMCycles: uint64(float64(active) * scale),
		IssueCycles: uint64(float64(s.issued) * scale), SchedCycles: uint64(float64(active)*scale) * uint64(s.p.SubPartitions),
		DRAMReadBytes: uint64(float64(s.dramRd) * scale), DRAMWriteBytes: uint64(float64(s.dramWr) * scale),
		L2Hits: uint64(float64(s.l2Hit) * scale), L2Miss: uint64(float64(s.l2Miss) * scale),
		Stalls: make([]uint64, numStalls), StallNames: StallNames, Sampled: sampled,
		MaxWarpsPerSM: s.d.arch.MaxWarpsPerSM, SMs: len(s.sms), ClockHz: s.p.ClockHz,
	}
	for i, v := range s.stalls {
		tm.Stalls[i] = uint64(float64(v) * scale)
	}
	s.g.Timing = tm
	s.d.Now += tm.Cycles
}
