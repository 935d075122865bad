// The quantum model: SMs advance a quantum of cycles at a time, each using
// only its own state (its schedulers, scoreboards, pipes, L1 and shared
// memory), so they can be simulated on several host threads at once with
// the same result as on one. What leaves an SM for the L2 (a load's L1
// misses, a store's sectors, an atomic) is logged with its issue cycle and
// its index in the SM's log, and its answer is a future: a placeholder the
// scoreboard holds. The logs of quantum k are merged in (cycle, SM, index)
// order and replayed through the L2, DRAM and the atomic units (replay)
// while the SMs simulate quantum k+1, which gives each future its cycle;
// when quantum k+2 begins every place that holds one of them gets its
// value (begin). The quantum is at most half the shortest L2 round trip, so
// no answer is due before the end of the quantum after the one that asked,
// and the model is exact for any number of threads. Blocks retired in a
// quantum are replaced at its end, in (cycle, SM) order (dispense).

package timing

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// A future is a cycle not known yet in the quantum it was made in: a value
// at or above futBit (and below math.MaxUint64, which means never) names
// a node of one of its SM's three arenas (the quantum's number modulo 3)
// that computes it. A future is never before the end of the quantum it is
// seen in (an answer to quantum k's request, never before the end of
// quantum k+1), so comparing it with a cycle of that quantum says "later";
// cycles of futures are combined only through fmax and fadd.
const (
	futBit     = uint64(1) << 62
	arenaShift = 60
	nodeMask   = uint64(1)<<arenaShift - 1
)

func isFut(v uint64) bool { return v >= futBit && v != math.MaxUint64 }

func arenaOf(v uint64) int { return int(v >> arenaShift & 3) }

// fnode is one future: a leaf the replay fills (an L2 request's answer;
// a is the request's index in its arena, log), or max(a, b) + v of
// cycles and earlier futures. Once done, v is its value (the cycles it
// added are needed no more): 32 bytes a node, two to a host cache line,
// where the arenas' appends and the settling reads miss the host's caches.
type fnode struct {
	a, b  uint64
	v     uint64 // open: the cycles added; done: the value
	state uint8
}

const (
	nodeOpen uint8 = iota // an operation not evaluated yet
	nodeLeaf              // a leaf the replay has not answered yet
	nodeDone
)

// hold is a place that was given a future: resolve writes the future's
// value there unless the place was overwritten since.
type hold struct {
	loc *uint64
	v   uint64
}

// arena is what an SM produced in one quantum: its futures, the places
// that hold them, its requests to the L2 side (and their sectors). hist
// counts the requests by cycle from lo, the quantum's first (counted of
// them; those outside the quantum are not), so that the replay, which
// runs on one thread, orders the quantum's requests without reading them
// all twice more (replay).
//
// While the replay reads an arena's nodes, requests and sectors (and a
// settling thread its nodes: settleSM), its SM runs the next quantum on another thread,
// appending to the next arena and to this one's holds: the padding keeps
// what the replay reads off the cache lines the SM's thread writes (false
// sharing would move those lines between the two cores at every request).
type arena struct {
	_       [64]byte
	nodes   []fnode
	reqs    []memReq
	secs    []uint64
	_       [64]byte
	holds   []hold
	hist    []int32
	lo      uint64
	counted int
}

// arenaPool keeps the arenas of finished grids' SMs for the SMs of the
// next grids, so that each grid's SMs do not grow their arenas' slices
// from nothing again (a test's thousands of small grids spent a few
// percent of their time there). An arena taken from it is as good as a
// new one: begin empties each arena before its quantum uses it (and
// clears its counts by cycle when it counted any).
type arenaPool struct {
	mu   sync.Mutex
	free [][3]arena
}

// take gives ar the arenas of a finished grid's SM, if any are kept.
func (p *arenaPool) take(ar *[3]arena) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		*ar = p.free[n-1]
		p.free[n-1] = [3]arena{}
		p.free = p.free[:n-1]
	}
	p.mu.Unlock()
}

