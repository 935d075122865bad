package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// TestProfEventTable: nvprof's event table, per kernel the event's
// minimum, maximum, average (integer) and total over the invocations; a
// folded record of N device launches counts N times.
func TestProfEventTable(t *testing.T) {
	p := &cudart.Profile{Arch: "h100", Device: "NVIDIA H100 80GB HBM3", Launches: []cudart.Record{
		{Kernel: "k1", Counters: metrics.Counters{Branch: 10, DivergentBranch: 1, WarpsLaunched: 8}},
		{Kernel: "k2", Counters: metrics.Counters{Branch: 3, WarpsLaunched: 1}, FromDevice: true, Count: 3},
		{Kernel: "k1", Counters: metrics.Counters{Branch: 20, DivergentBranch: 4, WarpsLaunched: 8}},
	}}
	evs, err := parseEvents("branch,divergent_branch,warps_launched")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeProfReport(&b, "==1==", p, nil, nil, evs, profFlags{}); err != nil {
		t.Fatal(err)
	}
	want := `==1== Event result:
Invocations                                Event Name         Min         Max         Avg       Total
Device "NVIDIA H100 80GB HBM3 (0)"
    Kernel: k1
          2                                    branch          10          20          15          30
          2                          divergent_branch           1           4           2           5
          2                            warps_launched           8           8           8          16
    Kernel: k2
          3                                    branch           3           3           3           9
          3                          divergent_branch           0           0           0           0
          3                            warps_launched           1           1           1           3
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := writeProfReport(&b, "==1==", p, nil, nil, evs[:1], profFlags{csv: true}); err != nil {
		t.Fatal(err)
	}
	wantCSV := `"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"
"NVIDIA H100 80GB HBM3 (0)","k1",2,"branch",10,20,15,30
"NVIDIA H100 80GB HBM3 (0)","k2",3,"branch",3,3,3,9
`
	if b.String() != wantCSV {
		t.Errorf("CSV got:\n%s\nwant:\n%s", b.String(), wantCSV)
	}
	if evs, err := parseEvents("all"); err != nil || len(evs) != len(profEvents) {
		t.Errorf("all: %d events, %v", len(evs), err)
	}
}

// timedProgram launches scale twice, 64 blocks of 256 threads, with CUDA
// events around the first launch; it prints the events' elapsed time in ns.
const timedProgram = `#include <cstdio>
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.5f) x[i] *= 2.0f;
}
int main() {
  int n = 1 << 14;
  float *d;
  cudaMalloc(&d, n * 4);
  cudaMemset(d, 0, n * 4);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  scale<<<n / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("elapsed %.0f ns\n", ms * 1e6);
  scale<<<n / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  return 0;
}
`

// gpuTraceCSV runs prof --print-gpu-trace --csv and returns the launches'
// start and duration in ns, and the program's output.
func gpuTraceCSV(t *testing.T, prog string, extra ...string) (starts, durs []int64, stdout string) {
	t.Helper()
	var o, e bytes.Buffer
	args := append(append([]string{"prof"}, extra...), "--print-gpu-trace", "--csv", prog)
	if code := run(args, &o, &e); code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, e.String())
	}
	var rows []string
	for _, l := range strings.Split(e.String(), "\n") {
		if strings.HasSuffix(l, `"scale(float*, int)"`) {
			rows = append(rows, l)
		}
	}
	for _, r := range rows {
		f, err := csv.NewReader(strings.NewReader(r)).Read()
		if err != nil {
			t.Fatal(err)
		}
		s, _ := strconv.ParseInt(f[0], 10, 64)
		d, _ := strconv.ParseInt(f[1], 10, 64)
		starts, durs = append(starts, s), append(durs, d)
	}
	if len(rows) != 2 {
		t.Fatalf("%d launches in the GPU trace, want 2:\n%s", len(rows), e.String())
	}
	return starts, durs, o.String()
}

// TestProfTiming: programs under warpsim prof run on the timing model by
// default. The GPU trace's times are simulated (the same on every run, as
// host times never are), the second launch starts after the first ends on
// the stream's timeline, the program's CUDA events measure the first
// launch's simulated duration, the timing metrics have values (and
// duration_ns is the trace's duration), the event table counts the warps
// and blocks the launch configuration implies (64 blocks of 8 warps), and
// --trace writes the two kernels and their blocks as a Chrome trace.
// --mode functional has no timing metrics.
func TestProfTiming(t *testing.T) {
	needClang(t)
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	dir := t.TempDir()
	src := filepath.Join(dir, "timed.cu")
	if err := os.WriteFile(src, []byte(timedProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src)

	starts, durs, out := gpuTraceCSV(t, prog)
	starts2, durs2, _ := gpuTraceCSV(t, prog)
	if fmt.Sprint(starts, durs) != fmt.Sprint(starts2, durs2) {
		t.Errorf("times differ between runs: %v %v, then %v %v (host time, not simulated?)", starts, durs, starts2, durs2)
	}
	if durs[0] <= 0 || durs[1] <= 0 || starts[1] < starts[0]+durs[0] {
		t.Errorf("launches at %v for %v ns: the second should start after the first ends", starts, durs)
	}
	var elapsed int64
	if _, err := fmt.Sscanf(out, "elapsed %d ns", &elapsed); err != nil {
		t.Fatalf("program output %q: %v", out, err)
	}
	if d := elapsed - durs[0]; d < -1 || d > 1 {
		t.Errorf("cudaEventElapsedTime around the launch: %d ns; the launch took %d ns", elapsed, durs[0])
	}

	var o, e bytes.Buffer
	if code := run([]string{"prof", "--metrics", "duration_ns,achieved_occupancy,ipc", prog}, &o, &e); code != 0 {
		t.Fatalf("--metrics: exit %d\n%s", code, e.String())
	}
	table := squeeze(e.String())
	if strings.Contains(table, "n/a") {
		t.Errorf("timing metrics without values:\n%s", e.String())
	}
	m := regexp.MustCompile(`2 duration_ns \S+(?: \S+)* (\d+) (\d+) (\d+) 2 achieved_occupancy`).FindStringSubmatch(table)
	if m == nil {
		t.Fatalf("no duration_ns row:\n%s", e.String())
	}
	lo, _ := strconv.ParseInt(m[1], 10, 64)
	hi, _ := strconv.ParseInt(m[2], 10, 64)
	if lo != min(durs[0], durs[1]) || hi != max(durs[0], durs[1]) {
		t.Errorf("duration_ns min %d max %d; the trace's durations are %v", lo, hi, durs)
	}

	o.Reset()
	e.Reset()
	if code := run([]string{"prof", "--events", "warps_launched,sm_cta_launched,inst_executed", prog}, &o, &e); code != 0 {
		t.Fatalf("--events: exit %d\n%s", code, e.String())
	}
	for _, w := range []string{"2 warps_launched 512 512 512 1024", "2 sm_cta_launched 64 64 64 128"} {
		if !strings.Contains(squeeze(e.String()), w) {
			t.Errorf("event table lacks %q:\n%s", w, e.String())
		}
	}

	tracePath := filepath.Join(dir, "trace.json")
	o.Reset()
	e.Reset()
	if code := run([]string{"prof", "--trace", tracePath, prog}, &o, &e); code != 0 {
		t.Fatalf("--trace: exit %d\n%s", code, e.String())
	}
	raw, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Name, Ph string
			Ts, Dur  float64
			Tid      int
		}
	}
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	var kernels []float64
	blocks := 0
	for _, ev := range tr.TraceEvents {
		switch {
		case ev.Ph == "X" && ev.Tid == 0 && ev.Name == "scale(float*, int)":
			kernels = append(kernels, ev.Ts)
		case ev.Ph == "X" && ev.Tid >= 100:
			blocks++
		}
	}
	if len(kernels) != 2 || blocks != 128 {
		t.Fatalf("trace has %d kernels and %d blocks, want 2 and 128", len(kernels), blocks)
	}
	for i, ts := range kernels {
		if d := ts*1000 - float64(starts[i]); d < -1 || d > 1 {
			t.Errorf("kernel %d at %.3f µs in the trace, %d ns in the GPU trace", i, ts, starts[i])
		}
	}

	o.Reset()
	e.Reset()
	if code := run([]string{"prof", "--mode", "functional", "--metrics", "duration_ns", prog}, &o, &e); code != 0 {
		t.Fatalf("--mode functional: exit %d\n%s", code, e.String())
	}
	if !strings.Contains(e.String(), "n/a: duration_ns") {
		t.Errorf("functional mode should have no duration_ns:\n%s", e.String())
	}
}
