package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// probe6Dir holds probe6 (docs/sanitizer.md, "probe6"): plain loads and
// stores straddling an allocation's end, where call frames lie in local
// memory, and a racy histogram with one warp held back, each run recorded
// on the H100 plainly and under a tool by its record.sh.
const probe6Dir = sanitizeDir + "/probe6"

// probe6Run is one recorded run: program, case name, tool ("plain" or a
// compute-sanitizer tool) and the program's arguments.
type probe6Run struct {
	prog, name, tool string
	args             []string
}

// probe6Runs lists the runs record.sh makes, in its order.
func probe6Runs(t *testing.T) []probe6Run {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(probe6Dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []probe6Run
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || strings.HasPrefix(line, "#") {
			continue
		}
		name := f[0] + f[1] + "w" + f[2] + "o" + f[3]
		for _, tool := range []string{"plain", "memcheck"} {
			runs = append(runs, probe6Run{"straddle", name, tool, f})
		}
	}
	runs = append(runs, probe6Run{"frames", "default", "plain", nil})
	for _, m := range []string{"below", "past"} {
		for _, tool := range []string{"plain", "memcheck"} {
			runs = append(runs, probe6Run{"local_below", m, tool, []string{m}})
		}
	}
	for _, d := range []string{"1", "0"} {
		for _, tool := range []string{"plain", "racecheck", "racecheck-hazard"} {
			runs = append(runs, probe6Run{"hist_order", "delay" + d, tool, []string{d}})
		}
	}
	return runs
}

// probe6NotYet are the runs where warpsim differs from the H100, each with
// what warpsim prints instead (docs/sanitizer.md, "probe6"). None since
// probe7: nvcc's local_below past wrote k[4] into the callee's array,
// which ptxas places inside the kernel's frame, and warpsim's frames are
// laid out so too.
var probe6NotYet = map[string]string{}

// TestSanitizeProbe6 runs every probe6 case plainly and under its tool and
// compares what the program and the tool print with the H100's recording.
func TestSanitizeProbe6(t *testing.T) {
	needClang(t)
	progs := []string{"straddle", "frames", "local_below", "hist_order"}
	dir := buildSuite(t, probe6Dir, progs, "-lineinfo")
	programsCallThisBinary(t)
	for _, r := range probe6Runs(t) {
		name := r.prog + "." + r.name + "." + r.tool
		t.Run(name, func(t *testing.T) {
			rec := readRecorded(t, probe6Dir, name+".stdout")
			bin := filepath.Join(dir, r.prog)
			if r.tool == "plain" {
				stdout, stderr, err := runProgramErr(bin, r.args...)
				if err != nil {
					t.Fatalf("%v\nstderr:\n%s", err, stderr)
				}
				got, want := nonEmptyLines(stdout), nonEmptyLines(rec)
				if r.prog == "frames" {
					checkFrames(t, got, want)
					return
				}
				compareLists(t, "output line", got, want)
				return
			}
			args := []string{"sanitize", "--tool", strings.TrimSuffix(r.tool, "-hazard")}
			if strings.HasSuffix(r.tool, "-hazard") {
				args = append(args, "--racecheck-report", "hazard")
			}
			var stdout, stderr bytes.Buffer
			run(append(append(args, bin), r.args...), &stdout, &stderr)
			if instead, ok := probe6NotYet[name]; ok {
				if !strings.Contains(stdout.String(), instead) {
					t.Errorf("expected today's difference %q; the output changed (update probe6NotYet):\n%s%s", instead, stdout.String(), stderr.String())
				}
				return
			}
			hazard := strings.HasSuffix(r.tool, "-hazard")
			got := parseSanitizerReport(stdout.String(), hazard)
			want := parseSanitizerReport(rec, hazard)
			if r.prog == "straddle" {
				for i, f := range want.findings {
					want.findings[i] = straddleAsClang(t, f, r.args)
				}
			}
			compareLists(t, "finding", got.findings, want.findings)
			compareLists(t, "summary line", got.summary, want.summary)
			compareLists(t, "program output line", got.program, want.program)
			if t.Failed() {
				t.Logf("warpsim sanitize printed:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
		})
	}
}

var frameLineRE = regexp.MustCompile(`^thread (\d+) (kernel|depth \d+) array at (0x[0-9a-f]+)$`)

// checkFrames compares frames' output with the H100's where it does not
// depend on ptxas's frame sizes: the same lines with the addresses
// masked, every array at the same address in both threads and under both
// stack limits, and each call's array below its caller's (the stack grows
// down from the kernel's frame).
func checkFrames(t *testing.T, got, want []string) {
	t.Helper()
	mask := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = hexRE.ReplaceAllString(l, "0x?")
		}
		return out
	}
	compareLists(t, "output line (addresses masked)", mask(got), mask(want))
	for _, side := range []struct {
		who   string
		lines []string
	}{{"warpsim", got}, {"H100", want}} {
		at := map[string]uint64{} // "kernel", "depth 1", … → address
		for _, l := range side.lines {
			m := frameLineRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			a, _ := strconv.ParseUint(m[3][2:], 16, 64)
			if prev, ok := at[m[2]]; ok && prev != a {
				t.Errorf("%s: the %s array moved (%#x, then %#x in %q)", side.who, m[2], prev, a, l)
			}
			at[m[2]] = a
		}
		prev, prevName := at["kernel"], "kernel"
		for d := 1; d <= 3; d++ {
			n := "depth " + strconv.Itoa(d)
			if at[n] >= prev {
				t.Errorf("%s: the %s array at %#x is not below the %s array at %#x", side.who, n, at[n], prevName, prev)
			}
			prev, prevName = at[n], n
		}
	}
}

var afterRE = regexp.MustCompile(`and is (\d+) bytes after|and is inside`)

// straddleAsClang turns the H100's memcheck finding for straddle's case
// args (op size width offset) into what warpsim says of clang's code, two
// documented differences: compute-sanitizer names a template's parameter
// types by the template's parameters (T1), warpsim by the types
// substituted (the demangler substitutes them); and clang copies a uint4
// as two 8-byte halves, the upper first (ld/st.global.b64 [p+8], then
// [p]), where nvcc makes one 16-byte access, so the first invalid access
// is the 8 bytes at offset+8, described in the H100's words for it.
func straddleAsClang(t *testing.T, finding string, args []string) string {
	t.Helper()
	size, _ := strconv.Atoi(args[1])
	width, _ := strconv.Atoi(args[2])
	off, _ := strconv.Atoi(args[3])
	typ := map[int]string{4: "unsigned int", 8: "uint2", 16: "uint4"}[width]
	finding = strings.ReplaceAll(finding, "T1", typ)
	if width != 16 || !strings.HasPrefix(finding, "Invalid ") {
		return finding
	}
	finding = strings.Replace(finding, "of size 16 bytes", "of size 8 bytes", 1)
	where := "and is inside"
	if at := off + 8; at >= size {
		where = "and is " + strconv.Itoa(at-size+1) + " bytes after"
	}
	if !afterRE.MatchString(finding) {
		t.Fatalf("the recorded finding does not place the access: %q", finding)
	}
	return afterRE.ReplaceAllString(finding, where)
}
