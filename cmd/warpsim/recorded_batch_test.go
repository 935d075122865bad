package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// recordedProgram is one program of a batch recorded on the H100
// (testdata/programsN), with the flags nvcc needed beyond the batch's own.
type recordedProgram struct {
	name  string
	flags []string
	long  bool // run by the batch's TestLong* twin instead
	// perCompiler: clang's device code and nvcc's print different bytes on
	// the H100 itself, so warpsim cc's build (clang's code) is compared
	// with the H100 running clang's PTX (dir/clang/P.clang.h100.*), and the
	// build with nvcc's PTX linked in (dir/nvcc/ptx/P.nvcc.ptx) with the
	// H100 running nvcc's build (dir/P.h100.*).
	perCompiler bool
}

// checkRecordedBatch builds each of progs (the ones whose long is long) in
// dir unchanged with warpsim cc, with base flags then its own (an -O level
// of its own replaces the base's), and compares its stdout, stderr and
// exit status with the H100's recording beside it. None prints a time, so
// they run under the functional driver, in parallel; but where the batch's
// times test will run in this process and time the same build (timesTestOf,
// testenv.WillRun), the outputs are taken from that timed run instead
// (profNCUClock: one run of the program for both tests), which the times
// test checks against the same recording.
func checkRecordedBatch(t *testing.T, dir string, base []string, progs []recordedProgram, long bool) {
	t.Helper()
	needClang(t)
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		if p.long != long {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			flags := base
			if slices.ContainsFunc(p.flags, func(f string) bool { return strings.HasPrefix(f, "-O") }) {
				flags = slices.DeleteFunc(slices.Clone(base), func(f string) bool { return strings.HasPrefix(f, "-O") })
			}
			flags = append(slices.Clone(flags), p.flags...)
			src, env := filepath.Join(abs, p.name+".cu"), []string{"WARPSIM_MODE=functional"}
			if times, ok := timesTestOf[dir]; ok && len(p.flags) == 0 && testenv.WillRun(times) {
				// The batch's times test runs these builds under warpsim
				// prof in this process: one run of each for both tests.
				for _, compiler := range []string{"clang", "nvcc"} {
					if rec := recordedBase(abs, p, compiler); rec != "" {
						r := profNCUClock(t, buildBatchProgram(t, abs, base, p.name, compiler))
						checkOutputs(t, rec, compiler+"'s build under warpsim prof (timing driver, shared with "+times+")", r.stdout, r.stderr, r.exit)
					}
				}
				return
			}
			if !p.perCompiler {
				checkAgainstEnv(t, buildCU(t, src, flags...), filepath.Join(abs, p.name), env)
				return
			}
			checkAgainstEnv(t, buildCU(t, src, flags...), filepath.Join(abs, "clang", p.name+".clang"), env)
			nv := buildCU(t, src, append(flags, "--device-ptx", filepath.Join(abs, "nvcc", "ptx", p.name+".nvcc.ptx"))...)
			checkAgainstEnv(t, nv, filepath.Join(abs, p.name), env)
		})
	}
}

// programsCallThisBinary makes the CUDA programs a test runs call this test
// binary as their warpsim (WARPSIM_BIN, WARPSIM_TEST_AS_CLI), without a
// progress line, for the rest of the test.
func programsCallThisBinary(t *testing.T) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_BIN", exe)
	t.Setenv("WARPSIM_PROGRESS", "0")
}
