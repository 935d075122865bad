package timing_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
)

const warpLaunchDir = "../../testdata/timing/warplaunch"

// warpLaunchRow is one configuration of testdata/timing/warplaunch
// (warplaunch.cu, run on the H200 by run.sh): Nsight Compute's duration,
// achieved occupancy and SM clock.
type warpLaunchRow struct {
	name               string
	durationNS, occPct float64
	clockHz            float64
}

// warpLaunchHeldOut are the rows PREDICTIONS.md held out before the device
// call: not looked at to choose a mechanism, reported on their own.
var warpLaunchHeldOut = map[string]bool{"e512": true, "s64": true}

// readWarpLaunch reads h200/events.txt (the configurations, in launch
// order) and h200/ncu.csv (one profiled launch each, in the same order).
func readWarpLaunch(t *testing.T) []warpLaunchRow {
	t.Helper()
	ev, err := os.Open(filepath.Join(warpLaunchDir, "h200", "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	var rows []warpLaunchRow
	sc := bufio.NewScanner(ev)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 1 && f[0] == "cfg" {
			rows = append(rows, warpLaunchRow{name: strings.TrimPrefix(f[1], "name=")})
		}
	}
	for _, m := range ncuMetrics(t, filepath.Join(warpLaunchDir, "h200", "ncu.csv"), len(rows)) {
		switch m.name {
		case "gpu__time_duration.sum":
			rows[m.launch].durationNS = m.value
		case "sm__warps_active.avg.pct_of_peak_sustained_active":
			rows[m.launch].occPct = m.value
		case "sm__cycles_elapsed.avg.per_second":
			rows[m.launch].clockHz = m.value
		}
	}
	for _, r := range rows {
		if r.durationNS == 0 || r.clockHz == 0 {
			t.Fatalf("%s: no ncu duration or clock", r.name)
		}
	}
	return rows
}

// timeWarpLaunch times launch file path on the h200 preset at clockHz with
// the warp scheduler policy sched ("": the preset's).
func timeWarpLaunch(t *testing.T, path string, clockHz float64, sched string) (ns, occ float64) {
	t.Helper()
	if sched == "" {
		l := simulateSharedOn(t, "h200", path, clockHz, 0)[0]
		return l.ns, achievedOcc(&l.timing)
	}
	lf, err := launchfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h200"), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: math.Round(clockHz / 1e6), Scheduler: sched}})
	if _, err := lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(_ int, res *warpsim.LaunchResult) {
		ns, occ = res.DurationNS, achievedOcc(res.Grids[0].Timing)
	}}); err != nil {
		t.Fatal(err)
	}
	return ns, occ
}

// warpLaunchBound is a row's bound: the largest duration error (a
// fraction) and occupancy error (points) the model may show on it, each
// measured when the test went in (testdata/timing/warplaunch/README.md)
// and widened by about a third, so that a change that moves a row is seen.
type warpLaunchBound struct{ dur, occ float64 }

// warpLaunchPlain are the rows TestWarpLaunchMicrobenchmarks runs (one
// block an SM, eight waves: cheap) and their bounds; the model at the
// change that added them gave e32x1 +4.6% and 0.0 points, e256x1 +2.1%
// and +0.7, e1024x1 -17.8% and +2.8 (its warps' 32-byte stamps drain
// longer on the H200 than the model's stores do: README.md).
var warpLaunchPlain = map[string]warpLaunchBound{
	"e32x1":   {0.07, 1},
	"e256x1":  {0.05, 1.5},
	"e1024x1": {0.25, 4.5},
}

// TestWarpLaunchMicrobenchmarks runs the cheap rows of warplaunch.cu
// (empty blocks of 32, 256 and 1024 threads, one an SM) through the
// timing model on the h200 preset at ncu's recorded clock and holds each
// row's duration and achieved-occupancy error within warpLaunchPlain.
// TestLongWarpLaunchMicrobenchmarks runs every row, and the spinning ones
// under both warp scheduler policies.
func TestWarpLaunchMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	var rows []warpLaunchRow
	for _, r := range readWarpLaunch(t) {
		if _, ok := warpLaunchPlain[r.name]; ok {
			rows = append(rows, r)
		}
	}
	if len(rows) != len(warpLaunchPlain) {
		t.Fatalf("%d of the %d rows in the recording", len(rows), len(warpLaunchPlain))
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			ns, occ := timeWarpLaunch(t, filepath.Join(warpLaunchDir, "launch", r.name+".json"), r.clockHz, "")
			e, d := (ns-r.durationNS)/r.durationNS, occ-r.occPct
			t.Logf("%s: H200 %.0f ns %.1f%%, warpsim %.0f ns (%+.1f%%) %.1f%% (%+.1f points)", r.name, r.durationNS, r.occPct, ns, 100*e, occ, d)
			if b := warpLaunchPlain[r.name]; math.Abs(e) > b.dur || math.Abs(d) > b.occ {
				t.Errorf("%s: duration %+.1f%% (at most %.0f%%), occupancy %+.1f points (at most %.1f)", r.name, 100*e, 100*b.dur, d, b.occ)
			}
		})
	}
}

// warpLaunchSpin bounds the spinning rows (s256, s1024: whole waves of
// blocks spinning 4000 cycles on clock64): within 7% of the H200 (-1.8%
// and -4.6% when IssueStarveCycles went in; +26% and +24% without it,
// greedy-then-oldest keeping an SM's youngest warps from issuing until
// the oldest exit).
const warpLaunchSpin = 0.07

// TestLongWarpLaunchMicrobenchmarks runs every row of warplaunch.cu
// through the timing model on the h200 preset, the study rows and the
// held-out ones (PREDICTIONS.md) reported apart; the spinning rows must
// be within warpLaunchSpin of the H200 (IssueStarveCycles: the H200 starts
// every warp of a full SM within its block's warp-launch spread, 49
// cycles at p90).
func TestLongWarpLaunchMicrobenchmarks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	rows := readWarpLaunch(t)
	type result struct{ ns, occ float64 }
	res := make([]result, len(rows))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				res[i].ns, res[i].occ = timeWarpLaunch(t, filepath.Join(warpLaunchDir, "launch", r.name+".json"), r.clockHz, "")
			})
		}
	})
	if t.Failed() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | set | H200 ns | warpsim ns | error | H200 occupancy | warpsim |\n|---|---|---:|---:|---:|---:|---:|\n")
	var dur, occ [2]float64
	var n [2]int
	for i, r := range rows {
		set, k := "study", 0
		if warpLaunchHeldOut[r.name] {
			set, k = "held out", 1
		}
		e := (res[i].ns - r.durationNS) / r.durationNS
		dur[k] += math.Abs(e)
		occ[k] += math.Abs(res[i].occ - r.occPct)
		n[k]++
		if (r.name == "s256" || r.name == "s1024") && math.Abs(e) > warpLaunchSpin {
			t.Errorf("%s: %+.1f%% off the H200 (at most %.0f%%): a full SM's spinning warps all issue", r.name, 100*e, 100*warpLaunchSpin)
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f | %.0f | %+.1f%% | %.1f%% | %.1f%% |\n", r.name, set, r.durationNS, res[i].ns, 100*e, r.occPct, res[i].occ)
	}
	for k, set := range []string{"study", "held out"} {
		fmt.Fprintf(&b, "%s: %d rows, duration MAE %.1f%%, occupancy error %.1f points\n", set, n[k], 100*dur[k]/float64(n[k]), occ[k]/float64(n[k]))
	}
	t.Logf("\n%s", b.String())
}
