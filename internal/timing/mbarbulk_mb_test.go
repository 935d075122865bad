package timing_test

import (
	"fmt"
	"math"
	"testing"
)

// TestMbarBulkMicrobenchmarks runs mbar_mb.cu's k_bulk rows
// (testdata/timing/syncmem): rounds of thread 0 issuing cp.async.bulk
// copies that complete on an mbarrier while the block's other threads
// arrive or wait, then read the tile and meet at a second phase. In
// nvcc's code thread 0 and the other lanes of warp 0 wait in loops of
// their own; the H100 runs the other path at each failed wait (a YIELD
// before every retry) and does not join the paths again after the wait,
// so warp 0 reads the tile once a path (the rounds' second part doubled
// and alternating with the wait). The engine yields at a failed wait and
// drops the waiting path out of its join (yieldWait): every row's total
// within 25% of the H100's, the mean round within 25%, and thread 0's
// first copies issued within 150 cycles of the H100's (the engine had let
// the other lanes spin 1,024 times first: 18,573 cycles against 214, the
// totals 1.6 to 9.4 times the H100's).
func TestMbarBulkMicrobenchmarks(t *testing.T) {
	m := loadMicrobench(t, syncmemDir, "mbar_mb")
	src, _ := m.dev.Malloc(3 * 8 * 4096 * 4)
	st, _ := m.dev.Malloc(3 * 8 * 3 * 8 * 8)
	out, _ := m.dev.Malloc(3 * 256 * 4)
	rows := 0
	var issue0 []float64 // the H100's round-0 issue stamps of the row being read
	for _, line := range m.lines {
		var b, th, by, pc, all, fr, r, iss, wait, second, total int
		if mustScan(line, "bulk blocks=%d threads=%d bytes=%d pieces=%d all=%d fresh=%d round=%d issue=%d wait=%d second=%d",
			&b, &th, &by, &pc, &all, &fr, &r, &iss, &wait, &second) {
			issue0 = append(issue0, float64(iss))
			continue
		}
		if !mustScan(line, "bulk blocks=%d threads=%d bytes=%d pieces=%d all=%d fresh=%d total=%d", &b, &th, &by, &pc, &all, &fr, &total) {
			continue
		}
		rounds := len(issue0)
		h100 := issue0
		issue0 = nil
		m.launch1D(t, "_Z6k_bulkPKiPxPiiiiii", b, th, params(src, st, out, uint32(rounds), uint32(by), uint32(pc), uint32(all), uint32(fr)))
		h := readWords(t, m.dev, st, 8*3*8)
		var tot int64
		for w := 0; w < th/32; w++ {
			tot = max(tot, h[((rounds-1)*3+2)*8+w])
		}
		detail := ""
		for r := 0; r < rounds; r++ {
			detail += fmt.Sprintf(" %d", h[r*3*8])
		}
		t.Logf("issue stamps: model%s; H100 %v", detail, h100)
		check(t, line, float64(tot), float64(total), 0.25)
		per := float64(h[(rounds-1)*3*8]-h[0]) / float64(rounds-1)
		check(t, fmt.Sprintf("%s: mean round %.0f", line, (h100[rounds-1]-h100[0])/float64(rounds-1)), per,
			(h100[rounds-1]-h100[0])/float64(rounds-1), 0.25)
		if d := float64(h[0]) - h100[0]; math.Abs(d) > 150 {
			t.Errorf("%s: thread 0's first copies issued at %d, the H100's at %.0f", line, h[0], h100[0])
		}
		rows++
	}
	if rows != 12 {
		t.Errorf("%d rows compared, the recording has 12", rows)
	}
}
