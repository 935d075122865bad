package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRunStops: the wall-clock --timeout (and WARPSIM_TIMEOUT) and the
// watchdog stop a kernel that never ends with the same report: kernel,
// blocks done, and where the unfinished warps are, with their PTX and .cu
// lines and what they wait on; exit status 1.
func TestRunStops(t *testing.T) {
	lf := filepath.Join(runDir, "spin.json")
	cases := []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"timeout flag", []string{"run", "--timeout", "300ms", lf}, "", "kernel fault: timeout: wall-clock limit exceeded in kernel spin\n  the launch ran longer than its wall-clock limit of 300ms: 0 of 1 blocks done"},
		{"timeout env", []string{"run", lf}, "0.3", "the launch ran longer than its wall-clock limit of 300ms"},
		{"watchdog", []string{"run", "--max-steps", "200000", lf}, "", "kernel fault: watchdog: step limit exceeded in kernel spin\n  the launch exceeded its step limit of 200000 warp instructions: 0 of 1 blocks done"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("WARPSIM_TIMEOUT", c.env)
			start := time.Now()
			code, _, stderr := runCLI(c.args...)
			if code != 1 {
				t.Errorf("exit status %d, want 1\n%s", code, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, stderr)
			}
			if !spinAt("(0,0,0)-(31,0,0)").MatchString(stderr) {
				t.Errorf("stderr does not place warp 0 of block 0 in spin's loop:\n%s", stderr)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// Refused as the runtime refuses WARPSIM_TIMEOUT (settings.ParseDuration):
	// a word, and seconds beyond what a time.Duration holds.
	for _, bad := range []string{"soon", "1e300"} {
		if code, _, stderr := runCLI("run", "--timeout", bad, lf); code != 2 || !strings.Contains(stderr, `--timeout: "`+bad+`" is not a duration`) {
			t.Errorf("--timeout %s: exit %d, %s", bad, code, stderr)
		}
	}
}

// TestRunInterrupt: Ctrl-C (SIGINT) during a kernel stops it, prints the
// report of where its warps were and exits with status 130. The test binary
// stands in for warpsim (TestMain); it is interrupted once it says that
// spin's warps are running (launchRunningHook), never after a guessed
// sleep: at load 35 a 300 ms sleep ended before spin had started, and the
// signal ended warpsim between the launches, with no report.
func TestRunInterrupt(t *testing.T) {
	cmd := exec.Command(os.Args[0], "run", filepath.Join(runDir, "hellospin.json"))
	cmd.Env = append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_TEST_ANNOUNCE_RUNNING=1", "WARPSIM_WORKERS=2")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// hello's printf, then spin's warps running (hello's own running line,
	// if the watcher saw its one block's count, comes before or after the printf).
	r := bufio.NewReader(out)
	var lines []string
	for len(lines) == 0 || lines[len(lines)-1] != runningLine+"spin\n" {
		line, err := r.ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("stdout ended (%v) before spin ran: %q", err, append(lines, line))
		}
		lines = append(lines, line)
	}
	// hello's printf comes before spin runs; hello's own running line may
	// come before its printf (the watcher can see its block start before
	// the launch's output is written).
	if !strings.HasPrefix(lines[0], "hello from thread 0") &&
		!(len(lines) > 1 && lines[0] == runningLine+"hello\n" && strings.HasPrefix(lines[1], "hello from thread 0")) {
		cmd.Process.Kill()
		t.Fatalf("lines before spin ran %q, want hello's printf first (after hello's running line, if any)", lines)
	}
	cmd.Process.Signal(os.Interrupt)
	go io.Copy(io.Discard, r)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running a minute after SIGINT")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130\n%s", err, stderr.String())
	}
	if s := "warpsim: kernel fault: interrupted in kernel spin\n  interrupted (SIGINT): 0 of 6 blocks done"; !strings.Contains(stderr.String(), s) {
		t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
	}
	for _, threads := range []string{"(0,0,0)-(31,0,0)", "(32,0,0)-(63,0,0)"} {
		if !spinAt(threads).MatchString(stderr.String()) {
			t.Errorf("stderr does not place threads %s of block 0 in spin's loop:\n%s", threads, stderr.String())
		}
	}
}

// TestRunUnsupportedKernel: a kernel that needs something warpsim cannot
// run yet fails at its launch (launches[1]: the module loaded and the
// first launch, of a kernel it can run, ran) with the construct and its
// position; exit status 2.
func TestRunUnsupportedKernel(t *testing.T) {
	code, _, stderr := runCLI("run", filepath.Join(runDir, "unsupported.json"))
	want := "unsupported.json:6: launches[1]: kernel texture cannot run: " + filepath.Join(runDir, "unsupported.ptx") + ":7:2: tex.2d.v4.f32.f32 is not supported: texture and surface references (.texref, .surfref) are not simulated"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, want)
	}
}

func TestProgressText(t *testing.T) {
	got := progressText(progressOf("reduce", 12, 4096, 3*time.Second), 35.24e6)
	want := "reduce: 12/4096 blocks, 35.2 M warp-inst/s, 3s (Ctrl-C stops it and shows where its warps are)"
	if got != want {
		t.Errorf("progress line %q, want %q", got, want)
	}
}

// spinAt matches a report line placing the warp of block 0 with those
// threads at one of the three instructions of spin's loop
// (testdata/run/kernels.ptx:200-202), running.
func spinAt(threads string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta("block (0,0,0) threads "+threads+" at "+filepath.Join(runDir, "kernels.ptx")+":") +
		`(200: ld\.volatile\.global\.b32 %r1, \[%rd1\];|201: setp\.eq\.b32 %p1, %r1, 0;|202: @%p1 bra \$L__BB5_1;) — running\n`)
}

// TestRunAssert: a failed assert in a kernel run from a launch file is a
// kernel fault (exit status 1) whose report carries the GPU's line for each
// failing thread.
func TestRunAssert(t *testing.T) {
	needClang(t)
	code, _, stderr := runCLI("run", filepath.Join(runDir, "assert.json"))
	if code != 1 {
		t.Errorf("exit status %d, want 1\n%s", code, stderr)
	}
	src := filepath.Join(runDir, "assert.cu")
	for _, s := range []string{"warpsim: kernel fault: assertion failed in kernel positive\n  block (0,0,0) thread (2,0,0)",
		src + ":2: void positive(const int *): block: [0,0,0], thread: [2,0,0] Assertion `v[threadIdx.x] > 0` failed.\n" +
			"  " + src + ":2: void positive(const int *): block: [0,0,0], thread: [4,0,0] Assertion `v[threadIdx.x] > 0` failed.\n"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
}
