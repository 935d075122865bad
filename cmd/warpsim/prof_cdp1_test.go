package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

var cdpDir = filepath.Join("..", "..", "testdata", "cdp")

// profRun runs `warpsim prof --mode M --arch A prog` in-process.
func profRun(t *testing.T, mode, archName, prog string) (stdout, stderr string) {
	t.Helper()
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	var o, e bytes.Buffer
	if code := run([]string{"prof", "--mode", mode, "--arch", archName, prog}, &o, &e); code != 0 {
		t.Fatalf("prof --mode %s --arch %s: exit %d\n%s", mode, archName, code, e.String())
	}
	return o.String(), e.String()
}

// TestProfNestedCDP1 is the lesson's proof: its four reductions, built with
// `warpsim cc -arch=sm_35 -rdc=true`, under `warpsim prof --arch k40` print
// the right sums and nvprof's device call counts on the lesson's K40
// (16384, 16384, 8); under --arch h100 every launch fails with
// cudaErrorUnsupportedDevSideSync, as the H100 did with nvcc's sm_80 build
// (testdata/cdp/h100/run_nested4_sm80.txt). Neither the sums nor the counts
// depend on the timing model: the functional driver runs it here,
// TestLongProfNestedCDP1Timing under the timing driver (prof's default).
func TestProfNestedCDP1(t *testing.T) {
	needClang(t)
	if testing.Short() {
		t.Skip("several seconds of simulation; without -short it runs")
	}
	checkProfNestedCDP1(t, "functional")
}

// TestLongProfNestedCDP1Timing is TestProfNestedCDP1 under the timing
// driver, prof's default.
func TestLongProfNestedCDP1Timing(t *testing.T) {
	needClang(t)
	testenv.Long(t)
	checkProfNestedCDP1(t, "timing")
}

func checkProfNestedCDP1(t *testing.T, mode string) {
	prog := buildCU(t, filepath.Join(lessonsDir, "nested4.cu"), "-arch=sm_35", "-rdc=true")
	stdout, stderr := profRun(t, mode, "k40", prog)
	for _, k := range []string{"gpu Neighbored  ", "gpu nested      ", "gpu nestedNosync", "gpu nested2     "} {
		if !strings.Contains(stdout, k+" gpu_sum 1048576\n") {
			t.Errorf("k40: no %q sum 1048576:\n%s", k, stdout)
		}
	}
	want := map[string][2]int{
		"reduceNeighbored(int*, int*, unsigned int)":         {1, 0},
		"gpuRecursiveReduce(int*, int*, unsigned int)":       {1, 16384},
		"gpuRecursiveReduceNosync(int*, int*, unsigned int)": {1, 16384},
		"gpuRecursiveReduce2(int*, int*, int, int)":          {1, 8},
	}
	row := regexp.MustCompile(`(?m)^\s*(?:GPU activities:)?\s+[0-9.]+%\s+\S+\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s+\S+\s+(.+)$`)
	got := map[string][2]int{}
	for _, m := range row.FindAllStringSubmatch(stderr, -1) {
		var h, d int
		fmt.Sscan(m[1], &h)
		fmt.Sscan(m[2], &d)
		got[m[3]] = [2]int{h, d}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("k40: %s: %d host, %d device calls; want %d, %d\n%s", k, got[k][0], got[k][1], w[0], w[1], stderr)
		}
	}

	rec, err := os.ReadFile(filepath.Join(cdpDir, "h100", "run_nested4_sm80.txt"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr = profRun(t, mode, "h100", prog)
	for _, l := range strings.Split(strings.TrimSpace(string(rec)), "\n") {
		if strings.HasPrefix(l, "rc=") {
			continue
		}
		if !strings.Contains(stdout, l+"\n") {
			t.Errorf("h100: the H100 printed %q; warpsim:\n%s", l, stdout)
		}
	}
	if !strings.Contains(stderr, "cudaDeviceSynchronize") || !strings.Contains(stderr, "--arch k40") {
		t.Errorf("h100: the refusal does not say why and what to do:\n%s", stderr)
	}
}

// TestCCProbes builds testdata/cdp/cdp_probe.cu with `warpsim cc
// -rdc=true`: for sm_90 (CDP2) under --arch h100 it must print what the
// H100 printed for nvcc's build (testdata/cdp/h100/run_probe_cdp2_sm90.txt);
// with -DCDP1 for sm_35 under --arch k40, the lines the CUDA 11
// programming guide's rules give (see TestCDP1NvccProbes in the root
// package, which runs nvcc's CDP1 PTX against the same rules). What the
// probes print does not depend on the timing model: they run under the
// functional driver.
func TestCCProbes(t *testing.T) {
	needClang(t)
	rec, err := os.ReadFile(filepath.Join(cdpDir, "h100", "run_probe_cdp2_sm90.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSuffix(string(rec), "rc=0\n")
	prog := buildCU(t, filepath.Join(cdpDir, "cdp_probe.cu"), "-arch=sm_90", "-rdc=true")
	if got, _ := profRun(t, "functional", "h100", prog); got != want {
		t.Errorf("CDP2 on h100:\n%s\nthe H100 printed:\n%s", got, want)
	}
	prog = buildCU(t, filepath.Join(cdpDir, "cdp_probe.cu"), "-arch=sm_35", "-rdc=true", "-DCDP1")
	cdp1 := `build: CDP1
quicksort 2048: sync=cudaSuccess sorted=1 sum_kept=1 device_sync_errors=0
depthProbe to 20: sync=cudaSuccess reached 20 first failing launch at depth -1 code 0
depthProbe to 30: sync=cudaSuccess reached 23 first failing launch at depth 23 code 65
syncProbe sync depth limit 2: sync=cudaSuccess codes by depth 0 0 68 68 68 68
syncProbe sync depth limit 4: sync=cudaSuccess codes by depth 0 0 0 0 68 68
flood 2048: sync=cudaSuccess ran 2048 failed 0 first code 0
flood 2049: sync=cudaSuccess ran 2048 failed 1 first code 69
flood 5000: sync=cudaSuccess ran 2048 failed 2952 first code 69
streamsEvents: sync=cudaSuccess y=42 codes 0 0 0 0 0 0 0 0 0 9 9 9 0
`
	if got, _ := profRun(t, "functional", "k40", prog); got != cdp1 {
		t.Errorf("CDP1 on k40:\n%s\nwant:\n%s", got, cdp1)
	}
}