// put keeps a finished grid's SM's arenas; at most max are kept.
func (p *arenaPool) put(ar *[3]arena, max int) {
	p.mu.Lock()
	if len(p.free) < max {
		for i := range ar {
			// (The places held were the grid's: not kept alive.)
			h := ar[i].holds
			clear(h[:cap(h)])
		}
		p.free = append(p.free, *ar)
		*ar = [3]arena{}
	}
	p.mu.Unlock()
}

// smQuantum is an SM's state of the quantum model: the current quantum's
// end, counts that are summed at the grid's end, its step record, and the
// arenas of the last three quanta (cur: the current one's). Quantum k's
// requests are replayed while the SMs run quantum k+1, and its futures
// written where they are held when quantum k+2 begins (resolve).
type smQuantum struct {
	end    uint64
	rec    engine.StepRecord
	steps  int64
	issued uint64
	// tensorBusy is the SM's sub-partitions' tensor pipe time, in
	// 1/TensorFrac cycles (tensor_precision_fu_utilization).
	tensorBusy uint64
	stalls     [numStalls]uint64
	ar         [3]arena
	// depWarps are, per arena, the warps depReady gave a future of that
	// arena as their readiness (begin looks at them, not at every warp).
	depWarps [3][]*warpT
	cur      int
	retired  []retired
	mayIssue bool // runSM's answer for the quantum: some warp can still issue
	// hostNS is the host time the SM's last quantum took on a worker
	// thread (overlap's order; never read by the model).
	hostNS int64
	// ahead: the SM ran the next quantum too, right after this one
	// (gridState.runAhead); aheadWake, aheadSteps and aheadRetired are its
	// wake and steps at the end of this one and the blocks it retired in
	// the next.
	ahead        bool
	aheadWake    uint64
	aheadSteps   int64
	aheadRetired []retired
}

// retired is a block an SM retired in the current quantum.
type retired struct {
	at, freeAt uint64 // its last warp's exit; when its place is free
	order      int    // its place in launch order (clusters: cluster.go)
	span       engine.BlockSpan
}

// memReq is one request from an SM to the L2 side, replayed after its
// quantum.
type memReq struct {
	cycle uint64 // issue cycle: the replay's order, with the SM and its index
	at    uint64 // when it leaves the SM (a store: when its data is ready): a cycle or a future
	kind  uint8
	sec   uint64  // reqLoad: its sector
	cost  float64 // reqLoad: the bytes of the L2's bandwidth it takes (L2AccessBytes); reqAtomic: a CAS loop's round (casRound), 0: none
	leaf  uint64  // the future its answer fills (a store's: when the L2 took it)
	lo    int32   // reqStore, reqAtomic(Ack): its sectors, secs[lo:hi]
	hi    int32
	per   int32   // reqStore: bytes written per sector
	ops   float64 // reqAtomic: updates the atomic units perform
	dup   float64 // reqAtomic: updates serialized at one address
	words int32   // reqAtomic, a CAS loop: its words (address >> 2), the last words of secs[lo:hi]
}

const (
	reqLoad uint8 = iota
	reqStore
	reqAtomic
	reqAtomicAck // an atomic whose answer is its write's acknowledgement, not a value (atomicAck)
	// reqConstLoad is a constant cache's miss: a reqLoad whose DRAM fetch
	// takes the mean of the L2's near and far partitions, whatever its
	// SM (the H100's const_mb: 132 SMs chasing through the same cold
	// 4 KiB page have their slowest a step within 2-15 cycles of a lone
	// block's at strides 64-256, where the far half would be 40-150 behind).
	reqConstLoad
)

// log adds a request (with its sectors, for a store or an atomic) to the
// current quantum's.
func (q *smQuantum) log(r memReq, sectors []uint64) {
	a := &q.ar[q.cur]
	if sectors != nil {
		r.lo = int32(len(a.secs))
		a.secs = append(a.secs, sectors...)
		r.hi = int32(len(a.secs))
	}
	if isFut(r.leaf) {
		// The leaf knows its request: the replay answers it by the
		// request's index (answers).
		q.nodeOf(r.leaf).a = uint64(len(a.reqs))
	}
	a.reqs = append(a.reqs, r)
	if off := r.cycle - a.lo; off < uint64(len(a.hist)) {
		a.hist[off]++
		a.counted++
	}
}

