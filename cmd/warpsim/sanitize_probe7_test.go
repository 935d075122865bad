package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// probe7Dir holds probe7 (docs/sanitizer.md, "probe7"): a kernel's write
// past its own local array at several distances, and a write and a read
// of the shared memory of a cluster's block that has exited, after
// several delays, each recorded on the H100 plainly and under memcheck by
// its record.sh.
const probe7Dir = sanitizeDir + "/probe7"

// probe7Runs lists the runs record.sh makes, in its order.
func probe7Runs() []probe6Run {
	var runs []probe6Run
	for _, c := range []string{"0", "1"} {
		for _, i := range []string{"4", "8", "64", "256"} {
			for _, tool := range []string{"plain", "memcheck"} {
				runs = append(runs, probe6Run{"local_past", "i" + i + "c" + c, tool, []string{i, c}})
			}
		}
	}
	for _, op := range []string{"w", "wr", "r"} {
		for _, d := range []string{"0", "200000", "2000000", "20000000"} {
			for _, tool := range []string{"plain", "memcheck"} {
				runs = append(runs, probe6Run{"dsmem_late", op + d, tool, []string{op, d}})
			}
		}
	}
	return runs
}

// probe7NotYet are the runs where warpsim differs from the H100, each with
// what warpsim prints instead (docs/sanitizer.md, "probe7"): none since
// the .param scratch of calls left the stack and the kernel's stack top
// moved to where the driver puts it (internal/engine/stack.go).
var probe7NotYet = map[string]string{}

// TestSanitizeProbe7 runs every probe7 case plainly and under memcheck and
// compares what the program and the tool print with the H100's recording
// (local addresses masked; the "out" line only where the copy succeeded,
// as the program prints uninitialized host memory otherwise).
func TestSanitizeProbe7(t *testing.T) {
	needClang(t)
	progs := []string{"local_past", "dsmem_late", "ipc"}
	dir := buildSuite(t, probe7Dir, progs, "-lineinfo")
	programsCallThisBinary(t)
	t.Run("ipc.default.plain", func(t *testing.T) {
		stdout, stderr, err := runProgramErr(filepath.Join(dir, "ipc"))
		if err != nil {
			t.Fatalf("%v\nstderr:\n%s", err, stderr)
		}
		compareLists(t, "line", strings.Split(strings.TrimSpace(stdout), "\n"), strings.Split(strings.TrimSpace(readRecorded(t, probe7Dir, "ipc.default.plain.stdout")), "\n"))
	})
	for _, r := range probe7Runs() {
		name := r.prog + "." + r.name + "." + r.tool
		t.Run(name, func(t *testing.T) {
			rec := readRecorded(t, probe7Dir, name+".stdout")
			bin := filepath.Join(dir, r.prog)
			var out string
			if r.tool == "plain" {
				stdout, stderr, err := runProgramErr(bin, r.args...)
				if err != nil {
					t.Fatalf("%v\nstderr:\n%s", err, stderr)
				}
				out = stdout
			} else {
				var stdout, stderr bytes.Buffer
				run(append([]string{"sanitize", "--tool", r.tool, bin}, r.args...), &stdout, &stderr)
				out = stdout.String()
			}
			if instead, ok := probe7NotYet[name]; ok {
				if !strings.Contains(out, instead) {
					t.Errorf("expected today's difference %q; the output changed (update probe7NotYet):\n%s", instead, out)
				}
				return
			}
			got := parseSanitizerReport(out, false)
			want := parseSanitizerReport(rec, false)
			compareLists(t, "finding", got.findings, want.findings)
			compareLists(t, "summary line", got.summary, want.summary)
			compareLists(t, "program output line", probe7Program(got.program), probe7Program(want.program))
			if t.Failed() {
				t.Logf("warpsim printed:\n%s", out)
			}
		})
	}
}

// probe7Program masks the addresses of the program's lines but its "out"
// line's, the local addresses of k and of the write (where the kernel's
// frame lies below the top of the local window: engine/stack.go), which it
// drops after a failed copy (the program then prints uninitialized host
// memory).
func probe7Program(lines []string) []string {
	var out []string
	failed := false
	for _, l := range lines {
		if strings.HasPrefix(l, "cudaMemcpy") && !strings.HasSuffix(l, "cudaSuccess") {
			failed = true
		}
		if strings.HasPrefix(l, "out") {
			if !failed {
				out = append(out, l)
			}
			continue
		}
		out = append(out, hexRE.ReplaceAllString(l, "0x?"))
	}
	return out
}
