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
	"slices"

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
	// ClockMHz runs the SMs at this clock instead of the preset's (0: the
	// preset's), as ncu's --clock-control base does.
	ClockMHz float64
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
	// atomBusy is when each L2 sector's atomic unit is next free: atomics
	// to one address serialize there.
	atomBusy map[uint64]float64
	dram     *bucketQueue
	atomQ    *bucketQueue // the L2's atomic units, in updates per cycle
	l2q      *bucketQueue
	// Now is the device timeline in cycles: where the next grid starts.
	Now uint64
	// grids are the grids of the current host launch with when each
	// started and ended (open: still running), for the concurrent-kernel
	// limit; gmu are the cycles the grid management unit started
	// device-launched grids at, in order.
	grids []gridSpan
	gmu   []uint64
	// depth counts the RunGrid calls in progress: a CDP1 device-side
	// synchronization runs grids inside a step of its grid, each with
	// device queues of its own (pools, one set per nesting level).
	depth int
	pools []*queueSet
	// syncEnd is the latest end of the grids run inside the step being
	// executed (a device-side synchronization waits for it).
	syncEnd uint64
	// devrt caches which functions call the device runtime.
	devrt map[*ir.Func]bool
}

// gridSpan is one grid's place on the device timeline.
type gridSpan struct {
	start, end uint64
	open       bool
}

// queueSet is the device-wide queues a grid's memory requests take.
type queueSet struct {
	dram, l2q, atomQ *bucketQueue
	atomBusy         map[uint64]float64
}

// New returns a timing driver for a preset.
func New(a *arch.Arch, opt Options) *Driver {
	p := ForArch(a, opt.ClockMHz)
	if opt.Scheduler == "" {
		opt.Scheduler = a.Scheduler // an arch file's choice
	}
	if opt.Scheduler == "" {
		opt.Scheduler = GTO
	}
	if opt.SampleWaves <= 0 {
		opt.SampleWaves = 4
	}
	return &Driver{arch: a, p: p, opt: opt,
		l2: newCache(max(p.L2Bytes, 1<<20), 16), atomBusy: map[uint64]float64{},
		dram: newQueue(p.DRAMBytesPerCycle),
		l2q:  newQueue(p.L2BytesPerCycle), atomQ: newQueue(p.AtomicOpsPerNS / (p.ClockHz / 1e9)),
		devrt: map[*ir.Func]bool{}}
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
	storeData uint64 // when the data of the warp's stores issued so far is ready
}

type blockT struct {
	slot   *engine.BlockSlot
	sm     *smT
	warps  []*warpT
	linear int
	live   int
	start  uint64
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
	free     []*blockT
	l1       *cache
	l1q      queue
	shared   uint64 // cycle the shared-memory pipe is free
	resident int    // resident warps
	now      uint64 // the SM's own clock (it runs a quantum at a time)
	wake     uint64 // the first cycle after its last quantum it can issue at
	retire   bool   // a warp finished: look for finished blocks
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
	// retires are the cycles blocks finished at; lastDispatch is when the
	// last block timed in detail was handed out (sampling's extrapolation).
	retires      []uint64
	lastDispatch uint64
	// wave is the blocks of one full wave; maxLimit is the most blocks a
	// sampled grid times in detail (the window grows to it while the block
	// rate has not settled).
	wave, maxLimit int
	// drain is when the grid's last store or atomic has reached the L2:
	// a grid is complete only then.
	drain uint64
	spans []engine.BlockSpan
	// gridReleased: a cooperative grid's barrier let warps go in this
	// quantum (releaseGrid), gridWaiters (reused).
	gridReleased bool
	gridWaiters  []*warpT
	// base is the grid's start on the device timeline.
	base uint64
	// launched are the tags of the grids this grid's blocks launched.
	launched []*engine.DevLaunch
}

