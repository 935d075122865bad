package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRejectsOperandTypes: a module whose operand types ptxas rejects
// exits 2 before anything runs, with every error at its file:line:col.
func TestRunRejectsOperandTypes(t *testing.T) {
	code, stdout, stderr := runCLI("run", filepath.Join(runDir, "badtypes.json"))
	if code != 2 {
		t.Fatalf("exit status %d, want 2\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	for _, want := range []string{
		"badtypes.ptx:14:20: add.s32: operand %rd1 is .b64",
		"badtypes.ptx:15:24: st.global.u64: operand %r1 is .b32, which must be at least as wide as .u64",
		"badtypes.ptx:16:14: setp.lt.s32: destination %r3 is .b32; it must be a predicate",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
