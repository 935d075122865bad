package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// TestSamplingNote: prof's note names each kernel whose time was sampled,
// how (grids timed for their first waves, short grids placed at their
// window's block times, launches that took a repeated launch's time or a
// similar launch's), out of how many, and the largest error estimate; nothing
// when every launch was timed in full.
func TestSamplingNote(t *testing.T) {
	full := &metrics.Timing{Cycles: 100}
	waves := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "waves", ErrorPct: 0.42}
	repeat := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "repeat", ErrorPct: 1.5}
	similar := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "similar", ErrorPct: 0.8}
	short := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "short", ErrorPct: 2.3}
	rec := func(k string, tm *metrics.Timing) cudart.Record { return cudart.Record{Kernel: k, Timing: tm} }
	cases := []struct {
		name     string
		launches []cudart.Record
		want     []string // substrings; none: no note
	}{
		{"all in full", []cudart.Record{rec("a", full), rec("a", full), rec("b", nil)}, nil},
		{"repeats", []cudart.Record{rec("mm", full), rec("mm", full), rec("mm", repeat), rec("mm", repeat)},
			[]string{"mm (4 grids): 2 took the time of an identical launch timed in detail (estimated error up to 1.5%)", "--no-sampling"}},
		{"waves and repeats", []cudart.Record{rec("h", waves), rec("h", waves), rec("h", repeat), rec("m", full)},
			[]string{"h (3 grids): 2 timed for the first waves and extrapolated, 1 took the time of an identical launch timed in detail (estimated error up to 1.5%)"}},
		{"similar launches", []cudart.Record{rec("sort", full), rec("sort", full), rec("sort", similar), rec("sort", repeat)},
			[]string{"sort (4 grids): 1 took the time of an identical launch timed in detail, 1 took the time, scaled by instructions, of a launch with other parameters timed in detail (estimated error up to 1.5%)"}},
		{"short grids", []cudart.Record{rec("bitonic", short), rec("bitonic", short), rec("bitonic", full)},
			[]string{"bitonic (3 grids): 2 timed for their first one or two waves, the other blocks at the window's block times (estimated error up to 2.3%)"}},
		{"one wave grid", []cudart.Record{rec("w", waves)},
			[]string{"w (1 grid): 1 timed for the first waves and extrapolated (estimated error up to 0.4%)"}},
	}
	for _, c := range cases {
		got := samplingNote(&cudart.Profile{Launches: c.launches})
		if c.want == nil {
			if got != "" {
				t.Errorf("%s: note %q, want none", c.name, got)
			}
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: note %q lacks %q", c.name, got, w)
			}
		}
		if strings.Contains(got, "m (") && c.name == "waves and repeats" {
			t.Errorf("%s: note %q names a kernel timed in full", c.name, got)
		}
	}
}

// repeatedProgram launches one kernel five times with the same arguments
// on the same data (a benchmark loop).
const repeatedProgram = `#include <cstdio>
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.0f;
}
int main() {
  int n = 1 << 14;
  float *d;
  cudaMalloc(&d, n * 4);
  cudaMemset(d, 0, n * 4);
  for (int r = 0; r < 5; r++) scale<<<n / 256, 256>>>(d, n);
  float h = 0;
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("x[0] %.4f\n", h);
  return 0;
}
`

// TestProfSamplingRepeats: under warpsim prof a program that repeats a
// launch has its later launches take the time of the launches before them
// (the same durations as --no-sampling times in full), and the note after
// the report says so; --no-sampling leaves no note. The program's result
// is the same either way. The first launch walks its buffer's translation
// (internal/timing's TLBPrograms), so it differs from the second; the
// second and third agree, and the fourth and fifth take their time.
func TestProfSamplingRepeats(t *testing.T) {
	needClang(t)
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	dir := t.TempDir()
	src := filepath.Join(dir, "repeated.cu")
	if err := os.WriteFile(src, []byte(repeatedProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src)
	trace := func(extra ...string) (durs []string, stdout, stderr string) {
		var o, e bytes.Buffer
		args := append(append([]string{"prof"}, extra...), "--print-gpu-trace", "--csv", prog)
		if code := run(args, &o, &e); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, e.String())
		}
		for _, l := range strings.Split(e.String(), "\n") {
			if strings.HasSuffix(l, `"scale(float*, int)"`) {
				durs = append(durs, strings.Split(l, ",")[1])
			}
		}
		if len(durs) != 5 {
			t.Fatalf("%v: %d launches in the GPU trace, want 5:\n%s", args, len(durs), e.String())
		}
		return durs, o.String(), e.String()
	}
	sd, sout, serr := trace()
	fd, fout, ferr := trace("--no-sampling")
	if fmt.Sprint(sd) != fmt.Sprint(fd) {
		t.Errorf("durations sampled %v, timed in full %v", sd, fd)
	}
	if sout != fout || !strings.Contains(sout, "x[0] 1.9375") {
		t.Errorf("program output sampled %q, timed in full %q, want x[0] 1.9375", sout, fout)
	}
	if w := "Note: sampled times: scale(float*, int) (5 grids): 2 took the time of an identical launch timed in detail (estimated error up to 0.0%)"; !strings.Contains(serr, w) {
		t.Errorf("no note %q:\n%s", w, serr)
	}
	if strings.Contains(ferr, "sampled times") {
		t.Errorf("--no-sampling left a sampling note:\n%s", ferr)
	}
}

// TestSamplingJSON: prof --json-out's (and run --json's) launch entries say
// how a sampled launch was timed, how many blocks in detail and its
// estimated error; a launch timed in full has none of the three.
func TestSamplingJSON(t *testing.T) {
	short := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "short", SampledBlocks: 4224, ErrorPct: 3.4987}
	p := &cudart.Profile{Launches: []cudart.Record{
		{Kernel: "reduce", Grid: [3]uint32{8192, 1, 1}, Block: [3]uint32{128, 1, 1}, Timing: short},
		{Kernel: "reduce", Grid: [3]uint32{8192, 1, 1}, Block: [3]uint32{128, 1, 1}, Timing: &metrics.Timing{Cycles: 100}},
	}}
	path := filepath.Join(t.TempDir(), "prof.json")
	if err := writeProfJSON(path, p, arch.MustLookup("h100"), nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Launches []map[string]any `json:"launches"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Launches) != 2 {
		t.Fatalf("%d launches, want 2", len(doc.Launches))
	}
	s, f := doc.Launches[0], doc.Launches[1]
	if s["sampling"] != "short" || s["sampled_blocks"] != 4224.0 || s["error_pct"] != 3.5 {
		t.Errorf("sampled launch: sampling %v, sampled_blocks %v, error_pct %v; want short, 4224, 3.5", s["sampling"], s["sampled_blocks"], s["error_pct"])
	}
	for _, k := range []string{"sampling", "sampled_blocks", "error_pct"} {
		if _, ok := f[k]; ok {
			t.Errorf("launch timed in full has %q: %v", k, f[k])
		}
	}
}