// RunGrid times one grid. It implements engine.Driver.
//
// A host launch's grid starts at Now with cold caches. A device-launched
// grid starts when its launch (the cycle the launching instruction issued,
// which the driver wrote into the launch's tag) plus the device-launch
// latency has passed, the grid management unit has started the previous
// device-launched grid at least ChildLaunchNS before, and fewer than
// ConcurrentKernels grids run (Driver.place); it finds the L2 as its
// parent left it. Grids are simulated one after another (the engine runs
// them in its deterministic order: parents before children, a CDP1
// synchronization's children inside the synchronizing step), each on the
// whole device: device-launched grids running concurrently do not take
// each other's SMs or bandwidth in the model.
func (d *Driver) RunGrid(g *engine.GridRun) error {
	nested := d.depth > 0
	d.depth++
	defer func() { d.depth-- }()
	var start uint64
	tag := g.Launch()
	if tag == nil && !nested {
		start = d.Now
		d.grids, d.gmu = d.grids[:0], d.gmu[:0]
		// Every host launch's grid starts with cold caches, as Nsight
		// Compute measures a kernel (its default --cache-control all
		// flushes them), so a kernel's time does not depend on what ran
		// before it.
		d.l2.invalidate()
	} else {
		ready := d.Now // launched by a block no driver timed: after what ran so far
		if tag != nil && tag.Timed {
			ready = tag.At
			if !nested {
				// Its parent's blocks held the SMs until the last of
				// them was dispatched: the child's blocks come after.
				ready = max(ready, tag.After)
			}
		}
		start = d.place(ready+uint64(d.p.ChildStartNS*d.p.ClockHz/1e9), !nested)
	}
	if nested {
		// The synchronizing grid's queues stay as they are.
		for len(d.pools) < d.depth-1 {
			d.pools = append(d.pools, &queueSet{dram: newQueue(d.p.DRAMBytesPerCycle), l2q: newQueue(d.p.L2BytesPerCycle),
				atomQ: newQueue(d.p.AtomicOpsPerNS / (d.p.ClockHz / 1e9)), atomBusy: map[uint64]float64{}})
		}
		saved := &queueSet{dram: d.dram, l2q: d.l2q, atomQ: d.atomQ, atomBusy: d.atomBusy}
		q := d.pools[d.depth-2]
		d.dram, d.l2q, d.atomQ, d.atomBusy = q.dram, q.l2q, q.atomQ, q.atomBusy
		defer func() { d.dram, d.l2q, d.atomQ, d.atomBusy = saved.dram, saved.l2q, saved.atomQ, saved.atomBusy }()
	}
	prevSync := d.syncEnd
	idx := len(d.grids)
	d.grids = append(d.grids, gridSpan{start: start, open: true})
	if tag != nil || nested {
		// Each grid counts cycles from its own start: the L2's pending
		// fills (in the clock of the grid that made them) are complete.
		d.l2.settle()
	}
	err := d.runGrid(g, start)
	if nested {
		d.l2.settle()
	}
	end := start
	if g.Timing != nil {
		end = start + g.Timing.Cycles
	}
	d.grids[idx] = gridSpan{start: start, end: end}
	d.Now = max(d.Now, end)
	if nested {
		// The grids run inside one step: the latest end of them all
		// (this grid's own steps reset syncEnd).
		d.syncEnd = max(prevSync, end)
	}
	return err
}

// devRuntime reports whether grid g's module has device-runtime calls
// (device-side launches and synchronizations). Such a grid is never
// sampled: the functional driver would run its untimed blocks on parallel
// workers, whose launches would reach the timing driver in no fixed order
// (a CDP1 synchronization runs its children inside the block's step).
func (d *Driver) devRuntime(g *engine.GridRun) bool {
	for _, f := range g.Funcs() {
		if v, ok := d.devrt[f]; ok {
			if v {
				return true
			}
			continue
		}
		has := false
		for i := range f.Code {
			if f.Code[i].Op == ir.OpDevRT {
				has = true
				break
			}
		}
		d.devrt[f] = has
		if has {
			return true
		}
	}
	return false
}

