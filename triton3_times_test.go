package warpsim_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// triton3Times is Nsight Compute's time of every launch file of the third
// Triton batch on an H100 (testdata/triton3/h100: time_triton3.py under
// ncu, 3 runs each, reduced by summarize3.py). Held out: none of these
// kernels was used to fit the timing model.
const triton3Times = "testdata/triton3/h100/times.tsv"

// TestLongTriton3TimesAgainstH100 times every kernel of the batch in timing
// mode at ncu's clock and reports the duration error against the H100: the
// mean absolute error, how many kernels are within 15%, and the worst rows,
// over the whole batch and over each half of SPLIT.md (the study half, which
// the ninth round took apart, and the held-out half, only measured). The
// bounds sit just above what the model reaches (testdata/triton3/JOURNAL.md, "The
// third Triton batch"): at the recording 19.2% mean over the 91, 61 within
// 15%, the worst +154% (study half 24.6% and 35 of 48, held-out half 13.2%
// and 27 of 43); after the ninth round's mechanisms 12.5%, 65 within 15%,
// the worst +44% (study 11.6% and 37 of 48, held out 13.4% and 28 of 43);
// after the tenth round's (IEEE division and square root slow paths, f16
// atomics' CAS retries across warps) 11.4%, 68 within 15%, the worst +44%
// (study 9.6% and 40 of 48, held out 13.4% and 28 of 43); after the
// eleventh round's (a branch does not stop the instruction fetch stream,
// a stream per sub-partition: testdata/triton3/study/fetch) 10.7%, 72
// within 15%, the worst -35% (study 8.0% and 44 of 48, held out 13.7% and
// 28 of 43); after the twelfth round's (the constant banks at a block's
// start: a kernel's parameters, a global variable's address;
// testdata/timing/kstart) 9.5%, 74 within 15%, the worst +35% (study 6.8%
// and 45 of 48, held out 12.6% and 29 of 43); after the fourteenth
// round's (the directed rounding forms of division, reciprocal and square
// root as ptxas's subroutine calls: testdata/triton3/study/round) 8.6%,
// 78 within 15%, the worst +35% (study 6.8% and 45 of 48, held out 10.6%
// and 33 of 43); after the fifteenth round's (the movs ptxas removes;
// shuffle chains of a block interleaved as ptxas's schedule has them:
// testdata/triton3/study/sched) 7.9%, 80 within 15%, the worst -33%
// (study 6.3% and 45 of 48, held out 9.6% and 35 of 43); after the
// sixteenth round's (shuffles under the hoisting register bound; shared
// stores wait for the shared pipe) 7.8%, 80 within 15% (study 6.3% and 45
// of 48, held out 9.5% and 35 of 43); after the seventeenth round's (a
// warp's shared wavefronts 2 cycles apart, fences waiting for them:
// testdata/timing/stsconf2) 7.4%, 82 within 15% (study 6.2% and 45 of 48,
// held out 8.8% and 37 of 43). The goal, 15% for every kernel, is not
// met.
func TestLongTriton3TimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	all, mean, _, over := timeTritonBatch(t, "triton3", triton3Dir, triton3Times, triton3TimedKernels,
		triton3TimeRowBound)
	for _, o := range over {
		t.Errorf("%s: more than %.0f%% off", o, 100*triton3TimeRowBound)
	}
	if mean > triton3TimeMeanBound {
		t.Errorf("mean |error| %.1f%%, want under %.1f%%", 100*mean, 100*triton3TimeMeanBound)
	}
	// The two halves SPLIT.md fixed before any mechanism was chosen: the
	// study half may be taken apart, the held-out half only measured.
	half, err := triton3Split()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []struct {
		name          string
		meanBound     float64
		withinAtLeast int
	}{{"study", triton3StudyMeanBound, triton3StudyWithin}, {"held out", triton3HeldMeanBound, triton3HeldWithin}} {
		var n, within int
		var sum float64
		for _, r := range all {
			if half[strings.Split(r.name, "/")[1]] != h.name {
				continue
			}
			e := math.Abs(r.got/r.want - 1)
			n, sum = n+1, sum+e
			if e <= 0.15 {
				within++
			}
		}
		if n == 0 {
			t.Fatalf("no kernel of the %s half", h.name)
		}
		t.Logf("%s half: mean |error| %.1f%% over %d launch files, %d within 15%%", h.name, 100*sum/float64(n), n, within)
		if sum/float64(n) > h.meanBound || within < h.withinAtLeast {
			t.Errorf("%s half: mean |error| %.1f%%, %d within 15%%; want under %.1f%% and at least %d", h.name,
				100*sum/float64(n), within, 100*h.meanBound, h.withinAtLeast)
		}
	}
	for _, r := range all {
		if half[strings.Split(r.name, "/")[1]] == "" {
			t.Errorf("%s: in neither half of SPLIT.md", r.name)
		}
	}
}

// triton3Split reads testdata/triton3/SPLIT.md's table: each kernel
// directory's half, "study" or "held out".
func triton3Split() (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(triton3Dir, "SPLIT.md"))
	if err != nil {
		return nil, err
	}
	half := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		c := strings.Split(line, "|")
		if len(c) != 4 {
			continue
		}
		name := strings.TrimSpace(c[1])
		switch {
		case strings.HasPrefix(name, "study ("):
			name = "study"
		case strings.HasPrefix(name, "held out ("):
			name = "held out"
		default:
			continue
		}
		for _, k := range strings.Split(c[2], ",") {
			half[strings.TrimSpace(k)] = name
		}
	}
	if len(half) != 48 {
		return nil, fmt.Errorf("SPLIT.md names %d kernels, want 48", len(half))
	}
	return half, nil
}

const (
	triton3TimedKernels  = 91
	triton3TimeRowBound  = 0.5
	triton3TimeMeanBound = 0.085
	// The halves (SPLIT.md).
	triton3StudyMeanBound = 0.075
	triton3StudyWithin    = 44
	triton3HeldMeanBound  = 0.10
	triton3HeldWithin     = 35
)
