package engine

import (
	"runtime"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/metrics"
)

// This file is the seam both drivers share. The functional driver
// (driver.go) runs blocks to completion on worker goroutines; a timing
// driver (internal/timing) creates blocks on its simulated SMs, steps their
// warps one instruction at a time through BlockSlot.Step and learns from
// the StepRecord what each instruction did, so it models time without
// re-implementing any semantics.

// Step events: what an instruction did besides computing.
const (
	EventNone      uint8 = iota
	EventBarrier         // the warp waits at a barrier (bar.sync and friends)
	EventExit            // the warp finished (every lane exited)
	EventCall            // call into a device function
	EventReturn          // return from one
	EventDevLaunch       // a device-side launch (cudaLaunchDevice)
	EventDevSync         // a device-side cudaDeviceSynchronize
	EventFault           // the instruction faulted; BlockSlot.Fault says how
)

// Access spaces a memory instruction touched (StepRecord.Space): the
// resolved space of generic addresses, not the instruction's.
const (
	SpaceNone uint8 = iota
	SpaceGlobal
	SpaceShared
	SpaceLocal
	SpaceConst
	// SpaceRemoteShared is another cluster block's shared memory, in a
	// CheckAccess only: the address is a shared::cluster one
	// (RemoteShared splits it).
	SpaceRemoteShared
)

// RemoteShared splits a shared::cluster address of CheckAccess
// (SpaceRemoteShared) into the block's rank in its cluster and the offset
// in that block's shared memory.
func RemoteShared(addr uint64) (rank int, off uint64) {
	return int(addr>>clusterShift) - 1, addr & (1<<clusterShift - 1)
}

// StepRecord is what one warp instruction did. A driver owns it and passes
// it to every Step; the engine overwrites it (its slices are reused, so a
// driver that keeps them must copy).
type StepRecord struct {
	Func   int32    // index in Prog.Funcs of the executing function
	PC     int32    // the instruction's pc in that function
	Inst   *ir.Inst // the instruction (Class, registers read and written)
	Class  ir.Class
	Active uint32 // lanes active at the issue (the reconvergence stack's mask)
	Exec   uint32 // lanes whose guard held: the lanes that executed
	Space  uint8  // memory space accessed (SpaceNone for non-memory instructions)
	Store  bool   // a store (or an atomic's write)
	// Sectors are the distinct 32-byte global sectors a global access
	// touched (address >> 5), in first-touch order.
	Sectors []uint64
	// Wavefronts is the shared-memory wavefronts of a shared access: one
	// per request plus one per bank conflict; of a cp.async, those of its
	// shared-memory writes, its lanes taken a global line at a time
	// (recordtensor.go, cpAsyncWavefronts).
	Wavefronts uint32
	// Parts, for a wmma.load or wmma.store, are the requests ptxas makes
	// of it (ir.WmmaAccesses): of a global access, how many of Sectors
	// (in order; each request's distinct sectors, a sector again in
	// another) each one touches; of a shared one, the wavefronts of each
	// request (of each 8x8 matrix of an LDSM), which sum to Wavefronts.
	Parts []uint32
	Bytes uint32 // bytes the executing lanes asked for
	Event uint8
	// Mbar, for an mbarrier instruction, cp.async.mbarrier.arrive and a
	// copy into shared memory that completes transactions on an mbarrier
	// (cp.async.bulk, cp.async.bulk.tensor), is that mbarrier's address
	// (its first executing lane's, as the instruction names it) plus one;
	// 0: none. The timing model completes the barrier's phase when the
	// copy's data has arrived.
	Mbar uint64
	// TensorMap, for a TMA copy, is which tensor map it read (its address
	// plus one, with bit 63 set for a kernel parameter's), 0: none.
	TensorMap uint64
	// RemoteLanes counts the lane accesses of a shared access that went to
	// another block's shared memory (shared::cluster).
	RemoteLanes uint32
	// RemoteAddrs are the distinct shared::cluster offsets (block rank
	// and offset, as the window names them) of those remote lane
	// accesses, in first-touch order: the timing model counts the remote
	// sectors and the lanes on an address another lane named.
	RemoteAddrs []uint64
	// AddrDistinct and AddrMaxDup are, for an atomic, the distinct
	// addresses its lanes named and the most lanes on one address (a
	// 16-bit atomic but cas and exch: on one 4-byte word).
	AddrDistinct, AddrMaxDup uint32
	// Words, for a 16-bit floating-point atomic (a compare-and-swap loop
	// on the 4-byte word holding it), are its lanes' distinct words
	// (address >> 2), in first-touch order.
	Words []uint64
	// ParamOff, for a read of the kernel's parameter buffer (ld.param,
	// or a generic load of a __grid_constant__ parameter's address), is
	// its first executing lane's offset in the buffer plus one; 0: none.
	// The timing model keys the constant bank's lines on it.
	ParamOff uint32
	// SlowPaths, for an IEEE f32 division or square root, is the set of
	// ptxas's out-of-line paths its executing lanes' operands take (bit k:
	// kind k, slowpath.go); 0: every lane stayed inline.
	SlowPaths uint32
	// Printf, for vprintf, is what the device's printf reads of its
	// executing lanes' format strings and %s arguments (the most any one
	// lane reads: the lanes scan in lock step); the timing model costs the
	// call on it (timing.printfCall).
	Printf PrintfScan
	// SyncCycles, for EventDevSync, are the cycles the grids a CDP1
	// device-side cudaDeviceSynchronize ran took (the sum of their
	// GridTiming.Cycles; 0 when no timing driver ran them). They ran
	// inside this Step, through the same Driver.
	SyncCycles uint64
	// GridReleased: this step completed a cooperative grid's barrier
	// (grid.sync()); the warps of every block waiting there may go on
	// (WaitingAtBarrier then reports false for them).
	GridReleased bool
	// Launches, for EventDevLaunch, are the launched grids' tags (one per
	// launching lane): a timing driver writes there when the launch
	// happened, and reads it back from the child's GridRun.Launch.
	Launches []*DevLaunch
}

