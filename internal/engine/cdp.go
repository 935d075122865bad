package engine

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// This file runs the grids device code launches (dynamic parallelism).
//
// Order. Child grids start in launch order across the whole parent grid,
// breadth first: a generation of grids runs, then the grids they launched
// (ordered by parent grid, parent block's linear index, then within the
// block by warp and issue order), then theirs, as the H100 starts them
// (its nested Hello World at grid 2 prints both depth-1 markers, then both
// children's lines). A launch into a stream waits for the stream's previous
// launch and every grid that one launched (a device stream's work runs in
// order; a block's NULL stream is shared by its threads) and for the
// launches recorded by the events the stream waits on; a launch whose
// wait is not over moves to the next generation. Nothing depends on which
// worker ran which block, so the order is the same for any worker count.
//
// Output. printf lines are kept per block and released when a generation
// completes, ordered by (epoch, grid, block): a block's epoch counts its
// device launches and synchronizations, which take microseconds on a GPU,
// far longer than the instructions between them, so a line a block printed
// after its first launch comes after every line of that generation printed
// before one (the H100's order for the nested lesson).
//
// CDP1's device-side cudaDeviceSynchronize runs, at the call, the calling
// block's launched-but-not-started grids and everything they launch to
// completion (through the launch's Driver, so a timing driver times them),
// while the block's warps keep their state and other blocks go on.

// DevRTLimits are the device runtime's limits for a launch, from the arch
// preset; a zero field is not enforced.
type DevRTLimits struct {
	// MaxDepth is the number of nesting levels, the host's grid being the
	// first: a launch from depth MaxDepth-1 fails with
	// cudaErrorLaunchMaxDepthExceeded.
	MaxDepth int
	// SyncDepth is cudaLimitDevRuntimeSyncDepth: cudaDeviceSynchronize in a
	// grid at depth SyncDepth or deeper fails with
	// cudaErrorSyncDepthExceeded.
	SyncDepth int
	// PendingLaunches is cudaLimitDevRuntimePendingLaunchCount: a launch
	// while that many launched grids have not started fails with
	// cudaErrorLaunchPendingCountExceeded.
	PendingLaunches int
	// MaxThreadsPerBlock bounds a device launch's block (more is
	// cudaErrorInvalidConfiguration), under CDP1 and CDP2.
	MaxThreadsPerBlock int
	// MaxSharedPerBlock bounds a device launch's static plus dynamic
	// shared memory (the default per-block limit, 48 KiB: a device-side
	// launch asking for more gets cudaErrorInvalidConfiguration and runs
	// no child on the H100, testdata/hostile/h100.txt, cdp_smem); 0: none.
	MaxSharedPerBlock int
}

// CUDA error codes of the device runtime.
const (
	cudaErrorLaunchMaxDepthExceeded     = 65
	cudaErrorSyncDepthExceeded          = 68
	cudaErrorLaunchPendingCountExceeded = 69
	cudaErrorInvalidResourceHandle      = 400
	cudaErrorLaunchFailure              = 719
)

// Special device stream handles, CUDA 12's values (cuda_device_runtime_api.h
// under CDP2): a launch into cudaStreamFireAndForget waits for nothing; one
// into cudaStreamTailLaunch waits for its parent grid and everything else
// the parent launched, with descendants, and for the parent's earlier tail
// launches (runNode).
const (
	streamTailLaunch    = 3
	streamFireAndForget = 4
	handleBase          = 0x5700_0000_0000
)

// cdpTree is the state the grids of one host launch share.
type cdpTree struct {
	mu      sync.Mutex
	limits  DevRTLimits
	pending int // launched grids not yet started
	handles map[uint64]*devHandle
	next    uint64
	host    *hostLaunch // the host launch's stop state (interrupt.go)
	// memsetWarned: a device-side fill's value was ignored (devcopy.go).
	memsetWarned bool
}

func newTree(lim DevRTLimits) *cdpTree {
	return &cdpTree{limits: lim, handles: map[uint64]*devHandle{}, next: handleBase}
}

// devHandle is a device stream (last: its latest launch; waits: the
// launches of the events it waits on, for its next launch) or a device
// event (last: the launch it recorded).
type devHandle struct {
	event bool
	last  *cdpNode
	waits []*cdpNode
}

// cdpNode is one grid of the tree.
type cdpNode struct {
	fn          int
	grid, block [3]uint32
	shmem       uint32
	params      []byte
	depth, warp int
	parent      *cdpNode
	deps        []*cdpNode // grids whose trees must complete before this one starts
	open        int        // launched grids whose trees have not completed
	ran, done   bool       // done: it and every grid it launched completed
	kids        []*cdpNode // launched and not started by a sync when it completed
	tail        bool       // launched into cudaStreamTailLaunch
	r           *Result
	index       int       // in r.Grids
	tag         DevLaunch // when a timing driver saw it launched
	copy        *devCopy  // a device runtime copy or fill, not a grid (devcopy.go)
}

