package engine

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/warpsim/warpsim/internal/ir"
)

// Cooperative launches (cudaLaunchCooperativeKernel) and the grid-wide
// barrier of cooperative_groups::grid_group::sync().
//
// The blocks of a cooperative grid are all resident at once (the runtime
// refuses a larger grid with cudaErrorCooperativeLaunchTooLarge, as the
// driver does), so a block may wait for every other one. warpsim's
// cooperative_groups.h makes grid.sync() a call of the extern
// __warpsim_grid_sync, which the engine runs itself: the calling warp stops
// (warpAtGridSync); once every live warp of its block has stopped there the
// block has arrived (the block-wide __syncthreads() part); once every block
// of the grid has arrived, the barrier's generation advances and every
// waiting warp goes on. The atomics that order the arrivals and the release
// are the barrier's memory fence: what any block wrote before it arrived is
// seen by every block after the release.
//
// nvcc's own grid.sync() (PTX from nvcc, run through launch files) instead
// spins on an atomic counter in a grid workspace whose address it reads
// from %envreg1 (high half) and %envreg2 (low half), and traps where that
// is 0. As on an H100, the context's first cooperative launch makes the
// workspace and every launch after it sees it (grid_group::is_valid() is
// then true even in an ordinary launch: testdata/coop/grid_sync.h100.txt),
// while a grid.sync() before any cooperative launch traps
// (sync_not_cooperative.h100.txt). The functional driver runs a cooperative
// grid's blocks in turns of bounded length, round-robin, so that a block
// spinning on another's write lets that block run.
//
// A grid whose blocks do not all reach grid.sync() (some exited) hangs a
// GPU; the engine stops it with a barrier deadlock that says how many
// blocks arrived and lists where the waiting warps are, as the watchdog's
// report does.

// warpAtGridSync is the state of a warp waiting at a grid barrier.
const warpAtGridSync = warpDone + 1

// coopTurn is the warp instructions a cooperative grid's block runs before
// the functional driver moves on to the next block.
const coopTurn = 1 << 13

// workspaceBytes is the size of nvcc's grid workspace: {u32 size, u32
// barrier counter}, padded.
const workspaceBytes = 16

// coopGrid is a cooperative grid's barrier.
type coopGrid struct {
	arrived atomic.Int64  // blocks waiting in the current generation
	gen     atomic.Uint64 // generations completed
}

// gridSyncBlock is one block's part in its grid's barrier.
type gridSyncBlock struct {
	waiting int    // warps stopped at the barrier
	arrived bool   // the block counts in coopGrid.arrived
	gen     uint64 // the generation whose end it waits for
}

// beginCooperative readies launch l as a cooperative grid: a barrier, and
// the context's grid workspace (zeroed, made by its first cooperative
// launch). It runs before the launch takes its snapshot of the
// allocations, so the workspace is visible to the kernel.
func (l *launch) beginCooperative() error {
	m := l.mod.Mem
	if m.gridWorkspace == 0 {
		addr, err := m.AllocPrivate(workspaceBytes)
		if err != nil {
			return fmt.Errorf("cooperative launch: grid workspace: %v", err)
		}
		if b, err := m.Bytes(addr, workspaceBytes); err == nil {
			storeLE(b, 4, workspaceBytes)
		}
		m.gridWorkspace = addr
	}
	l.coop = &coopGrid{}
	return nil
}

// envreg is %envreg1 or %envreg2: the grid workspace address's high or
// low half (0 before the context's first cooperative launch).
func (l *launch) envreg(r ir.Sreg) uint64 {
	ws := l.mod.Mem.gridWorkspace
	if r == ir.SregEnvreg1 {
		return ws >> 32
	}
	return ws & 0xffff_ffff
}

// gridSync is __warpsim_grid_sync() for the warp: it stops at the grid
// barrier until every block of the grid got there.
func (wp *warp) gridSync(pc int, exec uint32) {
	w := wp.w
	if w.l.coop == nil {
		// nvcc's code traps where the grid has no workspace (an H100
		// before any cooperative launch); after one it would spin on the
		// workspace, which only co-resident blocks survive.
		wp.fault(FaultTrap, pc, bits.TrailingZeros32(exec), 0, false,
			"cooperative_groups::grid_group::sync() in a launch that is not cooperative (launch the kernel with cudaLaunchCooperativeKernel)")
		return
	}
	// For the sanitizer the grid barrier is also its block's barrier 0
	// for every thread (what __syncthreads() is).
	if wp.chk != nil && !wp.chk.Barrier(wp.site(pc, exec), 0, -1) {
		wp.sanitizerStop(pc, exec)
		return
	}
	wp.state = warpAtGridSync
	wp.barPC, wp.barMask = pc, exec
	w.gs.waiting++
	if w.arriveGridSync() && wp.rec != nil {
		wp.rec.GridReleased = true
	}
}

// arriveGridSync counts the block in at its grid's barrier once every live
// warp of it waits there. It reports whether that completed the barrier
// (the block's warps are then running again, the others' on their next
// poll).
func (w *worker) arriveGridSync() bool {
	gs := &w.gs
	if gs.arrived || gs.waiting == 0 || gs.waiting < w.blk.live {
		return false
	}
	g := w.l.coop
	gs.arrived = true
	gs.gen = g.gen.Load()
	if g.arrived.Add(1) < int64(w.l.nblocks) {
		return false
	}
	// The last block: no other can arrive before the generation ends.
	g.arrived.Store(0)
	g.gen.Add(1)
	w.pollGridSync()
	return true
}

