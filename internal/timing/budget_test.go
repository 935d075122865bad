package timing_test

import (
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
)

// TestBudgetLaunches: with a budget of detail (TimingOptions.Budget, which
// the CUDA runtime sets for programs), once the launches timed in detail
// have used it a shape timed once is enough for its launches with other
// parameters, and a configuration timed once for its repeats; every such
// launch's time is within the error it states of timing it in full, and a
// launch whose counts differ still has the next one timed. Under the
// budget nothing changes (TestSimilarLaunches, TestRepeatedLaunches).
func TestBudgetLaunches(t *testing.T) {
	const blocks, threads, launches = 132, 128, 7
	// The iterations per launch and the buffer it runs on: the same work
	// on each but the fourth launch's (more: its counts differ); the last
	// launch repeats the fifth (same buffer, parameters and data).
	iters := []uint32{40, 40, 40, 52, 40, 40, 40}
	buf := []int{0, 1, 2, 3, 4, 5, 4}
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
		for range 6 {
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
	// A budget the first launch uses up: the second launch (other
	// parameters) takes its account, as does every later one but the
	// one after the fourth, whose counts differed; the last repeats the
	// fifth, timed once.
	sampled := run(false, 1)
	want := []string{"", timing.SampledSimilar, timing.SampledSimilar, timing.SampledSimilar, "",
		timing.SampledSimilar, timing.SampledRepeat}
	for i := range full {
		checkReused(t, i, iters[i], full[i], sampled[i], want[i])
	}
	for _, i := range []int{1, 2} {
		if s := sampled[i].t; s.ErrorPct < 5 {
			t.Errorf("launch %d (its shape timed once): estimated ±%.1f%%, want at least ±5%%", i, s.ErrorPct)
		}
	}
	// A budget never reached changes nothing: the second launch is
	// timed in detail (the similar launches' rule needs two timed
	// launches that agree).
	for i, r := range run(false, 1<<40)[:2] {
		if r.t.Sampled || r.t.Cycles != full[i].t.Cycles {
			t.Errorf("launch %d under the budget: %d cycles (sampled %v), want the full timing's %d", i, r.t.Cycles, r.t.Sampled, full[i].t.Cycles)
		}
	}
}
