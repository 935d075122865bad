package cudart

import (
	"testing"

	"github.com/warpsim/warpsim/metrics"
)

// TestChildRecords checks how device-launched grids become profile
// records: grids of one kernel, shape and counters fold into one record
// that keeps their count, total, shortest and longest time; any
// difference keeps them apart; order is first-run order and starts are
// relative to the first child's.
func TestChildRecords(t *testing.T) {
	a := &fakeKernel{name: "a"}
	b := &fakeKernel{name: "b"}
	one := LaunchConfig{Grid: Dim3{X: 1, Y: 1, Z: 1}, Block: Dim3{X: 1, Y: 1, Z: 1}}
	two := LaunchConfig{Grid: Dim3{X: 2, Y: 1, Z: 1}, Block: Dim3{X: 1, Y: 1, Z: 1}}
	c1 := metrics.Counters{InstExecuted: 10}
	c2 := metrics.Counters{InstExecuted: 11}
	children := []ChildGrid{
		{Kernel: a, Config: one, Counters: c1, HostNanos: 50},
		{Kernel: b, Config: one, Counters: c1, HostNanos: 7},
		{Kernel: a, Config: one, Counters: c1, HostNanos: 20},
		{Kernel: a, Config: two, Counters: c1, HostNanos: 5},
		{Kernel: a, Config: one, Counters: c2, HostNanos: 6},
		{Kernel: a, Config: one, Counters: c1, HostNanos: 30},
	}
	type rec struct {
		kernel                  string
		grid                    uint32
		inst                    uint64
		calls                   int
		start, ns, minNS, maxNS int64
	}
	want := []rec{
		{"a", 1, 10, 3, 0, 100, 20, 50},
		{"b", 1, 10, 1, 50, 7, 7, 7},
		{"a", 2, 10, 1, 77, 5, 5, 5},
		{"a", 1, 11, 1, 82, 6, 6, 6},
	}
	got := childRecords(children, nil)
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		r := got[i]
		lo, hi := r.Range()
		g := rec{r.Kernel, r.Grid[0], r.Counters.InstExecuted, r.Calls(), r.StartNS, r.NS, lo, hi}
		if g != w || !r.FromDevice || r.Regs != 16 {
			t.Errorf("record %d = %+v (from device %v, regs %d), want %+v (from device, regs 16)", i, g, r.FromDevice, r.Regs, w)
		}
	}
}
