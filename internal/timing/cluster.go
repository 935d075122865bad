// Thread-block clusters: the block scheduler places a cluster's blocks
// together on the SMs of one GPC (arch.GPCs), and launches the next
// cluster, in cluster order, only once one GPC has room for all its
// blocks (each SM for at most the occupancy calculator's blocks per SM)
// and fewer clusters than cudaOccupancyMaxActiveClusters answers are
// running (arch.MaxActiveClusters: an H200 starts exactly that many at
// once, testdata/clusters/timing/cluster_time.h200.txt). Blocks are handed out
// cluster by cluster, each cluster's by rank.

package timing

import (
	"math"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// clusterPlan is a cluster launch's placement state.
type clusterPlan struct {
	dims [3]uint32 // blocks per cluster in each dimension
	grid [3]uint32 // the grid, in blocks
	n    int       // blocks per cluster
	gpcs [][]int   // SM indices by GPC
	free []int     // reused: each SM's room
	pick []int     // reused: the SMs chosen for a cluster
	// maxActive is the most clusters running at once (0: no limit), live
	// those running, left each launched cluster's blocks not yet retired.
	maxActive, live int
	left            []int
}

// newClusterPlan is the placement of g's clusters on arch a, at perSM
// blocks per SM; nil when g is no cluster launch of more than one block
// per cluster, or a cooperative one (every block resident anyway).
func newClusterPlan(g *engine.GridRun, a *arch.Arch, perSM int) *clusterPlan {
	d := g.Cluster()
	n := int(d[0]) * int(d[1]) * int(d[2])
	if n <= 1 || g.CooperativeLaunch() {
		return nil
	}
	c := &clusterPlan{dims: d, grid: g.Grid(), n: n, free: make([]int, a.SMs), left: make([]int, (g.Blocks()+n-1)/n)}
	sm := 0
	for _, size := range a.GPCs() {
		var ids []int
		for i := 0; i < size && sm < a.SMs; i++ {
			ids = append(ids, sm)
			sm++
		}
		c.gpcs = append(c.gpcs, ids)
	}
	c.maxActive = a.MaxActiveClusters(perSM, n)
	return c
}

// retired counts a retired block of the cluster launched order/n-th.
func (c *clusterPlan) retired(order int) {
	id := order / c.n
	if id < len(c.left) {
		c.left[id]--
		if c.left[id] == 0 {
			c.live--
		}
	}
}

// linear is the linear block index of the i-th block in launch order:
// cluster i/n (clusters in x, y, z order), rank i%n (likewise within the
// cluster), as the engine numbers them (%cluster_ctarank).
func (c *clusterPlan) linear(i int) int {
	id, r := i/c.n, i%c.n
	gx, gy := int(c.grid[0]/c.dims[0]), int(c.grid[1]/c.dims[1])
	dx, dy := int(c.dims[0]), int(c.dims[1])
	x := id%gx*dx + r%dx
	y := id/gx%gy*dy + r/dx%dy
	z := id/(gx*gy)*int(c.dims[2]) + r/(dx*dy)
	return x + int(c.grid[0])*(y+int(c.grid[1])*z)
}

// placeCluster chooses the SMs for a cluster of n blocks, given each
// SM's room (free): of the GPCs with room for all n, the one whose n
// roomiest SMs have the most room (then the one with the most room, then
// the lowest index), so that clusters spread over the GPCs as blocks
// spread over the SMs (testdata/timing/rowwalk: 33 clusters of 4 blocks of
// 256, which fit 8 blocks an SM, run on 132 SMs as fast an SM as 3
// clusters on 12; the first GPC with room packed them on 16), each block
// on the SM of that GPC with the most room left (the lowest index among
// equals), so that the blocks spread over the GPC's SMs. It returns the
// SMs, one per block (appended to pick[:0]), or false when no GPC has room
// for all n.
func placeCluster(free []int, gpcs [][]int, n int, pick []int) ([]int, bool) {
	pick = pick[:0]
	var g []int
	bestTop, bestRoom := 0, 0
	for _, h := range gpcs {
		room := 0
		for _, sm := range h {
			room += free[sm]
		}
		if room < n {
			continue
		}
		top := topRoom(free, h, n)
		if g == nil || top > bestTop || top == bestTop && room > bestRoom {
			g, bestTop, bestRoom = h, top, room
		}
	}
	if g != nil {
		for range n {
			best := roomiest(free, g)
			free[best]--
			pick = append(pick, best)
		}
		return pick, true
	}
	return pick, false
}

// topRoom is the room of the n SMs of gpc with the most room, n blocks
// placed one at a time on the SM with the most room left (roomiest, as
// placeCluster places them); free is as it was when it returns.
func topRoom(free []int, gpc []int, n int) int {
	var buf [16]int
	took := buf[:0]
	sum := 0
	for range n {
		sm := roomiest(free, gpc)
		if sm < 0 {
			break
		}
		sum += free[sm]
		free[sm]--
		took = append(took, sm)
	}
	for _, sm := range took {
		free[sm]++
	}
	return sum
}

// roomiest is the SM of gpc with the most room left (the first among
// equals), or -1 when none has room.
func roomiest(free []int, gpc []int) int {
	best := -1
	for _, sm := range gpc {
		if free[sm] > 0 && (best < 0 || free[sm] > free[best]) {
			best = sm
		}
	}
	return best
}

// launchClusters starts the grid's next clusters at cycle t while one fits.
func (s *gridState) launchClusters(t uint64) {
	c := s.cl
	for s.nextBlk < s.limitBlk && (c.maxActive <= 0 || c.live < c.maxActive) {
		for i, sm := range s.sms {
			c.free[i] = max(s.perSM-len(sm.blocks), 0)
		}
		var ok bool
		if c.pick, ok = placeCluster(c.free, c.gpcs, min(c.n, s.limitBlk-s.nextBlk), c.pick); !ok {
			return
		}
		if id := s.nextBlk / c.n; id < len(c.left) {
			c.left[id] = len(c.pick)
		}
		c.live++
		for _, sm := range c.pick {
			s.startBlock(s.sms[sm], t)
		}
	}
}

// remoteShared is when a shared access that reached other blocks' shared
// memory (rec.RemoteLanes of its lane accesses) has its result: DSMEMLatency
// after it left the SM. A remote atomic leaves a sector of the remote
// blocks' shared memory at a time, DSMEMAtomSectorCycles each, and a lane
// on an address another lane named first DSMEMAtomCycles more (the
// H200's lanes on one sector go together, those on one word one after
// another: testdata/timing/rowwalk's dsm_atom rows); the warp issues again
// once its last has left.
func (s *gridState) remoteShared(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord, start uint64) uint64 {
	p := s.p
	lat := uint64(p.DSMEMLatency)
	if lat == 0 {
		lat = uint64(p.SharedLatency)
	}
	if (in.Op != ir.OpAtom && in.Op != ir.OpRed) || p.DSMEMAtomCycles == 0 {
		return sm.fadd(start, lat)
	}
	hold := float64(rec.RemoteLanes) * p.DSMEMAtomCycles
	if p.DSMEMAtomSectorCycles > 0 {
		hold = float64(remoteSectors(rec.RemoteAddrs))*p.DSMEMAtomSectorCycles +
			float64(int(rec.RemoteLanes)-len(rec.RemoteAddrs))*p.DSMEMAtomCycles
	}
	sent := sm.fadd(sm.fmax(start, sm.dsmem), uint64(math.Ceil(hold)))
	sm.dsmem = sent
	sm.keep(&sm.dsmem)
	w.ready, w.readyWhy = sm.fmax(w.ready, sent), stallMIOThrottle
	sm.keep(&w.ready)
	return sm.fadd(sent, lat)
}

// remoteSectors counts the distinct 32-byte sectors of other blocks'
// shared memory that a remote access's distinct lane addresses (block rank
// and offset: engine.StepRecord.RemoteAddrs) fall in.
func remoteSectors(addrs []uint64) int {
	n := 0
	for i, a := range addrs {
		first := true
		for _, b := range addrs[:i] {
			if b>>5 == a>>5 {
				first = false
				break
			}
		}
		if first {
			n++
		}
	}
	return n
}

// clusterEvent times barrier.cluster for warp w of b, after its step at
// now: an arrival with release semantics (all but .relaxed) first holds
// its warp for a GPU-scope fence (FenceGPU), and counts once that is
// done; the arrival that completes a phase lets every warp of the cluster
// that waits for it go ClusterBarrier + ClusterBarrierPerBlock × the
// cluster's blocks later, on whichever SM it is (a launch without clusters
// makes each block a cluster of one), and a wait that found its phase
// complete still goes no earlier than that.
func (s *gridState) clusterEvent(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord) {
	b, slot := w.blk, w.blk.slot
	switch in.Mode {
	case ir.ClusterArrive:
		at := sm.now
		if in.Order&ir.OrderRelease != 0 && s.p.ClusterBarrier != 0 {
			// A release arrival (the default) fences first: ptxas's
			// MEMBAR.ALL.GPU before UCGABAR_ARV (testdata/timing/syncmem:
			// a relaxed round takes 65 cycles, the default 759, a fence 693).
			at += uint64(s.p.FenceGPU)
			w.ready, w.readyWhy = sm.fmax(w.ready, at), stallLongScoreboard
			sm.keep(&w.ready)
		}
		ph := slot.ClusterArrival(w.idx)
		if slot.ClusterPhase() == ph {
			return // others have yet to arrive
		}
		ready := s.clusterBarrierDone(at)
		s.forCluster(b, func(ob *blockT) {
			ob.clPhase, ob.clReady = ph, ready
			s.releaseAt(ob, ready)
			ob.sm.woken(ready)
		})
	case ir.ClusterWait:
		if rec.Event != engine.EventBarrier && b.clReady != 0 && b.clPhase == slot.ClusterArrival(w.idx) {
			w.ready, w.readyWhy = max(w.ready, b.clReady), stallBarrier
		}
	}
}

// clusterExit lets go, on whichever SM, the warps of b's cluster that an
// exit completed a cluster barrier's phase for (its threads count as
// arrived).
func (s *gridState) clusterExit(b *blockT, now uint64) {
	ready := s.clusterBarrierDone(now)
	s.forCluster(b, func(ob *blockT) {
		s.releaseAt(ob, ready)
		ob.sm.woken(ready)
	})
}

// woken notes that warps of sm were let go at ready by another SM's
// cluster barrier in this quantum (a cluster launch runs its SMs one after
// the other): an SM that ended the quantum finding nothing to issue may
// now (else a barrier released in less than a quantum, ClusterBarrier's
// 60 cycles, looked like a deadlock).
func (sm *smT) woken(ready uint64) {
	sm.mayIssue = true
	sm.wake = min(sm.wake, ready)
}

// clusterBarrierDone is when the warps a cluster barrier completed at now
// let go issue: ClusterBarrier + ClusterBarrierPerBlock × the cluster's
// blocks later (BarrierLatency for a preset without the figures).
func (s *gridState) clusterBarrierDone(now uint64) uint64 {
	p := s.p
	if p.ClusterBarrier == 0 {
		return now + uint64(p.BarrierLatency)
	}
	n := 1
	if s.cl != nil {
		n = s.cl.n
	}
	return now + uint64(p.ClusterBarrier) + uint64(p.ClusterBarrierPerBlock)*uint64(n)
}

// forCluster calls f for every resident block of b's cluster (b alone in a
// launch without clusters).
func (s *gridState) forCluster(b *blockT, f func(*blockT)) {
	if s.cl == nil {
		f(b)
		return
	}
	n, id := s.cl.n, b.order/s.cl.n
	for _, o := range s.sms {
		for _, ob := range o.blocks {
			if ob.order/n == id {
				f(ob)
			}
		}
	}
}
