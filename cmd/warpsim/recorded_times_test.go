package main

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// batchTimeBounds are the bounds of a batch's held-out time check: what the
// model measured on it when the batch was recorded, with a margin, so a
// failure is a regression alarm, not a target to fit.
type batchTimeBounds struct {
	clangMean        float64 // mean |error| of clang's code against nvcc's build on the H100
	clangOnClangMean float64 // mean |error| of clang's code against the H100 running clang's code
	nvccMean         float64 // mean |error| of nvcc's PTX against nvcc's build
	worst            float64 // no launch more than this far off
}

// checkRecordedTimes compares each kernel launch of a recorded batch that
// Nsight Compute timed on the H100 (dir/times.tsv: nvcc's build, base
// clock, caches flushed) with `warpsim prof --print-gpu-trace` at the
// H100's base clock, twice: built by `warpsim cc` with clang's device code
// (what a user sees) and with nvcc 13's PTX linked in its place
// (`--device-ptx dir/nvcc/ptx/P.nvcc.ptx`: the H100's own program, so the
// difference is the model's). clang's times are also compared with the
// H100 running clang's code (dir/clang/compilers.tsv). It reports the mean
// |error|, how many launches are within 15%, each program's mean and the
// worst launches, and fails past b. Each timed run's stdout, stderr and
// exit status are checked against the H100's recording where the batch's
// match test compares that build (timedBatchProgram).
func checkRecordedTimes(t *testing.T, dir string, base []string, progs []recordedProgram, b batchTimeBounds) {
	t.Helper()
	needClang(t)
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	rows, err := testenv.ReadNCUTimes(filepath.Join(dir, "times.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	batch := filepath.Base(abs)
	type row struct {
		name      string
		got, want float64
	}
	for _, c := range []struct {
		compiler string
		mean     float64 // the bound on the mean |error|
	}{{"clang", b.clangMean}, {"nvcc", b.nvccMean}} {
		traces := map[string][]float64{}
		for _, p := range progs {
			traces[p.name] = timedBatchProgram(t, abs, base, p, c.compiler)
		}
		var all []row
		perProg := map[string][]float64{}
		for _, r := range rows {
			tr, ok := traces[r.Workload]
			if !ok {
				t.Fatalf("%s: in times.tsv, not in %s", r.Workload, batch)
			}
			if r.Launch >= len(tr) {
				t.Fatalf("%s (%s): %d kernels in warpsim's trace, the H100 ran launch %d", r.Workload, c.compiler, len(tr), r.Launch)
			}
			got := tr[r.Launch]
			all = append(all, row{r.Workload + "#" + strconv.Itoa(r.Launch) + " " + r.Kernel, got, r.NS})
			perProg[r.Workload] = append(perProg[r.Workload], math.Abs(got-r.NS)/r.NS)
			t.Logf("%-5s %-11s %2d %-20.20s %9.0f ns, H100 %9.0f (%+.1f%%)", c.compiler, r.Workload, r.Launch, r.Kernel, got, r.NS, 100*(got-r.NS)/r.NS)
		}
		var names []string
		var got, want []float64
		within := 0
		for _, r := range all {
			names, got, want = append(names, r.name), append(got, r.got), append(want, r.want)
			if d := math.Abs(r.got-r.want) / r.want; d <= 0.15 {
				within++
			}
		}
		mean, over := testenv.TimeErrors(names, got, want, b.worst)
		progNames := make([]string, 0, len(perProg))
		for p := range perProg {
			progNames = append(progNames, p)
		}
		sort.Strings(progNames)
		for _, p := range progNames {
			s := 0.0
			for _, e := range perProg[p] {
				s += e
			}
			t.Logf("%s: %-11s mean |error| %.1f%% over %d launches", c.compiler, p, 100*s/float64(len(perProg[p])), len(perProg[p]))
		}
		sort.Slice(all, func(i, j int) bool {
			return math.Abs(all[i].got-all[i].want)/all[i].want > math.Abs(all[j].got-all[j].want)/all[j].want
		})
		for _, r := range all[:min(5, len(all))] {
			t.Logf("%s worst: %s: %.0f ns, H100 %.0f (%+.1f%%)", c.compiler, r.name, r.got, r.want, 100*(r.got-r.want)/r.want)
		}
		t.Logf("%s: mean |error| %.1f%% over %d launches (held out), %d within 15%%", c.compiler, 100*mean, len(all), within)
		for _, o := range over {
			t.Errorf("%s: %s: more than %.0f%% off", c.compiler, o, 100*b.worst)
		}
		if mean > c.mean {
			t.Errorf("%s: mean |error| %.1f%%, it was under %.0f%% when the batch was recorded", c.compiler, 100*mean, 100*c.mean)
		}
		if c.compiler == "clang" {
			againstClangOnH100(t, dir, traces, b.clangOnClangMean)
		}
	}
}

// againstClangOnH100 compares warpsim's times of clang's code with the
// H100's times of the same code (dir/clang/compilers.tsv: nvcc's build
// with clang's PTX before ptxas), the like-for-like figure for what a user
// of warpsim cc sees.
func againstClangOnH100(t *testing.T, dir string, traces map[string][]float64, bound float64) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "clang", "compilers.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	n, within := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		c := strings.Split(line, "\t")
		if len(c) < 5 || strings.HasPrefix(line, "#") {
			continue
		}
		launch, err1 := strconv.Atoi(c[1])
		want, err2 := strconv.ParseFloat(c[4], 64)
		tr := traces[c[0]]
		if err1 != nil || err2 != nil || want <= 0 || launch >= len(tr) {
			t.Fatalf("compilers.tsv: bad row or no such launch in warpsim's trace: %q", line)
		}
		e := math.Abs(tr[launch]-want) / want
		sum += e
		n++
		if e <= 0.15 {
			within++
		}
	}
	if n == 0 {
		t.Fatal("compilers.tsv: no rows")
	}
	t.Logf("clang: against the H100 running clang's code: mean |error| %.1f%% over %d launches, %d within 15%%", 100*sum/float64(n), n, within)
	if sum/float64(n) > bound {
		t.Errorf("clang against the H100's clang build: mean |error| %.1f%%, it was under %.0f%% when the batch was recorded", 100*sum/float64(n), 100*bound)
	}
}

// timedBatchProgram runs a batch program's build (buildBatchProgram) under
// warpsim prof at the H100's base clock (profNCUClock: once per package
// run, shared with the batch's match test) and returns its launches'
// durations. Where the match test compares this build with a recording
// (recordedBase), the timed run's stdout, stderr and exit status are
// compared with it too: the timing driver prints what the functional one
// does for these programs, which lets the match test take its outputs
// from this run.
func timedBatchProgram(t *testing.T, abs string, base []string, p recordedProgram, compiler string) []float64 {
	t.Helper()
	r := profNCUClock(t, buildBatchProgram(t, abs, base, p.name, compiler))
	if rec := recordedBase(abs, p, compiler); rec != "" {
		checkOutputs(t, rec, p.name+" ("+compiler+") under warpsim prof", r.stdout, r.stderr, r.exit)
	}
	if r.exit != 0 {
		t.Fatalf("%s (%s): exit %d\n%s%s", p.name, compiler, r.exit, r.stderr, r.report)
	}
	return traceDurations(r.report)
}