func (q *smQuantum) node(n fnode) uint64 {
	a := &q.ar[q.cur]
	a.nodes = append(a.nodes, n)
	return futBit | uint64(q.cur)<<arenaShift | uint64(len(a.nodes)-1)
}

func (q *smQuantum) nodeOf(v uint64) *fnode { return &q.ar[arenaOf(v)].nodes[v&nodeMask] }

// leaf is a new future the replay answers.
func (q *smQuantum) leaf() uint64 { return q.node(fnode{state: nodeLeaf}) }

// fmax is max(a, b) for cycles and futures.
func (q *smQuantum) fmax(a, b uint64) uint64 {
	fa, fb := isFut(a), isFut(b)
	switch {
	case !fa && !fb:
		return max(a, b)
	case a == b || !fb && b == 0:
		return a
	case !fa && a == 0:
		return b
	}
	return q.node(fnode{a: a, b: b})
}

// fadd is a + k for a cycle or a future.
func (q *smQuantum) fadd(a, k uint64) uint64 {
	if !isFut(a) {
		return a + k
	}
	if k == 0 {
		return a
	}
	return q.node(fnode{a: a, b: a, v: k})
}

// keep notes that *loc was given a future: it is resolved with the
// future's arena. A cycle needs nothing.
func (q *smQuantum) keep(loc *uint64) {
	if isFut(*loc) {
		q.hold(loc)
	}
}

func (q *smQuantum) hold(loc *uint64) {
	v := *loc
	a := &q.ar[arenaOf(v)]
	a.holds = append(a.holds, hold{loc, v})
}

// val is the cycle of v: v itself, or its future's value (every leaf it
// depends on answered).
func (q *smQuantum) val(v uint64) uint64 {
	if !isFut(v) {
		return v
	}
	n := q.nodeOf(v)
	switch n.state {
	case nodeDone:
		return n.v
	case nodeLeaf:
		panic(fmt.Sprintf("warpsim internal error: future %#x read before the replay answered it", v))
	}
	n.v += max(q.val(n.a), q.val(n.b))
	n.state = nodeDone
	return n.v
}

// answer gives leaf its value.
func (q *smQuantum) answer(leaf, v uint64) {
	n := q.nodeOf(leaf)
	n.v, n.state = v, nodeDone
}

// settleWith answers arena i's leaves from ans (the replay's answers to
// the arena's requests, by index: replayRequests) and evaluates every
// future of the arena (settle).
func (q *smQuantum) settleWith(i int, ans []uint64) {
	for j := range q.ar[i].reqs {
		if r := &q.ar[i].reqs[j]; isFut(r.leaf) {
			if ans[j] == unanswered {
				panic(fmt.Sprintf("warpsim internal error: request %d of arena %d not replayed", j, i))
			}
			q.answer(r.leaf, ans[j])
		}
	}
	q.settle(i)
}

// unanswered marks an answer the replay has not given yet (replayRequests).
const unanswered = math.MaxUint64 - 1

// rval is val for the replay of arena i, whose answers so far are in ans
// (by request index): a leaf of the arena not answered in it yet is
// answered from ans.
func (q *smQuantum) rval(v uint64, i int, ans []uint64) uint64 {
	if !isFut(v) {
		return v
	}
	n := q.nodeOf(v)
	switch n.state {
	case nodeDone:
		return n.v
	case nodeLeaf:
		if arenaOf(v) != i || ans[n.a] == unanswered {
			panic(fmt.Sprintf("warpsim internal error: future %#x read before the replay answered it", v))
		}
		n.v, n.state = ans[n.a], nodeDone
		return n.v
	}
	n.v += max(q.rval(n.a, i, ans), q.rval(n.b, i, ans))
	n.state = nodeDone
	return n.v
}

// settle evaluates every future of arena i (its leaves answered), so that
// reading them later never reaches the older arenas they depend on.
func (q *smQuantum) settle(i int) {
	for k := range q.ar[i].nodes {
		q.val(futBit | uint64(i)<<arenaShift | uint64(k))
	}
}

