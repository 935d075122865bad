package timing_test

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

var calibTable = flag.String("calibration-table", "", "write the calibration comparison table (markdown) to this file")

// calibRow is one recorded configuration of testdata/timing/h100/calibration.csv.
type calibRow struct {
	name, launchFile string
	launchIndex      int
	durationNS       float64 // ncu's gpu__time_duration.sum
	occupancy        float64 // ncu's achieved occupancy, %
	clockHz          float64 // the SM clock ncu ran it at
}

const calibDir = "../../testdata/timing"

func readCalibration(t testing.TB) []calibRow {
	t.Helper()
	f, err := os.Open(filepath.Join(calibDir, "h100", "calibration.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(r []string, name string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[col[name]], ",", ""), 64)
		if err != nil {
			t.Fatalf("calibration.csv: %s: %q: %v", name, r[col[name]], err)
		}
		return v
	}
	var rows []calibRow
	for _, r := range recs[1:] {
		rows = append(rows, calibRow{name: r[col["name"]], launchFile: r[col["launchfile"]],
			launchIndex: int(num(r, "launch_index")), durationNS: num(r, "duration_ns"),
			occupancy: num(r, "achieved_occupancy_pct"), clockHz: num(r, "sm_clock_hz")})
	}
	return rows
}

// calibRows is calibration.csv by configuration name; a name it lacks
// gives a row with no launch file, which simulate fails on.
func calibRows(t testing.TB) map[string]calibRow {
	t.Helper()
	m := map[string]calibRow{}
	for _, r := range readCalibration(t) {
		m[r.name] = r
	}
	return m
}

// simulate runs a calibration launch file in timing mode at the clock the
// H100 ran it at and returns the measured launch's duration and achieved
// occupancy.
func simulate(t testing.TB, r calibRow) (ns, occ float64) {
	t.Helper()
	res := simulateShared(t, r.launchFile, r.clockHz)[r.launchIndex]
	tm := res.timing
	return res.ns, achievedOcc(&tm)
}

// sharedRun is one launch file's simulation, done once per package run:
// what each launch's first grid measured, not the device (a calibration's
// buffers are up to 128 MiB: keeping 145 of them would not fit in memory).
type sharedRun struct {
	once     sync.Once
	launches []sharedLaunch
	err      error
}

// sharedLaunch is one launch's duration and its first grid's timing.
type sharedLaunch struct {
	ns     float64
	timing metrics.Timing
}

var (
	sharedMu   sync.Mutex
	sharedRuns = map[string]*sharedRun{}
)

// simulateShared runs a launch file of calibDir in timing mode on the H100
// at clockHz, once per package run: the tests that look at the same
// recorded configuration (TestCalibration, TestMIOThrottleAsOnH100,
// TestLatencyHiding, TestCoarseningSlowerAtSmallN) share one simulation of
// it. A simulation's result does not depend on what ran before it
// (TestDeterminism checks that repeated launches agree).
func simulateShared(t testing.TB, launchFile string, clockHz float64) []sharedLaunch {
	t.Helper()
	return simulateSharedBlocks(t, launchFile, clockHz, 0)
}

// simulateSharedBlocks is simulateShared with every launch's grid cut to
// its first blocks blocks in x (0: the grids as recorded).
func simulateSharedBlocks(t testing.TB, launchFile string, clockHz float64, blocks uint32) []sharedLaunch {
	t.Helper()
	return simulateSharedPath(t, filepath.Join(calibDir, launchFile), clockHz, blocks)
}

// timeLaunchFileShared is timeLaunchFile for a test that reads only each
// launch's duration and first grid's timing: the file is simulated once per
// package run (sharedRuns), so a plain test and its long twin, which CI's
// WARPSIM_LONG=1 step runs in one process, share the rows they both check
// (TestBlocksMicrobenchmarks' ten configurations, TestDRAMBandwidth's three,
// TestMechanisms' seven, TestGuardedLoadsInFlight's two).
func timeLaunchFileShared(t testing.TB, path string, clockHz float64) []sharedLaunch {
	t.Helper()
	return simulateSharedPath(t, path, clockHz, 0)
}

// simulateSharedPath is simulateSharedBlocks for a launch file at path.
func simulateSharedPath(t testing.TB, path string, clockHz float64, blocks uint32) []sharedLaunch {
	t.Helper()
	return simulateSharedOn(t, "h100", path, clockHz, blocks)
}

// simulateSharedOn is simulateSharedPath on the preset preset (the H200's
// recordings run the H100's launch files on "h200").
func simulateSharedOn(t testing.TB, preset, path string, clockHz float64, blocks uint32) []sharedLaunch {
	t.Helper()
	mhz := math.Round(clockHz / 1e6)
	key := fmt.Sprintf("%s@%g/%d", filepath.Clean(path), mhz, blocks)
	if preset != "h100" {
		key = preset + ":" + key
	}
	sharedMu.Lock()
	s := sharedRuns[key]
	if s == nil {
		s = &sharedRun{}
		sharedRuns[key] = s
	}
	sharedMu.Unlock()
	s.once.Do(func() {
		lf, err := launchfile.Load(path)
		if err != nil {
			s.err = err
			return
		}
		for _, la := range lf.Launches {
			if blocks > 0 && la.Grid[0] > blocks {
				la.Grid[0] = blocks
			}
		}
		dev := warpsim.NewDevice(arch.MustLookup(preset), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{ClockMHz: mhz}})
		_, s.err = lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(_ int, res *warpsim.LaunchResult) {
			s.launches = append(s.launches, sharedLaunch{ns: res.DurationNS, timing: *res.Grids[0].Timing})
		}})
	})
	if s.err != nil {
		t.Fatalf("%s: %v", path, s.err)
	}
	return s.launches
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestCalibration runs a representative part of the recorded H100
// configurations (plainCalibration: microbenchmarks and the lessons at
// small sizes) and compares duration_ns and achieved occupancy with Nsight
// Compute's. It fails when the mean absolute error of the durations exceeds
// the model's stated accuracy. TestLongCalibration runs all of them (the
// README's table), as does WARPSIM_CALIBRATION=full here; -short runs every
// sixteenth.
func TestCalibration(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	pick := plainCalibration
	switch {
	case os.Getenv("WARPSIM_CALIBRATION") == "full":
		pick = func(int, string) bool { return true }
	case testing.Short():
		pick = func(i int, _ string) bool { return i%16 == 0 }
	}
	checkCalibration(t, pick)
}

