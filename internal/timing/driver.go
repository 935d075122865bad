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
// SMs advance a quantum of cycles at a time, each on its own state, their
// requests to the L2 side replayed in cycle order between quanta
// (quantum.go), so the same launch gives the same cycles on every run and
// for any number of workers, whether its SMs run on one thread or, when
// nothing it executes depends on how they interleave, on all of them.
//
// One file per unit (docs/timing-model.md describes them): driver.go the
// device (its timeline, device-launched grids' placement, one grid's
// set-up), grid.go the cycle loop, quantum.go the quanta (futures, the
// replay, the threads), placement.go the block scheduler,
// scheduler.go the warp schedulers and stall accounting, scoreboard.go and
// slots.go the scoreboard and pipes, memory.go, cache.go and queue.go the
// memory system, tlb.go address translation, sampling.go the sampling of
// large grids; params.go and presets.go the figures.
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
	// ShortGrids also samples, with Sample, grids of 1.5 to
	// SampleWaves+2 waves: their first waves timed in detail, the other
	// blocks placed on the SMs' slots at the window's block times
	// (sampling.go's shortWindow, extrapolateSlots).
	ShortGrids bool
	// ShortOneWave, when set, says whether a short grid of under three
	// waves may be timed for its first wave alone (shortWindow): when it
	// says no, such a grid is timed in full (nil: it may). The runtime
	// lets it while a program's budget of detail is not used
	// (Repeats.UnderBudget): a window of one wave is off its full timing
	// by up to 6%, a window of two by up to 3.5%.
	ShortOneWave func() bool
	// ClockMHz runs the SMs at this clock instead of the preset's (0: the
	// preset's), as ncu's --clock-control base does.
	ClockMHz float64
	// RegsPerThread overrides the kernel's register estimate for the block
	// scheduler's occupancy limit (0: the estimate).
	RegsPerThread func(kernel *ir.Func) int
	// PCStalls splits each grid's stalls by instruction
	// (engine.GridTiming.PCStalls); off, it costs nothing.
	PCStalls bool
	// Program says the device runs a whole program (warpsim cc's
	// runtime): every launch of the process comes through it, so the
	// regions a launch finds translated are known, and with
	// Params.TLBPrograms address translation is timed (tlb.go).
	Program bool
}

// Driver is the timing driver: it implements engine.Driver and keeps the
// device's state between launches (the L2's contents, the timeline).
type Driver struct {
	arch *arch.Arch
	p    *Params
	opt  Options
	lrr  bool // opt.Scheduler is LRR
	l2   *cache
	// atomBusy is when each L2 sector's atomic unit is next free: atomics
	// to one address serialize there.
	atomBusy map[uint64]float64
	dram     *bucketQueue
	atomQ    *bucketQueue // the L2's atomic units, in updates per cycle
	l2q      *bucketQueue
	// far is the link between the L2's partitions (FarBytesPerNS; nil:
	// not limited).
	far *bucketQueue
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
	// devrt caches which functions call the device runtime, orderFree
	// which are free of what keeps a grid's SMs on one thread
	// (parallelSafe).
	devrt     map[*ir.Func]bool
	orderFree map[*ir.Func]bool
	// l1s are the L1 caches of finished grids, reused by the next ones.
	// The three pools are the device's: one pool for the whole process
	// (2026-11-28, seventeenth round) saved no CPU where tests make a
	// device per row (TestCalibration and TestBlocksMicrobenchmarks, the
	// same CPU-s within the machine's noise: docs/testing.md) and kept
	// what it held for the process's life.
	l1s *cachePool
	// arenas are the quantum arenas of finished grids' SMs, reused by the
	// next ones' (arenaPool).
	arenas *arenaPool
	// blocks are the blocks of finished grids, with their warps, reused
	// by the next ones (blockPool).
	blocks *blockPool
	// tlb is the address translation's state (tlb.go).
	tlb tlbT
	// idleSMs are the SMs of finished grids, for the next ones (takeSMs):
	// their slices (resident warps, blocks, the scheduler's scan) are
	// not grown again from nothing in every grid.
	idleSMs [][]*smT
}

