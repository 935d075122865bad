package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// runDir holds the launch files of the run tests; kernels.ptx comes from
// kernels.cu (gen.sh).
var runDir = filepath.Join("testdata", "run")

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func checkRunGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(runDir, name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func TestRun(t *testing.T) {
	lf := func(name string) string { return filepath.Join(runDir, name) }
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		golden     string // stdout golden file; "" to check stdout is empty
		wantStderr string // substring of stderr; "" to check stderr is empty
	}{
		{"metrics table", []string{"run", "--metrics", "inst_executed,thread_inst_executed,warp_execution_efficiency,branch,divergent_branch,branch_efficiency,gld_requests,gld_transactions,gld_efficiency,gst_transactions,gst_efficiency,warps_launched,blocks_launched,theoretical_occupancy,achieved_occupancy", lf("vecadd.json")}, 0, "vecadd.table.golden", ""},
		{"metrics csv", []string{"run", "--metrics", "branch_efficiency,smsp__inst_executed.sum", "--csv", lf("vecadd.json")}, 0, "vecadd.csv.golden", ""},
		{"json", []string{"run", "--json", "--metrics", "branch_efficiency,inst_executed,gld_efficiency,elapsed_cycles", lf("vecadd.json")}, 0, "vecadd.json.golden", ""},
		{"no metrics prints nothing", []string{"run", lf("vecadd.json")}, 0, "", ""},
		{"globals", []string{"run", "--metrics", "inst_executed", lf("poly.json")}, 0, "poly.table.golden", ""},
		{"out of bounds", []string{"run", lf("oob.json")}, 1, "", "kernel fault: out-of-bounds access in kernel oob"},
		{"watchdog", []string{"run", "--max-steps", "5000", lf("spin.json")}, 1, "", "step limit"},
		{"too many args", []string{"run", lf("toomanyargs.json")}, 2, "", "toomanyargs.json:5: launches[0].args[4]: kernel vecAdd takes 4 parameters, got 5"},
		{"wrong arg size", []string{"run", lf("wrongsize.json")}, 2, "", "wrongsize.json:5: launches[0].args[3]: parameter 3 of vecAdd (vecAdd_param_3) is 4 bytes, got s64 of 8 bytes"},
		{"unknown kernel", []string{"run", lf("nokernel.json")}, 2, "", `nokernel.json:3: launches[0].kernel: no kernel "vecSub"`},
		{"unknown key", []string{"run", lf("badkey.json")}, 2, "", "badkey.json:4: launches[0].blocks: unknown key"},
		{"bad ptx", []string{"run", lf("badptx.json")}, 2, "", "badptx.ptx:5:1: "},
		{"missing launch file", []string{"run", lf("nope.json")}, 2, "", "nope.json: open "},
		{"unknown metric", []string{"run", "--metrics", "branch_eff", lf("vecadd.json")}, 2, "", `--metrics: unknown metric "branch_eff"`},
		{"bad mode", []string{"run", "--mode", "fast", lf("vecadd.json")}, 2, "", `--mode: mode "fast": want functional or timing`},
		{"unknown arch", []string{"run", "--arch", "h900", lf("vecadd.json")}, 2, "", "--arch: "},
		{"buffer the host cannot back", []string{"run", lf("hugebuf.json")}, 2, "", "buffers.a: allocating 64000000000 bytes: allocation of 64000000000 bytes:"},
		{"no launch file", []string{"run"}, 2, "", "accepts 1 arg(s), received 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.wantCode, stderr)
			}
			if tt.golden != "" {
				checkRunGolden(t, tt.golden, stdout)
			} else if stdout != "" {
				t.Errorf("unexpected stdout:\n%s", stdout)
			}
			if tt.wantStderr == "" && stderr != "" {
				t.Errorf("unexpected stderr:\n%s", stderr)
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.wantStderr)
			}
		})
	}
}

