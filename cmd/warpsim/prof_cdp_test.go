package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/metrics"
)

// cdpFixture: rec launched once from the host (branch efficiency 75%), and
// three identical grids of rec launched from the device folded into one
// record (100%: no divergent branch), 1, 2 and 3 µs.
var cdpFixture = &cudart.Profile{Arch: "h100", Device: "NVIDIA H100 80GB HBM3", Launches: []cudart.Record{
	{Kernel: "rec", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, NS: 4000,
		Counters: metrics.Counters{Branch: 4, DivergentBranch: 1}},
	{Kernel: "rec", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{16, 1, 1}, StartNS: 4000, NS: 6000, Count: 3, MinNS: 1000, MaxNS: 3000,
		Counters: metrics.Counters{Branch: 2}, FromDevice: true},
}}

// TestProfFoldedDeviceRecords: a folded record counts as its number of
// launches everywhere: device calls and min/max in the summary,
// invocations in the metric table; the trace shows it once, marked.
func TestProfFoldedDeviceRecords(t *testing.T) {
	h100 := arch.MustLookup("h100")
	var b bytes.Buffer
	if err := writeProfReport(&b, "==1==", cdpFixture, h100, nil, nil, profFlags{}); err != nil {
		t.Fatal(err)
	}
	want := `==1== Profiling result:
            Type  Time(%)       Time  Calls (host)  Calls (device)        Avg        Min        Max  Name
 GPU activities:  100.00%   10.000us             1               3   2.5000us   1.0000us   4.0000us  rec
`
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}

	defs, err := metrics.ParseList("branch_efficiency")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := writeProfReport(&b, "==1==", cdpFixture, h100, defs, nil, profFlags{}); err != nil {
		t.Fatal(err)
	}
	// Four invocations: 75% once, 100% three times: avg 93.75%.
	if w := "Kernel: rec 4 branch_efficiency Branch Efficiency 75.00% 100.00% 93.75%"; !strings.Contains(squeeze(b.String()), w) {
		t.Errorf("metric table lacks %q:\n%s", w, b.String())
	}

	b.Reset()
	if err := writeProfReport(&b, "==1==", cdpFixture, h100, nil, nil, profFlags{gpuTrace: true}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"0ns 4.0000us (1 1 1) (32 1 1) 0 0B 0B rec 4.0000us",
		"4.0000us 2.0000us (1 1 1) (16 1 1) 0 0B 0B rec [device ×3]",
	} {
		if !strings.Contains(squeeze(b.String()), w) {
			t.Errorf("trace lacks %q:\n%s", w, b.String())
		}
	}
}

// TestProfNested profiles the nested lesson (dynamic parallelism), built
// as its nvcc command builds it: the summary splits calls into host and
// device columns with the counts nested.cu's code implies —
// nestedHelloWorld<<<1, 8>>> recurses 4 → 2 → 1 (3 device calls);
// gpuRecursiveReduceNosync, run twice on 2048 blocks, launches from each
// block a chain of 256, 128, …, 2 threads (2 · 2048 · 8 device calls);
// gpuRecursiveReduce2, run twice, a chain of 8 grids (iStride 128 … 1)
// from block 0; depthProbe a chain of 30; fanOut 1000 + 2048 + 3000 +
// 5000 fanOutChild grids (all of which ran on the H100:
// groundtruth/h100_seed_runs.txt).
func TestProfNested(t *testing.T) {
	needClang(t)
	checkProfNested(t, "functional", false)
}

// TestLongProfNestedMetrics is TestProfNested with a second profile of the
// program for the metric table's invocation counts, host and device (some
// 44,000 grids again). The plain run checks the same counting on a folded
// device record (TestProfFoldedDeviceRecords) and end to end with `warpsim
// run --metrics blocks_launched` on device launches (TestRunDeviceLaunches).
func TestLongProfNestedMetrics(t *testing.T) {
	needClang(t)
	testenv.Long(t)
	checkProfNested(t, "functional", true)
}