// gridSpan is one grid's place on the device timeline.
type gridSpan struct {
	start, end uint64
	open       bool
}

// queueSet is the device-wide queues a grid's memory requests take.
type queueSet struct {
	dram, l2q, atomQ, far *bucketQueue
	atomBusy              map[uint64]float64
}

// newFar is the link between the L2's partitions, nil when not limited.
func newFar(p *Params) *bucketQueue {
	if p.FarBytesPerCycle <= 0 {
		return nil
	}
	return newQueue(p.FarBytesPerCycle)
}

// New returns a timing driver for a preset.
func New(a *arch.Arch, opt Options) *Driver {
	p := ForArch(a, opt.ClockMHz)
	if opt.Program && p.TLBPrograms {
		p.TLBCold = true
	}
	if opt.Scheduler == "" {
		opt.Scheduler = a.Scheduler // an arch file's choice
	}
	if opt.Scheduler == "" {
		opt.Scheduler = GTO
	}
	if opt.SampleWaves <= 0 {
		opt.SampleWaves = 4
	}
	d := &Driver{arch: a, p: p, opt: opt, lrr: opt.Scheduler == LRR,
		l2: newCache(max(p.L2Bytes, 1<<20), 16), atomBusy: map[uint64]float64{},
		dram: newDRAMQueue(p), far: newFar(p),
		l2q: newQueue(p.L2BytesPerCycle), atomQ: newQueue(p.AtomicOpsPerNS / (p.ClockHz / 1e9)),
		devrt: map[*ir.Func]bool{}, orderFree: map[*ir.Func]bool{},
		l1s: &cachePool{}, arenas: &arenaPool{}, blocks: &blockPool{}}
	d.l2.dirtyWays = p.L2DirtyWays
	return d
}