// place is the cycle a device-launched grid ready at cycle ready starts:
// the grid management unit starts one every ChildLaunchNS, and at most
// ConcurrentKernels grids run at once (grids still running that wait for
// this one, a CDP1 synchronization's ancestors, do not hold it back when
// they alone fill the limit).
//
// Grids are placed in the engine's order, which is not the order of their
// launches in time (a CDP1 synchronization runs a block's whole subtree
// before the next block's launches are seen), so the grid management unit
// is a list of the starts it made, and a grid takes the first gap at or
// after its ready cycle.
func (d *Driver) place(ready uint64, limited bool) uint64 {
	t := d.gmuSlot(ready)
	for limit := d.p.ConcurrentKernels; limited && limit > 0; {
		n, next := 0, uint64(math.MaxUint64)
		for _, g := range d.grids {
			if g.start <= t && (g.open || g.end > t) {
				n++
				if !g.open {
					next = min(next, g.end)
				}
			}
		}
		if n < limit || next == math.MaxUint64 {
			break
		}
		t = d.gmuSlot(next)
	}
	i, _ := slices.BinarySearch(d.gmu, t)
	d.gmu = slices.Insert(d.gmu, i, t)
	return t
}

// gmuSlot is the first cycle at or after t at which the grid management
// unit is free to start a grid: ChildLaunchNS from the starts before and
// after it.
func (d *Driver) gmuSlot(t uint64) uint64 {
	gap := uint64(d.p.ChildLaunchNS * d.p.ClockHz / 1e9)
	i, _ := slices.BinarySearch(d.gmu, t)
	if i > 0 && d.gmu[i-1]+gap > t {
		t = d.gmu[i-1] + gap
	}
	for ; i < len(d.gmu) && d.gmu[i] < t+gap; i++ {
		t = max(t, d.gmu[i]+gap)
	}
	return t
}

// runGrid times grid g starting at cycle start of the device timeline.
func (d *Driver) runGrid(g *engine.GridRun, start uint64) error {
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
	if g.Cooperative() {
		// Every block of a cooperative grid is resident at once (the
		// runtime checked the grid against the occupancy calculator).
		perSM = max(perSM, (g.Blocks()+max(a.SMs, 1)-1)/max(a.SMs, 1))
	}
	s := &gridState{d: d, g: g, p: d.p, perSM: perSM, wpb: g.WarpsPerBlock(), base: start}
	// The scoreboard covers the registers of any function the kernel may
	// call.
	for _, f := range g.Funcs() {
		s.nslots = max(s.nslots, f.NumSlots)
	}
	nsm := max(a.SMs, 1)
	s.sms = make([]*smT, nsm)
	for i := range s.sms {
		sm := &smT{id: i, sps: make([]spT, d.p.SubPartitions),
			l1q: queue{bytesPerCycle: float64(d.p.L1BytesPerCycle)}}
		if d.p.L1Bytes > 0 {
			sm.l1 = newCache(d.p.L1Bytes, 4)
		}
		s.sms[i] = sm
	}
	nb := g.Blocks()
	wave := perSM * nsm
	s.limitBlk, s.wave, s.maxLimit = nb, wave, nb
	if d.opt.Sample && nb > (d.opt.SampleWaves+2)*wave && !d.devRuntime(g) {
		s.limitBlk = d.opt.SampleWaves * wave
		s.maxLimit = min(3*s.limitBlk, nb-2*wave)
	}
	// The queues count cycles from the grid's start.
	d.dram.reset()
	d.l2q.reset()
	d.atomQ.reset()
	clear(d.atomBusy)
	err := s.run()
	if err == nil && s.limitBlk < nb {
		err = g.RunFunctional(s.limitBlk)
	}
	s.finish(nb, wave)
	return err
}

