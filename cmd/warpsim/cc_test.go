package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/testenv"
)

// TestMain lets the test binary stand in for the warpsim executable: the
// programs `warpsim cc` builds in these tests start it (it is
// os.Executable()) as `__runtime`, with WARPSIM_TEST_AS_CLI set.
func TestMain(m *testing.M) {
	testenv.TuneGC() // the simulator's processes too (this binary stands in for warpsim)
	if os.Getenv("WARPSIM_TEST_AS_CLI") == "1" {
		if os.Getenv("WARPSIM_TEST_ANNOUNCE_RUNNING") == "1" {
			// The interrupt tests signal a launch once this line shows.
			launchRunningHook = func(kernel string) { fmt.Fprintf(os.Stdout, "%s%s\n", runningLine, kernel) }
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// Programs from the cache (testenv.CachedBuild) start this run's binary.
	if exe, err := os.Executable(); err == nil {
		os.Setenv("WARPSIM_BIN", exe)
	}
	flag.Parse() // for testenv.WillRun
	prebuildSuites()
	code := m.Run()
	testenv.CleanPrograms()
	os.Exit(code)
}

// runningLine starts the line that the test binary, standing in for
// warpsim with WARPSIM_TEST_ANNOUNCE_RUNNING=1, prints on its stdout when a
// launch's warps are running; the kernel's name follows.
const runningLine = "warpsim test: warps running in kernel "

func needClang(t *testing.T) {
	t.Helper()
	testenv.NeedClang(t)
}

// Programs are built once: every test that asks for the same source with
// the same flags gets the same executable, built by the first to ask (the
// others wait for it), and kept between package runs (testenv.CachedBuild).
var (
	builtMu sync.Mutex
	built   = map[string]*builtProgram{}
)

type builtProgram struct {
	once    sync.Once
	path    string
	failure string
}

// buildCU compiles src with `warpsim cc`, once for each source and flags.
// A whole program is kept as its objects and their link
// (testenv.CachedProgram: a change to the C runtime relinks it); what
// -ptx and the like make is `warpsim cc`'s output, run in-process. Tests
// must not change the executable or its directory.
func buildCU(t *testing.T, src string, flags ...string) string {
	t.Helper()
	path, err := buildCUOnce(src, flags...)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// buildCUOnce is buildCU for a caller that is not the test's goroutine
// (buildSuite's builds in parallel): the build's failure is returned.
func buildCUOnce(src string, flags ...string) (string, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", err
	}
	key := abs + "\x00" + strings.Join(flags, "\x00")
	builtMu.Lock()
	b, ok := built[key]
	if !ok {
		b = &builtProgram{}
		built[key] = b
	}
	builtMu.Unlock()
	b.once.Do(func() {
		opt, err := cc.ParseArgs(append(append([]string(nil), flags...), abs))
		var path string
		switch {
		case err == nil && opt.DeviceOnly == "" && !opt.CompileOnly && !opt.DeviceLink:
			path, err = testenv.CachedProgram(abs, flags)
		default:
			cache := testenv.CachedBuild
			if err == nil && opt.DeviceOnly != "" {
				cache = testenv.CachedCompile // PTX: no runtime in it
			}
			path, err = cache(abs, flags, func(dir string) (string, error) {
				out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".cu"))
				var stdout, stderr bytes.Buffer
				args := append([]string{"cc"}, flags...)
				args = append(args, abs, "-o", out)
				if code := run(args, &stdout, &stderr); code != 0 {
					return "", fmt.Errorf("warpsim cc %s: exit %d\n%s", src, code, stderr.String())
				}
				return out, nil
			})
		}
		if err != nil {
			b.failure = err.Error()
			return
		}
		b.path = path
	})
	if b.failure != "" {
		return "", errors.New(b.failure)
	}
	return b.path, nil
}

