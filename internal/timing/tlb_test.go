package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// tlbFixture is an H100 driver with a grid of two SMs started as a host
// launch: translations as the launch before left them.
func tlbFixture(d *Driver) *gridState {
	d.tlb.hostLaunch()
	d.tlb.grid(2)
	return &gridState{d: d, p: d.p}
}

// TestTLBTranslate: a host launch's first request to a region the launch
// before did not touch waits TLBMissNS and a walk; the same SM's later
// requests to the region nothing; another SM's, during the walk, the walk's
// end (and its own miss); a region the launch before touched only the
// miss; a region touched two launches before walks again; after a sampled
// launch nothing walks.
func TestTLBTranslate(t *testing.T) {
	d := New(arch.MustLookup("h100"), Options{})
	p := d.p
	p.TLBCold = true // Nsight Compute's conditions
	miss, walk := uint64(p.TLBMissCycles), uint64(p.TLBWalkCycles)
	if miss == 0 || walk == 0 || p.TLBRegionBytes != 32<<20 {
		t.Fatalf("H100 preset: miss %d, walk %d cycles, region %d bytes", miss, walk, p.TLBRegionBytes)
	}
	sec := func(region, off uint64) uint64 { return (region*p.TLBRegionBytes + off) / 32 }
	type req struct {
		sm       int
		at, sec  uint64
		want     uint64
		what     string
		launchOf int // the host launch it belongs to
	}
	rows := []req{
		{0, 100, sec(0, 0), 100 + miss + walk, "cold region, first request", 1},
		{0, 200, sec(0, 4096), 100 + miss + walk, "same SM, same region, during the walk", 1},
		{0, 100 + miss + walk + 10, sec(0, 1<<21), 100 + miss + walk + 10, "same SM after the walk (another 2 MiB page)", 1},
		{1, 150, sec(0, 128), 100 + miss + walk, "another SM during the walk", 1},
		{1, 5000, sec(1, 0), 5000 + miss + walk, "a second cold region", 1},
		// launch 2: regions 0 and 1 warm (launch 1 touched them), 2 cold
		{0, 100, sec(0, 0), 100 + miss, "warm region (the launch before touched it)", 2},
		{1, 100, sec(2, 0), 100 + miss + walk, "cold region", 2},
		// launch 3: region 2 warm; region 1 (touched by launch 1 only) cold again
		{0, 100, sec(1, 64), 100 + miss + walk, "a region touched two launches before", 3},
		{0, 300, sec(2, 64), 300 + miss, "the region the launch before touched", 3},
	}
	var s *gridState
	launch := 0
	for _, r := range rows {
		if r.launchOf != launch {
			s, launch = tlbFixture(d), r.launchOf
		}
		if got := s.translate(r.sm, r.at, r.sec); got != r.want {
			t.Errorf("launch %d, %s: ready at %d, want %d", r.launchOf, r.what, got, r.want)
		}
	}
	// A sampled grid: the next launch finds every region warm.
	d.tlb.sampled = true
	s = tlbFixture(d)
	if got := s.translate(0, 100, sec(7, 0)); got != 100+miss {
		t.Errorf("after a sampled launch, an untouched region: %d, want %d", got, 100+miss)
	}
	// A multi-sector request over two regions waits for the later.
	s = tlbFixture(d)
	if got := s.translateAll(0, 100, []uint64{sec(7, 0), sec(9, 0)}); got != 100+miss+walk {
		t.Errorf("two regions, one cold: %d, want %d", got, 100+miss+walk)
	}
	// Without TLBCold (the default) translation costs nothing.
	p.TLBCold = false
	s = tlbFixture(d)
	if got := s.translate(1, 100, sec(11, 0)); got != 100 {
		t.Errorf("tlb.cold off, an untouched region: %d, want 100", got)
	}
}

// TestTLBRegionOf: a region is the k-th TLBRegionBytes of an allocation's
// 2 GiB range, so the small buffers of warpsim's separate allocations share
// one as the H100's packed allocations do; a bare grid state and a preset
// without translation cost nothing.
func TestTLBRegionOf(t *testing.T) {
	p := &Params{TLBRegionBytes: 32 << 20}
	base := uint64(0x7f00_0000_0000)
	for _, c := range []struct {
		a, b uint64
		same bool
	}{
		{base, base + allocSlot, true},                   // two allocations' first bytes
		{base + 4096, base + allocSlot + 1<<20, true},    // within both first regions
		{base, base + 32<<20, false},                     // one allocation's first and second region
		{base + allocSlot + 33<<20, base + 40<<20, true}, // second regions of two allocations
	} {
		if got := regionOf(p, c.a/32) == regionOf(p, c.b/32); got != c.same {
			t.Errorf("%#x and %#x: same region %v, want %v", c.a, c.b, got, c.same)
		}
	}
	d := New(arch.MustLookup("h100"), Options{})
	if got := (&gridState{d: d, p: d.p}).translate(0, 100, base/32); got != 100 {
		t.Errorf("bare grid state: %d, want 100", got)
	}
	off := *d.p
	off.TLBCold, off.TLBRegionBytes = true, 0
	s := tlbFixture(d)
	s.p = &off
	if got := s.translate(0, 100, base/32); got != 100 {
		t.Errorf("no translation: %d, want 100", got)
	}
}