// begin starts quantum k on sm: the futures of quantum k-2 (replayed
// while it ran quantum k-1) are written where they are held, and the
// arena of quantum k-3 is emptied for quantum k. The warps' cached
// dependency times are recomputed.
func (s *gridState) begin(sm *smT, k int) {
	q := &sm.smQuantum
	for i := range sm.sps {
		// (The scheduler's cycles for futures are this quantum's.)
		sm.sps[i].dropFutures()
	}
	if k >= 2 {
		a := &q.ar[(k-2)%3]
		for _, h := range a.holds {
			if *h.loc == h.v {
				*h.loc = q.val(h.v)
			}
		}
		// (A warp's cached readiness that is a cycle did not depend on a
		// future; one that is a later quantum's future stands.) The warps
		// whose readiness is one of this arena's futures are among those
		// depReady listed for it.
		deps := q.depWarps[(k-2)%3]
		for _, w := range deps {
			if isFut(w.dep) && arenaOf(w.dep) == (k-2)%3 {
				w.depValid = false
				w.changed()
			}
		}
		clear(deps)
		q.depWarps[(k-2)%3] = deps[:0]
		a.holds = a.holds[:0]
	}
	q.cur = k % 3
	a := &q.ar[q.cur]
	a.nodes, a.holds, a.reqs, a.secs = a.nodes[:0], a.holds[:0], a.reqs[:0], a.secs[:0]
	if len(a.hist) != int(s.quantum) {
		a.hist = make([]int32, s.quantum)
	} else if a.counted > 0 {
		clear(a.hist)
	}
	a.counted = 0
}

// beginAt is begin for quantum k starting at cycle t, which the SM then
// runs: its requests are counted by cycle from t.
func (s *gridState) beginAt(sm *smT, k int, t uint64) {
	s.begin(sm, k)
	sm.ar[sm.cur].lo = t
}

// replay runs the requests every SM made in quantum k (starting at cycle
// t) through the L2, DRAM and atomic units, in (cycle, SM, index) order,
// answering and then evaluating the quantum's futures (replayRequests,
// then every SM's settle).
func (s *gridState) replay(k int, t uint64) {
	s.replayRequests(k, t)
	for _, sm := range s.sms {
		s.settleSM(sm, k%3)
	}
}

// settleSM answers sm's requests of arena i from the replay's answers
// (unless the replay answered them itself: inline) and evaluates its
// futures there.
func (s *gridState) settleSM(sm *smT, i int) {
	if s.inline {
		sm.settle(i)
		return
	}
	off := s.ansOff[sm.id]
	sm.settleWith(i, s.ans[off:off+len(sm.ar[i].reqs)])
}

