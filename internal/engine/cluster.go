package engine

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Thread-block clusters (sm_90): a launch whose grid is tiled by clusters
// of up to 16 blocks (Config.Cluster, or the kernel's .reqnctapercluster
// from __cluster_dims__). The blocks of a cluster are resident together,
// may read and write each other's shared memory (distributed shared
// memory) and wait for each other at barrier.cluster.
//
// Addresses. A block's own shared memory is offsets [0, size) of the
// shared window, as always. mapa names block rank r's copy of an offset
// as (r+1)<<clusterShift | offset, both in the .shared::cluster space (32
// bits) and, plus SharedWindow, as a generic address; so every
// .shared::cluster access is lowered to a generic one (ir/cluster.go) and
// an offset at or above 1<<clusterShift in the shared window reaches the
// cluster block it names (remoteShared). A block that has exited has no
// shared memory: an access to it stops the kernel, as the H100 does with
// cudaErrorLaunchFailure (testdata/clusters/cluster_exited.h100.txt).
//
// The barrier. barrier.cluster.arrive counts the executing threads in the
// current phase; the phase completes once every thread of the cluster has
// arrived or exited; barrier.cluster.wait waits for the phase its threads
// arrived in to complete. Each warp keeps which of its lanes arrived in
// which phase; the cluster keeps the counts, under a mutex, and the phase
// number, which waiting warps poll.
//
// The functional driver (runClusters) runs a cluster's blocks together on
// one worker, in turns of bounded length, so results do not depend on the
// number of workers. Under a timing driver the blocks are stepped where
// the driver placed them; the barrier and the remote accesses work
// between any blocks resident at the same time.

// clusterShift places a cluster rank above the largest shared memory.
const clusterShift = 24

// warpAtClusterWait is the state of a warp waiting at barrier.cluster.wait.
const warpAtClusterWait = warpDone + 2

// clusterLaunch is the cluster geometry and state of a cluster launch.
type clusterLaunch struct {
	dims     [3]uint32 // blocks per cluster in each dimension
	n        int       // blocks per cluster
	grid     [3]uint32 // clusters in each dimension (%nclusterid)
	count    int       // clusters
	explicit bool      // %is_explicit_cluster
	total    int       // threads per cluster
	resident []atomic.Pointer[worker]
	state    []clusterState
}

// clusterState is one cluster's barrier.
type clusterState struct {
	mu      sync.Mutex
	phase   atomic.Uint64
	arrived int // threads arrived in the current phase
	exited  int // threads exited
}

// clusterBlock is a block's place in its cluster and its warps' arrivals.
type clusterBlock struct {
	id      int       // linear cluster index
	idx     [3]uint32 // %clusterid
	cta     [3]uint32 // %cluster_ctaid
	rank    int
	linears []int // the cluster's blocks by rank
	warps   []clusterWarp
}

// clusterWarp is a warp's part in its cluster's barrier.
type clusterWarp struct {
	arrived uint32 // lanes arrived in phase
	phase   uint64
	exited  uint32 // exited lanes counted in clusterState.exited
}

// hasClusterBarrier reports whether f's own code executes barrier.cluster.
func hasClusterBarrier(f *ir.Func) bool {
	for i := range f.Code {
		if in := &f.Code[i]; in.Op == ir.OpCluster && (in.Mode == ir.ClusterArrive || in.Mode == ir.ClusterWait) {
			return true
		}
	}
	return false
}

// newClusterLaunch checks and lays out the clusters of a launch.
func newClusterLaunch(cfg *Config, dims [3]uint32, explicit bool) (*clusterLaunch, error) {
	c := &clusterLaunch{dims: dims, explicit: explicit}
	for i := range 3 {
		if dims[i] == 0 || cfg.Grid[i]%dims[i] != 0 {
			return nil, fmt.Errorf("grid %dx%dx%d is not a whole number of %dx%dx%d clusters",
				cfg.Grid[0], cfg.Grid[1], cfg.Grid[2], dims[0], dims[1], dims[2])
		}
		c.grid[i] = cfg.Grid[i] / dims[i]
	}
	c.n = int(dims[0] * dims[1] * dims[2])
	c.count = int(c.grid[0]) * int(c.grid[1]) * int(c.grid[2])
	c.total = c.n * int(cfg.Block[0]*cfg.Block[1]*cfg.Block[2])
	c.resident = make([]atomic.Pointer[worker], int(cfg.Grid[0])*int(cfg.Grid[1])*int(cfg.Grid[2]))
	c.state = make([]clusterState, c.count)
	return c, nil
}

