package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// probeDirs are the probe suites (docs/sanitizer.md, "Probes"): buggy
// programs, one error each, recorded on the H100 by ../record.sh probe2
// (and probe3, programs made to settle what probe2 left open; probe4, named
// barriers given different or invalid thread counts; probe5, bugs as users
// make them in classic and asynchronous code) and compared like
// TestSanitizeSuite's.
var probeDirs = []string{sanitizeDir + "/probe2", sanitizeDir + "/probe3", sanitizeDir + "/probe4", sanitizeDir + "/probe5"}

// TestSanitizeProbes runs every run of each probe's runs.txt under
// `warpsim sanitize` and compares it with the H100's compute-sanitizer
// report.
func TestSanitizeProbes(t *testing.T) {
	needClang(t)
	for _, dir := range probeDirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { testProbe(t, dir) })
	}
}

func testProbe(t *testing.T, probeDir string) {
	runSanitizeRuns(t, probeDir, readSanitizeRunsIn(t, probeDir), func(progs []string) string {
		return buildSuite(t, probeDir, progs, "-lineinfo")
	})
}

var (
	blockRE      = regexp.MustCompile(`in block \(\d+,\d+,\d+\)`)
	bytesAfterRE = regexp.MustCompile(`is [\d,]+ bytes after`)
)
