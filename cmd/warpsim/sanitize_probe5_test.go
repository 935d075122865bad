package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// probe5Dir holds probe5 (docs/sanitizer.md, "probe5"): bugs as users make
// them in classic and asynchronous code, each program recorded on the H100
// plainly and under the tools its runs.txt names.
const probe5Dir = sanitizeDir + "/probe5"

// TestSanitizeProbe5Plain runs every probe5 program without a sanitizer and
// compares its output (each CUDA call's status, the values it prints) with
// the H100's plain run: what a bug does when nobody checks for it.
func TestSanitizeProbe5Plain(t *testing.T) {
	needClang(t)
	srcs, _ := filepath.Glob(filepath.Join(probe5Dir, "*.cu"))
	sort.Strings(srcs)
	var progs []string
	for _, s := range srcs {
		progs = append(progs, strings.TrimSuffix(filepath.Base(s), ".cu"))
	}
	dir := buildSuite(t, probe5Dir, progs, "-lineinfo")
	programsCallThisBinary(t)
	for _, p := range progs {
		t.Run(p, func(t *testing.T) {
			stdout, stderr, err := runProgramErr(filepath.Join(dir, p))
			if err != nil {
				t.Fatalf("%v\nstderr:\n%s", err, stderr)
			}
			want := nonEmptyLines(readRecorded(t, probe5Dir, p+".plain.stdout"))
			for _, d := range probe5PlainDifferences[p] {
				n := 0
				for i, l := range want {
					if l == d[0] {
						want[i] = d[1]
						n++
					}
				}
				if n == 0 {
					t.Errorf("the recording has no line %q (probe5PlainDifferences)", d[0])
				}
			}
			compareLists(t, "output line", nonEmptyLines(stdout), want)
			if t.Failed() {
				t.Logf("stderr:\n%s", stderr)
			}
		})
	}
}

// readRecorded reads file name of suite's recorded/.
func readRecorded(t *testing.T, suite, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(suite, "recorded", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// probe5PlainDifferences are the plain runs' output lines where warpsim
// differs from the H100, each line of the recording (first) replaced by
// what warpsim prints (second). None since probe7 (dsmem_late) showed a
// write into the shared memory of an exited cluster block dropped at any
// delay, which warpsim now does, so dsmem_exited matches.
var probe5PlainDifferences = map[string][][2]string{}