// replayRequests is replay's serial part: the requests in their order,
// their answers written to s.ans (an SM's from s.ansOff on, by request
// index: a buffer of the replay's own, not the SMs' arenas, which other
// threads wrote and are writing next to). It touches only the L2 side and
// reads the quantum's arenas (and evaluates a store's data time there,
// rval): it runs while the SMs simulate the next quantum. What is left,
// answering each SM's leaves and evaluating its futures of the quantum
// (settleSM), is the SM's own and may run on any thread once this is done
// (overlap). On one thread (s.inline) the answers go to the leaves at
// once, as there is no other thread to hand them to.
func (s *gridState) replayRequests(k int, t uint64) {
	s.d.dram.advance(t)
	s.d.l2q.advance(t)
	s.d.atomQ.advance(t)
	if s.d.far != nil {
		s.d.far.advance(t)
	}
	i := k % 3
	// The stores' mean wait for the L2 (storeGate reads it two quanta on).
	var lag storeLag
	keys := s.orderRequests(i, t)
	off := slices.Grow(s.ansOff[:0], len(s.sms))[:len(s.sms)]
	n := 0
	for j, sm := range s.sms {
		off[j] = n
		n += len(sm.ar[i].reqs)
	}
	s.ansOff = off
	ans := s.ans[:0]
	if !s.inline {
		ans = slices.Grow(ans, n)[:n]
		for j := range ans {
			ans[j] = unanswered
		}
		s.ans = ans
	}
	for _, key := range keys {
		// (The SM's index from the key, not from the SM's state, which
		// its thread is writing.)
		id := int(key >> 24 & (1<<20 - 1))
		sm := s.sms[id]
		a := &sm.ar[i]
		j := int(key & (1<<24 - 1))
		r := &a.reqs[j]
		var v uint64
		switch r.kind {
		case reqLoad:
			at := r.at
			if isFut(at) {
				// A load sent when earlier loads' data is back
				// (WmmaGroupRounds): their requests came before it.
				if s.inline {
					at = sm.val(at)
				} else {
					at = sm.rval(at, i, ans[off[id]:])
				}
			}
			v = s.fromL2(s.translate(id, at, r.sec), r.sec, r.cost, id)
		case reqConstLoad:
			v = s.fromL2(r.at, r.sec, r.cost, -1)
		case reqStore:
			// The lag is the L2's: a store waiting for its translation
			// is not behind the L2's other work (tlb.go).
			var data uint64
			if s.inline {
				data = sm.val(r.at)
			} else {
				data = sm.rval(r.at, i, ans[off[id]:])
			}
			t0 := s.translateAll(id, data, a.secs[r.lo:r.hi])
			v = s.storeL2(t0, a.secs[r.lo:r.hi], int(r.per), id)
			lag.sum += float64(v - t0)
			lag.n++
		case reqAtomic:
			secs, words := a.secs[r.lo:r.hi-r.words], a.secs[r.hi-r.words:r.hi]
			at := s.translateAll(id, r.at, secs)
			v = s.atomicL2(at, secs, r.ops, r.dup, r.cost, words) + uint64(s.p.AtomicReturnCycles)
		case reqAtomicAck:
			at := s.translateAll(id, r.at, a.secs[r.lo:r.hi])
			v = s.atomicL2(at, a.secs[r.lo:r.hi], r.ops, r.dup, 0, nil)
		}
		if s.inline {
			sm.answer(r.leaf, v)
		} else {
			ans[off[id]+j] = v
		}
	}
	s.lastLag[i] = lag
	if lag.n == 0 && k > 0 {
		s.lastLag[i] = s.lastLag[(k-1)%3]
	}
}

// orderRequests returns the requests of arena i (a quantum starting at
// cycle t) in (cycle, SM, index) order, each as SM<<24 | index: a counting
// sort by cycle of the requests taken SM by SM, each SM's in its order. The
// counts by cycle are the SMs' own (log), where each counted all its
// requests from t; else they are counted here, or (cycles spread wider
// than 4096, as unit tests make them) a comparison sort.
func (s *gridState) orderRequests(i int, t uint64) []uint64 {
	n, counted := 0, true
	for _, sm := range s.sms {
		a := &sm.ar[i]
		n += len(a.reqs)
		counted = counted && (len(a.reqs) == 0 || a.lo == t && a.counted == len(a.reqs))
	}
	keys := slices.Grow(s.order[:0], n)[:n]
	span := uint64(0)
	if counted {
		span = s.quantum
		at := slices.Grow(s.at[:0], int(span)+1)[:span+1]
		clear(at)
		for _, sm := range s.sms {
			if a := &sm.ar[i]; len(a.reqs) > 0 {
				for c, v := range a.hist {
					at[c+1] += int(v)
				}
			}
		}
		s.at = at
	} else {
		for _, sm := range s.sms {
			for _, r := range sm.ar[i].reqs {
				span = max(span, r.cycle-t+1)
			}
		}
		if span <= 1<<12 {
			at := slices.Grow(s.at[:0], int(span)+1)[:span+1]
			clear(at)
			for _, sm := range s.sms {
				for _, r := range sm.ar[i].reqs {
					at[r.cycle-t+1]++
				}
			}
			s.at = at
		}
	}
	if span <= 1<<12 {
		at := s.at
		for c := 1; c < len(at); c++ {
			at[c] += at[c-1]
		}
		for _, sm := range s.sms {
			for j, r := range sm.ar[i].reqs {
				keys[at[r.cycle-t]] = uint64(sm.id)<<24 | uint64(j)
				at[r.cycle-t]++
			}
		}
	} else {
		keys = keys[:0]
		for _, sm := range s.sms {
			for j, r := range sm.ar[i].reqs {
				keys = append(keys, (r.cycle-t)<<44|uint64(sm.id)<<24|uint64(j))
			}
		}
		slices.Sort(keys)
	}
	s.order = keys
	return keys
}

