package timing_test

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

// TestShortSamplingError compares short grids (1.5 to 6 waves) sampled by
// their block times (TimingOptions.ShortGrids) with their full timing: the
// reduce lesson at 1.94 and 3.88 waves (windows of one wave and of two).
// Each must come within its own error estimate (metrics.Timing.ErrorPct,
// what warpsim prof states) and within 3% (reduceNeighbored, a window of
// one wave: +5.08% before its untimed blocks took their SM's mean time,
// -2.35% after, on 2026-11-28; -0.43% in the sixteenth round's runs;
// reduceInterleaved, a window of two, +0.73% stated ±1.17%, +0.33% stated
// ±2.96% before the sixteenth round's mean and tail); the outputs are
// full timing's.
// The streaming kernel, which moves its data at the DRAM's pace, must be
// timed in full (shortDRAMBound). TestLongShortSamplingError does the same
// over every calibration launch file with a short grid.
func TestShortSamplingError(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	if testing.Short() {
		t.Skip("times grids of up to 4 waves in full detail (seconds of CPU)")
	}
	for _, c := range []struct {
		kernel string
		logn   int
		bs     uint32
		maxPct float64
	}{
		{"reduceNeighbored", 19, 512, 3},   // 1.94 waves: a window of one
		{"reduceInterleaved", 20, 1024, 3}, // 3.88 waves: of two
	} {
		// On one worker, both shared: the sampled run is
		// TestShortSamplingDeterminism's first, and reduceNeighbored's
		// two are TestLongShortSamplingOneWave's first pair.
		full := sharedReduce(t, c.kernel, c.logn, c.bs, 1, warpsim.TimingOptions{NoSampling: true})
		sampled := sharedReduce(t, c.kernel, c.logn, c.bs, 1, warpsim.TimingOptions{ShortGrids: true})
		if sampled.sum != sampled.want || full.sum != full.want {
			t.Errorf("%s: sums %d and %d, want %d", c.kernel, sampled.sum, full.sum, full.want)
		}
		checkShort(t, c.kernel, sampled.res.Grids[0].Timing, full.res.Grids[0].Timing, c.maxPct)
	}
	// The occupancy lesson's streaming kernel, 4 waves at the DRAM's pace:
	// timed in full. (Its FMA and pointer-chasing kernels, windows of one
	// wave and of two, are among TestLongShortSamplingError's.)
	r := calibRows(t)["occ_stream_r4"]
	sampled := shortSampled(t, r.launchFile, r.clockHz)
	if tm := sampled[r.launchIndex]; tm.Sampled {
		t.Errorf("occ_stream_r4: sampled (%q), want it timed in full (it moves its data at the DRAM's pace)", tm.Sampling)
	}
}

// TestLongShortSamplingError is TestShortSamplingError over every launch of
// the calibration's launch files that is sampled as a short grid: each
// within the error estimate warpsim prof states for it and within 3% (a
// window of two waves) or 7% (of one; shortMaxPct), the mean within 1.5%,
// and over the windows of two waves the mean estimate at most 3 times the
// mean error or at most ±2% (an estimate that says how far off, not just a
// bound; below). At the
// H100's recorded clocks on 2026-11-28 (sixteenth round), 22 short grids
// (mean error 0.67%), 19 of them windows of two waves: mean error 0.61%,
// worst +2.82% (reduceNeighbored at 2^20 ints in blocks of 128, 3.88
// waves, stated ±3.50%), stated ±1.79% on average (2.9 times the error);
// before (each untimed block at its SM's second-wave time in dispatch
// order, the 10th-90th percentile spread in the estimate) mean 0.66%,
// worst +3.10% and -3.04%, stated ±3.60% (5.5 times). On 2026-11-29 (twentieth
// round), with the H100's retirement drain (BlockRateFloor) and the estimate
// ending with it too (drainTail), the same figures; occ_fma_r4 +0.80% stated
// ±1.06%, -1.85% against ±1.04% when the estimate kept only the window's
// drain or the blocks at the rate. The full timing is the
// calibration's own simulation of the file (shared with
// TestLongCalibration, at the clock the H100 ran it at); a file is run
// again with short grids sampled only when one of its launches is a short
// grid (1.5 to 6 waves; the mechanisms' launch files have none that is
// not timed in full for its DRAM traffic).
func TestLongShortSamplingError(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	seen := map[string]bool{}
	var n, n2 int
	var sum, worst, sum2, stated2 float64
	for _, r := range readCalibration(t) {
		if seen[r.launchFile] {
			continue
		}
		seen[r.launchFile] = true
		short := false
		for _, l := range simulateShared(t, r.launchFile, r.clockHz) {
			short = short || shortGrid(&l.timing)
		}
		if !short {
			continue
		}
		full, sampled := shortPair(t, r.launchFile, r.clockHz)
		for i := range sampled {
			if sampled[i].Sampling != timing.SampledShort {
				continue
			}
			e := checkShort(t, fmt.Sprintf("%s #%d", r.launchFile, i), sampled[i], full[i], shortMaxPct(sampled[i]))
			n++
			sum += math.Abs(e)
			worst = max(worst, math.Abs(e))
			if shortMaxPct(sampled[i]) == 3 {
				n2++
				sum2 += math.Abs(e)
				stated2 += sampled[i].ErrorPct
			}
		}
	}
	if n == 0 || n2 == 0 {
		t.Fatalf("%d launches sampled as short grids, %d of them windows of two waves", n, n2)
	}
	t.Logf("%d short grids: mean error %.2f%%, worst %.2f%%; %d windows of two waves: mean error %.2f%%, stated ±%.2f%% (%.1f times)",
		n, sum/float64(n), worst, n2, sum2/float64(n2), stated2/float64(n2), stated2/max(sum2, 1e-9))
	if sum/float64(n) > 1.5 {
		t.Errorf("short grids' mean error %.2f%%, want within 1.5%%", sum/float64(n))
	}
	// The estimate must say how far off a window is, not just bound it: at
	// most 3 times the mean error, or, where the errors are far under the
	// goal, a mean statement of at most 2% (two thirds of the 3% goal: a
	// user reading "±2%" learns that the figure meets the goal, which a
	// sharper statement would not tell better). The twenty-third round's
	// DRAM at 3.0 TB/s left the statements as they were (±1.84% → ±1.77%)
	// while the windows' errors fell (0.61% → 0.44%, most of it the
	// scheduler's starvation bound: reduceNeighbored in blocks of 128
	// +2.72% → +0.35%), a ratio of 4.0 (testdata/timing/dram/JOURNAL.md).
	if mean, ratio := stated2/float64(n2), stated2/max(sum2, 1e-9); ratio > 3 && mean > 2 {
		t.Errorf("windows of two waves: mean estimate ±%.2f%% is %.1f times their mean error %.2f%%, want at most 3 times or at most ±2%%",
			mean, ratio, sum2/float64(n2))
	}
}