// quantum is how many cycles one SM is simulated before the next SM takes
// its turn. SMs interact only through L2 and DRAM, whose bandwidth is
// accounted per time bucket (so the order SMs take their turns in does not
// matter within a quantum), and working on one SM at a time keeps its warps'
// state in the host's caches.
const quantum = 256

// run is the cycle loop: quanta of all SMs, SMs in index order, cycles in
// order within an SM.
func (s *gridState) run() error {
	// The first wave: each SM takes blocks up to its limit, SMs in turn.
	for r := 0; r < s.perSM; r++ {
		for _, sm := range s.sms {
			if s.nextBlk >= s.limitBlk {
				break
			}
			s.now = 0
			s.startBlock(sm, 0)
		}
	}
	limit := s.g.StepLimit()
	for t := uint64(0); ; t += quantum {
		if s.g.Stopped() {
			return nil
		}
		s.d.dram.advance(t)
		s.d.l2q.advance(t)
		s.d.atomQ.advance(t)
		live, waiting := false, false
		s.gridReleased = false
		wake := uint64(math.MaxUint64)
		for _, sm := range s.sms {
			if len(sm.blocks) == 0 {
				continue
			}
			live = true
			if s.runSM(sm, t+quantum) {
				waiting = true
			}
			if s.fault() {
				return nil
			}
			if len(sm.blocks) > 0 {
				wake = min(wake, sm.wake)
			}
		}
		if live && waiting && wake != math.MaxUint64 && wake >= t+2*quantum {
			// No SM can issue for quanta to come (warps waiting for
			// device-launched grids): skip to the quantum of the first
			// that can.
			t = wake/quantum*quantum - quantum
		}
		if !live {
			if s.nextBlk < s.limitBlk {
				// Every SM finished its blocks at once: give each one more.
				for _, sm := range s.sms {
					if s.nextBlk < s.limitBlk {
						s.now = t + quantum
						sm.now = s.now
						s.startBlock(sm, s.now)
					}
				}
				continue
			}
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
		// A grid barrier that completed in this quantum readied warps on
		// SMs that had already found nothing to issue.
		if !waiting && s.g.Cooperative() && (s.gridReleased || s.releaseGrid()) {
			continue
		}
		if !waiting {
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
	}
	return nil
}

// runSM simulates sm's cycles up to end. It reports false when the SM has
// live warps none of which can ever issue (a barrier deadlock).
func (s *gridState) runSM(sm *smT, end uint64) bool {
	s.now = sm.now
	for s.now < end {
		issued := false
		next := uint64(math.MaxUint64)
		for i := range sm.sps {
			sp := &sm.sps[i]
			if sp.check > s.now {
				next = min(next, sp.check)
				continue
			}
			if s.issue(sm, sp) {
				issued = true
				sp.check = s.now + 1
			}
			if s.fault() {
				return true
			}
			next = min(next, sp.check)
		}
		if sm.retire {
			sm.retire = false
			s.retireBlocks(sm)
			if len(sm.blocks) == 0 {
				break
			}
			for i := range sm.sps {
				next = min(next, sm.sps[i].check)
			}
		}
		if issued {
			sm.wake = s.now
			s.now++
			continue
		}
		if next == math.MaxUint64 {
			sm.now = s.now
			return false
		}
		sm.wake = next
		s.now = max(s.now+1, min(next, end))
	}
	sm.now = max(s.now, end)
	return true
}

func (s *gridState) fault() bool {
	return s.rec.Event == engine.EventFault
}

// startBlock places the next block on sm, its warps ready at cycle t plus
// the block launch latency.
func (s *gridState) startBlock(sm *smT, t uint64) {
	// A block's slot and timing state are reused for the SM's next block.
	// The scoreboard is not cleared: every cycle it holds from the last
	// block is before now, so it never delays the new one.
	var b *blockT
	if n := len(sm.free); n > 0 {
		b = sm.free[n-1]
		sm.free = sm.free[:n-1]
	} else {
		b = &blockT{slot: s.g.NewSlot(), sm: sm}
	}
	slot := b.slot
	s.touchSM(sm)
	slot.Start(s.nextBlk)
	b.linear, b.live, b.start = s.nextBlk, slot.Warps(), t
	s.nextBlk++
	if s.nextBlk == s.limitBlk && !s.extend(t) {
		s.lastDispatch = t
	}
	// The block scheduler hands out blocks in order at a fixed rate.
	start := max(t, uint64(float64(s.nextBlk-1)*s.p.DispatchCycles)) + uint64(s.p.BlockLaunch)
	// Warps go to sub-partitions round-robin by their index in the SM.
	base := sm.resident
	for len(b.warps) < slot.Warps() {
		b.warps = append(b.warps, &warpT{regReady: make([]uint64, s.nslots), regKind: make([]uint8, s.nslots)})
	}
	b.warps = b.warps[:slot.Warps()]
	for i, w := range b.warps {
		s.age++
		*w = warpT{blk: b, idx: i, age: s.age, ready: start, readyWhy: stallDispatch, lastIssue: t,
			regReady: w.regReady, regKind: w.regKind}
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
		sm.free = append(sm.free, b)
		i--
		s.lastDone = max(s.lastDone, s.now)
		s.retires = append(s.retires, s.now)
		s.spans = append(s.spans, engine.BlockSpan{Block: b.linear, SM: sm.id, Start: b.start, End: s.now})
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
	if w.storeData > t && (in.Class == ir.ClassBranch || in.Class == ir.ClassBarrier) {
		// ptxas moves loads above stores only within a basic block: at its
		// end the stores' data must be there.
		t, why = w.storeData, stallLongScoreboard
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
	if s.d.opt.Scheduler == LRR {
		n := len(sp.warps)
		for k := 0; k < n; k++ {
			w := sp.warps[(sp.rr+k)%n]
			if t := s.readyAt(sm, sp, w); t <= s.now {
				pick = w
				sp.rr = (sp.rr + k + 1) % n
				break
			} else if t < best {
				best = t
			}
		}
	} else {
		if w := sp.last; w != nil {
			if t := s.readyAt(sm, sp, w); t <= s.now {
				pick = w
			} else {
				best = t
			}
		}
		if pick == nil {
			for _, w := range sp.warps {
				if w == sp.last {
					continue
				}
				if t := s.readyAt(sm, sp, w); t <= s.now {
					pick = w
					break
				} else if t < best {
					best = t
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

// readyAt is the cycle warp w can issue its next instruction on sp
// (MaxUint64 when it cannot: finished or at a barrier).
func (s *gridState) readyAt(sm *smT, sp *spT, w *warpT) uint64 {
	if w.done || w.atBar {
		return math.MaxUint64
	}
	if w.next == nil {
		w.next = w.blk.slot.Next(w.idx)
		w.depValid = false
		if w.next == nil {
			s.warpStopped(sm, w)
			return math.MaxUint64
		}
	}
	t := w.dep
	if !w.depValid {
		t, _ = s.depReady(w)
	}
	if p := sp.pipe[w.next.Class]; p > t {
		t = p
	}
	return t
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
			sm.retire = true
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
	s.d.syncEnd = 0
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
	if in.Op == ir.OpMovSreg {
		lat, kind = uint64(p.SregLatency), prodShort
	}
	switch rec.Space {
	case engine.SpaceGlobal:
		if in.Op == ir.OpAtom || in.Op == ir.OpRed {
			lat = s.atomic(sm, rec)
		} else if rec.Store {
			data := dataReady(w, in, s.now)
			w.storeData = max(w.storeData, data)
			s.store(sm, rec, data)
		} else {
			lat = s.load(sm, rec)
		}
		kind = prodLong
	case engine.SpaceShared:
		// One wavefront per SM per cycle; each extra wavefront of a
		// conflicted access adds to its latency.
		wf := uint64(max(rec.Wavefronts, 1))
		start := max(s.now, sm.shared)
		if rec.Store && (in.Op == ir.OpSt || in.Op == ir.OpRed) {
			// A shared store waits for its data in the pipeline, and the
			// warp waits for it at the end of the basic block.
			data := dataReady(w, in, s.now)
			w.storeData = max(w.storeData, data)
			start = max(start, data)
		}
		sm.shared = start + wf
		lat = start - s.now + uint64(p.SharedLatency) + uint64(p.SharedConflict)*(wf-1)
		kind = prodShort
	case engine.SpaceLocal:
		lat = uint64(p.L1HitLatency)
		kind = prodLong
		if rec.Store && in.Op == ir.OpSt {
			w.storeData = max(w.storeData, dataReady(w, in, s.now))
		}
	}
	done := s.now + slots - 1 + lat
	if slots > 1 {
		done = max(done, s.now+uint64(chainLatency(in, p)))
	}
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
			sm.retire = true
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
		for _, l := range rec.Launches {
			l.At, l.Timed = s.base+s.now, true
			s.launched = append(s.launched, l)
		}
		w.ready, w.readyWhy = s.now+uint64(p.DeviceLaunch), stallSleeping
	case engine.EventDevSync:
		// The children ran inside the step (Driver.RunGrid, nested): the
		// warp goes on when the last of them ended.
		t := s.now
		if e := s.d.syncEnd; e > s.base+t {
			t = e - s.base
		}
		w.ready, w.readyWhy = t+uint64(p.DeviceSyncNS*p.ClockHz/1e9), stallSleeping
	}
	if rec.GridReleased {
		s.releaseGrid()
		w.ready = max(w.ready, s.now+s.gridSyncCycles())
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

// gridSyncNS is what one grid.sync() of a cooperative grid took on the
// H100, from the last block's arrival to every warp going on, as this
// model counts it: 1.12 µs per barrier for 132 blocks of 256 threads
// (testdata/coop/timing/grid_sync_time.h100.txt), the arrivals' atomics and
// the spin on the barrier word in L2.
const gridSyncNS = 1118

func (s *gridState) gridSyncCycles() uint64 { return uint64(gridSyncNS * s.p.ClockHz / 1e9) }

// releaseGrid readies the warps of every block that a completed grid
// barrier (cooperative groups' grid.sync()) let go, gridSyncNS later; it
// reports whether there were any.
func (s *gridState) releaseGrid() bool {
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
	ready := s.now + s.gridSyncCycles()
	for _, w := range s.gridWaiters {
		w.ready = max(w.ready, ready)
	}
	released := len(s.gridWaiters) > 0
	s.gridReleased = s.gridReleased || released
	return released
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
	t0 := sm.l1q.take(s.now, float64(len(rec.Sectors)*32))
	done := t0 + uint64(p.L1HitLatency)
	for _, sec := range rec.Sectors {
		if sm.l1 != nil {
			if hit, ready := sm.l1.lookup(sec); hit {
				done = max(done, ready)
				continue
			}
		}
		at := s.fromL2(t0, sec)
		if sm.l1 != nil {
			sm.l1.fill(sec, at, false)
		}
		done = max(done, at)
	}
	return done - s.now
}

// fromL2 is when sector sec, requested from L2 at cycle t, arrives back at
// the SM: an L2 hit, or a DRAM fetch of the sector with its neighbours.
func (s *gridState) fromL2(t, sec uint64) uint64 {
	d, p := s.d, s.p
	if hit, ready := d.l2.lookup(sec); hit {
		s.l2Hit++
		return max(d.l2q.take(t, 32)+uint64(p.L2HitLatency), ready)
	}
	s.l2Miss++
	n := uint64(max(p.DRAMFetch/32, 1))
	first := sec / n * n
	at := d.dram.take(t, float64(n*32)) + uint64(p.DRAMLatency)
	s.dramRd += n * 32
	for k := first; k < first+n; k++ {
		if hit, _ := d.l2.lookup(k); hit && k != sec {
			continue
		}
		if ev := d.l2.fill(k, at, false); ev > 0 {
			s.writeBack(t, ev)
		}
	}
	return at
}

// store writes through L1 to L2 (write-back to DRAM on eviction) once
// its data is ready at cycle data; the grid is not done before its stores
// are.
func (s *gridState) store(sm *smT, rec *engine.StepRecord, data uint64) {
	d := s.d
	t0 := max(sm.l1q.take(s.now, float64(len(rec.Sectors)*32)), data)
	// Every sector written whole: the lanes' bytes cover the sectors.
	full := int(rec.Bytes) >= 32*len(rec.Sectors)
	for _, sec := range rec.Sectors {
		if sm.l1 != nil {
			if s.p.StoreInvalidatesL1 {
				sm.l1.drop(sec)
			} else {
				sm.l1.update(sec, t0+uint64(s.p.StoreToLoad), full)
			}
		}
		at := d.l2q.take(t0, 32)
		if ev := d.l2.fill(sec, at, true); ev > 0 {
			s.writeBack(t0, ev)
		}
		s.drain = max(s.drain, at)
	}
}

// dataReady is when the registers a store writes out are ready.
func dataReady(w *warpT, in *ir.Inst, now uint64) uint64 {
	t := now
	for _, r := range in.A[1:] {
		if r >= 0 && int(r) < len(w.regReady) {
			t = max(t, w.regReady[r])
		}
	}
	return t
}

// atomic times a global atomic, performed at the L2. Lanes that name the
// same address are separate updates, serialized at that address's atomic
// unit (AtomicNS each); lanes on distinct addresses of one sector are one
// update. All updates share the L2's atomic throughput (AtomicOpsPerNS).
func (s *gridState) atomic(sm *smT, rec *engine.StepRecord) uint64 {
	d, p := s.d, s.p
	n := max(len(rec.Sectors), 1)
	t0 := sm.l1q.take(s.now, float64(n*32))
	serial := float64(max(rec.AddrMaxDup, 1))
	ops := float64(n) + float64(popcount(rec.Exec)) - float64(max(rec.AddrDistinct, 1))
	// The pool serves ops at its rate: take them as bytes of a queue.
	pool := d.atomQ.take(t0, ops)
	done := t0
	for _, sec := range rec.Sectors {
		at := max(s.fromL2(t0, sec), pool)
		start := max(float64(at), d.atomBusy[sec])
		end := start + serial*p.AtomicCycles
		d.atomBusy[sec] = end
		d.l2.fill(sec, uint64(end), true)
		done = max(done, uint64(end+0.999))
	}
	s.drain = max(s.drain, done)
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
	return uint64(float64(s.base+cycles) * 1e9 / s.p.ClockHz)
}

// extend decides, when the last block of a sampled grid's detailed window
// is dispatched at cycle t, whether the window grows by a wave: it does
// while the block rate of the window's second half differs from the whole
// window's (after the first wave) by more than sampleSettle, up to
// maxLimit blocks.
func (s *gridState) extend(t uint64) bool {
	if s.limitBlk+s.wave > s.maxLimit {
		return false
	}
	whole, half, ok := s.rates(t)
	if ok && math.Abs(half-whole) <= sampleSettle*whole {
		return false
	}
	s.limitBlk += s.wave
	return true
}

// sampleSettle is how close the recent block rate must come to the
// window's for the rate to count as settled.
const sampleSettle = 0.01

// rates are the cycles per retired block from the end of the first wave to
// cycle t, and over the later half of those retirements.
func (s *gridState) rates(t uint64) (whole, half float64, ok bool) {
	r := append([]uint64(nil), s.retires...)
	slices.Sort(r)
	if len(r) <= s.wave {
		return 0, 0, false
	}
	ta := r[s.wave-1]
	var in []uint64
	for _, x := range r[s.wave:] {
		if x > ta && x <= t {
			in = append(in, x)
		}
	}
	if len(in) < 4 || t <= ta {
		return 0, 0, false
	}
	tm := in[len(in)/2-1]
	whole = float64(t-ta) / float64(len(in))
	half = float64(t-tm) / float64(len(in)-len(in)/2)
	return whole, half, true
}

// extrapolate estimates a sampled grid's cycles: the blocks not timed
// retire at the block rate of the later half of the window (the
// retirements after the first wave up to the last timed block's dispatch:
// the most recent rate, which the window was grown until it settled), and
// the drain after the last dispatch is the one measured (the real grid ends
// with the same kind of tail).
func (s *gridState) extrapolate(nb int, end uint64) uint64 {
	_, half, ok := s.rates(s.lastDispatch)
	if !ok {
		return uint64(float64(end) * float64(nb) / float64(s.limitBlk))
	}
	return end + uint64(half*float64(nb-s.limitBlk))
}

// sampledWrites estimates a sampled grid's DRAM write bytes. The blocks
// timed in detail may not have filled the L2, so their write-backs, scaled,
// say nothing of the whole grid's; instead the grid's dirty sectors are
// extrapolated (those written back and those dirty in the L2 after the
// detailed blocks, scaled), and when the grid's footprint exceeds the L2
// the L2 keeps, at the end, its capacity's share of dirty sectors (the
// dirty fraction of its contents now); the rest were written back.
func (s *gridState) sampledWrites(scale float64) uint64 {
	l2 := s.d.l2
	measured := uint64(float64(s.dramWr) * scale)
	valid := l2.validSectors()
	if valid == 0 {
		return measured
	}
	dirty := l2.dirtySectors()
	total := (float64(s.dramWr)/32 + float64(dirty)) * scale
	if float64(valid)*scale <= float64(l2.sectors()) {
		return measured
	}
	kept := min(total, float64(dirty)/float64(valid)*float64(l2.sectors()))
	return max(measured, uint64((total-kept)*32))
}

// finish fills the grid's timing account, extrapolating a sampled grid.
func (s *gridState) finish(nb, wave int) {
	end := max(s.lastDone, s.drain)
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
	scale, tscale := 1.0, 1.0 // work and time extrapolation factors
	sampled := s.limitBlk < nb
	if sampled && s.limitBlk > 0 {
		scale = float64(nb) / float64(s.limitBlk)
		cycles = s.extrapolate(nb, end)
		tscale = float64(cycles) / float64(max(end, 1))
	}
	tm := &engine.GridTiming{
		Cycles: cycles + uint64(s.p.KernelLaunch), StartCycle: s.base,
		WarpCycles: uint64(float64(warpCyc) * tscale), ActiveSMCycles: uint64(float64(active) * tscale),
		IssueCycles: uint64(float64(s.issued) * scale), SchedCycles: uint64(float64(active)*tscale) * uint64(s.p.SubPartitions),
		DRAMReadBytes: uint64(float64(s.dramRd) * scale), DRAMWriteBytes: uint64(float64(s.dramWr) * scale),
		L2Hits: uint64(float64(s.l2Hit) * scale), L2Miss: uint64(float64(s.l2Miss) * scale),
		Stalls: make([]uint64, numStalls), StallNames: StallNames, Sampled: sampled, Blocks: s.spans,
		MaxWarpsPerSM: s.d.arch.MaxWarpsPerSM, SMs: len(s.sms), ClockHz: s.p.ClockHz,
	}
	for i, v := range s.stalls {
		tm.Stalls[i] = uint64(float64(v) * scale)
	}
	if sampled {
		tm.DRAMWriteBytes = s.sampledWrites(scale)
	}
	s.g.Timing = tm
	// The grids its blocks launched start, unless a synchronization ran
	// them already, once its last block has been dispatched (for a sampled
	// grid: as long before its extrapolated end as the timed window's last
	// dispatch was before the window's end).
	after := s.base + min(s.lastDispatch+cycles-end, cycles)
	for _, l := range s.launched {
		l.After = after
	}
}
