package warpsim_test

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
)

// modernTimes is Nsight Compute's time of every kernel of issue 18's
// held-out workloads on an H100 (testdata/timing/modern: the Triton corpus's
// kernels, both PTX files, and the nvcc-built tensor-core, asynchronous-copy
// and cluster programs). None of them was used to fit the timing model.
const modernTimes = "testdata/timing/modern/h100/times.tsv"

// ncuClockMHz is the SM clock Nsight Compute locks an H100 at (its base
// clock; the recordings' cycles over their durations say 1.56–1.59 GHz):
// the model runs at it to compare with ncu's times, as TestCalibration does.
const ncuClockMHz = 1589

// Bounds the held-out Triton kernels stay within: no kernel more than 45%
// off, the mean under 7% (6.0% measured over the 48 after the twelfth
// round's constant banks, 7.3% before; 12.8% when first recorded; the
// goal is 15% for every kernel, not met: docs/calibration.md, "How the model is
// checked", says where the model misses).
const (
	tritonTimeRowBound  = 0.45
	tritonTimeMeanBound = 0.07
)

// tritonTimeSubset is what the plain test times: one kernel of each kind
// (element-wise, reductions, normalization, matmuls through mma.sync and
// wgmma, attention, atomics, TMA). TestLongTritonTimesAgainstH100 times all.
var tritonTimeSubset = map[string]bool{
	"triton/add_f32/sm90": true, "triton/softmax_f32/sm90": true, "triton/layernorm_f32/sm90": true,
	"triton/mm_f16_64x64x32_s3/sm80": true, "triton/mm_f16_64x64x32_s3/sm90": true, "triton/attn_fwd_f16/sm90": true,
	"triton/hist_atomic_i32/sm90": true, "triton/tma_scale_f32/sm90": true,
}

// TestTritonTimesAgainstH100 runs held-out Triton kernels from their launch
// files in timing mode and compares their simulated duration with the H100's
// Nsight Compute time (base clock, caches flushed, as ncu measures).
func TestTritonTimesAgainstH100(t *testing.T) { tritonTimes(t, false) }

func TestLongTritonTimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	tritonTimes(t, true)
}

func tritonTimes(t *testing.T, all bool) {
	rows, err := testenv.ReadNCUTimes(modernTimes)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var got, want []float64
	for _, r := range rows {
		c := strings.Split(r.Workload, "/")
		if c[0] != "triton" || !all && !tritonTimeSubset[r.Workload] {
			continue
		}
		ns := tritonLaunchTime(t, tritonDir, c[1], c[2], r.Launch)
		names, got, want = append(names, r.Workload), append(got, ns), append(want, r.NS)
		t.Logf("%-34s %7.0f ns, H100 %7.0f (%+.1f%%)", r.Workload, ns, r.NS, 100*(ns-r.NS)/r.NS)
	}
	if n := len(tritonTimeSubset); !all && len(got) != n || all && len(got) != 48 {
		t.Fatalf("%d kernels timed", len(got))
	}
	mean, over := testenv.TimeErrors(names, got, want, tritonTimeRowBound)
	for _, o := range over {
		t.Errorf("%s: more than %.0f%% off", o, 100*tritonTimeRowBound)
	}
	if mean > tritonTimeMeanBound {
		t.Errorf("mean |error| %.1f%% over %d kernels, want under %.0f%%", 100*mean, len(got), 100*tritonTimeMeanBound)
	} else {
		t.Logf("mean |error| %.1f%% over %d kernels", 100*mean, len(got))
	}
}

// tritonLaunchTime runs the launch file of Triton kernel kcase under dir
// for archTag (sm90: launch.json, sm80: launch_sm80.json) in timing mode
// at Nsight Compute's clock and returns launch i's duration in ns.
func tritonLaunchTime(t *testing.T, dir, kcase, archTag string, i int) float64 {
	t.Helper()
	lf := "launch.json"
	if archTag == "sm80" {
		lf = "launch_sm80.json"
	}
	f, err := launchfile.Load(filepath.Join(dir, kcase, lf))
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: ncuClockMHz}})
	out, err := f.Execute(dev, launchfile.ExecOptions{})
	if err != nil {
		t.Fatalf("%s/%s: %v", kcase, archTag, err)
	}
	return out.Launches[i].DurationNS
}

// tritonTime is one timed launch file of a Triton batch: its
// "<batch>/<case>/<arch>" name, warpsim's duration and the H100's, in ns.
type tritonTime struct {
	name      string
	got, want float64
}

// timeTritonBatch times every row of a batch's Nsight Compute table (times,
// rows named "<batch>/<case>/<arch>", launch files under dir), checks that
// there are n of them, logs each row's error, the mean |error|, how many are
// within 15% and the five worst, and returns the rows, the mean, that count
// and the rows more than rowBound off (testenv.TimeErrors).
func timeTritonBatch(t *testing.T, batch, dir, times string, n int, rowBound float64) (
	all []tritonTime, mean float64, within int, over []string) {
	t.Helper()
	rows, err := testenv.ReadNCUTimes(times)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		c := strings.Split(r.Workload, "/")
		if len(c) != 3 || c[0] != batch {
			t.Fatalf("%s: not a %s/<case>/<arch> row", r.Workload, batch)
		}
		all = append(all, tritonTime{r.Workload, tritonLaunchTime(t, dir, c[1], c[2], r.Launch), r.NS})
	}
	if len(all) != n {
		t.Fatalf("%d kernels timed, want %d", len(all), n)
	}
	var names []string
	var got, want []float64
	for _, r := range all {
		names, got, want = append(names, r.name), append(got, r.got), append(want, r.want)
		e := (r.got - r.want) / r.want
		if math.Abs(e) <= 0.15 {
			within++
		}
		t.Logf("%-40s %8.0f ns, H100 %8.0f (%+.1f%%)", r.name, r.got, r.want, 100*e)
	}
	mean, over = testenv.TimeErrors(names, got, want, rowBound)
	worst := append([]tritonTime(nil), all...)
	sort.Slice(worst, func(i, j int) bool {
		return math.Abs(worst[i].got/worst[i].want-1) > math.Abs(worst[j].got/worst[j].want-1)
	})
	var w []string
	for _, r := range worst[:min(5, len(worst))] {
		w = append(w, fmt.Sprintf("%s %+.1f%%", r.name, 100*(r.got/r.want-1)))
	}
	t.Logf("mean |error| %.1f%% over %d kernels, %d within 15%%; worst: %s", 100*mean, len(all), within,
		strings.Join(w, ", "))
	return all, mean, within, over
}