// blockOf is the linear index of block rank r of cluster id.
func (c *clusterLaunch) blockOf(cfg *Config, id, r int) int {
	gx, gy := int(c.grid[0]), int(c.grid[1])
	cx, cy, cz := id%gx, id/gx%gy, id/(gx*gy)
	dx, dy := int(c.dims[0]), int(c.dims[1])
	x := cx*dx + r%dx
	y := cy*dy + r/dx%dy
	z := cz*int(c.dims[2]) + r/(dx*dy)
	return x + int(cfg.Grid[0])*(y+int(cfg.Grid[1])*z)
}

// clusterSetup places the block just set up in its cluster (setupBlock).
func (w *worker) clusterSetup() {
	c := w.l.cl
	b := &w.blk
	cb := &w.cb
	if cap(cb.warps) >= len(b.warps) {
		cb.warps = cb.warps[:len(b.warps)]
		clear(cb.warps)
	} else {
		cb.warps = make([]clusterWarp, len(b.warps))
	}
	if c == nil {
		cb.id, cb.idx, cb.cta, cb.rank = b.linear, b.idx, [3]uint32{}, 0
		return
	}
	var cid [3]uint32
	for i := range 3 {
		cid[i] = b.idx[i] / c.dims[i]
		cb.cta[i] = b.idx[i] % c.dims[i]
	}
	cb.idx = cid
	cb.id = int(cid[0]) + int(c.grid[0])*(int(cid[1])+int(c.grid[1])*int(cid[2]))
	cb.rank = int(cb.cta[0] + c.dims[0]*(cb.cta[1]+c.dims[1]*cb.cta[2]))
	cb.linears = cb.linears[:0]
	for r := range c.n {
		cb.linears = append(cb.linears, c.blockOf(w.l.cfg, cb.id, r))
	}
	c.resident[b.linear].Store(w)
}

// clusterEnd takes the finished block out of its cluster (endBlock): its
// shared memory is gone.
func (w *worker) clusterEnd() {
	if c := w.l.cl; c != nil && w.blk.linear < len(c.resident) {
		c.resident[w.blk.linear].CompareAndSwap(w, nil)
	}
}

// clusterSreg is a cluster special register for the warp's block.
func (wp *warp) clusterSreg(r ir.Sreg) uint64 {
	w := wp.w
	c := w.l.cl
	cb := &w.cb
	switch r {
	case ir.SregClusteridX, ir.SregClusteridY, ir.SregClusteridZ:
		return uint64(cb.idx[r-ir.SregClusteridX])
	case ir.SregNclusteridX, ir.SregNclusteridY, ir.SregNclusteridZ:
		if c == nil {
			return uint64(w.l.cfg.Grid[r-ir.SregNclusteridX])
		}
		return uint64(c.grid[r-ir.SregNclusteridX])
	case ir.SregClusterCtaidX, ir.SregClusterCtaidY, ir.SregClusterCtaidZ:
		return uint64(cb.cta[r-ir.SregClusterCtaidX])
	case ir.SregClusterNctaidX, ir.SregClusterNctaidY, ir.SregClusterNctaidZ:
		if c == nil {
			return 1
		}
		return uint64(c.dims[r-ir.SregClusterNctaidX])
	case ir.SregClusterCtarank:
		return uint64(cb.rank)
	case ir.SregClusterNctarank:
		if c == nil {
			return 1
		}
		return uint64(c.n)
	case ir.SregIsExplicitCluster:
		if c != nil && c.explicit {
			return 1
		}
	}
	return 0
}