// plainCalibration picks the plain run's configurations: every eighth row
// of calibration.csv (which interleaves the families) but the lessons at
// 2^20 ints, the matrix products at n = 256, the 32 MB streams and the
// occupancy sweep's pointer chases (seconds of CPU each; the same kernels at
// smaller sizes, and the sweep's streaming copy, are in), and the rows this
// package's other tests simulate anyway (simulateShared): occ_stream_r1 and
// _r8 (TestLatencyHiding) and the 16x16 coarsened products at n = 128
// (TestCoarseningSlowerAtSmallN; its long twin looks at n = 256). The
// throughput microbenchmarks are in as every eighth row picks them
// (tput_fadd); TestMIOThrottleAsOnH100 runs them on a few SMs
// (mioPlainBlocks), TestLongCalibration in full.
func plainCalibration(i int, name string) bool {
	switch {
	case name == "occ_stream_r1", name == "occ_stream_r8",
		strings.HasPrefix(name, "lesson_matmulCoarse_T16_") && strings.HasSuffix(name, "_n128"):
		return true
	case strings.Contains(name, "_n1048576_"), strings.HasSuffix(name, "_n256"),
		strings.HasPrefix(name, "stream_"), strings.HasPrefix(name, "occ_chase"):
		return false
	}
	return i%8 == 0
}

// TestLongCalibration is TestCalibration over all 145 configurations
// (minutes of simulation; CI's long step runs it).
func TestLongCalibration(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkCalibration(t, func(int, string) bool { return true })
}

// checkCalibration simulates the configurations pick chooses (by row index
// and name) and holds the durations' mean absolute error to calibrationMAE.
func checkCalibration(t *testing.T, pick func(i int, name string) bool) {
	rows := readCalibration(t)
	var some []calibRow
	filter := os.Getenv("WARPSIM_CALIBRATION_FILTER") // a name substring, to study one family
	for i, r := range rows {
		if pick(i, r.name) && strings.Contains(r.name, filter) {
			some = append(some, r)
		}
	}
	rows = some
	type result struct {
		calibRow
		ns, occ, err float64
	}
	// The configurations are independent: they run as parallel subtests
	// (as many at once as -parallel, GOMAXPROCS by default), each result in
	// its row's place, so the sums below do not depend on the order.
	res := make([]result, len(rows))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				ns, occ := simulate(t, r)
				res[i] = result{r, ns, occ, (ns - r.durationNS) / r.durationNS}
			})
		}
	})
	if t.Failed() {
		return
	}
	var sumAbs, sumOcc float64
	for _, r := range res {
		sumAbs += math.Abs(r.err)
		sumOcc += math.Abs(r.occ - r.occupancy)
	}
	mae := sumAbs / float64(len(res))
	occErr := sumOcc / float64(len(res))
	t.Logf("%d configurations: duration MAE %.1f%%, achieved occupancy mean absolute error %.1f points", len(res), 100*mae, occErr)
	sorted := append([]result(nil), res...)
	sort.Slice(sorted, func(i, j int) bool { return math.Abs(sorted[i].err) > math.Abs(sorted[j].err) })
	for _, r := range sorted[:min(10, len(sorted))] {
		t.Logf("worst: %-40s H100 %9.0f ns  warpsim %9.0f ns  %+6.1f%%", r.name, r.durationNS, r.ns, 100*r.err)
	}
	if *calibTable != "" {
		var b strings.Builder
		fmt.Fprintf(&b, "| configuration | H100 (ncu) ns | warpsim ns | error | H100 occupancy | warpsim occupancy |\n|---|---:|---:|---:|---:|---:|\n")
		for _, r := range res {
			fmt.Fprintf(&b, "| %s | %.0f | %.0f | %+.1f%% | %.1f%% | %.1f%% |\n", r.name, r.durationNS, r.ns, 100*r.err, r.occupancy, r.occ)
		}
		fmt.Fprintf(&b, "\nMean absolute error of the durations: %.1f%% over %d configurations; of achieved occupancy: %.1f points.\n", 100*mae, len(res), occErr)
		if err := os.WriteFile(*calibTable, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if mae > calibrationMAE {
		t.Errorf("duration MAE %.1f%% exceeds %.0f%%", 100*mae, 100*calibrationMAE)
	}
}

// calibrationMAE is the accuracy the model is held to on its own
// calibration suite.
const calibrationMAE = 0.25