// ccOutcome runs `warpsim cc` on src with flags and returns its exit
// status and what it printed on stderr: for the tests of what warpsim cc
// says about a source it refuses. The outcome is kept between package runs
// as a program is (testenv.CachedBuild, under a key over the same inputs
// and a marker of its own), so that a refusal clang takes seconds to reach
// is not compiled again while nothing that goes into it changed. A source
// the refusal names by path is named as it was when the outcome was made.
func ccOutcome(t *testing.T, src string, flags ...string) (code int, stderr string) {
	t.Helper()
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(abs), ".cu")
	keyFlags := append([]string{"--test-outcome"}, flags...)
	path, err := testenv.CachedBuild(abs, keyFlags, func(dir string) (string, error) {
		var o, e bytes.Buffer
		args := append([]string{"cc"}, flags...)
		args = append(args, abs, "-o", filepath.Join(dir, name+".out"))
		c := run(args, &o, &e)
		os.Remove(filepath.Join(dir, name+".out"))
		out := filepath.Join(dir, name)
		return out, os.WriteFile(out, []byte(strconv.Itoa(c)+"\n"+e.String()), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	code, err = strconv.Atoi(first)
	if err != nil {
		t.Fatalf("outcome %s: %v", path, err)
	}
	return code, rest
}

// compileCU is the PTX `warpsim compile` makes of src with flags, kept
// between package runs (testenv.CachedCompile: no runtime in it).
func compileCU(t *testing.T, src string, flags ...string) string {
	t.Helper()
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	path, err := testenv.CachedCompile(abs, append([]string{"--test-compile"}, flags...), func(dir string) (string, error) {
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(abs), ".cu"))
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"compile"}, flags...), abs, "-o", out)
		if code := run(args, &stdout, &stderr); code != 0 {
			return "", fmt.Errorf("warpsim compile %s: exit %d\n%s", src, code, stderr.String())
		}
		return out, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// cachedBuildDir calls build once for a folder and keeps the folder
// between package runs as a program is kept (testenv.CachedBuild): for
// builds of several steps (objects, a library, then links). The key is
// over src and inputs (a file by its content and what it includes, a word
// as it is), which must say everything build does. build leaves its
// outputs in the folder it is given; tests must not change them.
func cachedBuildDir(t *testing.T, src string, inputs []string, build func(dir string) error) string {
	t.Helper()
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(abs), ".cu")
	path, err := testenv.CachedBuild(abs, append([]string{"--test-steps"}, inputs...), func(dir string) (string, error) {
		if err := build(dir); err != nil {
			return "", err
		}
		marker := filepath.Join(dir, name) // what CachedBuild looks for
		if _, err := os.Stat(marker); err != nil {
			return marker, os.WriteFile(marker, []byte("built by cachedBuildDir\n"), 0o644)
		}
		return marker, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(path)
}

// ccSteps runs `warpsim cc` with each step's arguments, "@" in an argument
// standing for dir.
func ccSteps(dir string, steps ...[]string) error {
	for _, s := range steps {
		args := []string{"cc"}
		for _, a := range s {
			args = append(args, strings.ReplaceAll(a, "@", dir))
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			return fmt.Errorf("warpsim %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
	}
	return nil
}

// buildCUIn compiles src into dir, uncached: for sources a test writes.
func buildCUIn(t *testing.T, dir, src string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".cu"))
	var stdout, stderr bytes.Buffer
	args := append([]string{"cc"}, flags...)
	args = append(args, src, "-o", out)
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("warpsim cc %s: exit %d\n%s", src, code, stderr.String())
	}
	return out
}

func runProgram(t *testing.T, prog string, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := runProgramErr(prog, args...)
	if err != nil {
		t.Fatalf("%s %v: %v\nstdout:\n%s\nstderr:\n%s", prog, args, err, stdout, stderr)
	}
	return stdout, stderr
}

func runProgramErr(prog string, args ...string) (stdout, stderr string, err error) {
	return runProgramEnv(prog, nil, args...)
}

