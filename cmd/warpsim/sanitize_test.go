package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// sanitizeDir holds the sanitizer suite: CUDA programs with one bug each
// (and clean ones), runs.txt (which tool runs on which program) and
// recorded/, what compute-sanitizer printed for them on an H100
// (record.sh made it).
const sanitizeDir = "../../testdata/sanitize"

// sanitizeRun is one line of runs.txt.
type sanitizeRun struct {
	prog, tag string
	args      []string
}

func readSanitizeRuns(t *testing.T) []sanitizeRun {
	return readSanitizeRunsIn(t, sanitizeDir)
}

// readSanitizeRunsIn reads the runs.txt of the suite folder dir.
func readSanitizeRunsIn(t *testing.T, dir string) []sanitizeRun {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "runs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []sanitizeRun
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || strings.HasPrefix(line, "#") {
			continue
		}
		runs = append(runs, sanitizeRun{f[0], f[1], f[2:]})
	}
	return runs
}

// buildSanitizeSuite compiles every program of the suite with
// `warpsim cc -lineinfo` (buildSuite).
func buildSanitizeSuite(t *testing.T, progs []string) string {
	t.Helper()
	return buildSuite(t, sanitizeDir, progs, "-lineinfo")
}

// buildSuite compiles programs progs (paths under dir without ".cu") with
// `warpsim cc` and flags, each kept between runs as buildCU keeps it
// (testenv.CachedProgram: keyed by its source and what it includes, so a
// change to a header it cannot reach keeps it, and a change to the C
// runtime relinks it), and returns a folder that holds each by its base
// name (links to the cached programs). The programs are built GOMAXPROCS
// at a time: the suites' tests run one after another, and with a cold
// program cache their builds, one at a time, left a core idle for minutes.
func buildSuite(t *testing.T, dir string, progs []string, flags ...string) string {
	t.Helper()
	paths := make([]string, len(progs))
	errs := make([]error, len(progs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range progs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			paths[i], errs[i] = buildCUOnce(filepath.Join(dir, p+".cu"), flags...)
		}()
	}
	wg.Wait()
	out := t.TempDir()
	for i, p := range progs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if err := os.Symlink(paths[i], filepath.Join(out, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

var (
	hexRE     = regexp.MustCompile(`0x[0-9a-f]+`)
	offsetRE  = regexp.MustCompile(`\+0x[0-9a-f]+ in `)
	hazardsRE = regexp.MustCompile(`\[\d+ hazards?\]`)
	headerRE  = regexp.MustCompile(`at .* in [^ ]+\.(h|hpp):\d+$`)
	// headerFrameRE is a Device Frame line of a caller in a header.
	headerFrameRE = regexp.MustCompile(`^Device Frame: .* in [^ ]+\.(h|hpp):\d+$`)
	rawWarRE      = regexp.MustCompile(`Potential (RAW|WAR) hazard`)
	threadRE      = regexp.MustCompile(`Thread \(\d+,\d+,\d+\)`)
	summaryRE     = regexp.MustCompile(`^(ERROR|LEAK|RACECHECK) SUMMARY`)
)

// sanitizerReport is a report reduced to what must match between the GPU
// and warpsim: each finding with addresses, code offsets and hazard counts
// masked (they depend on SASS and on where memory lies); a location inside
// the CUDA headers (an inlined __syncwarp) reads "at (CUDA header)". Of the
// `Device Frame:` lines of inlined code, those in the program's own files
// are kept (function, file and line; the offset masked): the callers
// inside CUDA's headers are how NVIDIA's headers are written, not
// warpsim's (probe5's cp_async_tail: the H100 names three callers in
// cuda_pipeline_helpers.h and cuda_pipeline_primitives.h, where warpsim's
// cuda_pipeline_primitives.h issues the cp.async itself).
type sanitizerReport struct {
	findings []string
	summary  []string
	program  []string // the program's own output
}

func parseSanitizerReport(out string, hazardMode bool) sanitizerReport {
	var r sanitizerReport
	var cur []string
	end := func() {
		if hazardMode && len(cur) == 3 && strings.Contains(cur[1], " Thread ") && strings.Contains(cur[2], " Thread ") {
			// Which of a hazard's two accesses came first (RAW or
			// WAR) is the order the warps ran in.
			sort.Strings(cur[1:])
		}
		if len(cur) > 0 {
			r.findings = append(r.findings, strings.Join(cur, "\n"))
		}
		cur = nil
	}
	for _, line := range strings.Split(out, "\n") {
		body, ok := strings.CutPrefix(line, "========= ")
		if !ok {
			if line == "=========" {
				end()
			} else if line != "" {
				r.program = append(r.program, line)
			}
			continue
		}
		trim := strings.TrimSpace(body)
		switch {
		case trim == "":
			end()
			continue
		case trim == "COMPUTE-SANITIZER", strings.HasPrefix(trim, "Saved host backtrace"),
			strings.HasPrefix(trim, "Host Frame:"), headerFrameRE.MatchString(trim),
			strings.HasPrefix(trim, "Current Value"):
			continue
		case summaryRE.MatchString(trim):
			end()
			r.summary = append(r.summary, trim)
			continue
		}
		if headerRE.MatchString(trim) {
			trim = "at (CUDA header)"
		}
		trim = offsetRE.ReplaceAllString(trim, " in ")
		trim = hexRE.ReplaceAllString(trim, "0x?")
		trim = hazardsRE.ReplaceAllString(trim, "[N hazards]")
		if hazardMode {
			// One hazard per byte, printed up to the limit in the order
			// found: which threads, and whether a pair of accesses was
			// seen as RAW or WAR, depends on the order warps ran in.
			trim = rawWarRE.ReplaceAllString(trim, "Potential RAW/WAR hazard")
			trim = threadRE.ReplaceAllString(trim, "Thread (?)")
		}
		cur = append(cur, trim)
	}
	end()
	if hazardMode {
		seen := map[string]bool{}
		var set []string
		for _, f := range r.findings {
			if !seen[f] {
				seen[f] = true
				set = append(set, f)
			}
		}
		sort.Strings(set)
		r.findings = set
	}
	return r
}

// sanitizeDifferences are the documented ways warpsim's report differs from
// the H100's (README, "Finding bugs"): a line of the recording is replaced
// by what warpsim says instead, and the test checks that it does.
var sanitizeDifferences = map[string][][2]string{
	// compute-sanitizer reuses the freed range and names the allocation
	// beside it; warpsim never reuses addresses and says it was freed.
	"use_after_free.memcheck": {{
		"and is 41 bytes after the nearest allocation at 0x? of size 4,096 bytes",
		"and is 40 bytes inside an allocation at 0x? of size 1,024 bytes that was freed by cudaFree #1",
	}},
	// Where allocations lie (probe2): the H100 reuses uaf_later's freed
	// range for the next cudaMalloc (warpsim never reuses addresses and
	// names the freed allocation, as for use_after_free); the distance from
	// address 0xc to the nearest allocation is the allocations' address.
	"uaf_later.memcheck": {{
		"and is 301 bytes after the nearest allocation at 0x? of size 100 bytes",
		"and is 400 bytes inside an allocation at 0x? of size 2,048 bytes that was freed by cudaFree #1",
	}},
	"null_deref.memcheck": {{
		"and is 139,806,159,929,332 bytes before the nearest allocation",
		"and is 105,553,116,266,484 bytes before the nearest allocation",
	}},
}

// sanitizeScheduled are the runs whose findings come in an order the GPU's
// scheduling chose (which block or warp ran first; with a print limit, which
// threads are printed at all): their findings are compared as sorted sets,
// with what depends on the order masked by the run's expressions.
var sanitizeScheduled = map[string][]*regexp.Regexp{
	// The probes (sanitize_probe_test.go, sanitize_probe5_test.go). Which
	// of many_errors's four blocks ran first, and so which 100 (or 5) of
	// its 256 errors are printed, is the GPU's scheduling (the H100
	// printed blocks 2 and 3); uninit_partial's warps report in the order
	// they ran (the H100: warp 3 first).
	"many_errors.memcheck":        {blockRE, bytesAfterRE},
	"many_errors.memcheck-limit5": {blockRE, bytesAfterRE},
	"uninit_partial.initcheck":    nil,
	// The H100 lists leaks by address, with the stream-ordered pool's (at
	// 0x2a9a000000) last, and pinned host memory (below its device
	// allocations there) first; warpsim lists them by its own addresses.
	"leak_async.memcheck": nil,
	"leak_order.memcheck": nil,
	"leak_loop.memcheck":  nil,
	// Warps giving one named barrier different thread counts: the H100
	// reported the warps in the order they arrived (probe2/named_barrier:
	// warp 1, then 0; probe4/count_interleaved: warp 2, then 0), warpsim
	// in warp order.
	"named_barrier.synccheck":     nil,
	"count_swap.synccheck":        nil,
	"count_interleaved.synccheck": nil,
	// The two blocks of dsmem_oob's cluster run together: the H100
	// reported block 0's lanes first, warpsim block 1's.
	"dsmem_oob.memcheck": nil,
}

// maskAndSort masks every match of masks in each finding, then sorts them.
func maskAndSort(findings []string, masks []*regexp.Regexp) []string {
	out := make([]string, len(findings))
	for i, f := range findings {
		for _, m := range masks {
			f = m.ReplaceAllString(f, "?")
		}
		out[i] = f
	}
	sort.Strings(out)
	return out
}

// sanitizeProgramDifferences are the program's own output lines where
// warpsim prints something else than the H100, each line of the recording
// (first) replaced by what warpsim prints (second): where the H100 hangs,
// warpsim stops the kernel with a barrier deadlock, which the program sees
// as cudaErrorLaunchTimeout (docs/simt-core.md).
var sanitizeProgramDifferences = map[string][][2]string{
	// Lanes of one warp at two barrier instructions (probe4): the H100
	// hangs, warpsim stops the kernel with a barrier deadlock.
	"count_partial.synccheck": {{"partial -> HANG", "partial -> cudaErrorLaunchTimeout"}},
}

// sanitizeProgramMasks are program output that is not deterministic on the
// GPU (a host buffer a failed copy left uninitialized): what matches is
// replaced by "?" on both sides.
var sanitizeProgramMasks = map[string][]*regexp.Regexp{
	// count_odd (probe4) copies its output back after the kernel failed:
	// the copy fails too and prints an uninitialized host buffer.
	"count_odd.synccheck": {regexp.MustCompile(`-?\d+`)},
}

// sanitizeNotYet are recordings warpsim cannot match yet, each with what it
// does instead (checked, so the test fails once that changes): probes
// (docs/sanitizer.md, "Probes") where the two compilers' code differs or
// where the H100's warp schedule decides the hazard. clang deletes
// heap_double_free's malloc/free pair (the block never escapes), so nothing
// is freed twice; nvcc unrolls transpose_nosync's loops (4 stores x 4
// loads, 16 pairs, grouped by store) where clang keeps one store and one
// load (one pair, the same 3968 hazards); reduce_war's hazards are the
// H100's warp schedule (warp 0 a loop iteration ahead: WAR) where
// warpsim's finds unchanged values read after their write (RAW of an equal
// value: none); nvcc copies uninit_padding's struct with loads that read 4
// of its padding's words, clang's read 8. device_heap.memcheck
// (device-side malloc) is compared like the others.
var sanitizeNotYet = map[string]string{
	"heap_double_free.memcheck":   "ERROR SUMMARY: 0 errors",
	"transpose_nosync.racecheck":  "[3968 hazards]",
	"reduce_war.racecheck":        "RACECHECK SUMMARY: 0 hazards displayed",
	"reduce_war.racecheck-hazard": "RACECHECK SUMMARY: 0 hazards displayed",
	"uninit_padding.initcheck":    "ERROR SUMMARY: 8 errors",
}

// TestSanitizeSuite runs every program of the suite under `warpsim
// sanitize` with the tool the H100 recording used and compares the reports
// finding by finding: error kind, source line, thread and block, the
// address's relation to the nearest allocation, leak sizes, summaries, and
// the program's own output.
func TestSanitizeSuite(t *testing.T) {
	needClang(t)
	runSanitizeRuns(t, sanitizeDir, readSanitizeRuns(t), func(progs []string) string { return buildSanitizeSuite(t, progs) })
}

// runSanitizeRuns builds the programs runs name (build compiles them and
// returns their directory) and checks each run against suite/recorded.
func runSanitizeRuns(t *testing.T, suite string, runs []sanitizeRun, build func(progs []string) string) {
	t.Helper()
	var progs []string
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.prog] {
			seen[r.prog] = true
			progs = append(progs, r.prog)
		}
	}
	dir := build(progs)
	programsCallThisBinary(t)
	for _, r := range runs {
		t.Run(r.prog+"."+r.tag, func(t *testing.T) { checkSanitizeRun(t, dir, suite, r) })
	}
}

// checkSanitizeRun runs program r.prog (built into bin) under `warpsim
// sanitize` with the run's arguments and compares its report with the H100's
// in suite/recorded.
func checkSanitizeRun(t *testing.T, bin, suite string, r sanitizeRun) {
	name := r.prog + "." + r.tag
	rec, err := os.ReadFile(filepath.Join(suite, "recorded", name+".stdout"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := append(append([]string{"sanitize"}, r.args...), filepath.Join(bin, r.prog))
	code := run(args, &stdout, &stderr)
	if want, ok := sanitizeNotYet[name]; ok {
		if !strings.Contains(stderr.String()+stdout.String(), want) {
			t.Errorf("expected today's limitation %q; the output changed (update the suite):\n%s%s", want, stdout.String(), stderr.String())
		}
		return
	}
	if code != 0 {
		t.Errorf("exit status %d, want 0 (the program's)\nstderr:\n%s", code, stderr.String())
	}
	hazard := strings.Contains(r.tag, "hazard")
	got := parseSanitizerReport(stdout.String(), hazard)
	want := parseSanitizerReport(string(rec), hazard)
	for _, d := range sanitizeDifferences[name] {
		for i, f := range want.findings {
			want.findings[i] = strings.ReplaceAll(f, d[0], d[1])
		}
	}
	if masks, ok := sanitizeScheduled[name]; ok {
		got.findings = maskAndSort(got.findings, masks)
		want.findings = maskAndSort(want.findings, masks)
	}
	compareLists(t, "finding", got.findings, want.findings)
	compareLists(t, "summary line", got.summary, want.summary)
	for _, d := range sanitizeProgramDifferences[name] {
		for i, l := range want.program {
			if l == d[0] {
				want.program[i] = d[1]
			}
		}
	}
	for _, m := range sanitizeProgramMasks[name] {
		for i := range got.program {
			got.program[i] = m.ReplaceAllString(got.program[i], "?")
		}
		for i := range want.program {
			want.program[i] = m.ReplaceAllString(want.program[i], "?")
		}
	}
	compareLists(t, "program output line", got.program, want.program)
	if t.Failed() {
		t.Logf("warpsim sanitize printed:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

func compareLists(t *testing.T, what string, got, want []string) {
	t.Helper()
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s %d:\n got: %q\nwant: %q", what, i, g, w)
		}
	}
}

// TestRunSanitize checks `warpsim run --sanitize` on hand-written kernels
// (testdata/sanitize/launch), reports written out by hand in
// compute-sanitizer's format (which TestSanitizeSuite holds against an
// H100).
func TestRunSanitize(t *testing.T) {
	lf := func(name string) string { return filepath.Join(sanitizeDir, "launch", name) }
	tests := []struct {
		tool, file string
		code       int
		want       string
	}{
		{"memcheck", "oob.json", 1, `========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at oob+0x40 in kernels.ptx:16
=========     by thread (63,0,0) in block (0,0,0)
=========     Access to 0x7f00000000fc is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 252 bytes
========= 
========= ERROR SUMMARY: 1 error
`},
		{"racecheck", "race.json", 1, `========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at race+0x50 in kernels.ptx:31
=========     and Read access at race+0xa0 in kernels.ptx:36 [256 hazards]
========= 
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
`},
		// The write lies in a function nvcc inlined (inlined.ptx: its
		// .loc function_name/inlined_at record), named as the H100 named
		// probe5 pipeline_no_wait's.
		{"racecheck", "inlined.json", 1, `========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at void cuda::__4::__cp_async_shared_global<(unsigned long)16>(char *, const char *)+0x50 in cp_async_shared_global.h:60
=========     and Read access at copy(int *)+0xa0 in inlined.cu:14 [256 hazards]
========= 
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
`},
		// The read lies in a function inlined into a function inlined
		// into the kernel (nested.ptx: nvcc's chain of .loc records):
		// named by the innermost, with a Device Frame line per caller,
		// innermost first, each at the offset of its call's first
		// instruction (fetch's mul.wide, pc 4, though the ld at pc 6
		// follows an instruction of fetch2's own; fetch2's add, pc 3)
		// and the call's line, as the H100 printed probe5
		// cp_async_tail's.
		{"memcheck", "nested.json", 1, `========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at fetch(const int *)+0x60 in nested.cu:10
=========     by thread (63,0,0) in block (0,0,0)
=========     Access to 0x7f0000000100 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 256 bytes
=========         Device Frame: fetch2(const int *, int)+0x40 in nested.cu:15
=========         Device Frame: load(int *)+0x30 in nested.cu:22
========= 
========= ERROR SUMMARY: 1 error
`},
		// The store lies in a device function the kernel calls
		// (callstack.ptx): the call is a Device Frame line at the call
		// instruction's own offset (pc 5: three instructions, two
		// st.param, the call) and line, as the H100 printed probe5
		// recursive_stack's.
		{"memcheck", "callstack.json", 1, `========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at [clone root(int *)] leaf(int *, unsigned int)+0x40 in calls.cu:3
=========     by thread (63,0,0) in block (0,0,0)
=========     Access to 0x7f0000000100 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 256 bytes
=========         Device Frame: root(int *)+0x50 in calls.cu:8
========= 
========= ERROR SUMMARY: 1 error
`},
		{"synccheck", "badcount.json", 1, badcountReport()},
		{"racecheck", "norace.json", 0, "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"},
		{"memcheck", "norace.json", 0, "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"},
		{"initcheck", "norace.json", 0, "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"},
		{"synccheck", "norace.json", 0, "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"},
	}
	for _, tc := range tests {
		t.Run(tc.tool+"/"+tc.file, func(t *testing.T) {
			code, stdout, stderr := runCLI("run", "--sanitize", tc.tool, lf(tc.file))
			want := tc.want
			if code != tc.code || stdout != want {
				t.Errorf("exit %d, want %d\n--- got\n%s--- want\n%s--- stderr\n%s", code, tc.code, stdout, want, stderr)
			}
		})
	}
}

// badcountReport is synccheck's report of badcount, a thread count that is
// not a multiple of the warp size: no finding, the kernel fails with an
// illegal instruction (the H100: testdata/sanitize/probe4/count_odd).
func badcountReport() string {
	return "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
}

// TestSanitizeBeyond checks what warpsim finds that compute-sanitizer does
// not (README, "Beyond compute-sanitizer"): each program is clean for the
// plain tool and reported with warpsim's flag.
func TestSanitizeBeyond(t *testing.T) {
	needClang(t)
	dir := buildSanitizeSuite(t, []string{"beyond/callee_overflow", "beyond/global_race"})
	programsCallThisBinary(t)
	tests := []struct {
		prog  string
		plain []string // the tool without warpsim's flag
		flag  string
		want  []string
	}{
		{"callee_overflow", []string{"--tool", "memcheck"}, "--check-local", []string{
			"========= Invalid __local__ write of size 4 bytes\n=========     at [clone kernel(int *, int)] fill(int)+0x240 in callee_overflow.cu:13\n=========     by thread (0,0,0) in block (0,0,0)\n=========     Access to 0xfffa80 is out of bounds\n=========     and is 1 bytes after the local array __local_depot0 of fill(int) (16 bytes)\n",
			"by thread (31,0,0) in block (0,0,0)",
			"unspecified launch failure\n",
			// 32 invalid writes, the failed cudaDeviceSynchronize and the
			// cudaFree refused with the sticky error (reported as the H100's
			// compute-sanitizer reports stencil_before's later cudaMemcpy).
			"on CUDA API call to cudaFree.",
			"ERROR SUMMARY: 34 errors",
		}},
		{"global_race", []string{"--tool", "racecheck"}, "--check-global-races", []string{
			"========= Error: Race reported between Write access at lastBlock(int *)+0x60 in global_race.cu:7\n=========     and Write access at lastBlock(int *)+0x60 in global_race.cu:7 [12 hazards]\n",
			"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.prog, func(t *testing.T) {
			prog := filepath.Join(dir, tc.prog)
			var out, errb bytes.Buffer
			run(append(append([]string{"sanitize"}, tc.plain...), prog), &out, &errb)
			if strings.Contains(out.String(), "Invalid") || strings.Contains(out.String(), "Race reported") {
				t.Errorf("without %s the tool should report nothing, as on the GPU:\n%s", tc.flag, out.String())
			}
			out.Reset()
			run(append(append([]string{"sanitize"}, tc.plain...), tc.flag, prog), &out, &errb)
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("with %s the report lacks %q:\n%s%s", tc.flag, w, out.String(), errb.String())
				}
			}
		})
	}
}

// TestSanitizeExitCode: the program's exit status, or --error-exitcode when
// errors were found; bad flags are bad input.
func TestSanitizeExitCode(t *testing.T) {
	needClang(t)
	dir := buildSanitizeSuite(t, []string{"oob_global", "clean_reduce"})
	programsCallThisBinary(t)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--error-exitcode", "7", filepath.Join(dir, "oob_global")}, 7},
		{[]string{filepath.Join(dir, "oob_global")}, 0},
		{[]string{"--error-exitcode", "7", filepath.Join(dir, "clean_reduce")}, 0},
		{[]string{"--tool", "bogus", filepath.Join(dir, "clean_reduce")}, exitBadInput},
		{[]string{"--racecheck-report", "some", filepath.Join(dir, "clean_reduce")}, exitBadInput},
		{[]string{"--leak-check", "yes", filepath.Join(dir, "clean_reduce")}, exitBadInput},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"sanitize"}, tc.args...), &out, &errb); code != tc.code {
			t.Errorf("sanitize %v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out.String(), errb.String())
		}
	}
}
