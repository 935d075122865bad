package main

import (
	"encoding/json"
	"path/filepath"
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