// finish marks n's grid complete and propagates tree completion; t.mu held.
func (n *cdpNode) finish() {
	n.ran = true
	for n != nil && n.ran && n.open == 0 && !n.done {
		n.done = true
		n = n.parent
		if n != nil {
			n.open--
		}
	}
}

func (t *cdpTree) ready(n *cdpNode) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range n.deps {
		if !d.done {
			return false
		}
	}
	return true
}

// outSeg is printf output of one block at one epoch.
type outSeg struct {
	epoch  uint32
	linear int
	b      []byte
}

// blockDone is what a block leaves when it completes: its printf output,
// the grids it launched that have not started, and the grids its
// synchronizations ran.
type blockDone struct {
	linear int
	out    []outSeg
	kids   []*cdpNode
	synced []*Result
}

// runTree runs roots and everything they launch, generation by generation;
// sink receives the printf output of each generation as it completes. It
// returns the cycles the timing driver measured for the grids (0 under the
// functional driver), summed.
func (m *Module) runTree(base *Config, t *cdpTree, r *Result, roots []*cdpNode, sink func([]byte)) (uint64, error) {
	var cycles uint64
	gen := roots
	for len(gen) > 0 {
		var deferred, next []*cdpNode
		var outs []outSeg
		progress := false
		var err error
		for _, n := range gen {
			if !t.ready(n) {
				deferred = append(deferred, n)
				continue
			}
			progress = true
			if n.copy != nil {
				if err = m.runCopy(t, n); err != nil {
					break
				}
				continue
			}
			var out []outSeg
			out, err = m.runNode(base, t, r, n)
			outs = append(outs, out...)
			if g := r.Grids[n.index].Timing; g != nil {
				cycles += g.Cycles
			}
			next = append(next, n.kids...)
			if err != nil {
				break
			}
		}
		emit(outs, sink)
		if err != nil {
			return cycles, err
		}
		if !progress {
			return cycles, errors.New("warpsim internal error: device-launched grids wait on each other")
		}
		gen = append(deferred, next...)
	}
	return cycles, nil
}

// emit writes a generation's output in (epoch, grid, block) order; outs are
// in grid, then block, then issue order, which the stable sort keeps.
func emit(outs []outSeg, sink func([]byte)) {
	if len(outs) == 0 || sink == nil {
		return
	}
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].epoch < outs[j].epoch })
	var b []byte
	for _, o := range outs {
		b = append(b, o.b...)
	}
	sink(b)
}

// runNode runs one grid of the tree and records it in r; it returns the
// grid's printf output, block by block.
func (m *Module) runNode(base *Config, t *cdpTree, r *Result, n *cdpNode) ([]outSeg, error) {
	start := time.Now()
	cfg := *base
	cfg.Kernel, cfg.Grid, cfg.Block, cfg.DynShared, cfg.Params = n.fn, n.grid, n.block, n.shmem, n.params
	if n.parent != nil {
		cfg.Progress = nil
		t.mu.Lock()
		t.pending--
		t.mu.Unlock()
	}
	cfg.tree, cfg.node = t, n
	parent := -1
	if n.parent != nil && n.parent.r == r {
		parent = n.parent.index
	}
	n.r, n.index = r, len(r.Grids)
	c, l, timing, err := m.launchGrid(&cfg, n.depth, n.index, t.host)
	r.Grids = append(r.Grids, Grid{
		Kernel: cfg.Kernel, Grid: cfg.Grid, Block: cfg.Block, DynShared: cfg.DynShared,
		Parent: parent, Depth: n.depth, Counters: c, Elapsed: time.Since(start), Timing: timing,
	})
	if l == nil {
		t.mu.Lock()
		n.finish()
		t.mu.Unlock()
		return nil, err
	}
	r.Grids[n.index].Counters.DeviceLaunches = uint64(l.launches.Load())
	r.Grids[n.index].Lines = l.lineCounts()
	for addr := range l.pending {
		m.Mem.Free(addr)
	}
	sort.Slice(l.blocks, func(i, j int) bool { return l.blocks[i].linear < l.blocks[j].linear })
	var out []outSeg
	for _, b := range l.blocks {
		out = append(out, b.out...)
		n.kids = append(n.kids, b.kids...)
		for _, frag := range b.synced {
			at := len(r.Grids)
			for _, g := range frag.Grids {
				// Each grid's Elapsed is its own simulation's.
				r.Grids[n.index].Elapsed = max(r.Grids[n.index].Elapsed-g.Elapsed, 0)
				if g.Parent < 0 {
					g.Parent = n.index
				} else {
					g.Parent += at
				}
				r.Grids = append(r.Grids, g)
			}
		}
	}
	tailAfter(n.kids)
	t.mu.Lock()
	n.finish()
	t.mu.Unlock()
	return out, err
}