// TestLongProfNestedTiming is TestProfNested under the timing driver, the
// programs' default: some 44,000 grids on the simulated clock, minutes of CPU.
func TestLongProfNestedTiming(t *testing.T) {
	needClang(t)
	testenv.Long(t)
	checkProfNested(t, "timing", false)
}

// checkProfNested profiles the nested lesson under the given driver: the
// counts do not depend on it. withMetrics also checks the metric table's
// invocation counts (a second run).
func checkProfNested(t *testing.T, mode string, withMetrics bool) {
	prog := buildCU(t, filepath.Join(lessonsDir, "nested.cu"), "-rdc=true", "-lcudadevrt")
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	want := map[string][2]int{
		"nestedHelloWorld(int, int)":                         {1, 3},
		"reduceNeighbored(int*, int*, unsigned int)":         {2, 0},
		"gpuRecursiveReduceNosync(int*, int*, unsigned int)": {2, 2 * 2048 * 8},
		"gpuRecursiveReduce2(int*, int*, int, int)":          {2, 2 * 8},
		"depthProbe(int, int, int*)":                         {1, 30},
		"fanOut(int, int*)":                                  {4, 0},
		"fanOutChild(int*)":                                  {0, 1000 + 2048 + 3000 + 5000},
	}
	stdout, out := profNestedOnce(t, mode, prog)
	if !strings.Contains(out, "Calls (host)  Calls (device)") {
		t.Errorf("no host/device call columns:\n%s", out)
	}
	row := regexp.MustCompile(`(?m)^\s*(?:GPU activities:)?\s+[0-9.]+%\s+\S+\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s+\S+\s+(.+)$`)
	got := map[string][2]int{}
	for _, m := range row.FindAllStringSubmatch(out, -1) {
		var h, d int
		fmt.Sscan(m[1], &h)
		fmt.Sscan(m[2], &d)
		got[m[3]] = [2]int{h, d}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %d host, %d device calls; want %d, %d", k, got[k][0], got[k][1], w[0], w[1])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d kernels in the summary, want %d:\n%s", len(got), len(want), out)
	}
	if !strings.Contains(stdout, "fanOut 5000 children from one thread: sync=no error children ran 5000") {
		t.Errorf("program output:\n%s", stdout)
	}

	if !withMetrics {
		return
	}
	// The metric table counts every invocation, host and device.
	var stdout2, stderr bytes.Buffer
	if code := run([]string{"prof", "--mode", mode, "--metrics", "blocks_launched", prog}, &stdout2, &stderr); code != 0 {
		t.Fatalf("--metrics: exit %d\n%s", code, stderr.String())
	}
	for k, w := range want {
		line := fmt.Sprintf("Kernel: %s %d blocks_launched", k, w[0]+w[1])
		if !strings.Contains(squeeze(stderr.String()), line) {
			t.Errorf("metric table lacks %q:\n%s", line, stderr.String())
		}
	}
}

// profNestedRun is one `warpsim prof --mode M` run of the nested lesson:
// its stdout and stderr.
type profNestedRun struct{ stdout, stderr string }

// profNested keeps each driver's profile of the nested lesson for the
// package run: TestProfNested and TestLongProfNestedMetrics check the same
// functional profile's summary (some 44,000 grids), which CI's
// WARPSIM_LONG=1 step made twice. The tests that use it are serial
// (t.Setenv), so a map suffices.
var profNested = map[string]profNestedRun{}

// profNestedOnce profiles prog (the nested lesson) under mode once per
// package run and returns the program's stdout and warpsim's stderr; a run
// that fails is not kept.
func profNestedOnce(t *testing.T, mode, prog string) (stdout, stderr string) {
	t.Helper()
	key := mode + " " + prog
	if r, ok := profNested[key]; ok {
		return r.stdout, r.stderr
	}
	var o, e bytes.Buffer
	if code := run([]string{"prof", "--mode", mode, prog}, &o, &e); code != 0 {
		t.Fatalf("exit %d\n%s", code, e.String())
	}
	profNested[key] = profNestedRun{o.String(), e.String()}
	return o.String(), e.String()
}