// clusterOp executes OpCluster.
func (wp *warp) clusterOp(pc int, in *ir.Inst, exec uint32) {
	switch in.Mode {
	case ir.ClusterToGeneric:
		a := wp.r(in.A[0])
		o := wp.out(in.D[0], exec)
		for l := range o {
			o[l] = SharedWindow + uint64(uint32(a[l]))
		}
		wp.commit(in.D[0], exec)
	case ir.ClusterMapa:
		a, r := wp.r(in.A[0]), wp.r(in.A[1])
		o := wp.out(in.D[0], exec)
		m := typeMask(in.Type)
		for l := range o {
			x := a[l]
			base := uint64(0)
			if in.Space == ptxtype.SpaceShared {
				x &= 0xffff_ffff
			} else if x >= SharedWindow && x < SharedWindow+WindowSize {
				base, x = SharedWindow, x-SharedWindow
			} else {
				o[l] = x & m
				continue
			}
			off := x & (1<<clusterShift - 1)
			o[l] = (base + (uint64(uint32(r[l]))+1)<<clusterShift | off) & m
		}
		wp.commit(in.D[0], exec)
	case ir.ClusterIsspacep, ir.ClusterIsspacepCTA:
		// isspacep.shared(::cta) takes only the block's own window: a
		// mapped address of another block is .shared::cluster only, as
		// the H100 answers (testdata/clusters/cluster_dsmem.h100.txt).
		a := wp.r(in.A[0])
		o := wp.out(in.D[0], exec)
		for l := range o {
			ok := a[l] >= SharedWindow && a[l] < SharedWindow+WindowSize
			if in.Mode == ir.ClusterIsspacepCTA {
				ok = ok && a[l]-SharedWindow < 1<<clusterShift
			}
			o[l] = b2u(ok)
		}
		wp.commit(in.D[0], exec)
	case ir.ClusterArrive:
		wp.clusterArrive(exec)
	case ir.ClusterWait:
		// For the sanitizer the cluster barrier is also its block's
		// barrier 0 for every thread (what __syncthreads() is), as
		// grid.sync() is (gridsync.go).
		if wp.chk != nil && !wp.chk.Barrier(wp.site(pc, exec), 0, -1) {
			wp.sanitizerStop(pc, exec)
			return
		}
		wp.clusterWait(pc, exec)
	}
}

// clusterState is the barrier of the warp's cluster; nil outside a
// cluster launch (a block is then a cluster of one).
func (w *worker) clusterState() *clusterState {
	if c := w.l.cl; c != nil {
		return &c.state[w.cb.id]
	}
	return nil
}

// ClusterPhase is how many phases the block's cluster barrier has
// completed (0 outside a cluster launch).
func (s *BlockSlot) ClusterPhase() uint64 {
	if st := s.w.clusterState(); st != nil {
		return st.phase.Load()
	}
	return 0
}

// ClusterArrival is the phase of its cluster's barrier in which warp i
// last arrived (barrier.cluster.arrive).
func (s *BlockSlot) ClusterArrival(i int) uint64 {
	if s.w.clusterState() == nil || i >= len(s.w.cb.warps) {
		return 0
	}
	return s.w.cb.warps[i].phase
}

// clusterArrive is barrier.cluster.arrive for lanes exec.
func (wp *warp) clusterArrive(exec uint32) {
	w := wp.w
	st := w.clusterState()
	cw := &w.cb.warps[wp.idx]
	if st == nil {
		// A cluster of one block: the phase completes when every thread
		// of the block arrived; no other block can wait for it.
		return
	}
	st.mu.Lock()
	ph := st.phase.Load()
	if cw.phase != ph {
		cw.arrived, cw.phase = 0, ph
	}
	nw := exec &^ cw.arrived
	cw.arrived |= nw
	st.arrived += bits.OnesCount32(nw)
	w.clusterCountExits(st, wp, cw)
	w.clusterComplete(st)
	st.mu.Unlock()
}

// clusterCountExits counts the warp's lanes that exited since (under st.mu).
func (w *worker) clusterCountExits(st *clusterState, wp *warp, cw *clusterWarp) {
	ex := wp.exited &^ cw.exited
	if wp.state == warpDone {
		ex = wp.valid &^ cw.exited
	}
	if ex == 0 {
		return
	}
	cw.exited |= ex
	st.exited += bits.OnesCount32(ex)
	if cw.phase == st.phase.Load() {
		if gone := cw.arrived & ex; gone != 0 {
			st.arrived -= bits.OnesCount32(gone)
			cw.arrived &^= gone
		}
	}
}

// clusterComplete ends the phase once every thread arrived or exited
// (under st.mu).
func (w *worker) clusterComplete(st *clusterState) {
	if st.arrived > 0 && st.arrived+st.exited >= w.l.cl.total {
		st.arrived = 0
		st.phase.Add(1)
	}
}

// clusterWarpDone counts a finished warp's threads as exited.
func (w *worker) clusterWarpDone(wp *warp) {
	st := w.clusterState()
	if st == nil {
		return
	}
	st.mu.Lock()
	w.clusterCountExits(st, wp, &w.cb.warps[wp.idx])
	w.clusterComplete(st)
	st.mu.Unlock()
}

// clusterWait is barrier.cluster.wait: the warp stops until the phase its
// lanes exec arrived in has completed.
func (wp *warp) clusterWait(pc int, exec uint32) {
	w := wp.w
	st := w.clusterState()
	if st == nil {
		return
	}
	cw := &w.cb.warps[wp.idx]
	if cw.arrived&exec == 0 || cw.phase != st.phase.Load() {
		return
	}
	wp.state = warpAtClusterWait
	wp.barPC, wp.barMask = pc, exec
}