// Params are the driver's timing figures.
func (d *Driver) Params() *Params { return d.p }

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
		// before it; but for its address translations, which with
		// tlb.cold are those the launch before left (tlb.go).
		d.l2.invalidate()
		d.tlb.hostLaunch()
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
			d.pools = append(d.pools, &queueSet{dram: newDRAMQueue(d.p), l2q: newQueue(d.p.L2BytesPerCycle),
				atomQ: newQueue(d.p.AtomicOpsPerNS / (d.p.ClockHz / 1e9)), far: newFar(d.p), atomBusy: map[uint64]float64{}})
		}
		saved := &queueSet{dram: d.dram, l2q: d.l2q, atomQ: d.atomQ, far: d.far, atomBusy: d.atomBusy}
		q := d.pools[d.depth-2]
		d.dram, d.l2q, d.atomQ, d.far, d.atomBusy = q.dram, q.l2q, q.atomQ, q.far, q.atomBusy
		defer func() {
			d.dram, d.l2q, d.atomQ, d.far, d.atomBusy = saved.dram, saved.l2q, saved.atomQ, saved.far, saved.atomBusy
		}()
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
	b := g.Block()
	clustered := g.Cluster()[0]*g.Cluster()[1]*g.Cluster()[2] > 1 && !g.CooperativeLaunch()
	perSM := blocksPerSM(a, int(b[0]*b[1]*b[2]), kernelRegs(g.Kernel(), d.opt.RegsPerThread), g.SharedBytes(),
		g.Cooperative() && !clustered, g.Blocks())
	cl := newClusterPlan(g, a, perSM)
	s := &gridState{d: d, g: g, p: d.p, perSM: perSM, cl: cl, wpb: g.WarpsPerBlock(), base: start, quantum: quantumFor(d.p), workers: 1}
	if s.safe = d.parallelSafe(g); s.safe {
		s.workers = g.Workers()
	}
	if d.opt.PCStalls {
		// Every row exists before the SMs run: they add to them at once.
		s.pcs = make([][][numStalls]uint64, len(g.Funcs()))
		for i, f := range g.Funcs() {
			s.pcs[i] = make([][numStalls]uint64, len(f.Code))
		}
	}
	// The scoreboard covers the registers of any function the kernel may
	// call.
	for _, f := range g.Funcs() {
		s.nslots = max(s.nslots, f.NumSlots)
	}
	unroll := 0
	if s.p != nil && s.p.UnrolledHoistBound {
		unroll = s.p.LoopUnroll
	}
	s.hoistWords = hoistWords(g.Kernel(), kernelRegs(g.Kernel(), d.opt.RegsPerThread), s.p != nil && s.p.ConstBankLive, unroll)
	s.hoistMMA = g.Kernel() != nil && len(g.Kernel().LiveWords) > 0
	if d.p.FetchLineCycles > 0 {
		s.code = newCodeMap(g.Kernel(), g.Funcs(), d.p)
	}
	nsm := max(a.SMs, 1)
	s.l1Bytes = l1Bytes(a, d.p, int(b[0]*b[1]*b[2]), kernelRegs(g.Kernel(), d.opt.RegsPerThread), g.SharedBytes())
	s.sms = d.takeSMs(nsm)
	nb := g.Blocks()
	wave := perSM * nsm
	s.wave = wave
	sample := d.opt.Sample && !d.devRuntime(g) && cl == nil
	s.limitBlk, s.maxLimit = sampleWindow(nb, wave, sample, d.opt.SampleWaves)
	if sample && d.opt.ShortGrids && s.limitBlk == nb {
		oneWave := d.opt.ShortOneWave == nil || d.opt.ShortOneWave()
		if l := shortWindow(nb, wave, d.opt.SampleWaves, oneWave); l < nb {
			s.limitBlk, s.maxLimit, s.short = l, l, true
		}
	}
	d.tlb.grid(nsm)
	if s.limitBlk < nb {
		d.tlb.sampled = true
	}
	// The queues count cycles from the grid's start.
	d.dram.reset()
	d.l2q.reset()
	d.atomQ.reset()
	if d.far != nil {
		d.far.reset()
	}
	clear(d.atomBusy)
	err := s.run()
	if err == nil && s.limitBlk < nb {
		err = g.RunFunctional(s.limitBlk)
	}
	s.finish(nb, wave)
	for _, sm := range s.sms {
		if sm.l1 != nil {
			d.l1s.put(sm.l1, nsm)
		}
		d.arenas.put(&sm.ar, nsm)
		d.blocks.put(sm.blocks)
		d.blocks.put(sm.free)
	}
	d.putSMs(s.sms)
	return err
}

// takeSMs gives a grid its n SMs, as new: those of the device's last grid
// (putSMs), emptied, with the slices they grew kept, or new ones.
func (d *Driver) takeSMs(n int) []*smT {
	var sms []*smT
	if k := len(d.idleSMs); k > 0 {
		sms, d.idleSMs = d.idleSMs[k-1], d.idleSMs[:k-1]
	}
	if len(sms) != n {
		sms = make([]*smT, n)
	}
	for i, sm := range sms {
		if sm == nil || len(sm.sps) != d.p.SubPartitions {
			sm = &smT{sps: make([]spT, d.p.SubPartitions)}
			sms[i] = sm
		}
		sm.reset(i, d.p)
		d.arenas.take(&sm.ar)
	}
	return sms
}

// putSMs keeps a finished grid's SMs for the device's next grid
// (takeSMs), once their blocks, L1 and arenas went back to their pools.
// A grid run inside another's step (a CDP1 synchronization) takes SMs of
// its own: at most two grids' worth are kept.
func (d *Driver) putSMs(sms []*smT) {
	if len(d.idleSMs) < 2 {
		d.idleSMs = append(d.idleSMs, sms)
	}
}
