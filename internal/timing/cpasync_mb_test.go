package timing_test

import (
	"fmt"
	"math"
	"testing"
)

// TestCpAsyncMicrobenchmarks runs nvcc's PTX of testdata/timing/cpasync/
// cpasync_mb.cu through the timing model as its main() does and compares
// the slowest warp's cycles per cp.async with the H100's
// (h100/cpasync_mb.h100.txt): 4-, 8- and 16-byte copies, .ca and .cg, each
// lane in one line or in a line of its own, one warp and eight. Eight warps
// (the SM's L1 data path bounds them: CpAsyncCycles, CpAsyncLineCycles)
// within 12%, coalesced 16-byte .cg within 20% (+16%: its round of eight
// copies a warp ends with an L2 hit's round trip, about 200 cycles on the
// H100 after the warp's issue, 11.2 cycles a copy since
// testdata/timing/f16mm's CpAsyncWarpCycles (4 wavefronts), and the model's load
// latency, 287 at 1.98 GHz, is longer; it was -2.7% with the copies
// issued at once); one warp (its rounds' latency: from L1 for .ca, the L2 for
// .cg) within 40% (the model's worst: .cg on 32 lines, 69 cycles against
// 104). The ld.global rows are not compared (the H100's are faster than one
// L1 wavefront a line allows: not understood).
func TestCpAsyncMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	m := loadMicrobench(t, "../../testdata/timing/cpasync/", "cpasync_mb")
	out, _ := m.dev.Malloc(32 * 8)
	srcBuf, _ := m.dev.Malloc(8 << 20)
	const perWarp = 64 * 8 // ROUNDS × 8 copies
	rows := 0
	for _, line := range m.lines {
		var kind string
		var size, stride, warps int
		var want float64
		if n, _ := fmt.Sscanf(line, "cp.async.%s size=%d stride=%d warps=%d cycles_per_inst=%f", &kind, &size, &stride, &warps, &want); n != 5 {
			continue
		}
		cg := 0
		if kind == "cg" {
			cg = 1
		}
		// As main(): the second launch, with the first's lines in L2.
		worst := m.slowest(t, fmt.Sprintf("_Z4k_cpILi%dELi%dELi%dEEvPxPKc", size, cg, stride), 1, 32*warps, 0, 0, params(out, srcBuf), out, warps, 2)
		got := worst / perWarp
		e := (got - want) / want
		tol := 0.40
		if warps == 8 {
			tol = 0.12
			if cg == 1 && stride == size {
				tol = 0.20
			}
		}
		rows++
		msg := fmt.Sprintf("%s: model %.2f (%+.1f%%)", line, got, 100*e)
		if math.Abs(e) > tol {
			t.Errorf("%s: more than %.0f%% off", msg, 100*tol)
		} else {
			t.Log(msg)
		}
	}
	if rows != 16 {
		t.Errorf("%d cp.async rows, the recording has 16", rows)
	}
}
