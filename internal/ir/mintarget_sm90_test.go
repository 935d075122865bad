package ir

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// sm90onlyDir holds one PTX per sm_90 form (instruction, modifier, special
// register), written for .target sm_80, and what ptxas (CUDA 13, on the
// H100's machine) said of each under .target sm_80, sm_90 and sm_90a
// (recorded/NAME.TARGET.txt; testdata/sanitize/probe7/record.sh).
const sm90onlyDir = "../../testdata/ptxas/sm90only/"

var (
	ptxasErrRE  = regexp.MustCompile(`^ptxas \S+, line (\d+); error\s+: (.*)$`)
	ptxasExitRE = regexp.MustCompile(`^exit (\d+)$`)
	quotedRE    = regexp.MustCompile(`\(ptxas: (.*)\)$`)
)

// sm90aOnly are the forms ptxas accepts only under sm_90a, whose
// architecture-specific features they are: warpsim refuses them below
// sm_90 as ptxas does and accepts them under sm_90, where ptxas does not
// (clang, warpsim cc's default sm_90, emits them there from inline
// assembly; docs/ptx-support.md).
var sm90aOnly = []string{"wgmma_fence", "wgmma_commit", "wgmma_wait", "wgmma_mma", "setmaxnreg"}

// TestMinTargetMatchesPtxas: for every form and target, Check refuses
// the lines ptxas refused, quoting each of ptxas's messages for the line
// once and nothing more, and accepts what ptxas accepted.
func TestMinTargetMatchesPtxas(t *testing.T) {
	files, err := filepath.Glob(sm90onlyDir + "*.ptx")
	if err != nil || len(files) < 40 {
		t.Fatalf("%d PTX files in %s (%v), want the 42 recorded", len(files), sm90onlyDir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ptx")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{"sm_80", "sm_90", "sm_90a"} {
			t.Run(name+"/"+target, func(t *testing.T) {
				rec, err := os.ReadFile(sm90onlyDir + "recorded/" + name + "." + target + ".txt")
				if err != nil {
					t.Fatal(err)
				}
				var want []string // "line: message"
				exit := ""
				for _, l := range strings.Split(string(rec), "\n") {
					if m := ptxasErrRE.FindStringSubmatch(l); m != nil {
						want = append(want, m[1]+": "+m[2])
					} else if m := ptxasExitRE.FindStringSubmatch(l); m != nil {
						exit = m[1]
					}
				}
				if (exit == "0") != (len(want) == 0) {
					t.Fatalf("recording: exit %q with %d errors", exit, len(want))
				}
				text := strings.Replace(string(src), ".target sm_80\n", ".target "+target+"\n", 1)
				m, err := ptx.Parse(name+".ptx", []byte(text))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range Check(m) {
					q := quotedRE.FindStringSubmatch(e.Msg)
					if q == nil {
						t.Errorf("%v: quotes no ptxas message", e)
						continue
					}
					got = append(got, strconv.Itoa(e.Pos.Line)+": "+q[1])
				}
				if target == "sm_90" && slices.Contains(sm90aOnly, name) {
					if len(want) == 0 || len(got) != 0 {
						t.Errorf("the documented difference changed: ptxas %q, warpsim %q", want, got)
					}
					return
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("Check says %q\nptxas said %q", got, want)
				}
			})
		}
	}
}