// pollCluster lets the block's warps waiting at barrier.cluster.wait go
// once their phase has completed; it reports whether any did.
func (w *worker) pollCluster() bool {
	st := w.clusterState()
	if st == nil {
		return false
	}
	ph := st.phase.Load()
	any := false
	for i, wp := range w.blk.warps {
		if wp.state == warpAtClusterWait && w.cb.warps[i].phase != ph {
			wp.state = warpRunning
			any = true
		}
	}
	return any
}

// remoteShared resolves a shared-window offset at or above
// 1<<clusterShift: block rank offset>>clusterShift - 1 of the cluster.
func (wp *warp) remoteShared(pc int, addr, n uint64, lane int) ([]byte, uint8) {
	w := wp.w
	c := w.l.cl
	rank := int(addr>>clusterShift) - 1
	off := addr & (1<<clusterShift - 1)
	nrank := 1
	if c != nil {
		nrank = c.n
	}
	if rank < 0 || rank >= nrank {
		wp.fault(FaultOutOfBounds, pc, lane, SharedWindow+addr, true,
			"%d-byte shared::cluster access at %#x names block rank %d of a cluster of %d", n, addr, rank, nrank)
		return nil, accNone
	}
	t := w
	if rank != w.cb.rank {
		if r := wp.rec; r != nil {
			r.RemoteLanes++
			if !slices.Contains(r.RemoteAddrs, addr) {
				r.RemoteAddrs = append(r.RemoteAddrs, addr)
			}
		}
		t = c.resident[w.cb.linears[rank]].Load()
		if (t == nil || t.blk.live == 0) && wp.storing && wp.chk == nil {
			// A plain store into the shared memory of a block that has
			// exited is dropped and the kernel goes on; a load faults.
			// On the H100 (testdata/sanitize/probe7, dsmem_late) every
			// such write succeeded, 0 to 20M cycles after the block
			// exited, and a read of the same bytes after it, or alone,
			// stopped the kernel (unspecified launch failure); under
			// memcheck the write stopped it too, with no finding.
			return make([]byte, n), accShared
		}
		if t == nil || t.blk.live == 0 {
			lin := w.cb.linears[rank]
			g := w.l.cfg.Grid
			wp.fault(FaultTrap, pc, lane, SharedWindow+addr, true,
				"shared::cluster access to the shared memory of block (%d,%d,%d) (cluster rank %d), which has exited: a block must not exit while others of its cluster use its shared memory (the H100 stops the kernel: unspecified launch failure)",
				lin%int(g[0]), lin/int(g[0])%int(g[1]), lin/int(g[0]*g[1]), rank)
			return nil, accNone
		}
	}
	sh := t.blk.shared
	if off+n > uint64(len(sh)) && off+n <= uint64(w.l.sharedMap) {
		// inside the block's last allocation unit (Config.SharedUnit)
		t.blk.sharedDirty = true
		return sh[off : off+n : off+n], accShared
	}
	if off+n > uint64(len(sh)) || off+n < off {
		// The H100 stops the kernel with an unspecified launch failure
		// (testdata/sanitize/probe5, dsmem_oob), not an illegal address.
		wp.fault(FaultTrap, pc, lane, SharedWindow+addr, true,
			"%d-byte shared::cluster access at offset %#x is outside cluster rank %d's %d bytes of shared memory (the H100 stops the kernel: unspecified launch failure)", n, off, rank, len(sh))
		return nil, accNone
	}
	t.blk.sharedDirty = true
	return sh[off : off+n : off+n], accShared
}

// clusterDeadlock is the fault of a cluster none of whose warps can run.
func (w *worker) clusterDeadlock(blocks []*worker) {
	for _, b := range blocks {
		for _, wp := range b.blk.warps {
			if wp.state == warpAtBarrier {
				b.deadlock()
				w.fault = b.fault
				return
			}
		}
	}
	st := w.clusterState()
	st.mu.Lock()
	arrived, exited := st.arrived, st.exited
	st.mu.Unlock()
	for _, b := range blocks {
		for _, wp := range b.blk.warps {
			if wp.state == warpAtClusterWait {
				w.fault = wp.faultAt(FaultBarrierDeadlock, wp.barPC, wp.barMask, 0, false,
					fmt.Sprintf("barrier.cluster can never complete: %d of the cluster's %d threads arrived (%d exited), the others wait elsewhere",
						arrived, w.l.cl.total, exited))
				return
			}
		}
	}
	w.fault = &Fault{Kind: FaultBarrierDeadlock, Block: w.blk.idx, PC: -1, Detail: "no warp of the cluster can make progress"}
}

