package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestDRAMWriteDrain checks drainWait's draw against the write drains it
// stands for: with write-backs taking a share f of the DRAM's bus over the
// window before t (reads the rest of the load), a read waits with
// probability f·DRAMWriteModeShare (at most 1), uniformly up to
// DRAMWriteDrainCycles (half that on the mean); never among reads alone; the same line in
// another 2 GiB slot waits the same. And writeBack's turnaround: a line
// written back takes the bus 1+DRAMTurnaround·r times its bytes, r the
// reads' share of the recent traffic (none among writes alone).
func TestDRAMWriteDrain(t *testing.T) {
	const lines = 1 << 15
	for _, tc := range []struct {
		name          string
		drainNS, mode float64
		tau           float64
		reads, writes float64 // shares of the bus used over the window
	}{
		{"idle bus", 500, 1.6, 0.2, 0, 0},
		{"reads alone", 500, 1.6, 0.2, 0.7, 0},
		{"writes alone", 500, 1.6, 0.2, 0, 0.6},
		{"a copy below the bus", 500, 1.6, 0.2, 0.35, 0.35},
		{"a copy below the bus, drains the writes' share", 500, 1, 0.2, 0.35, 0.35},
		{"a copy at the bus", 500, 1.6, 0.2, 0.5, 0.5},
		{"no drain, no turnaround", 0, 0, 0, 0.35, 0.35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ForArch(arch.MustLookup("h100"), 1589)
			p.DRAMWriteDrainNS, p.DRAMWriteDrainCycles, p.DRAMTurnaround = tc.drainNS, tc.drainNS*1.589, tc.tau
			p.DRAMWriteModeShare = tc.mode
			d := New(arch.MustLookup("h100"), Options{})
			d.p = p
			d.dram = newDRAMQueue(p)
			d.dram.keepPast()
			if d.dram.writes == nil {
				d.dram.writes = newQueue(p.DRAMBytesPerCycle)
				d.dram.writes.keepPast()
			}
			s := &gridState{d: d, p: p}
			const t0 = 1 << 16 // cycles; the window before it is served at tc's shares
			per := d.dram.perBucket
			for b := uint64((t0 - dramLoadWindow) >> bucketShift); b < t0>>bucketShift; b++ {
				if tc.reads > 0 {
					d.dram.take(b<<bucketShift, tc.reads*per)
				}
				if tc.writes > 0 {
					d.dram.takeWrite(b<<bucketShift, tc.writes*per)
				}
			}
			d.dram.advance(t0)
			w := dramLoadWindow >> bucketShift
			if got := d.dram.writeLoad(t0, w); math.Abs(got-tc.writes) > 1e-9 {
				t.Fatalf("write load %.3f, written %.3f", got, tc.writes)
			}
			if got := d.dram.load(t0, w); math.Abs(got-tc.reads-tc.writes) > 1e-9 {
				t.Fatalf("load %.3f, served %.3f", got, tc.reads+tc.writes)
			}
			var sum float64
			waited := 0
			for i := range uint64(lines) {
				first := i * 4
				if tc.drainNS == 0 {
					break
				}
				x := s.drainWait(t0, first)
				if other := s.drainWait(t0, first+5<<29); other != x {
					t.Fatalf("line %d waits %d cycles in its slot, %d in another", i, x, other)
				}
				if float64(x) >= p.DRAMWriteDrainCycles {
					t.Fatalf("line %d waits %d cycles, past a drain of %.0f", i, x, p.DRAMWriteDrainCycles)
				}
				sum += float64(x)
				if x > 0 {
					waited++
				}
			}
			share := min(tc.writes*max(tc.mode, 1), 1) // the reads that meet a drain
			want := share * p.DRAMWriteDrainCycles / 2
			if mean := sum / lines; math.Abs(mean-want) > 0.05*want+0.5 {
				t.Errorf("mean drain wait %.1f cycles, want %.1f (writes %.2f of the bus, %.0f-cycle drains)", mean, want, tc.writes, p.DRAMWriteDrainCycles)
			}
			if tc.drainNS > 0 {
				if got := float64(waited) / lines; math.Abs(got-share) > 0.02 {
					t.Errorf("%.3f of the reads waited, want %.2f", got, share)
				}
			}
			// A line written back now: its bus time, against a read's.
			before := d.dram.load(t0, w)
			done := s.writeBack(t0, 4, 0)
			rate := p.DRAMBytesPerCycle
			r := 0.0
			if before > 0 {
				r = tc.reads / before
			}
			wantBytes := 128 * (1 + tc.tau*r)
			if got := float64(done-t0) * rate; math.Abs(got-wantBytes) > rate+1e-9 {
				t.Errorf("a written-back line takes the bus for %.1f bytes, want %.1f (turnaround %.2f, reads %.2f of the traffic)", got, wantBytes, tc.tau, r)
			}
		})
	}
}
