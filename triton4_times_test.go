package warpsim_test

import (
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// triton4Times is Nsight Compute's time of every launch file of the fourth
// Triton batch on an H100 (testdata/triton4/h100: time_triton4.py under
// ncu, 3 runs each, base clock, caches flushed, reduced by summarize4.py);
// the failing assert is not timed. The whole batch is held out
// (testdata/triton4/SPLIT.md): nothing in the timing model was chosen on it.
const triton4Times = "testdata/triton4/h100/times.tsv"

// TestLongTriton4TimesAgainstH100 times every kernel of the batch in timing
// mode at ncu's clock and reports the duration error against the H100: the
// mean absolute error, how many kernels are within 15%, each kernel's error
// and the worst rows. The bounds are a regression alarm set just above what
// the model measured when the batch was recorded (testdata/triton4/JOURNAL.md, "Held
// out: the fourth Triton batch"), not a target to fit.
func TestLongTriton4TimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	_, mean, within, over := timeTritonBatch(t, "triton4", triton4Dir, triton4Times, triton4TimedKernels,
		triton4TimeRowBound)
	for _, o := range over {
		t.Errorf("%s: more than %.0f%% off", o, 100*triton4TimeRowBound)
	}
	if mean > triton4TimeMeanBound || within < triton4TimeWithin {
		t.Errorf("mean |error| %.1f%%, %d within 15%%; want under %.1f%% and at least %d", 100*mean, within,
			100*triton4TimeMeanBound, triton4TimeWithin)
	}
}

// At the recording (2026-11-28, before any change made for this batch):
// 10.6% mean over the 58 launch files, 46 within 15%, the worst the printf
// kernel (-95.8%: the H100 takes 105 µs for its 96 printed lines, warpsim
// 4.5 µs — the cost of device printf was not modelled) and then
// small_int_f64 -22.0%, topk_f32 +21.3%; without the printf kernel 7.5%
// over 56. With device printf modelled (fourteenth round,
// testdata/timing/printf: the batch still held out) 7.4% over 58, 48
// within 15%, device_print_f32 -3.4% (sm90) and -3.9% (sm80), every row
// within 22%. The bounds sit just above that: a regression alarm, not a
// fit target.
const (
	triton4TimedKernels  = 58
	triton4TimeRowBound  = 0.25
	triton4TimeMeanBound = 0.08
	triton4TimeWithin    = 48
)
