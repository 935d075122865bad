package timing_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestTensormapMicrobenchmarks runs nvcc's PTX of testdata/timing/
// tensormap/tmfence_mb.cu (a device-side tensor map, as Triton makes them:
// tensormap.replace of 13 fields, tensormap.cp_fenceproxy to global memory,
// fence.proxy.tensormap acquire) through the timing model and compares one
// warp's cycles a round with the H100's (h100/tmfence_mb.h100.txt), each
// within 15% (TensormapReplaceCycles, TensormapCopyCycles,
// TensormapAcquireCycles and the L2 round trip between the last two).
func TestTensormapMicrobenchmarks(t *testing.T) {
	m := loadMicrobench(t, "../../testdata/timing/tensormap/", "tmfence_mb")
	out, _ := m.dev.Malloc(8)
	gmap, _ := m.dev.Malloc(1024)
	tensor, _ := m.dev.Malloc(4 << 20)
	rows := 0
	for _, line := range m.lines {
		var kind int
		var want float64
		if n, _ := fmt.Sscanf(strings.TrimSpace(line), "tmfence kind=%d cycles_per=%f", &kind, &want); n != 2 {
			t.Fatalf("cannot read %q", line)
		}
		got := m.slowest(t, fmt.Sprintf("_Z1kILi%dEEvPxPcS1_", kind), 1, 32, 0, 0, params(out, gmap, tensor), out, 1, 1) / 64
		rows++
		msg := fmt.Sprintf("%s: model %.2f (%+.1f%%)", line, got, 100*(got-want)/want)
		if math.Abs(got-want) > 0.15*want {
			t.Errorf("%s: more than 15%% off", msg)
		} else {
			t.Log(msg)
		}
	}
	if rows != 5 {
		t.Errorf("%d rows, the recording has 5", rows)
	}
}