// pollGridSync lets the block's waiting warps go once the generation they
// wait for has completed; it reports whether it did.
func (w *worker) pollGridSync() bool {
	gs := &w.gs
	if !gs.arrived || w.l.coop.gen.Load() == gs.gen {
		return false
	}
	for _, wp := range w.blk.warps {
		if wp.state == warpAtGridSync {
			wp.state = warpRunning
		}
	}
	gs.waiting, gs.arrived = 0, false
	return true
}

// gridSyncWait says what a warp at the grid barrier waits for.
func (w *worker) gridSyncWait() string {
	return fmt.Sprintf("waiting at grid.sync() (%d of %d blocks arrived)", w.l.coop.arrived.Load(), w.l.nblocks)
}

// gridDeadlock records, for a block that waits at the grid barrier when
// nothing else can run, the deadlock of the whole grid: the report lists
// where the warps of every waiting block are (launchGrid and
// runCooperative snapshot the others).
func (w *worker) gridDeadlock() {
	w.snapshot()
	l := w.l
	arrived := l.coop.arrived.Load()
	w.fault = &Fault{Kind: FaultBarrierDeadlock, Block: w.blk.idx, PC: -1,
		Detail: fmt.Sprintf("grid.sync() can never complete: %d of %d blocks arrived, the others have exited", arrived, l.nblocks)}
}

// turn runs the block's warps, a quantum each in turn, until every warp
// has finished or waits, or about coopTurn instructions ran. It reports
// whether any warp ran.
func (w *worker) turn() bool {
	w.pollGridSync()
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
			}
			w.checkBarriers()
			w.arriveGridSync()
		}
		if !ran {
			break
		}
		ranAny = true
	}
	if l.steps.Add(steps) > l.limit {
		w.watchdog()
		return ranAny
	}
	if b.live > 0 && !w.gs.arrived {
		stuck := true
		for _, wp := range b.warps {
			if wp.state == warpRunning {
				stuck = false
				break
			}
		}
		if stuck {
			// Warps wait at a block barrier that cannot complete (or some at
			// the grid barrier and others at a block barrier).
			w.deadlock()
		}
	}
	return ranAny
}

// runCooperative is the functional driver of a cooperative grid: every
// block is resident from the start, and the blocks take turns of bounded
// length, in parallel on the workers, round after round, until all have
// finished. A round in which no block could run ends the grid with a
// deadlock (blocks wait at a grid barrier that others exited before).
func (m *Module) runCooperative(l *launch) (Counters, *launch, *GridTiming, error) {
	var total Counters
	n := l.nblocks
	// Every block holds a worker (its warps and register files) for the
	// whole grid: taken from the module's pool of block slots, and given
	// back for its next grid.
	blocks := make([]*worker, n)
	m.slotMu.Lock()
	for i := range blocks {
		if k := len(m.slots); k > 0 {
			blocks[i] = m.slots[k-1]
			m.slots = m.slots[:k-1]
		}
	}
	m.slotMu.Unlock()
	for i, w := range blocks {
		if w == nil {
			w = newWorker(l)
			blocks[i] = w
		} else {
			w.rebind(l)
		}
		w.setupBlock(i)
		w.gs = gridSyncBlock{}
	}
	defer m.keepSlots(blocks)
	finished := make([]bool, n)
	workers := l.cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, n), 1)
	for !l.stop.Load() {
		var next atomic.Int64
		var ran atomic.Bool
		round := func() {
			var w *worker
			defer func() {
				// A panic on this worker goroutine becomes the launch's
				// internal-error fault, as under runFunctional (worker.loop).
				if r := recover(); r != nil {
					l.setFault(l.internalFault(w, -1, r))
				}
			}()
			for !l.stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if finished[i] {
					continue
				}
				w = blocks[i]
				if w.turn() {
					ran.Store(true)
				}
				if w.fault != nil {
					finished[i] = true
					w.endBlock()
					l.setFault(w.fault)
					return
				}
				if w.blk.live == 0 {
					finished[i] = true
					w.endBlock()
					l.progressMu.Lock()
					done := int(l.done.Add(1))
					if l.cfg.Progress != nil {
						l.cfg.Progress(done, n)
					}
					l.progressMu.Unlock()
				}
			}
		}
		var wg sync.WaitGroup
		for k := 1; k < workers; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				round()
			}()
		}
		round()
		wg.Wait()
		if l.stop.Load() {
			break
		}
		live := -1
		for i, f := range finished {
			if !f {
				live = i
				break
			}
		}
		if live < 0 {
			break
		}
		if !ran.Load() {
			// Every unfinished block waits at the grid barrier.
			w := blocks[live]
			w.gridDeadlock()
			finished[live] = true
			l.setFault(w.fault)
			break
		}
	}
	for i, w := range blocks {
		if !finished[i] && w.fault == nil && w.blk.live > 0 && l.stop.Load() {
			w.snapshot()
		}
		w.endBlock()
		total.Add(&w.c)
	}
	if f := l.stopFault(); f != nil {
		return total, l, nil, f
	}
	return total, l, nil, nil
}
