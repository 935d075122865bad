package timing_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/internal/timing"
)

// TestMIOThrottleAsOnH100: a warp waiting for a saturated MUFU,
// conversion or shuffle pipe stalls on mio_throttle, one waiting for the
// integer or fp64 pipes on math_pipe_throttle, as Nsight Compute recorded
// on the H100 for the throughput microbenchmarks
// (testdata/timing/h100/calibration.csv, smsp__average_warp_latency_
// issue_stalled_{mio,math_pipe}_throttle). The plain run leaves out
// tput_rsqrt (MUFU, as tput_ex2 is), and runs each microbenchmark's first
// mioPlainBlocks blocks only: one block of 512 threads on each SM, as the
// recorded grid of 132 has it, on fewer SMs. TestLongMIOThrottleAsOnH100
// checks all seven at the recorded grid.
func TestMIOThrottleAsOnH100(t *testing.T) { checkMIOThrottle(t, false) }

// TestLongMIOThrottleAsOnH100 is TestMIOThrottleAsOnH100 over all seven
// throughput microbenchmarks that throttle, their grids as recorded (the
// simulations TestLongCalibration makes).
func TestLongMIOThrottleAsOnH100(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkMIOThrottle(t, true)
}

// mioPlainSkips is the throughput microbenchmark the plain run leaves to
// the long one (seconds of CPU; the MUFU pipe is tput_ex2's too).
const mioPlainSkips = "tput_rsqrt"

// mioPlainBlocks is how many of a throughput microbenchmark's 132 blocks
// the plain run simulates: the pipes throttle within an SM, and each SM
// runs one block either way.
const mioPlainBlocks = 4

func checkMIOThrottle(t *testing.T, all bool) {
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
		i, ok := col[name]
		if !ok {
			t.Fatalf("calibration.csv has no %s", name)
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[i], ",", ""), 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return v
	}
	const metric = "smsp__average_warp_latency_issue_stalled_%s.ratio"
	idx := map[string]int{}
	for i, n := range timing.StallNames {
		idx[n] = i
	}
	seen := 0
	for _, r := range recs[1:] {
		name := r[col["name"]]
		if !strings.HasPrefix(name, "tput_") || name == "tput_fadd" || name == "tput_ffma" {
			continue // (fadd and ffma throttle on neither)
		}
		if name == mioPlainSkips && !all {
			continue
		}
		seen++
		hwMIO := num(r, strings.Replace(metric, "%s", "mio_throttle", 1))
		hwMath := num(r, strings.Replace(metric, "%s", "math_pipe_throttle", 1))
		// The long run: the same simulation as TestLongCalibration's of
		// this row (shared).
		blocks := uint32(mioPlainBlocks)
		if all {
			blocks = 0
		}
		tm := simulateSharedBlocks(t, r[col["launchfile"]], num(r, "sm_clock_hz"), blocks)[int(num(r, "launch_index"))].timing
		mio, mathPipe := tm.Stalls[idx["mio_throttle"]], tm.Stalls[idx["math_pipe_throttle"]]
		t.Logf("%-11s H100 mio %8.1f math %8.1f | warpsim warp-cycles mio %9d math %9d", name, hwMIO, hwMath, mio, mathPipe)
		if hwMIO > hwMath {
			if mio <= mathPipe {
				t.Errorf("%s: the H100 stalls on mio_throttle (%.0f against %.0f), warpsim on math_pipe_throttle (%d against %d)", name, hwMIO, hwMath, mathPipe, mio)
			}
		} else if mathPipe <= mio {
			t.Errorf("%s: the H100 stalls on math_pipe_throttle (%.0f against %.0f), warpsim on mio_throttle (%d against %d)", name, hwMath, hwMIO, mio, mathPipe)
		}
	}
	if want := map[bool]int{false: 6, true: 7}[all]; seen < want {
		t.Errorf("%d throughput microbenchmarks in calibration.csv, want %d", seen, want)
	}
}
