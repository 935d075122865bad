package main

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// TestCCBarrierClockWorkers builds testdata/timing/parallel3/barrier_clock.cu
// (a cuda::barrier kernel, whose waits read %globaltimer as libcu++'s do,
// stamping each block's start and end with %globaltimer) and runs it timed
// in full on 1 and 16 workers (TestLongCCBarrierClockWorkers: 2, 4, 8 and 1
// again): since %globaltimer reads the
// reading SM's own simulated cycle, its SMs run in parallel and what it
// prints (a checksum of the stamps, the launch's span by them and by CUDA
// events) is the same for every worker count; its results' checksum is
// also the functional driver's, and every block ends after it starts.
// The plain run's blocks (two an SM, 264) pass through the barrier loop
// twice; the long one's four times (the program's default).
func TestCCBarrierClockWorkers(t *testing.T) {
	t.Parallel()
	checkCCBarrierClockWorkers(t, []string{"264", "2"}, "1", "16")
}

// TestLongCCBarrierClockWorkers is TestCCBarrierClockWorkers at the
// program's default size on the powers of two between and on 1 again.
func TestLongCCBarrierClockWorkers(t *testing.T) {
	testenv.Long(t)
	checkCCBarrierClockWorkers(t, nil, "2", "4", "8", "1")
}

// checkCCBarrierClockWorkers runs barrier_clock with args (its blocks and
// tiles) on each of workers.
func checkCCBarrierClockWorkers(t *testing.T, args []string, workers ...string) {
	needClang(t)
	prog := buildCU(t, "../../testdata/timing/parallel3/barrier_clock.cu")
	fn, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"}, args...)
	if err != nil {
		t.Fatalf("functional: %v\n%s", err, stderr)
	}
	var first string
	for _, w := range workers {
		got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=timing", "WARPSIM_SAMPLING=0", "WARPSIM_WORKERS=" + w}, args...)
		if err != nil {
			t.Fatalf("%s workers: %v\n%s", w, err, stderr)
		}
		if !strings.Contains(got, "every block ends after it starts: yes") {
			t.Errorf("%s workers: a block's end stamp is not after its start:\n%s", w, got)
		}
		if line := strings.SplitN(got, "\n", 2)[0]; !strings.HasPrefix(fn, line+"\n") {
			t.Errorf("%s workers: %q, the functional driver's %q", w, line, strings.SplitN(fn, "\n", 2)[0])
		}
		if first == "" {
			first = got
			t.Logf("%s workers:\n%s", w, got)
		} else if got != first {
			t.Errorf("%s workers:\n%s\nwant (%s workers)\n%s", w, got, workers[0], first)
		}
	}
}