func readF32s(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := make([]float32, len(b)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return f
}

// TestRunSaveDir checks the buffers' final bytes: vecAdd then scale by 2
// gives c[i] = 2·(a[i] + b[i]); a and b are unchanged.
func TestRunSaveDir(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI("run", "--save-dir", dir, filepath.Join(runDir, "vecadd.json")); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	want := map[string][]float32{
		"a": {1, 2, 3, 4, 5, 6, 7, 8},
		"b": {10, 20, 30, 40, 50, 60, 70, 80},
		"c": {22, 44, 66, 88, 110, 132, 154, 176},
	}
	for name, w := range want {
		got := readF32s(t, filepath.Join(dir, name+".bin"))
		if len(got) != len(w) {
			t.Fatalf("%s: %d floats, want %d", name, len(got), len(w))
		}
		for i := range w {
			if got[i] != w[i] {
				t.Errorf("%s[%d] = %v, want %v", name, i, got[i], w[i])
			}
		}
	}
}

// TestRunGlobals checks that globals reach the kernel: poly computes
// coeff[0] + coeff[1]·x with coeff = {1, 2} and stores n through the
// pointer variable target, which the launch file points at buffer count.
func TestRunGlobals(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI("run", "--save-dir", dir, filepath.Join(runDir, "poly.json")); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	x := readF32s(t, filepath.Join(dir, "x.bin"))
	for i, w := range []float32{1, 3, 5, 7} {
		if x[i] != w {
			t.Errorf("x[%d] = %v, want %v", i, x[i], w)
		}
	}
	count, err := os.ReadFile(filepath.Join(dir, "count.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if n := binary.LittleEndian.Uint32(count); n != 4 {
		t.Errorf("count = %d, want 4", n)
	}
}

// TestRunPrintf checks device printf through warpsim run: one warp of four
// threads, each printing its index and base + tid/2 (lines of one warp in
// lane order).
func TestRunPrintf(t *testing.T) {
	code, stdout, stderr := runCLI("run", filepath.Join(runDir, "hello.json"))
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	want := "hello from thread 0 of block 0: 10.00 ok\n" +
		"hello from thread 1 of block 0: 10.50 ok\n" +
		"hello from thread 2 of block 0: 11.00 ok\n" +
		"hello from thread 3 of block 0: 11.50 ok\n"
	if stdout != want {
		t.Errorf("got\n%s\nwant\n%s", stdout, want)
	}
}

// TestRunJSONOut checks that --json-out writes the document --json prints.
func TestRunJSONOut(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out.json")
	lf := filepath.Join(runDir, "vecadd.json")
	code, stdout, stderr := runCLI("run", "--json-out", file, lf)
	if code != 0 || stdout != "" {
		t.Fatalf("exit status %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	_, want, _ := runCLI("run", "--json", lf)
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("--json-out wrote\n%s\n--json printed\n%s", got, want)
	}
	var doc struct {
		Arch     string
		Launches []struct {
			Kernel      string
			Grid, Block []int
			Metrics     map[string]any
		}
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Arch != "h100" || len(doc.Launches) != 2 || doc.Launches[0].Kernel != "vecAdd" ||
		doc.Launches[1].Kernel != "scale(float*, float, int)" || doc.Launches[1].Grid[0] != 2 || doc.Launches[1].Block[0] != 4 {
		t.Errorf("document %+v", doc)
	}
	// Without --metrics the document has every metric; the timing ones null.
	m := doc.Launches[0].Metrics
	if v, ok := m["duration_ns"]; !ok || v != nil {
		t.Errorf("duration_ns = %v (present %v), want null", v, ok)
	}
	if v := m["warps_launched"]; v != 1.0 {
		t.Errorf("warps_launched = %v, want 1", v)
	}
	if v := m["blocks_launched"]; v != 1.0 {
		t.Errorf("blocks_launched = %v, want 1", v)
	}
}

// TestRunExamples runs the lesson launch files under examples/lessons and
// checks their results by hand-derived facts: each divergence kernel fills
// 64 floats with 100 or 200 as the H100 did (h100_seed_runs.txt,
// `divergence 64 64`: the last kernel, mathKernel4, gives 200 everywhere);
// each reduction's partial sums add up to Σ(i & 0xff) over 4096 ints =
// 16 × (0 + … + 255) = 522240.
func TestRunExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "lessons")
	for _, name := range []string{"divergence", "reduce"} {
		t.Run(name, func(t *testing.T) {
			save := t.TempDir()
			code, stdout, stderr := runCLI("run", "--save-dir", save,
				"--metrics", "branch_efficiency,divergent_branch,warp_execution_efficiency,inst_per_warp,gld_efficiency,gld_transactions",
				filepath.Join(dir, name+".json"))
			if code != 0 {
				t.Fatalf("exit status %d: %s", code, stderr)
			}
			checkRunGolden(t, "example_"+name+".golden", stdout)
			switch name {
			case "divergence":
				for i, v := range readF32s(t, filepath.Join(save, "c.bin")) {
					if v != 200 {
						t.Errorf("c[%d] = %v after mathKernel4, want 200", i, v)
					}
				}
			case "reduce":
				for _, out := range []string{"out1", "out2", "out3"} {
					b, err := os.ReadFile(filepath.Join(save, out+".bin"))
					if err != nil {
						t.Fatal(err)
					}
					sum := int32(0)
					for i := 0; i < len(b); i += 4 {
						sum += int32(binary.LittleEndian.Uint32(b[i:]))
					}
					if sum != 522240 {
						t.Errorf("%s sums to %d, want 522240", out, sum)
					}
				}
			}
		})
	}
}

// TestRunSource runs a launch file that names a .cu source, compiled with
// clang-22 through warpsim compile: scale by -1.5 of {0, 1, 2, 3}.
func TestRunSource(t *testing.T) {
	testenv.NeedClang(t)
	dir := t.TempDir()
	code, _, stderr := runCLI("run", "--save-dir", dir, filepath.Join(runDir, "source.json"))
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	for i, w := range []float32{0, -1.5, -3, -4.5} {
		if got := readF32s(t, filepath.Join(dir, "x.bin"))[i]; got != w {
			t.Errorf("x[%d] = %v, want %v", i, got, w)
		}
	}
}
