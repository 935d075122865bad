package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestDRAMBankWait checks bankWait's draw against the M/D/1 queue it
// stands for: with the DRAM queue served at a load rho over the window
// before t, a line waits with probability rho (at most dramLoadCap), a mean
// of DRAMBankCycles*rho/(2(1-rho)) over many lines; none with the bus idle
// or with no bank time; the same line in another 2 GiB slot waits the same.
func TestDRAMBankWait(t *testing.T) {
	const lines = 1 << 15
	for _, tc := range []struct {
		name   string
		bankNS float64
		load   float64 // share of the bus used over the window
	}{
		{"idle bus", 35, 0},
		{"no bank time", 0, 0.6},
		{"a fifth", 35, 0.2},
		{"three fifths", 35, 0.6},
		{"nine tenths", 35, 0.9},
		{"full: capped", 35, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ForArch(arch.MustLookup("h100"), 1589)
			p.DRAMBankNS, p.DRAMBankCycles = tc.bankNS, tc.bankNS*1.589
			d := New(arch.MustLookup("h100"), Options{})
			d.p = p
			d.dram = newDRAMQueue(p)
			d.dram.keepPast()
			s := &gridState{d: d, p: p}
			const t0 = 1 << 16 // cycles; the window before it is served at tc.load
			per := d.dram.perBucket
			for b := uint64((t0 - dramLoadWindow) >> bucketShift); b < t0>>bucketShift; b++ {
				d.dram.take(b<<bucketShift, tc.load*per)
			}
			d.dram.advance(t0) // the window's buckets are past: kept, then cleared
			if got := d.dram.load(t0, dramLoadWindow>>bucketShift); math.Abs(got-tc.load) > 1e-9 {
				t.Fatalf("load %.3f, served %.3f", got, tc.load)
			}
			rho := min(tc.load, dramLoadCap)
			var sum float64
			waited := 0
			for i := range uint64(lines) {
				first := i * 4
				w := s.bankWait(t0, first)
				if other := s.bankWait(t0, first+5<<29); other != w {
					t.Fatalf("line %d waits %d cycles in its slot, %d in another", i, w, other)
				}
				sum += float64(w)
				if w > 0 {
					waited++
				}
			}
			want := 0.0
			if tc.bankNS > 0 {
				want = p.DRAMBankCycles * rho / (2 * (1 - rho))
			}
			mean := sum / lines
			if math.Abs(mean-want) > 0.05*want+0.5 {
				t.Errorf("mean bank wait %.1f cycles, want %.1f (M/D/1 at load %.2f, %.0f-cycle banks)", mean, want, rho, p.DRAMBankCycles)
			}
			if tc.bankNS > 0 && tc.load > 0 {
				if share := float64(waited) / lines; math.Abs(share-rho) > 0.02 {
					t.Errorf("%.3f of the lines waited, want %.2f", share, rho)
				}
			}
		})
	}
}
