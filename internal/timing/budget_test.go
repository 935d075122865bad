package timing_test

import (
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
)

// TestBudgetLaunches: with a budget of detail (TimingOptions.Budget, which
// the CUDA runtime sets for programs), once the launches timed in detail
// have used it the similar-launch rule's periodic check is waived for
// parameters shown not to change the counts, and a configuration timed once
// is enough for its repeats; every such launch's time is within the error
// it states of timing it in full, a launch whose counts differ still has
// the next one timed, and under the budget nothing changes.
func TestBudgetLaunches(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	const blocks, threads, launches = 132, 128, 22
	// Every launch on a buffer of its own (other pointers: words that do
	// not change the counts) with the same work, but launch 19's (more
	// work: its counts differ); the last launch repeats launch 20.
	iters := make([]uint32, launches)
	buf := make([]int, launches)
	for i := range iters {
		iters[i], buf[i] = 40, i
	}
	iters[19], buf[21] = 52, 20
	run := func(noSampling bool, budget uint64) []repeatRun {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: noSampling, Similar: !noSampling, Budget: budget}})
		mod, err := dev.LoadModule("loop.ptx", []byte(loopPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("loop")
		if err != nil {
			t.Fatal(err)
		}
		var ns, outs []uint64
		for range launches {
			n, _ := dev.Malloc(4 * blocks * threads)
			out, _ := dev.Malloc(4 * blocks * threads)
			ns, outs = append(ns, n), append(outs, out)
		}
		var runs []repeatRun
		for i := range launches {
			runs = append(runs, launchLoop(t, dev, k, ns[buf[i]], outs[buf[i]], iters[i], blocks, threads))
		}
		return runs
	}
	full := run(true, 0)
	// A budget the first launch uses up. Launch 1 is timed (no word of
	// the parameters has been shown not to change the counts yet);
	// launches 2–17 follow the similar-launch rule (launches 0 and 1
	// agree) up to its check after 16 reuses, which the budget waives
	// for launches 18 and 19; launch 19's counts differ, so launch 20 is
	// timed, and launch 21 repeats it.
	sampled := run(false, 1)
	want := make([]string, launches)
	for i := 2; i <= 19; i++ {
		want[i] = timing.SampledSimilar
	}
	want[21] = timing.SampledRepeat
	for i := range full {
		if i < 2 || i > 17 {
			checkReused(t, i, iters[i], full[i], sampled[i], want[i])
			continue
		}
		// The similar-launch rule's own reuses (TestSimilarLaunches):
		// their estimates (the timed pair's difference times the reuses,
		// at least similarAddressPct, as far as the buffers' addresses
		// move the time) are held within 0.01 points.
		f, g := full[i].t, sampled[i].t
		e := 100 * (float64(g.Cycles) - float64(f.Cycles)) / float64(f.Cycles)
		if g.Sampling != want[i] || e > g.ErrorPct+0.01 || -e > g.ErrorPct+0.01 {
			t.Errorf("launch %d: %q, %+.3f%% off the full timing, estimated ±%.3f%%; want %q within its estimate",
				i, g.Sampling, e, g.ErrorPct, want[i])
		}
	}
	for _, i := range []int{18, 19} {
		if s := sampled[i].t; s.ErrorPct < 10 {
			t.Errorf("launch %d (reused over the budget): estimated ±%.1f%%, want at least ±10%%", i, s.ErrorPct)
		}
	}
	// A budget never reached changes nothing: launch 18 is timed in
	// detail (the rule's check).
	if r := run(false, 1<<40)[18]; r.t.Sampled || r.t.Cycles != full[18].t.Cycles {
		t.Errorf("launch 18 under the budget: %d cycles (sampled %v), want the full timing's %d", r.t.Cycles, r.t.Sampled, full[18].t.Cycles)
	}
}
