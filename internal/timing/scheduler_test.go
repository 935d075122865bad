package timing

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
)

// schedFixture is one sub-partition of n warps (oldest first) whose next
// instructions are independent ALU instructions, none issued yet.
func schedFixture(policy string, n int) (*gridState, *smT, *spT) {
	d := New(arch.MustLookup("h100"), Options{Scheduler: policy})
	s := &gridState{d: d, p: d.p}
	sm := &smT{sps: make([]spT, 1)}
	sp := &sm.sps[0]
	for i := 0; i < n; i++ {
		w := &warpT{idx: i, sp: sp, age: uint64(i + 1), next: &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU}, depValid: true}
		sp.warps = append(sp.warps, w)
	}
	return s, sm, sp
}

// runSched issues for cycles cycles; a warp that issues can issue again
// gap cycles later. It returns the issuing warps' indices, -1 for a cycle
// with none.
func runSched(s *gridState, sm *smT, sp *spT, cycles int, gap func(w *warpT) uint64) []int {
	var order []int
	for sm.now = 0; sm.now < uint64(cycles); sm.now++ {
		w, _ := s.pick(sm, sp)
		if w == nil {
			order = append(order, -1)
			continue
		}
		order = append(order, w.idx)
		sp.last = w
		w.dep = sm.now + gap(w)
		w.changed()
	}
	return order
}

