package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readmeDemoMarker opens the README's quoted demo output: the fenced block
// after it holds lines `warpsim demo` prints, lesson by lesson, in its
// order, with "…" for lines left out.
const readmeDemoMarker = "<!-- demo output:"

// readmeDemoLessons returns the README's quoted demo output, one entry per
// lesson: its "== Lesson" header line first, then the quoted lines without
// the "…" that stand for lines left out.
func readmeDemoLessons(t *testing.T) [][]string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, found := strings.Cut(string(readme), readmeDemoMarker)
	if !found {
		t.Fatalf("README.md has no %q comment before its demo block", readmeDemoMarker)
	}
	_, block, _ := strings.Cut(after, "```\n")
	block, _, found = strings.Cut(block, "```")
	if !found {
		t.Fatal("README.md: the demo block after the marker has no closing fence")
	}
	var lessons [][]string
	for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		line = strings.TrimRight(line, " ")
		switch {
		case strings.HasPrefix(line, "== Lesson"):
			lessons = append(lessons, []string{line})
		case len(lessons) == 0:
			t.Fatalf("README.md: the demo block starts with %q, not a lesson's \"== Lesson\" header", line)
		case line != "…":
			lessons[len(lessons)-1] = append(lessons[len(lessons)-1], line)
		}
	}
	if len(lessons) == 0 {
		t.Fatal("README.md: the demo block quotes no lesson")
	}
	return lessons
}

// checkREADMEDemo checks the README's quoted demo output against what a
// run of the demo printed (stdout); see readmeDemoDrift. It returns how many
// quoted lessons it checked.
func checkREADMEDemo(t *testing.T, stdout string, all bool) int {
	t.Helper()
	drift, checked := readmeDemoDrift(readmeDemoLessons(t), stdout, all)
	for _, d := range drift {
		t.Error(d)
	}
	return checked
}

// readmeDemoDrift compares quoted lessons with a run's output: every quoted
// lesson whose header the run printed must be there line for line, in
// order, within that lesson. With all set the run was the whole demo, so
// every quoted lesson must be in it. It returns a message per drift and how
// many quoted lessons it compared.
func readmeDemoDrift(quotedLessons [][]string, stdout string, all bool) (drift []string, checked int) {
	lines := strings.Split(stdout, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for _, quoted := range quotedLessons {
		start := slices.Index(lines, quoted[0])
		if start < 0 {
			if all {
				drift = append(drift, fmt.Sprintf("README.md quotes the demo's %q, which the demo no longer prints", quoted[0]))
			}
			continue
		}
		end := start + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "== ") {
			end++
		}
		printed := lines[start:end]
		next := 1
		for _, l := range printed[1:] {
			if next < len(quoted) && l == quoted[next] {
				next++
			}
		}
		if next < len(quoted) {
			drift = append(drift, fmt.Sprintf("README.md's demo block (%s) has a line the demo does not print there, in that order:\n  %q\n"+
				"--- README.md quotes\n%s\n--- the demo printed\n%s",
				quoted[0], quoted[next], strings.Join(quoted, "\n"), strings.Join(printed, "\n")))
		}
		checked++
	}
	return drift, checked
}

// readmeTensorTimes finds the README's figures for the tensor lesson,
// "(S/W/M µs against the H100's S/W/M µs)": warpsim's and the H100's times
// of sgemmTiled, wmmaGemm and mmaAsync to 0.1 µs.
var readmeTensorTimes = regexp.MustCompile(`Lesson 6 times one GEMM[^(]*\(([0-9.]+)/([0-9.]+)/([0-9.]+) µs against the H100's ([0-9.]+)/([0-9.]+)/([0-9.]+) µs\)`)

// checkREADMETensorTimes checks the README's tensor-lesson figures against
// the times the demo's tensor lesson (out) printed, rounded to 0.1 µs.
func checkREADMETensorTimes(t *testing.T, out string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := readmeTensorTimes.FindStringSubmatch(strings.Join(strings.Fields(string(readme)), " "))
	if m == nil {
		t.Fatal("README.md has no \"Lesson 6 times one GEMM … (S/W/M µs against the H100's S/W/M µs)\"")
	}
	var got []string
	for _, kernel := range []string{"sgemmTiled:", "wmmaGemm:", "mmaAsync:"} {
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) < 4 || f[0] != kernel || f[len(f)-1] != "µs" || f[len(f)-3] != "µs" {
				continue
			}
			for _, s := range []string{f[len(f)-4], f[len(f)-2]} {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("tensor lesson line %q: %v", line, err)
				}
				got = append(got, fmt.Sprintf("%.1f", v))
			}
		}
	}
	if len(got) != 6 {
		t.Fatalf("tensor lesson: %d times, want warpsim's and the H100's for three kernels:\n%s", len(got), out)
	}
	want := fmt.Sprintf("(%s/%s/%s µs against the H100's %s/%s/%s µs)", got[0], got[2], got[4], got[1], got[3], got[5])
	if have := fmt.Sprintf("(%s/%s/%s µs against the H100's %s/%s/%s µs)", m[1], m[2], m[3], m[4], m[5], m[6]); have != want {
		t.Errorf("README.md's tensor lesson says %s; the demo printed %s", have, want)
	}
}

// TestREADMEDemoCheckCatchesDrift: the README check reports a quoted line
// the demo does not print, quoted lines out of order and a quoted lesson the
// whole demo no longer prints, and passes the README's own lines and a run
// that did not include a quoted lesson.
func TestREADMEDemoCheckCatchesDrift(t *testing.T) {
	lessons := readmeDemoLessons(t)
	var whole []string
	for _, l := range lessons {
		whole = append(whole, l...)
	}
	good := strings.Join(whole, "\n") + "\n"
	first := lessons[0]
	last := first[len(first)-1]
	cases := []struct {
		name   string
		stdout string
		all    bool
		drifts bool
	}{
		{"as quoted", good, true, false},
		{"a figure changed", strings.Replace(good, last, last+"0", 1), false, true},
		{"two lines swapped", strings.Replace(good, first[1]+"\n"+first[2], first[2]+"\n"+first[1], 1), false, true},
		{"a lesson gone", strings.Replace(good, first[0], "== Lesson 99", 1), true, true},
		{"a lesson not run", strings.Replace(good, first[0], "== Lesson 99", 1), false, false},
	}
	for _, c := range cases {
		drift, _ := readmeDemoDrift(lessons, c.stdout, c.all)
		if (len(drift) > 0) != c.drifts {
			t.Errorf("%s: drift %q, want drift %v", c.name, drift, c.drifts)
		}
	}
}
