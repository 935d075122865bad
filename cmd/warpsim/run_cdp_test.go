package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunDeviceLaunches runs the nested lesson's kernels from a launch
// file: nestedHelloWorld<<<1, 8>>>(8, 0) launches a chain of grids of 4, 2
// and 1 threads from the device, fanOut<<<1, 1>>>(3000, ctr) 3000
// identical fanOutChild<<<1, 1>>> grids. The JSON document lists each
// launch followed by the grids launched under it (the 3000 folded into one
// entry); each entry's metrics are of its own grid; the table counts host
// and device invocations.
func TestRunDeviceLaunches(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(lessonsDir, "nested.sm90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	lf := filepath.Join(dir, "nested.json")
	os.WriteFile(filepath.Join(dir, "nested.ptx"), src, 0o644)
	os.WriteFile(lf, []byte(`{
  "module": "nested.ptx",
  "buffers": {"ctr": {"u32": [0]}},
  "launches": [
    {"kernel": "nestedHelloWorld", "grid": [1], "block": [8], "args": [{"s32": 8}, {"s32": 0}]},
    {"kernel": "fanOut", "grid": [1], "block": [1], "args": [{"s32": 3000}, {"buffer": "ctr"}]}
  ]
}`), 0o644)
	code, stdout, stderr := runCLI("run", "--json-out", filepath.Join(dir, "out.json"), "--metrics", "blocks_launched,device_launches,warps_launched", lf)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"Kernel: nestedHelloWorld(int, int) 4 blocks_launched",
		"Kernel: fanOut(int, int*) 1 blocks_launched",
		"Kernel: fanOutChild(int*) 3000 blocks_launched",
	} {
		if !strings.Contains(squeeze(stdout), w) {
			t.Errorf("table lacks %q:\n%s", w, stdout)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Launches []struct {
			Kernel  string
			Block   []int
			Device  bool
			Count   int
			Metrics map[string]float64
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		kernel         string
		block          int
		device         bool
		count          int
		deviceLaunches float64
		warpsLaunched  float64
	}
	want := []entry{
		{"nestedHelloWorld(int, int)", 8, false, 0, 1, 1},
		{"nestedHelloWorld(int, int)", 4, true, 1, 1, 1},
		{"nestedHelloWorld(int, int)", 2, true, 1, 1, 1},
		{"nestedHelloWorld(int, int)", 1, true, 1, 0, 1},
		{"fanOut(int, int*)", 1, false, 0, 3000, 1},
		{"fanOutChild(int*)", 1, true, 3000, 0, 1},
	}
	if len(doc.Launches) != len(want) {
		t.Fatalf("%d entries, want %d:\n%s", len(doc.Launches), len(want), b)
	}
	for i, w := range want {
		l := doc.Launches[i]
		got := entry{l.Kernel, l.Block[0], l.Device, l.Count, l.Metrics["device_launches"], l.Metrics["warps_launched"]}
		if got != w {
			t.Errorf("entry %d = %+v, want %+v", i, got, w)
		}
	}
}