// PrintfScan is what one vprintf call's lanes read besides their arguments:
// the longest format string (its bytes before the NUL), the most %s
// arguments one lane has and the most bytes its strings have together.
type PrintfScan struct {
	FormatBytes, Strings, StringBytes uint32
}

// DevLaunch is a device-launched grid's tag, written by a timing driver
// when the launching instruction executes.
type DevLaunch struct {
	At    uint64 // the launch's cycle on the driver's device timeline
	Timed bool   // At was set (false: launched by a block no driver timed)
	// After is the earliest cycle the driver lets the grid start at when
	// it starts after its parent grid's end (0: no bound).
	After uint64
}

func (r *StepRecord) reset() {
	r.Space, r.Store, r.Wavefronts, r.Bytes, r.Event, r.SyncCycles = SpaceNone, false, 0, 0, EventNone, 0
	r.RemoteLanes, r.TensorMap = 0, 0
	r.GridReleased = false
	r.Mbar = 0
	r.AddrDistinct, r.AddrMaxDup = 0, 0
	r.SlowPaths, r.ParamOff = 0, 0
	r.Printf = PrintfScan{}
	r.Launches = r.Launches[:0]
	r.Sectors = r.Sectors[:0]
	r.Words = r.Words[:0]
	r.RemoteAddrs = r.RemoteAddrs[:0]
	r.Parts = r.Parts[:0]
}

// Driver runs a grid's blocks. The functional driver is used when a
// launch's Config.Driver is nil.
type Driver interface {
	RunGrid(g *GridRun) error
}

// GridRun is one grid prepared for a driver: its shape, its resources and
// the means to create blocks.
type GridRun struct {
	l *launch
	// Depth is the grid's nesting depth (0 for the host's grid) and Index
	// its index in the launch's Result.Grids.
	Depth, Index int
	// Timing is what a timing driver measured; nil under the functional
	// driver.
	Timing *GridTiming
	slots  []*BlockSlot
	extra  Counters // blocks run by RunFunctional
}