// TestLongShortSamplingOneWave holds the reduce lesson's kernels at 1.94
// waves (2^19 ints), sampled as short grids with a window of one wave, to
// their full timing: each within its stated estimate and within 7%
// (shortMaxPct). Measured on 2026-11-28: reduceNeighbored in blocks of
// 512, 256 and 128 -2.35%, -4.56%, -5.61%, reduceNeighboredLess and
// reduceInterleaved in blocks of 512 +4.95% and +5.99% (before each SM's
// untimed blocks took its mean time: +5.08%, about +3.7%, +2.9%, +9.5%,
// +10.6%). The 3% goal does not hold for a window of one wave: its blocks
// started together, so their times carry the cold start of all at once
// (the memory-bound reductions' first waves take 15% longer than their
// later blocks) and not the tail of an SM whose last blocks start apart
// (reduceNeighbored's take 5-15% longer than its others).
func TestLongShortSamplingOneWave(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	for _, c := range []struct {
		kernel string
		bs     uint32
	}{
		{"reduceNeighbored", 512}, {"reduceNeighbored", 256}, {"reduceNeighbored", 128},
		{"reduceNeighboredLess", 512}, {"reduceInterleaved", 512},
	} {
		// On one worker, shared: reduceNeighbored in blocks of 512 is
		// TestShortSamplingError's first pair, simulated once in CI's run.
		full := sharedReduce(t, c.kernel, 19, c.bs, 1, warpsim.TimingOptions{NoSampling: true})
		sampled := sharedReduce(t, c.kernel, 19, c.bs, 1, warpsim.TimingOptions{ShortGrids: true})
		if sampled.sum != sampled.want || full.sum != full.want {
			t.Errorf("%s: sums %d and %d, want %d", c.kernel, sampled.sum, full.sum, full.want)
		}
		tm := sampled.res.Grids[0].Timing
		if tm.SampledBlocks >= 2*int(tm.SMs)*2048/int(c.bs) {
			t.Errorf("%s in blocks of %d: %d blocks in detail, want a window of one wave", c.kernel, c.bs, tm.SampledBlocks)
		}
		checkShort(t, fmt.Sprintf("%s b%d", c.kernel, c.bs), tm, full.res.Grids[0].Timing, shortMaxPct(tm))
	}
}

// shortGrid reports whether a grid timed in full has 1.5 to 6 waves (the
// short grids' range at the default four sampled waves): its blocks over
// the most any SM held at once, times the SMs it ran on.
func shortGrid(tm *metrics.Timing) bool {
	if tm.Sampled || len(tm.Blocks) == 0 {
		return false
	}
	type event struct {
		at    uint64
		delta int
	}
	perSM := map[int][]event{}
	for _, b := range tm.Blocks {
		perSM[b.SM] = append(perSM[b.SM], event{b.Start, +1}, event{b.End, -1})
	}
	most := 0
	for _, evs := range perSM {
		slices.SortFunc(evs, func(a, b event) int {
			if a.at != b.at {
				return cmp.Compare(a.at, b.at)
			}
			return cmp.Compare(a.delta, b.delta) // ends first
		})
		k := 0
		for _, e := range evs {
			k += e.delta
			most = max(most, k)
		}
	}
	wave := most * len(perSM)
	nb := len(tm.Blocks)
	return 2*nb >= 3*wave && nb <= 6*wave
}

