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

func init() {
	// Which of many_errors's four blocks ran first, and so which 100 (or
	// 5) of its 256 errors are printed, is the GPU's scheduling (the H100
	// printed blocks 2 and 3); uninit_partial's warps report in the order
	// they ran (the H100: warp 3 first).
	for _, n := range []string{"many_errors.memcheck", "many_errors.memcheck-limit5"} {
		sanitizeScheduled[n] = []*regexp.Regexp{blockRE, bytesAfterRE}
	}
	sanitizeScheduled["uninit_partial.initcheck"] = nil
	// The H100 lists leaks by address with the stream-ordered pool's
	// (at 0x2a9a000000) last; warpsim lists them by its own addresses.
	sanitizeScheduled["leak_async.memcheck"] = nil
	sanitizeScheduled["leak_order.memcheck"] = nil
	// Not matched (docs/sanitizer.md, "Probes"), each with what warpsim
	// prints instead: clang deletes heap_double_free's malloc/free pair
	// (the block never escapes), so nothing is freed twice; nvcc unrolls
	// transpose_nosync's loops (4 stores x 4 loads, 16 pairs, grouped by
	// store) where clang keeps one store and one load (one pair, the same
	// 3968 hazards);
	// reduce_war's hazards are the H100's warp schedule (warp 0 a loop
	// iteration ahead: WAR) where warpsim's finds unchanged values read
	// after their write (RAW of an equal value: none); nvcc copies
	// uninit_padding's struct with loads that read 4 of its padding's
	// words, clang's read 8.
	for name, instead := range map[string]string{
		"heap_double_free.memcheck":   "ERROR SUMMARY: 0 errors",
		"transpose_nosync.racecheck":  "[3968 hazards]",
		"reduce_war.racecheck":        "RACECHECK SUMMARY: 0 hazards displayed",
		"reduce_war.racecheck-hazard": "RACECHECK SUMMARY: 0 hazards displayed",
		"uninit_padding.initcheck":    "ERROR SUMMARY: 8 errors",
	} {
		sanitizeNotYet[name] = instead
	}
	// Warps giving one named barrier different thread counts: the H100
	// reported the warps in the order they arrived (probe2/named_barrier:
	// warp 1, then 0; probe4/count_interleaved: warp 2, then 0), warpsim
	// in warp order.
	for _, n := range []string{"named_barrier.synccheck", "count_swap.synccheck", "count_interleaved.synccheck"} {
		sanitizeScheduled[n] = nil
	}
	// Lanes of one warp at two barrier instructions: the H100 hangs,
	// warpsim stops the kernel with a barrier deadlock.
	sanitizeProgramDifferences["count_partial.synccheck"] = [][2]string{{"partial -> HANG", "partial -> cudaErrorLaunchTimeout"}}
	// count_odd copies its output back after the kernel failed: the copy
	// fails too and prints an uninitialized host buffer.
	sanitizeProgramMasks["count_odd.synccheck"] = []*regexp.Regexp{regexp.MustCompile(`-?\d+`)}
	// Where allocations lie: the H100 reuses uaf_later's freed range for
	// the next cudaMalloc (warpsim never reuses addresses and names the
	// freed allocation, as for use_after_free); the distance from address
	// 0xc to the nearest allocation is the allocations' address.
	sanitizeDifferences["uaf_later.memcheck"] = [][2]string{{
		"and is 301 bytes after the nearest allocation at 0x? of size 100 bytes",
		"and is 400 bytes inside an allocation at 0x? of size 2,048 bytes that was freed by cudaFree #1",
	}}
	sanitizeDifferences["null_deref.memcheck"] = [][2]string{{
		"and is 139,806,159,929,332 bytes before the nearest allocation",
		"and is 105,553,116,266,484 bytes before the nearest allocation",
	}}
}