// GridTiming is a timing driver's account of one grid, PCStall one
// instruction's stalls and BlockSpan one block's residence: the public
// profile package's types.
type (
	GridTiming = metrics.Timing
	PCStall    = metrics.PCStall
	BlockSpan  = metrics.BlockSpan
)

// Launch is the tag of a device-launched grid (nil for a host launch's
// grid).
func (g *GridRun) Launch() *DevLaunch {
	if n := g.l.node; n != nil && n.parent != nil {
		return &n.tag
	}
	return nil
}

// Funcs are the module's functions (a kernel may call any of them).
func (g *GridRun) Funcs() []*ir.Func { return g.l.mod.Prog.Funcs }

// Vars are the module's variables (ir.Inst.Sym of a SymGlobal or
// SymShared instruction indexes them).
func (g *GridRun) Vars() []*ir.Var { return g.l.mod.Prog.Vars }

// Blocks is the number of blocks in the grid.
func (g *GridRun) Blocks() int { return g.l.nblocks }

// Grid and Block are the launch's dimensions.
func (g *GridRun) Grid() [3]uint32  { return g.l.cfg.Grid }
func (g *GridRun) Block() [3]uint32 { return g.l.cfg.Block }

// WarpsPerBlock is ceil(threads per block / 32).
func (g *GridRun) WarpsPerBlock() int {
	b := g.l.cfg.Block
	return (int(b[0]*b[1]*b[2]) + 31) / 32
}

// SharedBytes is the shared memory each block uses (static + dynamic).
func (g *GridRun) SharedBytes() int { return g.l.shared }

// Cooperative reports whether the grid is a cooperative launch: all its
// blocks must be resident at once (they may wait for each other at
// grid.sync()).
//
// A cluster launch answers true as well, for now: the timing driver then
// keeps every block resident (so a cluster's blocks are co-resident) and
// re-polls barrier waiters when nothing can issue (so a barrier.cluster
// completed by another block releases its waiters). Cluster reports the
// cluster shape, for a driver that places clusters itself.
func (g *GridRun) Cooperative() bool { return g.l.coop != nil || g.l.cl != nil }

// CooperativeLaunch reports a cooperative launch
// (cudaLaunchCooperativeKernel): every block of the grid resident at once.
func (g *GridRun) CooperativeLaunch() bool { return g.l.coop != nil }

// Cluster is the launch's cluster shape; zero when it is no cluster launch.
func (g *GridRun) Cluster() [3]uint32 {
	if g.l.cl == nil {
		return [3]uint32{}
	}
	return g.l.cl.dims
}

// Kernel is the kernel's lowered function.
func (g *GridRun) Kernel() *ir.Func { return g.l.fn }