// tailAfter makes each tail launch among a completed grid's kids wait for
// every other kid's tree (work into fire-and-forget, the NULL stream or
// created streams, with what it launched) and for the tail launch before it:
// a tail-launched grid starts when its parent's work is done, in launch order.
func tailAfter(kids []*cdpNode) {
	var others []*cdpNode
	for _, k := range kids {
		if !k.tail {
			others = append(others, k)
		}
	}
	var prev *cdpNode
	for _, k := range kids {
		if !k.tail {
			continue
		}
		k.deps = append(k.deps, others...)
		if prev != nil {
			k.deps = append(k.deps, prev)
		}
		prev = k
	}
}

// endBlock hands the block's output, unstarted launches and synchronized
// grids to the launch. It runs when the block completes (or stops at a
// fault) and is idempotent.
func (w *worker) endBlock() {
	if !w.blockOpen {
		return
	}
	w.blockOpen = false
	w.clusterEnd()
	d := blockDone{linear: w.blk.linear, kids: w.kids, synced: w.synced}
	sort.SliceStable(d.kids, func(i, j int) bool { return d.kids[i].warp < d.kids[j].warp })
	if len(w.out) > 0 {
		b := append([]byte(nil), w.out...)
		start := 0
		for i, s := range w.segs {
			end := len(b)
			if i+1 < len(w.segs) {
				end = w.segs[i+1].start
			}
			d.out = append(d.out, outSeg{epoch: s.epoch, linear: d.linear, b: b[start:end:end]})
			start = end
		}
	}
	w.out, w.segs, w.kids, w.synced, w.epoch, w.nullStream = w.out[:0], w.segs[:0], nil, nil, 0, nil
	if d.out == nil && d.kids == nil && d.synced == nil {
		return
	}
	w.l.blocksMu.Lock()
	w.l.blocks = append(w.l.blocks, d)
	w.l.blocksMu.Unlock()
}

// epochMark is where the block's output at an epoch begins in worker.out.
type epochMark struct {
	epoch uint32
	start int
}

// print appends printf output to the block's buffer at its epoch.
func (w *worker) print(b []byte) {
	if n := len(w.segs); n == 0 || w.segs[n-1].epoch != w.epoch {
		w.segs = append(w.segs, epochMark{epoch: w.epoch, start: len(w.out)})
	}
	w.out = append(w.out, b...)
}

// deviceSync is CDP1's device-side cudaDeviceSynchronize for the calling
// block: the grids it launched that have not started run to completion,
// with their descendants.
func (wp *warp) deviceSync() (uint64, uint32) {
	w := wp.w
	l := w.l
	if lim := l.tree.limits.SyncDepth; lim > 0 && l.depth >= lim {
		return 0, cudaErrorSyncDepthExceeded
	}
	kids := w.kids
	w.kids = nil
	if len(kids) == 0 {
		return 0, cudaSuccess
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].warp < kids[j].warp })
	frag := &Result{}
	cycles, err := l.mod.runTree(l.cfg, l.tree, frag, kids, w.print)
	if l.host != nil {
		l.host.attach(l) // the grid running now is this one again
	}
	w.synced = append(w.synced, frag)
	w.epoch++
	if err != nil {
		var f *Fault
		if !errors.As(err, &f) {
			f = &Fault{Kind: FaultIllegal, Block: w.blk.idx, Detail: fmt.Sprintf("a grid launched from the device failed: %v", err)}
		}
		w.fault = f
		wp.state = warpDone
		return cycles, cudaErrorLaunchFailure
	}
	return cycles, cudaSuccess
}

// stream returns the stream a launch goes to; nil for streams whose
// launches wait for nothing. t.mu is held.
func (w *worker) stream(h uint64) (*devHandle, bool) {
	switch h {
	case 0:
		if w.nullStream == nil {
			w.nullStream = &devHandle{}
		}
		return w.nullStream, true
	case streamFireAndForget, streamTailLaunch:
		return nil, true
	}
	s, ok := w.l.tree.handles[h]
	if !ok || s.event {
		return nil, false
	}
	return s, true
}

// newHandle makes a device stream or event; t.mu held.
func (t *cdpTree) newHandle(event bool) uint64 {
	t.next += 16
	t.handles[t.next] = &devHandle{event: event}
	return t.next
}
