package timing_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
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

// TestMbarDivergedWaitFunctional runs mbar_mb.cu's k_bulk (3 blocks of 128
// threads, 5 rounds of two bulk copies, thread 0 and the rest of its warp
// waiting in loops of their own) in the functional engine on 1 and 4
// workers: every thread's sum as the kernel's definition gives it from the
// source words, and warp 0's paths no longer spinning 1,024 times a round
// before the copies are issued (the engine yields at a failed wait: under
// 80,000 warp instructions a block, 121,096 before; the rest is waits for
// the other warps, which the functional engine spins through until its
// block scheduler runs them).
func TestMbarDivergedWaitFunctional(t *testing.T) {
	src, err := os.ReadFile(syncmemDir + "h100/mbar_mb.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	const blocks, threads, rounds, bytes, pieces = 3, 128, 5, 4096, 2
	for _, workers := range []int{1, 4} {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeFunctional, Workers: workers})
		mod, err := dev.LoadModule("mbar_mb.nvcc.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		words := make([]byte, 3*8*4096*4)
		for i := 0; i < len(words)/4; i++ {
			binary.LittleEndian.PutUint32(words[4*i:], uint32(i*7+3))
		}
		in, _ := dev.Malloc(uint64(len(words)))
		if err := dev.Write(in, words); err != nil {
			t.Fatal(err)
		}
		st, _ := dev.Malloc(3 * 8 * 3 * 8 * 8)
		out, _ := dev.Malloc(3 * 256 * 4)
		k, err := mod.Kernel("_Z6k_bulkPKiPxPiiiiii")
		if err != nil {
			t.Fatal(err)
		}
		r, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
			params(in, st, out, uint32(rounds), uint32(bytes), uint32(pieces), uint32(1), uint32(1)))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, blocks*threads*4)
		if err := dev.Read(out, got); err != nil {
			t.Fatal(err)
		}
		n := bytes / 4
		for b := 0; b < blocks; b++ {
			for x := 0; x < threads; x++ {
				var want int32
				for rd := 0; rd < rounds; rd++ {
					base := b*rounds*4096 + rd*4096
					for i := x; i < n; i += threads {
						want += int32(uint32((base+(i*3+rd)%n)*7+3)) * int32(rd+1)
					}
				}
				if g := int32(binary.LittleEndian.Uint32(got[4*(b*threads+x):])); g != want {
					t.Fatalf("workers %d: block %d thread %d summed %d, want %d", workers, b, x, g, want)
				}
			}
		}
		per := r.Counters.InstExecuted / blocks
		t.Logf("workers %d: %d warp instructions a block", workers, per)
		if per > 80000 {
			t.Errorf("workers %d: %d warp instructions a block: the waiting paths spin", workers, per)
		}
	}
}