// Workers is how many host threads the launch may use (Config.Workers;
// GOMAXPROCS when that is 0).
func (g *GridRun) Workers() int {
	if n := g.l.cfg.Workers; n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Checked reports whether a sanitizer sees the grid's accesses.
func (g *GridRun) Checked() bool { return g.l.cfg.Check != nil }

// StepLimit is the watchdog's budget of warp instructions.
func (g *GridRun) StepLimit() int64 { return g.l.limit }

// Stopped reports whether the launch is being stopped (a fault elsewhere).
func (g *GridRun) Stopped() bool { return g.l.stop.Load() }

// NewSlot returns a block slot: the state of one resident block, reused
// for block after block. Slots are not safe for concurrent use; different
// slots are.
func (g *GridRun) NewSlot() *BlockSlot {
	m := g.l.mod
	var w *worker
	m.slotMu.Lock()
	if n := len(m.slots); n > 0 {
		w = m.slots[n-1]
		m.slots = m.slots[:n-1]
	}
	m.slotMu.Unlock()
	if w == nil {
		w = newWorker(g.l)
	} else {
		w.rebind(g.l)
	}
	s := w.slot // (a pooled worker's, from its last grid)
	if s == nil {
		s = &BlockSlot{w: w}
		w.slot = s
	}
	*s = BlockSlot{w: w}
	g.slots = append(g.slots, s)
	g.l.slotCount.Add(1)
	return s
}

// BlockSlot holds one resident block and steps its warps.
type BlockSlot struct {
	w *worker
	// stepping is 1 + the warp a Step is executing, 0 between Steps (after
	// a panic in a Step: the warp it was executing).
	stepping int
	// A slot is a cache line of its own: Step writes stepping twice an
	// instruction, and a timing driver makes the first wave's slots SM
	// after SM, so that without the pad four SMs' slots, stepped on four
	// threads, shared a line (false sharing).
	_ [48]byte
}

// Start makes the slot hold block linear (x fastest) with fresh warps,
// shared memory and barriers.
func (s *BlockSlot) Start(linear int) {
	s.w.setupBlock(linear)
	s.w.gs = gridSyncBlock{}
	s.w.l.started.Add(1)
}

// Warps is the number of warps of the block.
func (s *BlockSlot) Warps() int { return len(s.w.blk.warps) }

// Live is the number of warps not yet finished.
func (s *BlockSlot) Live() int { return s.w.blk.live }

// WaitingAtBarrier reports whether warp i waits at a barrier: a block's,
// or its grid's (grid.sync()) until that completes.
func (s *BlockSlot) WaitingAtBarrier(i int) bool {
	switch s.w.blk.warps[i].state {
	case warpAtBarrier:
		return true
	case warpAtGridSync:
		return !s.w.pollGridSync()
	case warpAtClusterWait:
		s.w.pollCluster()
		return s.w.blk.warps[i].state == warpAtClusterWait
	}
	return false
}

// Done reports whether warp i has finished.
func (s *BlockSlot) Done(i int) bool { return s.w.blk.warps[i].state == warpDone }

// SetClock sets the value %clock, %clock64 and %globaltimer read, in SM
// cycles and nanoseconds, for the instructions that follow.
func (s *BlockSlot) SetClock(cycles, ns uint64) {
	s.w.clockSet, s.w.clockCycles, s.w.clockNS = true, cycles, ns
}

// Step executes warp i's next instruction and describes it in rec. It
// reports false when the warp could not issue (finished, or waiting at a
// barrier); a fault stops the block (Fault is then non-nil).
func (s *BlockSlot) Step(i int, rec *StepRecord) bool {
	w := s.w
	wp := w.blk.warps[i]
	if wp.state != warpRunning || w.fault != nil {
		return false
	}
	rec.reset()
	wp.rec = rec
	s.stepping = i + 1
	if stepHook != nil {
		stepHook(w.blk.linear, i, s.Next(i))
	}
	n := wp.run(1)
	s.stepping = 0
	wp.rec = nil
	if w.fault != nil {
		rec.Event = EventFault
		return n > 0
	}
	// A barrier completes only when a warp arrives or one exits.
	switch wp.state {
	case warpDone:
		w.blk.live--
		if rec.Event == EventNone {
			rec.Event = EventExit
		}
		w.clusterWarpDone(wp)
		w.checkBarriers()
		if w.arriveGridSync() {
			rec.GridReleased = true
		}
		if w.blk.live == 0 {
			w.endBlock()
		}
	case warpAtBarrier:
		rec.Event = EventBarrier
		w.checkBarriers()
	case warpAtGridSync, warpAtClusterWait:
		rec.Event = EventBarrier
	}
	return n > 0
}

// stepHook, when set, runs at the start of every Step with the block's
// linear index, the warp and the instruction it is about to execute.
var stepHook func(block, warp int, in *ir.Inst)

// SetStepHook is for tests only: it sets a function every Step calls
// first (nil: none), where a test injects a panic as a bug in the engine
// would raise one. Set it while no launch runs.
func SetStepHook(f func(block, warp int, in *ir.Inst)) { stepHook = f }

// Next is the instruction warp i will execute at its next Step, or nil
// when it has finished, waits at a barrier, or has nothing left to execute
// (every lane has reached its end: Finish completes it). It changes
// nothing: a driver may ask as often as it likes.
func (s *BlockSlot) Next(i int) *ir.Inst {
	if f, pc := s.NextAt(i); f != nil {
		return &f.Code[pc]
	}
	return nil
}

// NextAt is where Next's instruction is: its function and pc (nil, 0 when
// Next is nil).
func (s *BlockSlot) NextAt(i int) (*ir.Func, int) {
	wp := s.w.blk.warps[i]
	if wp.state != warpRunning {
		return nil, 0
	}
	// What settle would do, read only: pop finished reconvergence entries
	// and return from finished frames until an entry has work.
	n, f := len(wp.stack), len(wp.frames)-1
	for {
		if n == wp.frames[f].stackBase {
			if f == 0 {
				return nil, 0
			}
			f--
			continue
		}
		top := &wp.stack[n-1]
		if top.mask == 0 || top.pc == top.rpc {
			n--
			continue
		}
		return wp.frames[f].fn, int(top.pc)
	}
}

// Finish completes warp i when Next reports nil for it though it is
// neither done nor waiting at a barrier: its lanes have all reached their
// end, and it finishes as it would at its next Step (the block's barriers
// and a grid barrier see it gone). It reports whether the warp finished.
func (s *BlockSlot) Finish(i int) bool {
	w := s.w
	wp := w.blk.warps[i]
	if wp.state != warpRunning || wp.settle() {
		return false
	}
	w.blk.live--
	w.clusterWarpDone(wp)
	w.checkBarriers()
	w.arriveGridSync()
	return true
}

// RunFunctional runs the grid's blocks from index from on with the
// functional driver (a sampling timing driver times some blocks in detail
// and lets the rest compute their results only).
func (g *GridRun) RunFunctional(from int) error {
	if from >= g.l.nblocks {
		return nil
	}
	g.l.next.Store(int64(from))
	c, _, _, err := g.l.mod.runFunctional(g.l)
	g.extra.Add(&c)
	return err
}

// Deadlocked records a barrier deadlock fault for the block (no warp can
// issue and some still wait).
func (s *BlockSlot) Deadlocked() {
	if s.w.gs.waiting > 0 {
		s.w.gridDeadlock()
		return
	}
	s.w.deadlock()
}

// Watchdog records the watchdog fault for the block.
func (s *BlockSlot) Watchdog() { s.w.watchdog() }

// Fault is the block's fault, or nil.
func (s *BlockSlot) Fault() *Fault { return s.w.fault }

// ReportFault makes the block's fault, if it has one, the launch's: of
// several blocks that faulted, the one a driver names first is reported
// (else the first slot made that faulted).
func (s *BlockSlot) ReportFault() {
	if s.w.fault != nil {
		s.w.l.setFault(s.w.fault)
	}
}

// Counters are the counts of every block the slot has run.
func (s *BlockSlot) Counters() *Counters { return &s.w.c }

// recordAccess fills the step record of a memory instruction: the space
// and footprint the counters also see. It runs only under a driver that
// asked for records.
func (wp *warp) recordAccess(st *memStats, store bool) {
	r := wp.rec
	r.Store = store
	switch {
	case st.global > 0:
		r.Space = SpaceGlobal
		r.Sectors = append(r.Sectors, wp.sectors...)
		r.Bytes += uint32(st.bytes)
	case st.shared > 0:
		r.Space = SpaceShared
		wave, _ := wp.wavefronts()
		r.Wavefronts += uint32(wave)
	case st.local > 0:
		r.Space = SpaceLocal
	case st.param > 0:
		r.Space = SpaceConst
		r.ParamOff = uint32(min(st.paramOff, 1<<32-1))
	}
}
