package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimingMode: --mode timing gives every timing metric a value, and
// the same value on a second run (the model is deterministic).
func TestRunTimingMode(t *testing.T) {
	lf := filepath.Join("testdata", "run", "vecadd.json")
	var first map[string]any
	for run := 0; run < 2; run++ {
		code, stdout, stderr := runCLI("run", "--mode", "timing", "--json", lf)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc runJSON
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		m := doc.Launches[0].Metrics
		for _, name := range []string{"elapsed_cycles", "duration_ns", "achieved_occupancy", "sm_efficiency", "ipc",
			"issue_slot_utilization", "gld_throughput", "dram_read_bytes", "l2_hit_rate", "stall_memory_dependency"} {
			if m[name] == nil {
				t.Errorf("%s is null in timing mode (%s)", name, doc.Launches[0].Unavailable[name])
			}
		}
		if d, _ := m["duration_ns"].(float64); d <= 0 {
			t.Errorf("duration_ns = %v, want > 0", m["duration_ns"])
		}
		if run == 0 {
			first = m
			continue
		}
		for k, v := range first {
			if m[k] != v {
				t.Errorf("%s: %v then %v: timing must be deterministic", k, v, m[k])
			}
		}
	}
}

// TestRunTrace: --trace writes a Chrome trace whose kernels follow each
// other on the simulated timeline and whose blocks sit on SM rows inside
// their kernel's span.
func TestRunTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	lf := filepath.Join("..", "..", "examples", "lessons", "reduce.json")
	if code, _, stderr := runCLI("run", "--mode", "timing", "--trace", path, lf); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Name    string
			Ph      string
			Ts, Dur float64
			Tid     int
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var kernels []string
	var end float64
	blocks := 0
	for _, e := range doc.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		if e.Tid == 0 {
			if e.Ts < end-1e-6 {
				t.Errorf("kernel %s starts at %.3f µs, before the previous one ended (%.3f)", e.Name, e.Ts, end)
			}
			end = e.Ts + e.Dur
			kernels = append(kernels, e.Name)
			continue
		}
		if e.Tid >= 100 {
			blocks++
			if e.Ts+e.Dur > end+1e-9 {
				t.Errorf("%s ends at %.3f µs, after its kernel (%.3f)", e.Name, e.Ts+e.Dur, end)
			}
		}
	}
	want := []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"}
	if strings.Join(kernels, ",") != strings.Join(want, ",") {
		t.Errorf("kernels %v, want %v", kernels, want)
	}
	if blocks != 3*8 {
		t.Errorf("%d block spans, want 24 (three grids of 8 blocks)", blocks)
	}
	if code, _, stderr := runCLI("run", "--trace", path, lf); code != 2 || !strings.Contains(stderr, "--trace needs --mode timing") {
		t.Errorf("--trace without timing: exit %d, %s", code, stderr)
	}
}
