package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// TestRunInternalErrorExit1: a panic in the timing path (injected through
// the engine's test-only Step hook at the hello kernel's ret, after its
// printf) is reported as an internal error with exit status 1, and what
// the kernel printed before it is printed.
func TestRunInternalErrorExit1(t *testing.T) {
	engine.SetStepHook(func(block, warp int, in *ir.Inst) {
		if in != nil && (in.Op == ir.OpRet || in.Op == ir.OpExit) {
			panic("injected internal error")
		}
	})
	defer engine.SetStepHook(nil)
	code, stdout, stderr := runCLI("run", "--mode", "timing", filepath.Join("testdata", "run", "hello.json"))
	t.Logf("stderr:\n%s", stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (a kernel fault)", code)
	}
	for _, want := range []string{"warpsim internal error", "injected internal error", "please report it", "kernel hello"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stdout, "\n"); n < 4 || !strings.Contains(stdout, "10.0") {
		t.Errorf("the kernel's printf output before the panic was lost:\n%s", stdout)
	}
}
