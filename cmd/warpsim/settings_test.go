package main

import (
	"strings"
	"testing"
)

// TestBadSettings: programs' runtime (warpsim __runtime) and warpsim prof
// reject bad WARPSIM_* settings, naming each variable and its valid values,
// instead of ignoring them; prof does before it starts the program.
func TestBadSettings(t *testing.T) {
	for _, c := range []struct {
		key, value, want string
	}{
		{"WARPSIM_STEP_LIMIT", "abc", `WARPSIM_STEP_LIMIT="abc" is not valid: a whole number of warp instructions per launch`},
		{"WARPSIM_WORKERS", "-3", `WARPSIM_WORKERS="-3" is not valid: a whole number of blocks simulated in parallel, 1 to 4096`},
		{"WARPSIM_ARCH", "bogus", `WARPSIM_ARCH="bogus" is not valid: a GPU preset: g80, gt200`},
	} {
		t.Run(c.key, func(t *testing.T) {
			t.Setenv(c.key, c.value)
			code, _, stderr := runCLI("__runtime")
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("__runtime: exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
			if c.key == "WARPSIM_ARCH" {
				return // prof sets WARPSIM_ARCH from --arch
			}
			code, stdout, stderr := runCLI("prof", "/bin/echo", "ran")
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stdout, "ran") {
				t.Errorf("prof: exit %d, stdout %q, stderr %q; want 2, %q and the program not started", code, stdout, stderr, c.want)
			}
		})
	}
}
