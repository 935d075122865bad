package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressSettingOneRule: warpsim run and warpsim sweep read
// WARPSIM_PROGRESS through internal/settings, as a program's runtime does:
// 0 and 1 are taken, anything else is refused (exit 2) with the runtime's
// message. Until 2026-11-29 both read it as "anything but 0 is on".
func TestProgressSettingOneRule(t *testing.T) {
	const want = `WARPSIM_PROGRESS="yes" is not valid: 0 (no progress bar) or 1 (unset it for the default)`
	t.Setenv("WARPSIM_PROGRESS", "yes")
	if code, _, stderr := runCLI("run", filepath.Join(runDir, "hello.json")); code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("run: exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
	db := filepath.Join(t.TempDir(), "small.db")
	if code, _, stderr := runCLI("sweep", filepath.Join("..", "..", "sweep", "testdata", "small.yaml"), "--db", db); code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("sweep: exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("sweep refused the setting but made %s", db)
	}
	for _, v := range []string{"0", "1"} {
		t.Setenv("WARPSIM_PROGRESS", v)
		if code, _, stderr := runCLI("run", filepath.Join(runDir, "hello.json")); code != 0 {
			t.Errorf("run with WARPSIM_PROGRESS=%s: exit %d:\n%s", v, code, stderr)
		}
	}
}
