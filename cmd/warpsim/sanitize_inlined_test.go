package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// inlinedRuns are recorded runs whose access the compiler inlined from
// another function (a header's, or the suite's own mbar.h): the H100 names
// it by that function, and so must warpsim for a program built by warpsim
// cc (docs/sanitizer.md, "Inlined frames"; clang's inlining records read by
// cuda/cc/inlines.go). Before, warpsim named the kernel.
var inlinedRuns = []struct {
	dir, prog, tag string
	args           []string
	build          func(t *testing.T, progs []string) string
}{
	{mbarDir, "async_cp_uninit", "memcheck", []string{"--tool", "memcheck"}, buildMbarSuite},
	{mbarDir, "mbar_overflow", "memcheck", []string{"--tool", "memcheck"}, buildMbarSuite},
	{mbarDir, "mbar_uninit", "memcheck", []string{"--tool", "memcheck"}, buildMbarSuite},
	{sanitizeDir + "/probe5", "atomic_oob", "memcheck", []string{"--tool", "memcheck"}, buildProbe5},
	{sanitizeDir + "/probe5", "ldg_uninit", "initcheck", []string{"--tool", "initcheck"}, buildProbe5},
	{sanitizeDir + "/probe5", "pipeline_no_wait", "racecheck", []string{"--tool", "racecheck"}, buildProbe5},
	{sanitizeDir, "syncwarp_mask", "synccheck", []string{"--tool", "synccheck"}, buildSanitizeSuite},
}

func buildProbe5(t *testing.T, progs []string) string {
	t.Helper()
	return buildSuite(t, sanitizeDir+"/probe5", progs, "-lineinfo")
}

// accessAtRE is where a report places an access: "at FUNC+0xOFF in
// FILE:LINE" (memcheck's "at" line, racecheck's "Write access at …").
var accessAtRE = regexp.MustCompile(`\bat (.+)\+0x[0-9a-f]+ in ([^ :]+):(\d+)`)

// deviceFrameRE is a caller of inlined code, "Device Frame: FUNC+0xOFF in
// FILE:LINE" (memcheck's, initcheck's and synccheck's reports).
var deviceFrameRE = regexp.MustCompile(`Device Frame: (.+)\+0x[0-9a-f]+ in ([^ :]+):(\d+)$`)

// inlinedPlaces lists the distinct places a report names, in order: the
// function exactly, and its file and line where the file is the suite's
// own (a line of CUDA's headers is not warpsim's: "(CUDA header)"); and
// each Device Frame line, a caller in the suite's own files, the same way
// ("frame " before it). A caller inside CUDA's headers is left out: how
// many levels the header's functions take is NVIDIA's header's, not
// warpsim's (parseSanitizerReport).
func inlinedPlaces(report, dir string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(report, "\n") {
		m, frame := accessAtRE.FindStringSubmatch(line), ""
		if f := deviceFrameRE.FindStringSubmatch(line); f != nil {
			if _, err := os.Stat(filepath.Join(dir, f[2])); err != nil {
				continue
			}
			m, frame = f, "frame "
		}
		if m == nil {
			continue
		}
		where := m[2] + ":" + m[3]
		if _, err := os.Stat(filepath.Join(dir, m[2])); err != nil {
			where = "(CUDA header)"
		}
		p := frame + m[1] + " in " + where
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// TestSanitizeInlinedNames runs each program under `warpsim sanitize` and
// compares the functions its findings name, and the callers its Device
// Frame lines name, with the H100's recording.
func TestSanitizeInlinedNames(t *testing.T) {
	needClang(t)
	for _, r := range inlinedRuns {
		t.Run(r.prog+"."+r.tag, func(t *testing.T) {
			bin := r.build(t, []string{r.prog})
			programsCallThisBinary(t)
			rec, err := os.ReadFile(filepath.Join(r.dir, "recorded", r.prog+"."+r.tag+".stdout"))
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			run(append(append([]string{"sanitize"}, r.args...), filepath.Join(bin, r.prog)), &stdout, &stderr)
			want := inlinedPlaces(string(rec), r.dir)
			got := inlinedPlaces(stdout.String(), r.dir)
			if len(want) == 0 {
				t.Fatal("the recording names no place")
			}
			if r.tag != "racecheck" && !slices.ContainsFunc(want, func(p string) bool { return strings.HasPrefix(p, "frame ") }) {
				t.Fatal("the recording names no caller (Device Frame)")
			}
			compareLists(t, "place", got, want)
			if t.Failed() {
				t.Logf("warpsim sanitize printed:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
		})
	}
}
