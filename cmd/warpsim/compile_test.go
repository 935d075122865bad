package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompile(t *testing.T) {
	needClang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(src, []byte("extern \"C\" __global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compile", src, "-o", "-"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{".target sm_90", ".visible .entry scale(", ".loc\t1 1 "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("PTX lacks %q:\n%s", want, stdout.String())
		}
	}
	out := filepath.Join(dir, "k.ptx")
	stdout.Reset()
	if code := run([]string{"compile", "--arch", "sm_80", src, "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte(".target sm_80")) {
		t.Errorf("%s: %v\n%s", out, err, b)
	}
}

func TestCompileErrors(t *testing.T) {
	needClang(t)
	bad := filepath.Join(t.TempDir(), "bad.cu")
	os.WriteFile(bad, []byte("__global__ void k() { return 1; }\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"compile", bad, "-o", "-"}, "bad.cu:1:23: error: void function 'k' should not return a value"},
		{[]string{"compile", "missing.cu"}, "missing.cu"},
		{[]string{"compile", "--arch", "volta", bad}, "expected sm_XX"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, stderr.String())
			}
		})
	}
}