// runProgramEnv runs prog with env added to the test's environment.
func runProgramEnv(prog string, env []string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(prog, args...)
	cmd.Env = append(append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_PROGRESS=0"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// lessonsDir holds the lesson programs and what an H100 printed for them
// (examples/lessons and its h100 folder).
const lessonsDir = "../../examples/lessons"

var (
	timeRE = regexp.MustCompile(`(time|elapsed) [0-9.]+ ms`)
	// sectionRE matches the recordings' section headers, not the nested
	// lesson's own "== nestedHelloWorld …" lines.
	sectionRE = regexp.MustCompile(`^== ((divergence|reduce|coarsen) |nested( grid2 hello)?$|device-side)`)
)

// groundTruth returns the lines a real H100 printed for one "== name args"
// section of h100_seed_runs.txt, times masked.
func groundTruth(t *testing.T, section string) string {
	t.Helper()
	b, err := os.ReadFile(lessonsDir + "/h100/h100_seed_runs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if sectionRE.MatchString(line) {
			in = line == "== "+section
			continue
		}
		if in && line != "" {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no section %q in the recordings", section)
	}
	return timeRE.ReplaceAllString(strings.Join(out, "\n")+"\n", "$1 X ms")
}

// scaledField is a line of a lesson's output with numbers that are
// proportional to the problem size: the groups named in div.
type scaledField struct {
	re  *regexp.Regexp
	div []int // capture groups divided by the scale
}

// lessonScaledFields are the size-proportional figures of the divergence
// and reduce lessons' output (grid, size and sums; block sizes, first
// elements and OK stay).
var lessonScaledFields = []scaledField{
	{regexp.MustCompile(`<<<(\d+),\d+>>> size (\d+) .* sum (\d+)\.0 `), []int{1, 2, 3}},
	{regexp.MustCompile(`^array (\d+) grid (\d+) block \d+ cpu_sum (\d+)$`), []int{1, 2, 3}},
	{regexp.MustCompile(`gpu_sum (\d+) `), []int{1}},
}

// scaleTranscript divides the size-proportional numbers of a recorded
// transcript by scale, failing unless every division is exact.
func scaleTranscript(t *testing.T, text string, scale uint64) string {
	t.Helper()
	if scale == 1 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		for _, f := range lessonScaledFields {
			m := f.re.FindStringSubmatchIndex(line)
			if m == nil {
				continue
			}
			var b strings.Builder
			last := 0
			for _, g := range f.div {
				lo, hi := m[2*g], m[2*g+1]
				v, err := strconv.ParseUint(line[lo:hi], 10, 64)
				if err != nil || v%scale != 0 {
					t.Fatalf("recording line %q: %s does not divide exactly by %d", line, line[lo:hi], scale)
				}
				b.WriteString(line[last:lo])
				b.WriteString(strconv.FormatUint(v/scale, 10))
				last = hi
			}
			b.WriteString(line[last:])
			line = b.String()
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// TestCCLessons compiles the lesson programs unchanged and checks that they
// print what the H100 printed, times aside. The big recorded sizes run
// smaller here, the recording's size-proportional figures divided exactly
// by the scale (scaleTranscript): the divergence kernels' outputs repeat
// every 64 threads and reduce.cu's input (i & 0xff) every 256 ints, so at
// any size that is a multiple of the period the grid, size and sums are the
// H100's divided by the ratio of sizes. The nvcc PTX of the same kernels
// runs at the recorded sizes in the root package's TestLessons* tests.
func TestCCLessons(t *testing.T) {
	needClang(t)
	lessons := lessonsDir
	cases := []struct {
		lesson  string
		section string   // the recording's section
		args    []string // the program's arguments here
		scale   uint64   // the recording's size over this run's
		flags   []string // warpsim cc flags, as the lesson's nvcc command had them
	}{
		{"divergence", "divergence 64 64", []string{"64", "64"}, 1, nil},
		{"divergence", "divergence 256 4194304", []string{"256", "65536"}, 64, nil},
		{"reduce", "reduce 1024 24", []string{"1024", "16"}, 256, nil},
		// nvcc's PTX for the lesson (examples/lessons/reduce.sm90.ptx) in
		// place of clang's device code.
		{"reduce", "reduce 1024 24", []string{"1024", "16"}, 256, []string{"--device-ptx", lessonsDir + "/reduce.sm90.ptx"}},
		{"nested", "nested", nil, 1, []string{"-rdc=true", "-lcudadevrt"}},
	}
	for _, c := range cases {
		name := strings.TrimSpace(c.lesson + " " + strings.Join(c.args, " "))
		if len(c.flags) > 0 && c.flags[0] == "--device-ptx" {
			name += " nvcc-ptx"
		}
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			want := scaleTranscript(t, groundTruth(t, c.section), c.scale)
			prog := buildCU(t, filepath.Join(lessons, c.lesson+".cu"), c.flags...)
			// The transcript does not depend on the mode (times are masked), so the functional driver
			// runs it; TestProfNested runs the nested lesson under the timing driver, the programs' default.
			got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"}, c.args...)
			if err != nil {
				t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, got, stderr)
			}
			got = timeRE.ReplaceAllString(got, "$1 X ms")
			if got != want {
				t.Errorf("output differs from the H100's (sizes scaled by 1/%d):\ngot:\n%s\nwant:\n%s", c.scale, got, want)
			}
		})
	}
}

// TestCCPrograms runs the sample programs and compares them with what an
// H100 did (testdata/programs/record_gpu.sh records it): stdout exactly,
// stderr where the GPU wrote any (warpsim's fault reports have no GPU
// counterpart), and the exit status. "Test PASSED" is required where the
// GPU printed it, so a program whose recording says FAILED is a program
// bug to fix, not something warpsim must reproduce silently. Every program
// must have its recording.
func TestCCPrograms(t *testing.T) {
	needClang(t)
	srcs, _ := filepath.Glob("../../testdata/programs/*.cu")
	if len(srcs) == 0 {
		t.Fatal("no sample programs")
	}
	for _, src := range srcs {
		name := strings.TrimSuffix(filepath.Base(src), ".cu")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec, err := loadRecording(strings.TrimSuffix(src, ".cu"))
			if err != nil {
				t.Fatal(err)
			}
			prog := buildCU(t, src)
			got, stderr, err := runProgramErr(prog)
			code, err := exitCode(err)
			if err != nil {
				t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, got, stderr)
			}
			if rec == nil {
				t.Fatalf("no GPU recording %s.h100.txt (testdata/programs/record_gpu.sh makes it on the GPU machine)", name)
			}
			if strings.Contains(rec.stdout, "Test PASSED") && !strings.Contains(got, "Test PASSED") {
				t.Errorf("no PASSED (the GPU printed it):\nstdout:\n%s\nstderr:\n%s", got, stderr)
			}
			if got != rec.stdout {
				t.Errorf("stdout differs from the GPU's:\ngot:\n%s\nwant:\n%s", got, rec.stdout)
			}
			if rec.stderr != "" && stderr != rec.stderr {
				t.Errorf("stderr differs from the GPU's:\ngot:\n%s\nwant:\n%s", stderr, rec.stderr)
			}
			if code != rec.exit {
				t.Errorf("exit status %d, the GPU's %d\nstderr:\n%s", code, rec.exit, stderr)
			}
		})
	}
}

