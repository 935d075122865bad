package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveDirFailures: a buffer whose file cannot be replaced (here
// DIR/<name>.bin is a directory) is reported by name, every one of them,
// and the files that could be written still are; the exit status is 2.
func TestSaveDirFailures(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.bin", "c.bin"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI("run", "--save-dir", dir, filepath.Join(runDir, "vecadd.json"))
	if code != 2 {
		t.Fatalf("exit status %d, want 2\n%s", code, stderr)
	}
	for _, want := range []string{"--save-dir: buffer a: ", "--save-dir: buffer c: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "b.bin")); err != nil || fi.Size() == 0 {
		t.Errorf("b.bin not written: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestFaultAndSaveDirFailure: a kernel fault and a --save-dir failure (DIR
// is a file) are both reported, and the exit status is the fault's.
func TestFaultAndSaveDirFailure(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("run", "--save-dir", notADir, filepath.Join(runDir, "oob.json"))
	if code != 1 {
		t.Fatalf("exit status %d, want 1 (the fault)\n%s", code, stderr)
	}
	for _, want := range []string{"oob", "--save-dir: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: both the fault and the --save-dir failure must be reported:\n%s", want, stderr)
		}
	}
}