// clusterTurn runs the block's warps, a quantum each in turn, until every
// warp has finished or waits, or about coopTurn instructions ran. It
// reports whether any warp ran.
func (w *worker) clusterTurn() bool {
	w.pollCluster()
	b := &w.blk
	l := w.l
	var steps int64
	ranAny := false
	for steps < coopTurn && b.live > 0 {
		ran := false
		for _, wp := range b.warps {
			if wp.state != warpRunning {
				continue
			}
			steps += int64(wp.run(quantum))
			ran = true
			if w.fault != nil {
				l.steps.Add(steps)
				return true
			}
			if wp.state == warpDone {
				b.live--
				w.clusterWarpDone(wp)
			}
			w.checkBarriers()
		}
		if !ran {
			break
		}
		ranAny = true
		w.pollCluster()
	}
	if l.steps.Add(steps) > l.limit {
		w.watchdog()
	}
	return ranAny
}

// runClusters is the functional driver of a cluster launch: each worker
// takes a whole cluster and runs its blocks together, in turns, until all
// have finished.
func (m *Module) runClusters(l *launch) (Counters, *launch, *GridTiming, error) {
	var total Counters
	c := l.cl
	workers := l.cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, c.count), 1)
	counters := make([]Counters, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			blocks := make([]*worker, c.n)
			for i := range blocks {
				blocks[i] = newWorker(l)
			}
			var running *worker // the block taking its turn (runCluster)
			defer func() {
				// A panic on this worker goroutine becomes the launch's
				// internal-error fault, as under runFunctional (worker.loop).
				if r := recover(); r != nil {
					l.setFault(l.internalFault(running, -1, r))
				}
				for _, w := range blocks {
					counters[k].Add(&w.c)
				}
			}()
			finished := make([]bool, c.n)
			for !l.stop.Load() {
				id := int(next.Add(1) - 1)
				if id >= c.count {
					return
				}
				for r, w := range blocks {
					w.setupBlock(c.blockOf(l.cfg, id, r))
					finished[r] = false
				}
				if !m.runCluster(l, blocks, finished, &running) {
					return
				}
			}
		}()
	}
	wg.Wait()
	for i := range counters {
		total.Add(&counters[i])
	}
	if f := l.stopFault(); f != nil {
		return total, l, nil, f
	}
	return total, l, nil, nil
}

// runCluster runs one cluster's blocks to completion; false when the
// launch stopped. *running is the block taking its turn, for the report
// of a panic.
func (m *Module) runCluster(l *launch, blocks []*worker, finished []bool, running **worker) bool {
	left := len(blocks)
	for left > 0 {
		ran := false
		for r, w := range blocks {
			if finished[r] {
				continue
			}
			*running = w
			if w.clusterTurn() {
				ran = true
			}
			if w.fault != nil {
				l.setFault(w.fault)
				for _, o := range blocks {
					if o != w && o.blk.live > 0 {
						o.snapshot()
					}
					o.endBlock()
				}
				return false
			}
			if w.blk.live == 0 {
				finished[r] = true
				left--
				w.endBlock()
				l.progressMu.Lock()
				done := int(l.done.Add(1))
				if l.cfg.Progress != nil {
					l.cfg.Progress(done, l.nblocks)
				}
				l.progressMu.Unlock()
			}
		}
		if l.stop.Load() {
			for r, w := range blocks {
				if !finished[r] && w.blk.live > 0 {
					w.snapshot()
				}
				w.endBlock()
			}
			return false
		}
		if !ran && left > 0 {
			// Released warps run in the next round; a round with no warp
			// able to run and no barrier completing is a deadlock.
			released := false
			for r, w := range blocks {
				if !finished[r] && w.pollCluster() {
					released = true
				}
			}
			if released {
				continue
			}
			for r, w := range blocks {
				if !finished[r] {
					w.clusterDeadlock(blocks)
					l.setFault(w.fault)
					break
				}
			}
			for _, w := range blocks {
				w.endBlock()
			}
			return false
		}
	}
	return true
}

// clusterDims is the launch's cluster shape: the launch's own, else the
// kernel's __cluster_dims__; explicit is false for a launch without
// clusters (each block then is a cluster of one).
func clusterDims(cfg *Config, fn *ir.Func) ([3]uint32, bool) {
	if cfg.Cluster != [3]uint32{} {
		return cfg.Cluster, true
	}
	if d := fn.ClusterDims; d != [3]int{} {
		return [3]uint32{uint32(max(d[0], 1)), uint32(max(d[1], 1)), uint32(max(d[2], 1))}, true
	}
	return [3]uint32{}, false
}