// recording is what a GPU did for one sample program.
type recording struct {
	stdout, stderr string
	exit           int
}

// loadRecording reads base.h100.{txt,stderr,exit}; it returns nil when
// there is no recording, and an error when one is incomplete.
func loadRecording(base string) (*recording, error) {
	out, err := os.ReadFile(base + ".h100.txt")
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	errOut, err := os.ReadFile(base + ".h100.stderr")
	if err != nil {
		return nil, fmt.Errorf("incomplete GPU recording: %w", err)
	}
	ex, err := os.ReadFile(base + ".h100.exit")
	if err != nil {
		return nil, fmt.Errorf("incomplete GPU recording: %w", err)
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(ex)))
	if err != nil {
		return nil, fmt.Errorf("%s.h100.exit: %v", base, err)
	}
	return &recording{stdout: string(out), stderr: string(errOut), exit: code}, nil
}

// exitCode turns exec's error into the program's exit status; a program
// killed by a signal or not started is an error.
func exitCode(err error) (int, error) {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode(), nil
	}
	return -1, err
}

// TestCCRDC builds programs as relocatable device code (-rdc=true): the
// kernels register through clang's offload entries and the runtime's PTX
// constructor, and run as without -rdc.
func TestCCRDC(t *testing.T) {
	needClang(t)
	for _, name := range []string{"templates", "vector_add"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := buildCU(t, "../../testdata/programs/"+name+".cu", "-rdc=true")
			if got, stderr := runProgram(t, prog); !strings.Contains(got, "Test PASSED") {
				t.Errorf("no PASSED:\n%s\n%s", got, stderr)
			}
		})
	}
}

