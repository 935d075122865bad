package main

import (
	"bytes"
	"testing"
)

// TestDemoOccupancy compares the lesson with its golden file. The figures
// in it are checked against hand derivations in arch's worked examples
// (G80: 16 registers → 2 blocks of 256 = 512 threads, 32 → 1 block = 256).
func TestDemoOccupancy(t *testing.T) {
	var out bytes.Buffer
	if err := demoOccupancy(&out); err != nil {
		t.Fatal(err)
	}
	occCheckGolden(t, "testdata/occupancy/demo.golden", out.Bytes())
	for _, want := range []string{"g80 sm_10", "2 blk  67% regs", "1 blk  33% regs", "cannot launch", "512 threads", "only 256 threads fit"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("lesson lacks %q", want)
		}
	}
}
