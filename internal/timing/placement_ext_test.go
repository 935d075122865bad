package timing_test

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/launchfile"
)

// TestPlacementUnderOccupancyLimit: with shared memory limiting an SM to R
// resident blocks (the occupancy lesson's streaming kernel, 2112 blocks of
// 128 threads), the block scheduler never holds more than R blocks on an
// SM, fills every SM with R blocks at the start, and replaces a retiring
// block at once while blocks remain.
//
// The grids are the calibration's simulations of occ_stream_r1 and _r4 at
// the clocks the H100 ran them at (simulateShared: TestCalibration's and
// TestLatencyHiding's of R = 1, TestLongCalibration's of R = 4, made once
// per package run); the placement does not depend on the clock.
func TestPlacementUnderOccupancyLimit(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	h100 := arch.MustLookup("h100")
	rows := calibRows(t)
	for _, r := range []int{1, 4} {
		row := rows[fmt.Sprintf("occ_stream_r%d", r)]
		tm := simulateShared(t, row.launchFile, row.clockHz)[row.launchIndex].timing
		type event struct {
			at    uint64
			delta int
		}
		perSM := make([][]event, h100.SMs)
		for _, b := range tm.Blocks {
			perSM[b.SM] = append(perSM[b.SM], event{b.Start, +1}, event{b.End, -1})
		}
		for sm, evs := range perSM {
			// Ends before starts at one cycle: a retiring block's
			// replacement starts the cycle it ends.
			sort.Slice(evs, func(i, j int) bool {
				return evs[i].at < evs[j].at || evs[i].at == evs[j].at && evs[i].delta < evs[j].delta
			})
			n, most, atStart := 0, 0, 0
			for _, e := range evs {
				n += e.delta
				most = max(most, n)
				if e.at == 0 {
					atStart = n
				}
			}
			if most != r || atStart != r {
				t.Errorf("R = %d: SM %d held at most %d blocks, %d at the start; want %d", r, sm, most, atStart, r)
				break
			}
			// Until the SM's last block starts, blocks end only where
			// as many start: at a cycle where two blocks retire
			// together, two successors start.
			lastStart := uint64(0)
			ends, starts := map[uint64]int{}, map[uint64]int{}
			for _, e := range evs {
				if e.delta > 0 {
					lastStart = e.at
					starts[e.at]++
				} else {
					ends[e.at]++
				}
			}
			for _, e := range evs {
				if e.delta < 0 && e.at < lastStart && starts[e.at] < ends[e.at] {
					t.Errorf("R = %d: SM %d: %d blocks ended at cycle %d and %d replaced them", r, sm, ends[e.at], e.at, starts[e.at])
					break
				}
			}
		}
	}
}

// TestShortBlocksActiveFromDispatch: blocks that retire faster than the
// block scheduler hands out new ones (4096 one-element copies of 128
// threads) wait for their dispatch, one per DispatchCycles device-wide
// (FirstDispatchCycles in the first wave),
// and their warps count towards achieved occupancy only from then on, as
// ncu's sm__warps_active counts launched warps: the warp-cycles are at
// most those from each block's dispatch to its end, well under those from
// the cycle its SM had room for it.
func TestShortBlocksActiveFromDispatch(t *testing.T) {
	h100 := arch.MustLookup("h100")
	lf, err := launchfile.Load(filepath.Join(mechDir, "unit", "shortcopy_b128_g4096.json"))
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(h100, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: 1589}})
	out, err := lf.Execute(dev, launchfile.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tm := out.Launches[0].Grids[0].Timing
	if len(tm.Blocks) != 4096 {
		t.Fatalf("%d blocks timed, want all 4096", len(tm.Blocks))
	}
	p := timing.ForArch(h100, 1589)
	const warps = 4
	wave := 132 * 16 // blocks of 128 threads: 16 an SM
	var fromDispatch, fromRoom uint64
	for _, b := range tm.Blocks {
		rate := p.DispatchCycles
		if b.Block < wave {
			rate = p.FirstDispatchCycles // the first wave's (FirstDispatchNS)
		}
		d := max(b.Start, uint64(float64(b.Block)*rate))
		fromDispatch += warps * (b.End - d)
		fromRoom += warps * (b.End - b.Start)
	}
	if tm.WarpCycles > fromDispatch+warps*uint64(len(tm.Blocks)) {
		t.Errorf("warp-cycles %d: more than the %d from the blocks' dispatches to their ends", tm.WarpCycles, fromDispatch)
	}
	if float64(tm.WarpCycles) > 0.8*float64(fromRoom) {
		t.Errorf("warp-cycles %d: the blocks' waits for dispatch counted (%d from the cycles their SMs had room)", tm.WarpCycles, fromRoom)
	}
}