// TestCCFaultReport checks that an out-of-bounds store's report names the
// .cu line and the faulting thread.
func TestCCFaultReport(t *testing.T) {
	needClang(t)
	prog := buildCU(t, "../../testdata/programs/error_oob.cu")
	_, stderr := runProgram(t, prog)
	for _, want := range []string{"error_oob.cu:6", "thread (3,0,0)", "out-of-bounds"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("fault report lacks %q:\n%s", want, stderr)
		}
	}
}

// TestCCCompileError shows clang's message and exits with status 2.
func TestCCCompileError(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "bad.cu")
	if err := os.WriteFile(src, []byte("__global__ void k() { undeclared_thing = 1; }\nint main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := ccOutcome(t, src)
	if code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	if !strings.Contains(stderr, "bad.cu:1:23: error: use of undeclared identifier 'undeclared_thing'") {
		t.Errorf("clang's message missing:\n%s", stderr)
	}
}

// TestCCUnknownFlag names the flag.
func TestCCUnknownFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"cc", "--prec-div=false", "x.cu"}, &stdout, &stderr)
	if code != exitBadInput || !strings.Contains(stderr.String(), "unknown flag --prec-div=false") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestProf profiles the divergence lesson: every kernel appears once in the
// summary, and the metric table has the requested metric per kernel.
func TestProf(t *testing.T) {
	needClang(t)
	prog := buildCU(t, lessonsDir+"/divergence.cu")
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"prof", "--metrics", "branch_efficiency", prog, "64", "64"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	out := stderr.String()
	for _, k := range []string{"warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"} {
		if n := strings.Count(out, "Kernel: "+k+"\n"); n != 1 {
			t.Errorf("kernel %s appears %d times in the metric table:\n%s", k, n, out)
		}
	}
	if n := strings.Count(out, "branch_efficiency"); n != 5 {
		t.Errorf("branch_efficiency rows: %d, want 5:\n%s", n, out)
	}
	if !strings.Contains(stdout.String(), "mathKernel4  <<<1,64>>> size 64") {
		t.Errorf("program output missing:\n%s", stdout.String())
	}
}

// TestCCMultiFile builds a program from two .cu files and a .cpp file: in
// one command, and compiled separately with -c and linked.
// TestLongCCMultiFileRDC does both again as relocatable device code
// (-rdc=true), which TestCCSeparateCompilation also builds four ways.
func TestCCMultiFile(t *testing.T) {
	checkCCMultiFile(t, nil)
}

// TestLongCCMultiFileRDC is TestCCMultiFile with -rdc=true.
func TestLongCCMultiFileRDC(t *testing.T) {
	testenv.Long(t)
	checkCCMultiFile(t, []string{"-rdc=true"})
}

