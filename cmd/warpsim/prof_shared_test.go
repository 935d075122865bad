package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A held-out batch's programs (programs3, 8 and 9) run twice in CI's one
// run of the plain and long tests: their match test (TestCCPrograms8MatchH100
// and the like) compares stdout, stderr and exit status with the H100's,
// and their times test (TestLongPrograms8TimesAgainstH100 and the like)
// times every launch under `warpsim prof`. When both tests run in one
// process the match test takes its outputs from the timed run (profNCUClock,
// once per program binary), which the times test then reads its launches
// from; run alone, the match test runs each program under the functional
// driver as before, and the times test times it. The times test checks the
// timed run's stdout, stderr and exit status against the H100's recording
// too (checkTimedOutputs), so the timing driver's outputs are checked for
// these programs whichever test runs.

// timedRun is a program's run under `warpsim prof --set clock=1589MHz
// --print-gpu-trace --csv`: what the program wrote to stdout and stderr, its
// exit status, and prof's report (the GPU trace), apart.
type timedRun struct {
	once           sync.Once
	stdout, stderr string
	report         string
	exit           int
	err            error
}

var (
	timedRunsMu sync.Mutex
	timedRuns   = map[string]*timedRun{}
)

// profNCUClock runs bin under `warpsim prof` at the H100's base clock (as
// Nsight Compute timed it), this test binary standing in for warpsim, once
// per package run for a given binary and WARPSIM_* environment. The
// program's own stderr is what prof wrote between its first line and its
// report ("==PID== Profiling application: ...").
func profNCUClock(t *testing.T, bin string) *timedRun {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "WARPSIM_") && !strings.HasPrefix(kv, "WARPSIM_TEST_AS_CLI=") && !strings.HasPrefix(kv, "WARPSIM_PROGRESS=") {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	key := bin + "\x00" + strings.Join(env, "\x00")
	timedRunsMu.Lock()
	r := timedRuns[key]
	if r == nil {
		r = &timedRun{}
		timedRuns[key] = r
	}
	timedRunsMu.Unlock()
	r.once.Do(func() { r.run(bin) })
	if r.err != nil {
		t.Fatalf("warpsim prof %s: %v", filepath.Base(bin), r.err)
	}
	return r
}

func (r *timedRun) run(bin string) {
	exe, err := os.Executable()
	if err != nil {
		r.err = err
		return
	}
	cmd := exec.Command(exe, "prof", "--set", "clock=1589MHz", "--print-gpu-trace", "--csv", bin)
	cmd.Env = append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_PROGRESS=0")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if r.exit, r.err = exitCode(cmd.Run()); r.err != nil {
		r.err = fmt.Errorf("%v\n%s", r.err, e.String())
		return
	}
	r.stdout = o.String()
	r.stderr, r.report, r.err = splitProfStderr(e.String())
}

// splitProfStderr splits what `warpsim prof` wrote to stderr into the
// program's own stderr and prof's report: prof writes a line of its own
// ("==PID== warpsim prof is profiling process PID, ...") before it starts
// the program and the rest ("==PID== Profiling application: ...") after the
// program ended.
func splitProfStderr(s string) (program, report string, err error) {
	first, rest, ok := strings.Cut(s, "\n")
	tag, _, _ := strings.Cut(first, " ")
	if !ok || !strings.HasPrefix(tag, "==") || !strings.HasSuffix(tag, "==") || !strings.Contains(first, " warpsim prof is profiling process ") {
		return "", "", fmt.Errorf("prof's stderr does not start with its line:\n%s", s)
	}
	i := strings.Index(rest, tag+" Profiling application: ")
	if i < 0 {
		return "", "", fmt.Errorf("prof's stderr has no %q line:\n%s", tag+" Profiling application: ", s)
	}
	return rest[:i], rest[i:], nil
}

// checkOutputs compares a program's stdout, stderr and exit status with
// the H100's recording at base (dir/P or dir/clang/P.clang), as
// checkAgainstEnv does; how tells how the program ran.
func checkOutputs(t *testing.T, base, how, stdout, stderr string, exit int) {
	t.Helper()
	rec, err := loadRecording(base)
	if err != nil || rec == nil {
		t.Fatalf("recording %s: %v", base, err)
	}
	if stdout != rec.stdout {
		t.Errorf("%s: stdout differs from the GPU's:\ngot:\n%s\nwant:\n%s\nstderr:\n%s", how, stdout, rec.stdout, stderr)
	}
	if rec.stderr != "" && stderr != rec.stderr {
		t.Errorf("%s: stderr differs from the GPU's:\ngot:\n%s\nwant:\n%s", how, stderr, rec.stderr)
	}
	if exit != rec.exit {
		t.Errorf("%s: exit status %d, the GPU's %d", how, exit, rec.exit)
	}
}

// timesTestOf names the times test that runs a batch's programs under
// warpsim prof with the batch's base flags, by the batch's folder.
var timesTestOf = map[string]string{
	programs3Dir: "TestLongPrograms3TimesAgainstH100",
	programs8Dir: "TestLongPrograms8TimesAgainstH100",
	programs9Dir: "TestLongPrograms9TimesAgainstH100",
}

// recordedBase is where the H100's recording of a batch program's build
// lies: for a perCompiler program, clang's build is compared with the H100
// running clang's code, the build with nvcc's PTX with nvcc's build; for
// the others only clang's build is compared ("" for nvcc's).
func recordedBase(abs string, p recordedProgram, compiler string) string {
	switch {
	case compiler == "clang" && p.perCompiler:
		return filepath.Join(abs, "clang", p.name+".clang")
	case compiler == "clang" || p.perCompiler:
		return filepath.Join(abs, p.name)
	}
	return ""
}

// buildBatchProgram builds a batch program (abs/P.cu) with the batch's
// base flags as the times test does: warpsim cc's own build ("clang") or
// with nvcc's PTX linked in ("nvcc": abs/nvcc/ptx/P.nvcc.ptx).
func buildBatchProgram(t *testing.T, abs string, base []string, name, compiler string) string {
	t.Helper()
	flags := slices.Clone(base)
	if compiler == "nvcc" {
		flags = append(flags, "--device-ptx", filepath.Join(abs, "nvcc", "ptx", name+".nvcc.ptx"))
	}
	return buildCU(t, filepath.Join(abs, name+".cu"), flags...)
}

// TestSplitProfStderr checks that a program's stderr is told apart from
// warpsim prof's lines around it, also when it does not end its last line.
func TestSplitProfStderr(t *testing.T) {
	const head = "==77== warpsim prof is profiling process 77, command: ./p\n"
	const report = "==77== Profiling application: ./p\n==77== Profiling result:\nStart,Duration\n"
	for _, c := range []struct {
		in, program, report string
		err                 bool
	}{
		{head + report, "", report, false},
		{head + "warning: x\n" + report, "warning: x\n", report, false},
		{head + "no newline" + report, "no newline", report, false},
		{"program's line\n" + report, "", "", true},
		{head + "killed\n", "", "", true},
	} {
		p, r, err := splitProfStderr(c.in)
		if (err != nil) != c.err || p != c.program || r != c.report {
			t.Errorf("%q: program %q, report %q, error %v; want %q, %q, error %v", c.in, p, r, err, c.program, c.report, c.err)
		}
	}
}
