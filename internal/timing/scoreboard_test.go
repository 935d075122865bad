package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
)

// TestScoreboardStallReason: a warp waits for the registers its next
// instruction reads, and the stall shows the kind of their producer.
func TestScoreboardStallReason(t *testing.T) {
	tests := []struct {
		name     string
		kind     uint8
		wantWhy  uint8
		readyAt  uint64
		wantWait uint64
	}{
		{"load result", prodLong, stallLongScoreboard, 400, 400},
		{"shared/MUFU result", prodShort, stallShortScoreboard, 30, 30},
		{"fixed-latency result", prodFixed, stallWait, 4, 4},
	}
	for _, tc := range tests {
		w := &warpT{regReady: make([]uint64, 4), regKind: make([]uint8, 4), ready: 1, readyWhy: stallDispatch}
		w.regReady[2], w.regKind[2] = tc.readyAt, tc.kind
		w.next = &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{2, 1, -1, -1, -1}}
		s := &gridState{}
		at, why := s.depReady(w)
		if at != tc.wantWait || why != tc.wantWhy {
			t.Errorf("%s: ready at %d (%s), want %d (%s)", tc.name, at, StallNames[why], tc.wantWait, StallNames[tc.wantWhy])
		}
	}
	// No dependence: the warp's own readiness.
	w := &warpT{regReady: make([]uint64, 4), regKind: make([]uint8, 4), ready: 7, readyWhy: stallBranchResolving}
	w.next = &ir.Inst{Op: ir.OpAdd, Class: ir.ClassALU, Guard: -1, D: [4]int32{3, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}
	if at, why := (&gridState{}).depReady(w); at != 7 || why != stallBranchResolving {
		t.Errorf("independent instruction: %d (%s), want 7 (branch_resolving)", at, StallNames[why])
	}
}

// TestPipeThroughput: warps issuing only instructions of one class issue
// one per the class's interval on a sub-partition, however many warps
// are ready (the fp64 pipe of an H100 sub-partition takes a warp
// instruction every 2 cycles, the integer ALU every cycle).
func TestPipeThroughput(t *testing.T) {
	h100 := ForArch(arch.MustLookup("h100"), 0)
	for _, class := range []ir.Class{ir.ClassALU, ir.ClassFP64, ir.ClassSFU, ir.ClassConv} {
		s, sm, sp := schedFixture(GTO, 8)
		for _, w := range sp.warps {
			w.next = &ir.Inst{Op: ir.OpAdd, Class: class}
		}
		const cycles = 960
		issued := 0
		for sm.now = 0; sm.now < cycles; sm.now++ {
			w, _ := s.pick(sm, sp)
			if w == nil {
				continue
			}
			issued++
			sp.last = w
			w.dep = sm.now + 1
			sp.pipe[class] = sm.now + uint64(s.p.Interval[class])
		}
		want := cycles / int(h100.Interval[class])
		if issued != want {
			t.Errorf("%s: %d instructions in %d cycles, want %d (interval %d)", class, issued, cycles, want, h100.Interval[class])
		}
	}
}
