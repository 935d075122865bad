package main

import (
	"strings"
	"testing"
)

// TestBadSettings: warpsim prof rejects bad WARPSIM_* settings before it
// starts the program, naming each variable and its valid values. (A program
// run on its own hears of a bad setting at its first CUDA call, which
// returns an error code: TestRuntimeSettings.)
func TestBadSettings(t *testing.T) {
	for _, c := range []struct {
		key, value, want string
	}{
		{"WARPSIM_STEP_LIMIT", "abc", `WARPSIM_STEP_LIMIT="abc" is not valid: a whole number of warp instructions per launch`},
		{"WARPSIM_WORKERS", "-3", `WARPSIM_WORKERS="-3" is not valid: a whole number of blocks simulated in parallel, 1 to 4096`},
	} {
		t.Run(c.key, func(t *testing.T) {
			t.Setenv(c.key, c.value)
			code, stdout, stderr := runCLI("prof", "/bin/echo", "ran")
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stdout, "ran") {
				t.Errorf("prof: exit %d, stdout %q, stderr %q; want 2, %q and the program not started", code, stdout, stderr, c.want)
			}
		})
	}
}