func checkCCMultiFile(t *testing.T, rdc []string) {
	needClang(t)
	dir := t.TempDir()
	files := map[string]string{
		"a.cu": "__global__ void twice(int *p) { p[threadIdx.x] *= 2; }\nvoid run_twice(int *d, int n) { twice<<<1, n>>>(d); }\n",
		"b.cu": "__device__ int bias = 5;\n__global__ void add_bias(int *p) { p[threadIdx.x] += bias; }\nvoid run_bias(int *d, int n) { add_bias<<<1, n>>>(d); }\n",
		"main.cpp": `#include <cuda_runtime.h>
#include <cstdio>
void run_twice(int *d, int n);
void run_bias(int *d, int n);
int main() {
  int h[4] = {1, 2, 3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  run_twice(d, 4);
  run_bias(d, 4);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %s\n", h[0], h[1], h[2], h[3], cudaGetErrorString(cudaGetLastError()));
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Built once, in its own folder, and kept between runs: the sources
	// written above, with each build step, are the key.
	steps := [][]string{
		append(append([]string{}, rdc...), "a.cu", "b.cu", "main.cpp", "-o", "whole"),
		append(append([]string{}, rdc...), "-c", "a.cu"), // a.o, nvcc's default name
		append(append([]string{}, rdc...), "-c", "b.cu", "-o", "b.o"),
		{"-c", "main.cpp"},
		{"a.o", "b.o", "main.o", "-o", "linked"},
	}
	inputs := []string{filepath.Join(dir, "b.cu"), filepath.Join(dir, "main.cpp")}
	for _, s := range steps {
		inputs = append(inputs, "step", strings.Join(s, " "))
	}
	out := cachedBuildDir(t, filepath.Join(dir, "a.cu"), inputs, func(bdir string) error {
		// The sources beside the outputs, built by their names there.
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(bdir, name), []byte(src), 0o644); err != nil {
				return err
			}
		}
		t.Chdir(bdir)
		return ccSteps(bdir, steps...)
	})
	const want = "7 9 11 13 no error\n"
	for _, prog := range []string{"whole", "linked"} {
		if got, stderr := runProgram(t, filepath.Join(out, prog)); got != want {
			t.Errorf("%v %s: got %q, want %q\n%s", rdc, prog, got, want, stderr)
		}
	}
}

// TestCCNoClang names the missing compiler and how to install it.
func TestCCNoClang(t *testing.T) {
	t.Setenv("WARPSIM_CLANG", filepath.Join(t.TempDir(), "clang-none"))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cc", "x.cu"}, &stdout, &stderr); code != exitBadInput {
		t.Errorf("exit %d, want %d", code, exitBadInput)
	}
	if !strings.Contains(stderr.String(), "WARPSIM_CLANG=") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if !strings.Contains(cc.ErrNoClang.Error(), "apt-get install clang-22") {
		t.Errorf("ErrNoClang does not say how to install clang: %v", cc.ErrNoClang)
	}
}

// TestCCWatchdog: a kernel that never ends is stopped by the watchdog
// (WARPSIM_STEP_LIMIT) and the program sees cudaErrorLaunchTimeout.
func TestCCWatchdog(t *testing.T) {
	prog := spinProgram(t, "1, 32")
	t.Setenv("WARPSIM_STEP_LIMIT", "100000")
	got, stderr := runProgram(t, prog)
	if got != "cudaErrorLaunchTimeout\n" {
		t.Errorf("got %q\n%s", got, stderr)
	}
}

// TestCCCoarsen compiles the coarsening lesson unchanged and runs it at
// N=128 (the H100's recorded N=2048 would take hours on a CPU): the error
// against float64 must be what the H100 printed at that size, which needs
// the same fused multiply-adds as nvcc's code; times and GFLOP/s aside.
func TestCCCoarsen(t *testing.T) {
	needClang(t)
	if testing.Short() {
		t.Skip("long run; without -short it runs")
	}
	want, err := os.ReadFile(lessonsDir + "/h100/h100_coarsen_128.txt")
	if err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, filepath.Join(lessonsDir, "coarsen.cu"))
	// Times and GFLOP/s are masked, so the functional driver runs it: 2.4
	// CPU seconds instead of the timing driver's 7.9. The demo's timing
	// lesson times matmulCoarse under the timing model.
	got, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"}, "128")
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, got, stderr)
	}
	mask := func(s string) string {
		s = timeRE.ReplaceAllString(s, "$1 X ms")
		return gflopsRE.ReplaceAllString(s, "X GFLOP/s")
	}
	if g, w := mask(got), mask(string(want)); g != w {
		t.Errorf("output differs from the H100's:\ngot:\n%s\nwant:\n%s", g, w)
	}
}

var gflopsRE = regexp.MustCompile(`[0-9.]+ GFLOP/s`)

// spinProgram builds a program whose kernel, launched <<<shape>>>, never
// ends, and which prints the error cudaDeviceSynchronize returns.
func spinProgram(t *testing.T, shape string) string {
	t.Helper()
	needClang(t)
	src := filepath.Join(t.TempDir(), "spin.cu")
	if err := os.WriteFile(src, []byte(`#include <cstdio>
__global__ void spin(volatile int *flag) { while (*flag == 0) {} }
int main() {
  int *d;
  cudaMalloc(&d, 4);
  cudaMemset(d, 0, 4);
  spin<<<`+shape+`>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return buildCU(t, src)
}
