package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTriton3RacecheckMatchesH100: three kernels of the third Triton batch
// in which several threads store the same value to one shared word
// (argmin, histogram, custom reductions) are clean under the H100's
// compute-sanitizer racecheck (testdata/triton3/sanitize, run.sh there);
// `warpsim run --sanitize racecheck` on both of their PTX files prints the
// same summary and no finding.
func TestTriton3RacecheckMatchesH100(t *testing.T) {
	for _, k := range []string{"argmin_f32", "histogram_i32", "reduce_custom"} {
		rec, err := os.ReadFile(filepath.Join("../../testdata/triton3/sanitize", "triton_"+k+".racecheck.stdout"))
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		for _, l := range strings.Split(string(rec), "\n") {
			if strings.Contains(l, "RACECHECK SUMMARY") {
				want = strings.TrimSpace(strings.TrimPrefix(l, "========="))
			}
		}
		if want == "" {
			t.Fatalf("%s: no summary in the recording", k)
		}
		for _, lf := range []string{"launch.json", "launch_sm80.json"} {
			var out, errb bytes.Buffer
			path := filepath.Join("../../testdata/triton3", k, lf)
			if code := run([]string{"run", "--sanitize", "racecheck", path}, &out, &errb); code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", path, code, out.String(), errb.String())
			}
			got := out.String() + errb.String()
			if !strings.Contains(got, want) || strings.Contains(got, "Race reported") {
				t.Errorf("%s: want only %q (the H100's), got:\n%s", path, want, got)
			}
		}
	}
}
