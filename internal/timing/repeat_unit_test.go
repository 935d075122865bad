package timing

import (
	"testing"

	"github.com/warpsim/warpsim/metrics"
)

// TestRepeatsReuse: a configuration is reused only after two launches
// timed in detail with the same counts and cycles within 1%, and not after
// a reused launch's counts differed until a timed launch agrees again; the
// reused account is the last timed one's, marked, at the new start.
func TestRepeatsReuse(t *testing.T) {
	c1 := metrics.Counters{InstExecuted: 1000, GldRequests: 10}
	c2 := metrics.Counters{InstExecuted: 1500, GldRequests: 10}
	tm := func(cycles uint64) *metrics.Timing { return &metrics.Timing{Cycles: cycles, Stalls: []uint64{cycles}} }
	type timed struct {
		c      metrics.Counters
		cycles uint64
	}
	cases := []struct {
		name  string
		timed []timed
		want  bool
	}{
		{"none", nil, false},
		{"one", []timed{{c1, 100}}, false},
		{"two equal", []timed{{c1, 100}, {c1, 100}}, true},
		{"two within 1%", []timed{{c1, 1000}, {c1, 1009}}, true},
		{"two 2% apart", []timed{{c1, 1000}, {c1, 1020}}, false},
		{"counts differ", []timed{{c1, 100}, {c2, 100}}, false},
		{"the last two agree", []timed{{c2, 300}, {c1, 100}, {c1, 100}}, true},
	}
	for _, tc := range cases {
		r := NewRepeats()
		for _, x := range tc.timed {
			r.Timed("k", x.c, tm(x.cycles))
		}
		if got := r.Reuse("k"); got != tc.want {
			t.Errorf("%s: reuse %v, want %v", tc.name, got, tc.want)
		}
	}

	r := NewRepeats()
	r.Timed("k", c1, tm(1000))
	r.Timed("k", c1, tm(1005))
	got := r.Reused("k", c1, 7777)
	if got.Cycles != 1005 || got.StartCycle != 7777 || got.Sampling != SampledRepeat || !got.Sampled ||
		got.ErrorPct < 0.49 || got.ErrorPct > 0.51 {
		t.Errorf("reused: %+v; want 1005 cycles at 7777, sampled by repeat, ±0.5%%", got)
	}
	if !r.Reuse("k") {
		t.Error("an agreeing reuse stopped reuse")
	}
	// Counts that differ: scaled by the instructions, flagged, and the
	// next launch is timed.
	got = r.Reused("k", c2, 0)
	if got.Cycles != 1508 || got.Stalls[0] != 1508 || got.ErrorPct < 50 {
		t.Errorf("other counts: %d cycles, stalls %v, ±%.1f%%; want 1508, [1508], at least ±50%%", got.Cycles, got.Stalls, got.ErrorPct)
	}
	if r.Reuse("k") {
		t.Error("reused after a launch whose counts differed")
	}
	r.Timed("k", c1, tm(1005))
	if !r.Reuse("k") {
		t.Error("not reused after a timed launch agreed again")
	}
	// The timed account itself is not changed by reuse.
	if r.runs["k"].last.t.StartCycle != 0 || r.runs["k"].last.t.Sampled {
		t.Errorf("the timed account changed: %+v", r.runs["k"].last.t)
	}
	// Many configurations: forgotten, not grown without end.
	for i := 0; i < 3*repeatKeys; i++ {
		r.Timed(string(rune('a'+i%26))+string(rune(i)), c1, tm(1))
	}
	if len(r.runs) > repeatKeys {
		t.Errorf("%d configurations kept, at most %d", len(r.runs), repeatKeys)
	}
}