// TestSchedulerIssueOrder: greedy-then-oldest keeps issuing from one warp
// while it is ready and then takes the oldest ready one; loose round-robin
// rotates through the ready warps.
func TestSchedulerIssueOrder(t *testing.T) {
	tests := []struct {
		name   string
		policy string
		gap    func(w *warpT) uint64
		want   []int
	}{
		{"gto, always ready", GTO, func(*warpT) uint64 { return 1 }, []int{0, 0, 0, 0, 0, 0, 0, 0}},
		// Each warp can issue every 4 cycles: the greedy warp, then the
		// oldest ready ones; three warps leave every fourth cycle idle.
		{"gto, every 4 cycles", GTO, func(*warpT) uint64 { return 4 }, []int{0, 1, 2, -1, 0, 1, 2, -1}},
		{"lrr, always ready", LRR, func(*warpT) uint64 { return 1 }, []int{0, 1, 2, 0, 1, 2, 0, 1}},
		// Warp 1 stalls for 5 cycles after each issue: LRR skips it.
		{"lrr, a slow warp", LRR, func(w *warpT) uint64 { return map[int]uint64{0: 1, 1: 5, 2: 1}[w.idx] }, []int{0, 1, 2, 0, 2, 0, 1, 2}},
		// Every warp waits 8 cycles: idle cycles show as -1.
		{"gto, latency bound", GTO, func(*warpT) uint64 { return 8 }, []int{0, 1, 2, -1, -1, -1, -1, -1, 0}},
	}
	for _, tc := range tests {
		s, sm, sp := schedFixture(tc.policy, 3)
		got := runSched(s, sm, sp, len(tc.want), tc.gap)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: issue order %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSchedulerNextReady: with no warp ready, pick reports the earliest
// cycle one is.
func TestSchedulerNextReady(t *testing.T) {
	s, sm, sp := schedFixture(GTO, 3)
	for i, w := range sp.warps {
		w.dep = uint64(30 - 10*i)
	}
	sm.now = 5
	w, next := s.pick(sm, sp)
	if w != nil || next != 10 {
		t.Errorf("pick at 5: warp %v, next %d; want none, 10", w, next)
	}
	sp.warps[2].done = true
	sp.warps[2].changed()
	if _, next := s.pick(sm, sp); next != 20 {
		t.Errorf("a finished warp's readiness counted: next %d, want 20", next)
	}
}

// TestPickScanMatchesReadyAt: pick's scan, which reads the warps'
// readiness from its compact array (scanEntry) where it can, picks the
// warp and reports the next cycle that a scan asking readyAt of every warp
// does, through 20,000 random cycles of warps issuing, waiting on their
// operands (a few cycles, or long: the warps the scan passes over,
// sp.skip), finishing and waiting at barriers, and of pipes filling.
func TestPickScanMatchesReadyAt(t *testing.T) {
	s, sm, sp := schedFixture(GTO, 16)
	// The reference is greedy-then-oldest without the starvation bound
	// (TestPickStarvedWarp checks that).
	p := *s.p
	p.IssueStarveCycles = 0
	s.p = &p
	classes := []ir.Class{ir.ClassALU, ir.ClassFP64, ir.ClassSFU}
	rng := rand.New(rand.NewPCG(19, 15))
	reference := func() (*warpT, uint64) {
		best := uint64(math.MaxUint64)
		if w := sp.last; w != nil {
			if t := s.readyAt(sm, sp, w); t <= sm.now {
				return w, best
			} else {
				best = t
			}
		}
		for _, w := range sp.warps {
			if w == sp.last {
				continue
			}
			if t := s.readyAt(sm, sp, w); t <= sm.now {
				return w, best
			} else if t < best {
				best = t
			}
		}
		return nil, best
	}
	for sm.now = 0; sm.now < 20000; sm.now++ {
		wantW, wantNext := reference()
		gotW, gotNext := s.pick(sm, sp)
		// (With a warp to issue, pick's cycle is not read: issue sets
		// sp.check only when none can; the scan then passes over the
		// warps of sp.skip without counting them.)
		if gotW != wantW || gotW == nil && gotNext != wantNext {
			t.Fatalf("cycle %d: pick %v, next %d; a scan of readyAt: %v, %d", sm.now, gotW, gotNext, wantW, wantNext)
		}
		if gotW != nil {
			sp.last = gotW
			gotW.dep = sm.now + 1 + uint64(rng.IntN(12))
			gotW.next = &ir.Inst{Op: ir.OpAdd, Class: classes[rng.IntN(len(classes))]}
			gotW.changed()
			sp.pipe[gotW.next.Class] = sm.now + uint64(rng.IntN(3))
		}
		// Another warp changes: a barrier, its release, its end.
		w := sp.warps[rng.IntN(len(sp.warps))]
		switch rng.IntN(8) {
		case 0:
			w.atBar = !w.atBar
		case 1:
			w.done = rng.IntN(4) == 0
		case 2:
			w.dep = sm.now + uint64(rng.IntN(20))
		case 3:
			// A long wait (a load's): the scan passes over it (sp.skip)
			// until its cycle comes.
			w.dep = sm.now + 8 + uint64(rng.IntN(300))
		default:
			continue
		}
		w.changed()
	}
}

// TestPickStarvedWarp: under greedy-then-oldest with IssueStarveCycles, a
// warp passed over while ready issues once it has waited the bound (its
// last issue or its operands, whichever is later), before the greedy warp
// and older ones; with no bound the youngest of warps that are always
// ready again in time never issues.
func TestPickStarvedWarp(t *testing.T) {
	const lim = 64
	for _, bound := range []uint32{0, lim} {
		s, sm, sp := schedFixture(GTO, 4)
		p := *s.p
		p.IssueStarveCycles = bound
		s.p = &p
		// Each warp is ready again 2 cycles after it issues: the two oldest
		// alternate and the two youngest are passed over.
		first := map[int]int{}
		order := runSched(s, sm, sp, 400, func(*warpT) uint64 { return 2 })
		for c, i := range order {
			if _, ok := first[i]; !ok && i >= 0 {
				first[i] = c
			}
		}
		c, ok := first[3]
		switch {
		case bound == 0 && ok:
			t.Errorf("no bound: the youngest warp issued at cycle %d, want never", c)
		case bound > 0 && (!ok || c < lim || c > lim+lim/4+1):
			t.Errorf("bound %d: the youngest warp first issued at cycle %d (issued: %v), want within [%d, %d]", bound, c, ok, lim, lim+lim/4+1)
		}
	}
}