// quantumFor is the quantum of a preset: at most 256 cycles and no longer
// than half the shortest round trip from an SM to the L2 and back (an L2
// hit), so that no request is answered before the end of the quantum after
// the one it was made in (the replay of one quantum overlaps the next);
// a multiple of the bandwidth queues' buckets.
func quantumFor(p *Params) uint64 {
	rt := math.Min(p.L2HitLatency, p.DRAMLatency-p.DRAMLatencySpreadCycles) / 2
	q := uint64(max(rt, 0)) &^ (1<<bucketShift - 1)
	return min(max(q, 1<<bucketShift), 256)
}

// parallelSafe reports whether grid g's SMs may be simulated on several
// threads: nothing one SM executes may depend on the order its global
// memory operations interleave with another's. It refuses kernels (with
// their callees) with atomics or reductions outside shared memory (TMA and
// bulk ones included), fences, strong (volatile, relaxed, acquire) loads
// that could poll another block, printf, device-side malloc/free and
// launches; cooperative and cluster grids; and a sanitizer's launches.
// Clock reads (%clock, %clock64, %globaltimer) are allowed: each reads its
// own SM's simulated cycle (and the launch's start), whatever the threads.
func (d *Driver) parallelSafe(g *engine.GridRun) bool {
	if g.Cooperative() || g.Checked() {
		return false
	}
	return d.orderFreeFrom(g.Funcs(), slices.Index(g.Funcs(), g.Kernel()))
}