// TestRepeatsReuseShape: a launch shape (the configuration without the
// parameters) is reused only after two launches of it with different
// parameters, timed in detail, agree (counts and cycles per instruction
// within 2%, DRAM bytes within 20%); a reused account is scaled by
// the instructions and carries the count spread in its error; counts
// further than 2% off, or shapeCheck reuses, time the next launch again;
// parameters may differ only in the words agreeing launches differed in.
func TestRepeatsReuseShape(t *testing.T) {
	c1 := metrics.Counters{InstExecuted: 100000, GldRequests: 10000, DivergentBranch: 10, SharedLdBankConflict: 1000}
	// 0.5% more instructions, 8% more bank conflicts, but they are about
	// 1% of the instructions.
	cNear := metrics.Counters{InstExecuted: 100500, GldRequests: 10000, DivergentBranch: 400, SharedLdBankConflict: 1080}
	cFar := metrics.Counters{InstExecuted: 100000, GldRequests: 11000, DivergentBranch: 10, SharedLdBankConflict: 1000} // 10% more loads
	tm := func(cycles, dram uint64) *metrics.Timing {
		return &metrics.Timing{Cycles: cycles, DRAMReadBytes: dram, Stalls: []uint64{cycles}}
	}
	key := func(r *Repeats, p byte) string {
		return r.Key(nil, 1, [3]uint32{64, 1, 1}, [3]uint32{256, 1, 1}, [3]uint32{1, 1, 1}, 0, false, []byte{p, 0, 0, 0})
	}
	type timed struct {
		p      byte
		c      metrics.Counters
		cycles uint64
		dram   uint64
	}
	cases := []struct {
		name  string
		timed []timed
		want  bool
	}{
		{"none", nil, false},
		{"one", []timed{{1, c1, 1000, 1 << 20}}, false},
		{"same parameters", []timed{{1, c1, 1000, 1 << 20}, {1, c1, 1000, 1 << 20}}, false},
		{"other parameters, agree", []timed{{1, c1, 1000, 1 << 20}, {2, c1, 1005, 1 << 20}}, true},
		{"near counts, cycles per instruction agree", []timed{{1, c1, 1000, 1 << 20}, {2, cNear, 1008, 1 << 20}}, true},
		{"counts 10% apart", []timed{{1, c1, 1000, 1 << 20}, {2, cFar, 1000, 1 << 20}}, false},
		{"cycles 3% apart", []timed{{1, c1, 1000, 1 << 20}, {2, c1, 1030, 1 << 20}}, false},
		{"DRAM bytes twice", []timed{{1, c1, 1000, 1 << 20}, {2, c1, 1000, 2 << 20}}, false},
		{"DRAM bytes 10% apart", []timed{{1, c1, 1000, 10 << 20}, {2, c1, 1000, 11 << 20}}, true},
		{"the last two agree", []timed{{3, cFar, 5000, 0}, {1, c1, 1000, 1 << 20}, {2, c1, 1000, 1 << 20}}, true},
	}
	for _, tc := range cases {
		r := NewRepeats()
		for _, x := range tc.timed {
			r.Timed(key(r, x.p), x.c, tm(x.cycles, x.dram))
		}
		if got := r.ReuseShape(key(r, 9)); got != tc.want {
			t.Errorf("%s: reuse %v, want %v", tc.name, got, tc.want)
		}
		if r.Reuse(key(r, 9)) {
			t.Errorf("%s: parameters never timed reused as an identical launch", tc.name)
		}
	}

	r := NewRepeats()
	r.Timed(key(r, 1), c1, tm(1000, 1<<20))
	r.Timed(key(r, 2), c1, tm(1005, 1<<20))
	got := r.ReusedShape(key(r, 3), cNear, 4242)
	if got.Cycles != 1010 || got.StartCycle != 4242 || got.Sampling != SampledSimilar || !got.Sampled ||
		got.ErrorPct < 1.55 || got.ErrorPct > 1.65 {
		t.Errorf("reused: %+v; want 1010 cycles (1005 scaled by 0.5%% more instructions) at 4242, ±1.6%% (80 bank conflicts against a twentieth of the instructions)", got)
	}
	if !r.ReuseShape(key(r, 4)) {
		t.Error("a reuse with near counts stopped reuse")
	}
	got = r.ReusedShape(key(r, 4), cFar, 0)
	if got.ErrorPct < 9 {
		t.Errorf("counts 10%% off: ±%.1f%%, want at least ±9%%", got.ErrorPct)
	}
	if r.ReuseShape(key(r, 5)) {
		t.Error("reused after a launch whose counts were 10% off")
	}
	r.Timed(key(r, 5), c1, tm(1000, 1<<20))
	if !r.ReuseShape(key(r, 6)) {
		t.Error("not reused after a timed launch agreed again")
	}
	// The timed launches (1005 and 1000 cycles) differ by 0.5% per
	// instruction: 4 reuses, the k-th estimated at ±(k+1)·0.5%; with
	// identical ones, shapeCheck.
	for _, tc := range []struct {
		cycles uint64
		n      int
	}{{0, 4}, {1000, shapeCheck}} {
		if tc.cycles != 0 {
			r.Timed(key(r, 7), c1, tm(tc.cycles, 1<<20))
		}
		for i := 0; i < tc.n; i++ {
			if !r.ReuseShape(key(r, 6)) {
				t.Fatalf("refused after %d reuses, want %d", i, tc.n)
			}
			got := r.ReusedShape(key(r, 6), c1, 0)
			if want := 0.5 * float64(i+2); tc.n == 4 && (got.ErrorPct < want-0.05 || got.ErrorPct > want+0.05) {
				t.Errorf("reuse %d: ±%.2f%%, want ±%.2f%%", i+1, got.ErrorPct, want)
			}
		}
		if r.ReuseShape(key(r, 6)) {
			t.Errorf("reused %d times without a launch timed in detail", tc.n+1)
		}
	}
	// A check that disagrees ends the reuse.
	r.Timed(key(r, 8), c1, tm(2000, 1<<20))
	if r.ReuseShape(key(r, 9)) {
		t.Error("reused after the check took twice the cycles")
	}

	// Parameters: only the words in which agreeing timed launches
	// differed may differ (a stride shown not to matter, say, but not a
	// size never varied); words in which disagreeing ones differed are
	// not free any more.
	key2 := func(r *Repeats, a, b byte) string {
		return r.Key(nil, 1, [3]uint32{64, 1, 1}, [3]uint32{256, 1, 1}, [3]uint32{1, 1, 1}, 0, false, []byte{a, 0, 0, 0, b, 0, 0, 0})
	}
	r = NewRepeats()
	r.Timed(key2(r, 1, 1), c1, tm(1000, 1<<20))
	r.Timed(key2(r, 2, 1), c1, tm(1000, 1<<20))
	if !r.ReuseShape(key2(r, 3, 1)) {
		t.Error("not reused with another value of a word shown not to matter")
	}
	if r.ReuseShape(key2(r, 3, 2)) {
		t.Error("reused with another value of a word never varied")
	}
	r.Timed(key2(r, 2, 2), cFar, tm(1000, 1<<20)) // word 1 changes the counts
	r.Timed(key2(r, 3, 2), c1, tm(1000, 1<<20))   // differs from the last in word 0, disagrees
	if r.ReuseShape(key2(r, 4, 2)) {
		t.Error("reused after the last two timed launches disagreed")
	}
	r.Timed(key2(r, 4, 2), c1, tm(1000, 1<<20))
	if !r.ReuseShape(key2(r, 5, 2)) {
		t.Error("not reused after two launches differing in word 0 agreed again")
	}
	if r.ReuseShape(key2(r, 5, 3)) {
		t.Error("reused with another value of a word that changed the counts")
	}
}
