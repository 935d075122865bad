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
