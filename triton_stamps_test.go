package warpsim_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/launchfile"
)

// tritonStampsDir holds issue 18's worst Triton kernels instrumented with
// %clock64 stamps and their ablations (testdata/timing/triton_stamps:
// instrument.py, variants.py), and h100/times.tsv their Nsight Compute
// times on an H100 (run2.sh).
const tritonStampsDir = "testdata/timing/triton_stamps"

// tritonAblationBound: no launch more than this far from the H100's (the
// copies' and the tensor maps' costs still missing: docs/calibration.md, "Shared memory,
// cp.async, bulk copies, clusters, fences").
const tritonAblationBound = 0.40

// TestTritonAblationsAgainstH100 times the instrumented tf32 wgmma matmuls
// and TMA kernels and their ablations (the tf32 matmul without its 4-byte
// B copies, without any copy, without its wgmma; the TMA kernel without its
// store) and compares each with the mean of the H100's two runs: which part
// of a kernel the model misses shows as the ablation that closes the gap.
func TestTritonAblationsAgainstH100(t *testing.T) {
	f, err := os.Open(filepath.Join(tritonStampsDir, "h100", "times.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		name, runs, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		var want float64
		n := 0
		for _, r := range strings.Split(runs, ",") {
			v, err := strconv.ParseFloat(r, 64)
			if err != nil {
				t.Fatalf("bad line %q", line)
			}
			want, n = want+v, n+1
		}
		want /= float64(n)
		lf, err := launchfile.Load(filepath.Join(tritonStampsDir, "ptx", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &syncBuffer{}, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{ClockMHz: ncuClockMHz}})
		out, err := lf.Execute(dev, launchfile.ExecOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := out.Launches[0].DurationNS
		e := (got - want) / want
		rows++
		if e > tritonAblationBound || e < -tritonAblationBound {
			t.Errorf("%-30s %6.0f ns, H100 %6.0f (%+.1f%%): more than %.0f%% off", name, got, want, 100*e, 100*tritonAblationBound)
		} else {
			t.Logf("%-30s %6.0f ns, H100 %6.0f (%+.1f%%)", name, got, want, 100*e)
		}
	}
	if rows != 8 {
		t.Errorf("%d launch files timed, times.tsv has 8", rows)
	}
}
