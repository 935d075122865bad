package engine

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/warpsim/warpsim/internal/ir"
)

// Warp states.
const (
	warpRunning uint8 = iota
	warpAtBarrier
	warpDone
)

// quantum is how many instructions a warp runs before the block scheduler
// moves on, so warps spinning on each other's shared-memory writes make
// progress.
const quantum = 2048

// maxBarriers is the number of named barriers per block (PTX: 16).
const maxBarriers = 16

type barrier struct {
	arrived int // warps
	need    int // warps; 0 = every live warp
	count   int // the thread count the warps gave; 0: none
	waiting []*warp
	popc    uint32
	and, or bool
	any     bool
}

// block is one thread block: its warps, shared memory and barriers.
type block struct {
	idx    [3]uint32
	linear int
	warps  []*warp
	live   int
	shared []byte
	// sharedDirty is set by every write to shared memory (stores and
	// atomics), so the next block needs it cleared.
	sharedDirty bool
	bars        [maxBarriers]barrier
	// armed has a bit set for each barrier some warp arrived at.
	armed uint32
}

// worker runs blocks one after another; everything it touches in the hot
// loop is its own.
type worker struct {
	l       *launch
	c       Counters
	blk     block
	pool    []*warp
	printed []byte
	fault   *Fault

	// clockSet: a timing driver sets the clock that %clock, %clock64 and
	// %globaltimer read; otherwise they count from the warp's own issues.
	clockSet    bool
	clockCycles uint64
	clockNS     uint64

	// The block's dynamic-parallelism state (cdp.go): printf output by
	// epoch, launches not yet started, grids its syncs ran.
	blockOpen  bool
	out        []byte
	segs       []epochMark
	epoch      uint32
	kids       []*cdpNode
	synced     []*Result
	nullStream *devHandle

	gs gridSyncBlock // the block's part in a cooperative grid's barrier (gridsync.go)

	lt *lineTab     // per-instruction counts (Config.Lines); nil until the first issue
	cb clusterBlock // the block's place in its cluster (cluster.go)

	held int64 // heldBytes when the worker was last pooled (slotpool.go)
	// seq is the worker's place in the order workers were made, and
	// regBuf the buffer its block's warps' kernel register files lie in
	// (placeRegs).
	seq    int
	regBuf []uint64
	// slot is the worker's BlockSlot (NewSlot): one per worker, kept
	// with it in the module's pool.
	slot *BlockSlot
}

// workerSeq counts the workers made (worker.seq).
var workerSeq atomic.Int64

func newWorker(l *launch) *worker {
	w := &worker{l: l, seq: int(workerSeq.Add(1) - 1)}
	w.blk.shared = sharedBuf(l)
	return w
}

// sharedBuf is a block's shared memory for launch l, its capacity rounded
// up to whole cache lines of the host's: a timing driver makes the first
// wave's slots SM after SM, and a small block's shared memory (an
// mbarrier's 8 bytes) would otherwise share a line with the next SM's,
// each written on its own thread (false sharing).
func sharedBuf(l *launch) []byte {
	n := max(l.shared, l.sharedMap)
	if n > 0 {
		n = (n + 63) &^ 63
	}
	return make([]byte, l.shared, n)
}

// rebind readies a worker of an earlier grid for launch l, keeping its
// warps and their register files.
func (w *worker) rebind(l *launch) {
	w.l, w.c, w.fault, w.clockSet = l, Counters{}, nil, false
	w.lt = nil     // a new launch's per-line table, made when first needed
	w.blk.live = 0 // no block of this grid yet (a stopped grid's report looks)
	w.printed = w.printed[:0]
	if cap(w.blk.shared) >= max(l.shared, l.sharedMap) {
		w.blk.shared = w.blk.shared[:l.shared]
		w.blk.sharedDirty = true
	} else {
		w.blk.shared = sharedBuf(l)
		w.blk.sharedDirty = false
	}
	for _, wp := range w.pool {
		// Allocations may have been freed since: forget the ones cached.
		wp.cache, wp.recent, wp.recentNext = nil, [4]*Alloc{}, 0
	}
}

func (w *worker) loop() {
	l := w.l
	defer func() {
		// A bug in the engine must not take the host program down: report
		// it as a fault of the block being run.
		if r := recover(); r != nil {
			l.setFault(l.internalFault(w, -1, r))
			w.endBlock() // the block's output so far
		}
	}()
	for !l.stop.Load() {
		i := int(l.next.Add(1) - 1)
		if i >= l.nblocks {
			return
		}
		if c := l.checkCap.Load(); c > 0 && int64(i) >= c {
			return // a checker stopped lanes of an earlier wave (check.go)
		}
		w.runBlock(i)
		w.endBlock()
		if w.fault != nil {
			l.setFault(w.fault)
			return
		}
		if l.stop.Load() && w.blk.live > 0 {
			return
		}
		if l.cfg.Progress != nil {
			// Serialized, and in order: callers need not be safe for
			// concurrent use.
			l.progressMu.Lock()
			l.cfg.Progress(int(l.done.Add(1)), l.nblocks)
			l.progressMu.Unlock()
		} else {
			l.done.Add(1)
		}
	}
}