// shortPair is a calibration launch file's first grid of each launch timed
// in full (the calibration's shared simulation, at the clock the H100 ran
// it at) and with short grids sampled (TimingOptions.ShortGrids, at the same
// clock).
func shortPair(t *testing.T, launchFile string, clockHz float64) (full, sampled []*metrics.Timing) {
	t.Helper()
	for _, l := range simulateShared(t, launchFile, clockHz) {
		tm := l.timing
		full = append(full, &tm)
	}
	sampled = shortSampled(t, launchFile, clockHz)
	if len(sampled) != len(full) {
		t.Fatalf("%s: %d launches sampled, %d in full", launchFile, len(sampled), len(full))
	}
	return full, sampled
}

// shortSampled is a calibration launch file's first grid of each launch
// timed with short grids sampled, at the clock the H100 ran it at.
func shortSampled(t *testing.T, launchFile string, clockHz float64) (sampled []*metrics.Timing) {
	t.Helper()
	lf, err := launchfile.Load(filepath.Join(calibDir, launchFile))
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ShortGrids: true, ClockMHz: math.Round(clockHz / 1e6)}})
	if _, err := lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(_ int, res *warpsim.LaunchResult) {
		sampled = append(sampled, res.Grids[0].Timing)
	}}); err != nil {
		t.Fatalf("%s: %v", launchFile, err)
	}
	return sampled
}

// checkShort holds a short grid's sampled account to its full timing's
// cycles: within its own estimate and within maxPct percent. It returns
// the error in percent.
func checkShort(t *testing.T, name string, sampled, full *metrics.Timing, maxPct float64) float64 {
	t.Helper()
	if sampled.Sampling != timing.SampledShort {
		t.Errorf("%s: sampling %q, want %q", name, sampled.Sampling, timing.SampledShort)
		return 0
	}
	if full.Sampled {
		t.Fatalf("%s: the reference was sampled (%q)", name, full.Sampling)
	}
	e := 100 * (float64(sampled.Cycles) - float64(full.Cycles)) / float64(full.Cycles)
	t.Logf("%-28s full %d cycles, sampled %d (%d blocks in detail): error %+.2f%%, estimated ±%.2f%%",
		name, full.Cycles, sampled.Cycles, sampled.SampledBlocks, e, sampled.ErrorPct)
	if math.Abs(e) > sampled.ErrorPct || math.Abs(e) > maxPct {
		t.Errorf("%s: sampled %d cycles is %+.2f%% off the full timing's %d (estimated ±%.2f%%; want within it and %.0f%%)",
			name, sampled.Cycles, e, full.Cycles, sampled.ErrorPct, maxPct)
	}
	return e
}

// shortMaxPct is the error a short grid is held to: 3% (the goal) when its
// window was its first two waves, 7% when it was its first wave (the
// window cannot show how later blocks differ from the first wave's: the
// reduce lesson's kernels at 1.94 waves are -5.6% to +6.0%,
// TestLongShortSamplingOneWave).
// A window of one wave and a block has an odd number of blocks (a wave on
// the H100's 132 SMs is even), one of two waves an even number.
func shortMaxPct(tm *metrics.Timing) float64 {
	if tm.SampledBlocks%2 == 1 {
		return 7
	}
	return 3
}

// TestShortSamplingDeterminism: a short grid's sampled account (a window of
// one wave and of two) is the same on 1 and 16 workers (the untimed blocks
// run on the functional driver's workers; their placement is computed from
// the window alone).
func TestShortSamplingDeterminism(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	for _, c := range []struct {
		kernel string
		logn   int
		bs     uint32
	}{
		{"reduceNeighbored", 19, 512},   // 1.94 waves: a window of one
		{"reduceInterleaved", 20, 1024}, // 3.88 waves: of two
	} {
		var first *metrics.Timing
		for _, workers := range []int{1, 16} {
			var r reduceRun
			if workers == 1 {
				// TestShortSamplingError's sampled run (shared).
				r = sharedReduce(t, c.kernel, c.logn, c.bs, 1, warpsim.TimingOptions{ShortGrids: true})
			} else {
				r = runReduceWith(t, "h100", c.kernel, c.logn, c.bs, warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
					Timing: warpsim.TimingOptions{ShortGrids: true}})
			}
			if r.sum != r.want {
				t.Errorf("%s 2^%d, %d workers: sum %d, want %d", c.kernel, c.logn, workers, r.sum, r.want)
			}
			tm := r.res.Grids[0].Timing
			if tm.Sampling != timing.SampledShort {
				t.Fatalf("%s, 2^%d ints in blocks of %d: sampling %q, want %q", c.kernel, c.logn, c.bs, tm.Sampling, timing.SampledShort)
			}
			if first == nil {
				first = tm
				continue
			}
			if a, b := fmt.Sprintf("%+v", *first), fmt.Sprintf("%+v", *tm); a != b {
				t.Errorf("%s 2^%d, %d workers: %s\nwant (1 worker) %s", c.kernel, c.logn, workers, b, a)
			}
		}
	}
}
