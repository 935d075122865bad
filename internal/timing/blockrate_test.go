package timing_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
)

// blockRateBounds are TestBlockRetirementRate's rows (shortocc.cu's block
// scheduler microbenchmarks, study rows of testdata/timing/shortocc) and
// the duration error each may have, at what the model measured when the
// retirement drain went into the H100 preset, rounded up (docs/
// testdata/timing/shortocc/JOURNAL.md, "The block scheduler's retirement rate"):
//   - m_e64_x1, one wave of 4224 empty blocks of 64 (32 an SM): -5.0%; the
//     model without the drain said -41.7% (its first wave is handed out at
//     FirstDispatchNS and cost nothing after). The H100's blocks have all
//     exited 928 ns after the first began (their %globaltimer stamps); the
//     kernel lasts 4320 ns beyond that, an empty one-block kernel 2240;
//   - m_s64_x1, the same wave spinning 3000 cycles: +0.8%; with the floor
//     h200l gave the H200 (the grid no shorter than its blocks ×
//     BlockDispatchNS, the blocks' own time not added) -27.0%, and -27.0%
//     with none: the H100's blocks have all exited at 2720 ns and the
//     kernel lasts 4288 beyond, so the wave's 4224 retirements are taken
//     after the blocks ran, not while they ran;
//   - m_e64_x6, six waves of empty blocks (25 344): -0.9% (-1.5% without):
//     when blocks retire no faster than they are replaced the drain adds
//     about one wave's turns, which the later waves' BlockDispatchNS
//     already spaced.
var blockRateBounds = map[string]float64{"m_e64_x1": 0.06, "m_s64_x1": 0.02, "m_e64_x6": 0.02}

// blockRateLRR are the rows timed with the loose round-robin warp
// scheduler: a clock64 spin loop under greedy-then-oldest keeps a quarter
// of m_s64_x1's warps from their first instruction until the oldest exit
// (their blocks start 2.3 µs late, the H100's all within 448 ns), which
// is the warp scheduler's matter, not the block scheduler's (docs/
// calibration.md).
var blockRateLRR = map[string]bool{"m_s64_x1": true}

// TestBlockRetirementRate checks BlockRateFloor on the H100 preset: the
// block scheduler takes retired blocks back one per BlockDispatchNS, and a
// grid ends when it has taken its last one. The rows run at their Nsight
// Compute clock; their achieved occupancy is reported (the drain is
// outside the SMs' active cycles: it does not move it).
func TestBlockRetirementRate(t *testing.T) {
	t.Parallel() // main_test.go: heavy plain tests run two at a time
	order, _ := shortoccRows(t)
	var rows []heldOutRow
	for _, r := range order {
		if _, ok := blockRateBounds[r.name]; ok {
			rows = append(rows, heldOutRow{name: r.name, h100NS: r.durationNS, h100Occ: r.occ})
		}
	}
	if len(rows) != len(blockRateBounds) {
		t.Fatalf("%d of the %d rows in shortocc's recording", len(rows), len(blockRateBounds))
	}
	clock := map[string]float64{}
	for _, r := range order {
		clock[r.name] = r.clockHz
	}
	t.Run("configurations", func(t *testing.T) {
		for i := range rows {
			r := &rows[i]
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				path := filepath.Join(shortoccDir, "launch", r.name+".json")
				if !blockRateLRR[r.name] {
					l := timeLaunchFileShared(t, path, clock[r.name])[0]
					r.ns, r.occ = l.ns, achievedOcc(&l.timing)
					return
				}
				lf, err := launchfile.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
					Timing: warpsim.TimingOptions{ClockMHz: math.Round(clock[r.name] / 1e6), Scheduler: "lrr"}})
				if _, err := lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(_ int, res *warpsim.LaunchResult) {
					r.ns, r.occ = res.DurationNS, achievedOcc(res.Grids[0].Timing)
				}}); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	for _, r := range rows {
		if e := (r.ns - r.h100NS) / r.h100NS; math.Abs(e) > blockRateBounds[r.name] {
			t.Errorf("%s: %.0f ns, the H100 %.0f (%+.1f%%, at most %.0f%%)", r.name, r.ns, r.h100NS, 100*e, 100*blockRateBounds[r.name])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 ns | warpsim ns | error | H100 occupancy | warpsim occupancy |\n|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %+.1f%% | %.1f%% | %.1f%% |\n", r.name, r.h100NS, r.ns, 100*(r.ns-r.h100NS)/r.h100NS, r.h100Occ, r.occ)
	}
	t.Logf("study rows (shortocc):\n%s", b.String())
}
