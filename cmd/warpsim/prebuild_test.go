package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/testenv"
)

// The sanitizer and ITS suites are sequential tests, each building its
// programs when it starts: with a cold program cache (a fresh CI machine,
// or a round that changed what every program includes) their builds were
// minutes of one core while the package's parallel tests waited for the
// sequential ones to end. prebuildSuites builds those programs in the
// background from TestMain on, one at a time, through buildCUOnce: a test
// that asks for a program the prebuild is building waits for it, and one
// that asks first builds it itself (buildSuite, GOMAXPROCS at a time). With
// the programs cached it only computes their keys, which the tests would
// compute anyway. What the tests check does not change: they build and run
// the same programs with the same flags.

// suitePrograms is one suite's programs: the tests that build them, the
// folder, the flags, and which of the folder's programs (runs.txt's, or
// every .cu file where the test globs them).
type suitePrograms struct {
	tests   []string
	dir     string
	flags   []string
	runsTxt bool
}

// prebuiltSuites is in the order the tests run (file order, then source
// order), so that the first to run finds its programs first.
var prebuiltSuites = []suitePrograms{
	{[]string{"TestITSBarriers", "TestLongITSBarriers", "TestITSBarriersSynccheck"}, itsDir, []string{"-lineinfo"}, false},
	{[]string{"TestNamedBarrierMisuse", "TestSanitizeProbes"}, sanitizeDir + "/probe4", []string{"-lineinfo"}, true},
	{[]string{"TestNamedBarrierMisuse", "TestSanitizeProbes"}, sanitizeDir + "/probe2", []string{"-lineinfo"}, true},
	{[]string{"TestSanitizeMbarSuite"}, mbarDir, []string{"-lineinfo", "-arch=sm_90a"}, false},
	{[]string{"TestSanitizeProbe5Plain", "TestSanitizeProbes"}, probe5Dir, []string{"-lineinfo"}, false},
	{[]string{"TestSanitizeProbe6"}, probe6Dir, []string{"-lineinfo"}, false},
	{[]string{"TestSanitizeProbe7"}, probe7Dir, []string{"-lineinfo"}, false},
	{[]string{"TestSanitizeProbes"}, sanitizeDir + "/probe3", []string{"-lineinfo"}, true},
	{[]string{"TestSanitizeSuite", "TestSanitizeBeyond", "TestSanitizeExitCode"}, sanitizeDir, []string{"-lineinfo"}, true},
}

// prebuildSuites starts the background builds of the suites' programs
// that this run's tests will ask for (testenv.WillRun). A build's failure
// is left to the test that asks for the program (buildCUOnce keeps it).
func prebuildSuites() {
	if _, err := cc.FindClang(); err != nil {
		return // the tests report it
	}
	type build struct {
		src   string
		flags []string
	}
	var builds []build
	for _, s := range prebuiltSuites {
		will := false
		for _, name := range s.tests {
			will = will || testenv.WillRun(name)
		}
		if !will {
			continue
		}
		for _, p := range suiteProgramNames(s) {
			builds = append(builds, build{filepath.Join(s.dir, p+".cu"), s.flags})
		}
	}
	if len(builds) == 0 {
		return
	}
	go func() {
		for _, b := range builds {
			buildCUOnce(b.src, b.flags...)
		}
	}()
}

// suiteProgramNames lists a suite's programs as its tests name them (paths
// under the folder without ".cu"); nil when the folder cannot be read (the
// tests report it).
func suiteProgramNames(s suitePrograms) []string {
	var names []string
	if s.runsTxt {
		b, err := os.ReadFile(filepath.Join(s.dir, "runs.txt"))
		if err != nil {
			return nil
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || strings.HasPrefix(line, "#") || seen[f[0]] {
				continue
			}
			seen[f[0]] = true
			names = append(names, f[0])
		}
		return names
	}
	srcs, _ := filepath.Glob(filepath.Join(s.dir, "*.cu"))
	sort.Strings(srcs)
	for _, src := range srcs {
		names = append(names, strings.TrimSuffix(filepath.Base(src), ".cu"))
	}
	return names
}