// orderFreeFrom reports whether funcs[kernel] and every function it may
// call are free of what parallelSafe refuses.
func (d *Driver) orderFreeFrom(funcs []*ir.Func, kernel int) bool {
	if kernel < 0 {
		return false
	}
	seen := make([]bool, len(funcs))
	stack := []int{kernel}
	seen[kernel] = true
	for len(stack) > 0 {
		f := funcs[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if v, ok := d.orderFree[f]; ok && !v {
			return false
		}
		if !orderFree(f) {
			d.orderFree[f] = false
			return false
		}
		d.orderFree[f] = true
		for _, c := range f.Calls {
			switch {
			case c.Indirect:
				// Any function may be the target.
				for i := range funcs {
					if !seen[i] {
						seen[i] = true
						stack = append(stack, i)
					}
				}
			case c.Callee >= 0 && !seen[c.Callee]:
				seen[c.Callee] = true
				stack = append(stack, int(c.Callee))
			case c.Extern == "vprintf" || c.Extern == "malloc" || c.Extern == "free":
				return false
			}
		}
	}
	return true
}

// orderFree reports whether f's own instructions are free of what
// parallelSafe refuses.
func orderFree(f *ir.Func) bool {
	for i := range f.Code {
		in := &f.Code[i]
		switch in.Op {
		case ir.OpAtom, ir.OpRed:
			// A shared-memory atomic updates its own block's shared
			// memory, which only the block's warps, stepped by its SM,
			// reach: its order is the SM's.
			if in.Space != ptxtype.SpaceShared {
				return false
			}
		case ir.OpMembar, ir.OpDevRT, ir.OpVprintf:
			return false
		case ir.OpAsync:
			if in.Mode == ir.AsyncTensorRed || in.Mode == ir.AsyncBulkRed {
				return false // reductions onto global memory, as red's
			}
		case ir.OpLd:
			if in.Flags&ir.FlagStrong != 0 {
				return false
			}
		}
		// (%clock, %clock64 and %globaltimer may be read: the value is
		// the reading SM's own cycle, sm.now, set just before the read
		// (execute), which a quantum computes from the SM's state alone,
		// so it is the same on any number of threads.)
	}
	return true
}

// overlap runs replay and f for every SM of s.active at once when the
// grid may run in parallel and more than one SM has blocks, on the grid's
// crew of s.workers threads (crew.go, crewOverlap): this one runs the
// replay's serial part first (the quantum's one chain of work: replay
// returns the arena it left to settle, -1 for none) and then takes SMs as
// the others do, so no thread waits for a core and the replay is never
// queued behind an SM. The replay's other part, answering each SM's leaves
// of that arena and evaluating its futures there (settleSM), is spread
// over the threads: each takes SMs to settle once the serial part is done
// (a thread out of SMs to simulate waits for it), the SM's own work on its
// own arena, which no other part of the quantum touches. Else, on one
// thread, the replay, the settling and the SMs one after the other. A
// panic on any of them is raised again here once all have stopped (the
// engine turns it into the launch's fault, naming the block whose step it
// came from). Which thread runs or settles an SM, and in what order,
// changes nothing they compute.
func (s *gridState) overlap(replay func() int, f func(sm *smT)) {
	n := min(s.workers, len(s.active))
	s.replayed.Store(false)
	// On one thread the replay answers the leaves itself (settleSM).
	s.inline = n <= 1
	if n <= 1 {
		// One thread, or one SM with blocks (a small grid's): threads
		// would only cost their start and wake-ups, every quantum. The
		// result is the same on any number of threads.
		if i := replay(); i >= 0 {
			for _, sm := range s.sms {
				s.settleSM(sm, i)
			}
		}
		s.replayed.Store(true)
		for _, sm := range s.active {
			f(sm)
		}
		return
	}
	s.crewOverlap(replay, f)
}

// hostClock is the host's monotonic clock in nanoseconds: what an SM's
// quantum cost the host, to take the costliest SMs first (overlap). It
// orders host work only; no simulated result reads it.
func hostClock() int64 { return int64(time.Since(hostEpoch)) }

var hostEpoch = time.Now()

// workerPanicSite is the function and line a panic recovered on a worker
// came from.
func workerPanicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	panicking := false
	for {
		fr, more := frames.Next()
		switch {
		case fr.Function == "runtime.gopanic":
			panicking = true
		case panicking && fr.Function != "" && !isRuntime(fr.Function):
			return fmt.Sprintf("%s, line %d", fr.Function, fr.Line)
		}
		if !more {
			return "unknown"
		}
	}
}

func isRuntime(fn string) bool { return len(fn) > 8 && fn[:8] == "runtime." }

// dispense hands the blocks retired in the quantum that ended at end to
// their SMs' next blocks (clusters: to the next clusters that fit), in
// (cycle, SM) order.
func (s *gridState) dispense(end uint64) {
	all := s.retiredAll[:0]
	for _, sm := range s.active {
		all = append(all, sm.retired...)
	}
	slices.SortFunc(all, func(a, b retired) int {
		if a.at != b.at {
			if a.at < b.at {
				return -1
			}
			return 1
		}
		return a.span.SM - b.span.SM
	})
	for _, r := range all {
		s.lastDone = max(s.lastDone, r.at)
		s.retires = append(s.retires, r.at)
		s.spans = append(s.spans, r.span)
	}
	if s.cl != nil {
		// A cluster may go to SMs that were idle: they join at the
		// quantum's end.
		for _, sm := range s.sms {
			if len(sm.blocks) == 0 {
				sm.now = max(sm.now, end)
			}
		}
	}
	for _, r := range all {
		sm := s.sms[r.span.SM]
		sm.freeAt = r.freeAt
		if s.cl != nil {
			s.cl.retired(r.order)
			s.launchClusters(r.at)
			continue
		}
		if s.nextBlk < s.limitBlk {
			s.startBlock(sm, r.at)
			for i := range sm.sps {
				sm.wake = min(sm.wake, sm.sps[i].check)
			}
		}
	}
	if s.cl != nil {
		for _, sm := range s.sms {
			for i := range sm.sps {
				sm.wake = min(sm.wake, sm.sps[i].check)
			}
		}
	}
	for _, sm := range s.active {
		sm.retired = sm.retired[:0]
	}
	s.retiredAll = all
}
