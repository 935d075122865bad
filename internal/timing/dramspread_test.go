package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestDRAMLatencySpread checks dramAnswer's own-latency draw
// (DRAMLatencySpreadNS) on fetches that find the DRAM idle (q = t, where
// the queue's wait spread draws nothing): every answer within the spread's
// half-width of DRAMLatency, the mean over many lines DRAMLatency, the
// draws spread over the whole window (sd of a uniform draw, half-width/√3:
// what spread.py measured on the H100 is an sd), the same line answered
// the same in any 2 GiB slot, and no spread at all when the figure is 0.
func TestDRAMLatencySpread(t *testing.T) {
	const lines = 1 << 14
	for _, tc := range []struct {
		name     string
		spreadNS float64
	}{
		{"none", 0},
		{"measured", 80},
		{"wide", 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ForArch(arch.MustLookup("h100"), 1576)
			p.DRAMLatencySpreadNS = tc.spreadNS
			p.DRAMLatencySpreadLoaded = false // the draw itself; TestDRAMLatencySpreadLoaded the rule
			p.DRAMLatencySpreadCycles = tc.spreadNS * 1.576
			s := &gridState{p: p}
			const t0 = 1 << 20
			var sum, sq float64
			for i := range uint64(lines) {
				first := i * 4 // a line's first sector
				got := float64(s.dramAnswer(t0, first, t0, false)) - t0
				if d := math.Abs(got - p.DRAMLatency); d > p.DRAMLatencySpreadCycles+1 {
					t.Fatalf("line %d: answered after %.0f cycles, DRAMLatency %.0f ± %.0f", i, got, p.DRAMLatency, p.DRAMLatencySpreadCycles)
				}
				other := first + 3<<29 // the same place in another 2 GiB slot (sector index: 2^26 sectors a slot)
				if a, b := s.dramAnswer(t0, first, t0, false), s.dramAnswer(t0, other, t0, false); a != b {
					t.Fatalf("line %d: answered at %d in its slot, at %d in another", i, a, b)
				}
				sum += got
				sq += got * got
			}
			mean := sum / lines
			sd := math.Sqrt(max(sq/lines-mean*mean, 0))
			if d := math.Abs(mean - p.DRAMLatency); d > 2 {
				t.Errorf("mean latency %.1f cycles, DRAMLatency %.1f", mean, p.DRAMLatency)
			}
			want := p.DRAMLatencySpreadCycles / math.Sqrt(3)
			if math.Abs(sd-want) > 0.05*want+1 {
				t.Errorf("latency sd %.1f cycles, want %.1f (uniform over ±%.0f)", sd, want, p.DRAMLatencySpreadCycles)
			}
		})
	}
}

// TestDRAMLatencySpreadLoaded checks the preset's rule for the draw
// (DRAMLatencySpreadLoaded): a fetch that waited behind no other
// source's (behindOthers false: a lone fetch, one SM's burst on an idle
// bus) takes DRAMLatency exactly, one that waited behind others' has its
// latency spread as TestDRAMLatencySpread's, within the half-width and not
// all the same. TestDRAMBehindOthers checks which fetches count.
func TestDRAMLatencySpreadLoaded(t *testing.T) {
	p := ForArch(arch.MustLookup("h100"), 1576)
	if !p.DRAMLatencySpreadLoaded || p.DRAMLatencySpreadCycles <= 0 {
		t.Fatalf("h100 preset: spread %.0f cycles, loaded only %v; want both", p.DRAMLatencySpreadCycles, p.DRAMLatencySpreadLoaded)
	}
	p.DRAMWaitSpread = 0 // the queue's own spread apart
	s := &gridState{p: p}
	const t0, wait = 1 << 20, 40
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range uint64(1 << 12) {
		first := i * 4
		if got := float64(s.dramAnswer(t0, first, t0, false)) - t0; got != math.Floor(p.DRAMLatency) {
			t.Fatalf("line %d on an idle bus: answered after %.0f cycles, want DRAMLatency %.0f", i, got, math.Floor(p.DRAMLatency))
		}
		got := float64(s.dramAnswer(t0, first, t0+wait, true)) - t0 - wait
		if math.Abs(got-p.DRAMLatency) > p.DRAMLatencySpreadCycles+1 {
			t.Fatalf("line %d behind others: %.0f cycles past its turn, DRAMLatency %.0f ± %.0f", i, got, p.DRAMLatency, p.DRAMLatencySpreadCycles)
		}
		lo, hi = min(lo, got), max(hi, got)
	}
	if hi-lo < p.DRAMLatencySpreadCycles {
		t.Errorf("queued lines answered %.0f to %.0f cycles past their turn: less than the spread's half-width %.0f apart", lo, hi, p.DRAMLatencySpreadCycles)
	}
}

// TestDRAMBehindOthers checks which fetches the DRAM's queue counts as
// waiting behind another source's (behindOthers, the draw's rule): one
// SM's burst on an idle bus never does, though its lines queue behind
// each other; a fetch that arrives while another SM's (or no SM's, -1)
// are still queued does, whichever came first; once the others' have
// passed through, it does not.
func TestDRAMBehindOthers(t *testing.T) {
	p := ForArch(arch.MustLookup("h100"), 1589)
	q := newDRAMQueue(p)
	const t0 = 1 << 12 // a bucket's first cycle: the burst's lines queue past it
	var last uint64
	for i := range 64 { // SM 3's burst of 64 lines, all at t0
		at := q.take(t0, 64)
		if q.behindOthers(t0, at, 3) {
			t.Fatalf("line %d of one SM's burst on an idle bus: counted behind others (through at %d)", i, at)
		}
		last = at
	}
	if last <= t0 {
		t.Fatalf("a burst of 64 lines at %d through at %d, want it queued behind its own lines", t0, last)
	}
	for _, c := range []struct {
		at   uint64
		sm   int
		want bool
	}{
		{t0, 5, true},          // SM 5 while SM 3's burst is queued
		{t0, 3, true},          // SM 3 again: SM 5's fetch is ahead of it
		{t0, -1, true},         // no SM's side (an atomic unit, a constant cache)
		{last + 400, 5, false}, // everyone's passed through: idle again
	} {
		at := q.take(c.at, 64)
		if !(at > c.at) && c.want {
			t.Fatalf("source %d at %d through at once: the case needs a queue", c.sm, c.at)
		}
		if got := q.behindOthers(c.at, at, c.sm); got != c.want {
			t.Errorf("source %d at %d (through at %d): behind others %v, want %v", c.sm, c.at, at, got, c.want)
		}
	}
	// The latest of the others is kept whatever the order they came in.
	var r queueSources
	for _, n := range []struct {
		src int
		end uint64
	}{{1, 100}, {2, 90}, {3, 95}, {1, 80}, {2, 120}} {
		r.note(n.src, n.end)
	}
	for src, want := range map[int]uint64{1: 120, 2: 100, 3: 120, 4: 120} {
		if got := r.othersUntil(src); got != want {
			t.Errorf("others than source %d until %d, want %d", src, got, want)
		}
	}
}