func (w *worker) setupBlock(linear int) {
	w.endBlock()
	w.blockOpen = true
	l := w.l
	cfg := l.cfg
	b := &w.blk
	gx, gy := int(cfg.Grid[0]), int(cfg.Grid[1])
	b.linear = linear
	b.idx = [3]uint32{uint32(linear % gx), uint32(linear / gx % gy), uint32(linear / (gx * gy))}
	bx, by, bz := cfg.Block[0], cfg.Block[1], cfg.Block[2]
	n := int(bx * by * bz)
	nw := (n + 31) / 32
	for len(w.pool) < nw {
		w.pool = append(w.pool, &warp{w: w})
	}
	b.warps = w.pool[:nw]
	b.live = nw
	w.placeRegs(b.warps, 0, 0, l.fn.NumSlots*32)
	if b.sharedDirty {
		// Shared memory starts zeroed (deterministic); only a block that
		// wrote to it leaves anything to clear.
		clear(b.shared)
		b.sharedDirty = false
	}
	for i := range b.bars {
		b.bars[i] = barrier{waiting: b.bars[i].waiting[:0]}
	}
	b.armed = 0
	for wi, wp := range b.warps {
		wp.reset(b, wi, n, l.fn)
	}
	w.clusterSetup()
	w.c.BlocksLaunched++
	w.c.WarpsLaunched += uint64(nw)
}

func (w *worker) runBlock(linear int) {
	w.setupBlock(linear)
	b := &w.blk
	l := w.l
	var steps int64
	for {
		ran := false
		for _, wp := range b.warps {
			if wp.state != warpRunning {
				continue
			}
			n := wp.run(quantum)
			steps += int64(n)
			ran = true
			if w.fault != nil {
				return
			}
			if wp.state == warpDone {
				b.live--
			}
			w.checkBarriers()
		}
		if steps > 1<<16 {
			if l.steps.Add(steps) > l.limit {
				w.watchdog()
				return
			}
			steps = 0
			if l.stop.Load() {
				w.snapshot()
				return
			}
		}
		if b.live == 0 {
			break
		}
		if !ran {
			w.deadlock()
			return
		}
	}
	if l.steps.Add(steps) > l.limit {
		w.watchdog()
	}
}

// checkBarriers releases every barrier whose arrivals are complete.
func (w *worker) checkBarriers() {
	b := &w.blk
	for armed := b.armed; armed != 0; armed &= armed - 1 {
		i := bits.TrailingZeros32(armed)
		br := &b.bars[i]
		if br.arrived == 0 {
			continue
		}
		need := br.need
		if need == 0 || need > b.live {
			need = b.live
		}
		if br.arrived < need {
			continue
		}
		for _, wp := range br.waiting {
			if wp.barRedDst >= 0 {
				var v uint64
				switch wp.barRedMode {
				case ir.BarRedPopc:
					v = uint64(br.popc)
				case ir.BarRedAnd:
					v = b2u(br.and)
				case ir.BarRedOr:
					v = b2u(br.or)
				}
				r := wp.r(wp.barRedDst)
				for l := 0; l < 32; l++ {
					if wp.barRedMask>>l&1 != 0 {
						r[l] = v
					}
				}
				wp.barRedDst = -1
			}
			wp.state = warpRunning
		}
		*br = barrier{waiting: br.waiting[:0]}
		b.armed &^= 1 << i
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (w *worker) deadlock() {
	b := &w.blk
	for _, wp := range b.warps {
		if wp.state == warpAtBarrier {
			br := &b.bars[wp.barID]
			need := br.need
			if need == 0 {
				need = b.live
			}
			w.fault = wp.faultAt(FaultBarrierDeadlock, wp.barPC, wp.barMask, 0, false,
				fmt.Sprintf("barrier %d can never complete: %d of %d warps arrived, the others have exited or wait elsewhere", wp.barID, br.arrived, need))
			return
		}
	}
	w.fault = &Fault{Kind: FaultBarrierDeadlock, Block: b.idx, Detail: "no warp can make progress"}
}

// watchdog stops the launch: it ran past its step budget. Every block
// running then records where its warps are (stopFault reports them).
func (w *worker) watchdog() {
	w.snapshot()
	w.fault = &Fault{Kind: FaultWatchdog, Block: w.blk.idx, PC: -1,
		Detail: fmt.Sprintf("the launch exceeded its step limit of %d warp instructions", w.l.limit)}
}
