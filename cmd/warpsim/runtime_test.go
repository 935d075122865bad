package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeCU writes a program into dir and builds it.
func writeCU(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name+".cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return buildCU(t, path)
}

// TestRuntimeSettings: a bad WARPSIM_* setting is reported once, naming
// the variable and what it accepts, and the program's CUDA calls return an
// error code; the program itself runs on (no "lost the simulator").
func TestRuntimeSettings(t *testing.T) {
	needClang(t)
	prog := writeCU(t, "settings", `#include <cstdio>
int main() {
  void *p;
  printf("%s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("still running\n");
  return 0;
}
`)
	cases := []struct {
		env, code, mention string
	}{
		{"WARPSIM_STEP_LIMIT=abc", "cudaErrorInvalidValue", "WARPSIM_STEP_LIMIT=\"abc\""},
		{"WARPSIM_WORKERS=-3", "cudaErrorInvalidValue", "WARPSIM_WORKERS=\"-3\""},
		{"WARPSIM_ARCH=bogus", "cudaErrorNoDevice", "WARPSIM_ARCH=\"bogus\""},
		{"WARPSIM_TIMEOUT=soon", "cudaErrorInvalidValue", "WARPSIM_TIMEOUT=\"soon\""},
		{"WARPSIM_SANITIZE=bogus", "cudaErrorInvalidValue", "WARPSIM_SANITIZE"},
	}
	for _, c := range cases {
		t.Run(c.env, func(t *testing.T) {
			cmd := exec.Command(prog)
			cmd.Env = append(os.Environ(), "WARPSIM_TEST_AS_CLI=1", "WARPSIM_PROGRESS=0", c.env)
			var o, e strings.Builder
			cmd.Stdout, cmd.Stderr = &o, &e
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, o.String(), e.String())
			}
			want := c.code + "\n" + c.code + "\nstill running\n"
			if o.String() != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", o.String(), want)
			}
			if strings.Count(e.String(), c.mention) != 1 || !strings.Contains(e.String(), "valid") || strings.Contains(e.String(), "lost the simulator") {
				t.Errorf("stderr should name %s once, with the valid values:\n%s", c.mention, e.String())
			}
		})
	}
}

// memTotal is the machine's memory (MemTotal in /proc/meminfo).
func memTotal(t *testing.T) uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Fatal("/proc/meminfo has no MemTotal line")
	return 0
}

// TestHugeAllocations: cudaMalloc of 40 and 60 GiB, and of more than the
// machine has, either succeeds or fails cleanly with
// cudaErrorMemoryAllocation (never the simulator running out of memory);
// more than the machine has always fails; the program goes on.
func TestHugeAllocations(t *testing.T) {
	needClang(t)
	prog := writeCU(t, "huge", `#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    void *p = nullptr;
    size_t n = strtoull(argv[i], nullptr, 10);
    cudaError_t e = cudaMalloc(&p, n);
    printf("%s %s\n", argv[i], cudaGetErrorName(e));
    cudaGetLastError();
    if (p) cudaFree(p);
  }
  void *small;
  printf("1 MiB afterwards: %s\n", cudaGetErrorName(cudaMalloc(&small, 1 << 20)));
  size_t freeB, total;
  cudaMemGetInfo(&freeB, &total);
  printf("free <= total: %s\n", freeB <= total ? "yes" : "no");
  return 0;
}
`)
	over := memTotal(t) + 8<<30
	args := []string{strconv.FormatUint(40<<30, 10), strconv.FormatUint(60<<30, 10), strconv.FormatUint(over, 10)}
	out, stderr, err := runProgramErr(prog, args...)
	if err != nil || strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "lost the simulator") {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	lines := strings.Split(out, "\n")
	for i, a := range args {
		if !strings.HasPrefix(lines[i], a+" cudaSuccess") && !strings.HasPrefix(lines[i], a+" cudaErrorMemoryAllocation") {
			t.Errorf("line %d: %q", i, lines[i])
		}
	}
	if lines[2] != args[2]+" cudaErrorMemoryAllocation" {
		t.Errorf("an allocation larger than the machine: %q, want cudaErrorMemoryAllocation", lines[2])
	}
	if lines[3] != "1 MiB afterwards: cudaSuccess" || lines[4] != "free <= total: yes" {
		t.Errorf("after the big allocations:\n%s", out)
	}
}
