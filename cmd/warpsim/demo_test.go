package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs `warpsim demo` and checks each lesson's result against what
// the H100 printed for the same lesson (h100_seed_runs.txt: `divergence 64
// 64`; the reduce lesson's own CPU sum, 2^20 × 255·256/2 / 256 = 133693440),
// then the whole output of the lessons (before the occupancy lesson, which
// demo_occupancy_test.go covers) against testdata/demo/lessons.golden.
func TestDemo(t *testing.T) {
	code, stdout, stderr := runCLI("demo")
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Kernel: warmingup    sum 9600.0 first8: 100 100 100 100 100 100 100 100  OK, as on the H100",
		"Kernel: mathKernel1    sum 9600.0 first8: 100 200 100 200 100 200 100 200  OK, as on the H100",
		"Kernel: mathKernel2    sum 9600.0 first8: 100 100 100 100 100 100 100 100  OK, as on the H100",
		"Kernel: mathKernel3    sum 9600.0 first8: 100 200 100 200 100 200 100 200  OK, as on the H100",
		"Kernel: mathKernel4    sum 12800.0 first8: 200 200 200 200 200 200 200 200  OK, as on the H100",
		"array 1048576 grid 2048 block 512 cpu_sum 133693440",
		"Kernel: reduceNeighbored    gpu_sum 133693440 OK",
		"Kernel: reduceNeighboredLess    gpu_sum 133693440 OK",
		"Kernel: reduceInterleaved    gpu_sum 133693440 OK",
		"== Occupancy",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if strings.Contains(stdout, "MISMATCH") {
		t.Errorf("a lesson's result does not match")
	}
	for _, cf := range []string{"1", "2", "4"} {
		prefix := "Kernel: matmulCoarse<16, " + cf + ">    maxabs_err_vs_fp64 "
		i := strings.Index(stdout, prefix)
		if i < 0 || !strings.Contains(stdout[i:min(len(stdout), i+len(prefix)+20)], " OK") {
			t.Errorf("coarsening CF=%s: no OK result", cf)
		}
	}
	lessons, _, _ := strings.Cut(stdout, "== Occupancy")
	path := filepath.Join("testdata", "demo", "lessons.golden")
	if *update {
		if err := os.WriteFile(path, []byte(lessons), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if lessons != string(want) {
		t.Errorf("demo lessons differ from %s:\n--- got\n%s--- want\n%s", path, lessons, want)
	}
}
