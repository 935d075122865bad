package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCCReplay runs testdata/samples/replay_check.cu, whose every result
// is checked against the CPU's, with launch replay on (the default, in
// functional and in timing mode) and off: the same output each time, launches
// replayed only with it on, and where the program changed no memory
// between repeated launches.
func TestCCReplay(t *testing.T) {
	needClang(t)
	prog := buildCU(t, filepath.Join(samplesDir, "replay_check.cu"))
	runs := []struct {
		name     string
		env      []string
		replayed bool
	}{
		{"off", []string{"WARPSIM_MODE=functional", "WARPSIM_REPLAY=0"}, false},
		{"functional", []string{"WARPSIM_MODE=functional"}, true},
		{"timing", nil, true},
	}
	var want string
	for _, r := range runs {
		prof := filepath.Join(t.TempDir(), "profile.json")
		out, stderr, err := runProgramEnv(prog, append(r.env, "WARPSIM_PROFILE="+prof))
		if err != nil || !strings.HasSuffix(out, "PASSED\n") {
			t.Fatalf("%s: %v\n%s%s", r.name, err, out, stderr)
		}
		if want == "" {
			want = out
		} else if out != want {
			t.Errorf("%s: output\n%s\nwith replay off:\n%s", r.name, out, want)
		}
		b, err := os.ReadFile(prof)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Launches []struct {
				Kernel   string
				Replayed bool
			}
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		var replayed []int
		for i, l := range p.Launches {
			if l.Replayed {
				replayed = append(replayed, i)
			}
		}
		switch {
		case !r.replayed && len(replayed) > 0:
			t.Errorf("%s: launches %v replayed", r.name, replayed)
		case r.replayed && len(replayed) == 0:
			t.Errorf("%s: no launch replayed", r.name)
		}
		for _, i := range replayed {
			// The first six launches are the same launch on the same
			// memory; every later one follows a change of its input
			// but the second of each pinned pair.
			if i >= 6 && !(i >= 14 && i < 22 && i%2 == 1) {
				t.Errorf("%s: launch %d (%s) replayed", r.name, i, p.Launches[i].Kernel)
			}
		}
		t.Logf("%s: launches replayed: %v", r.name, replayed)
	}
}
