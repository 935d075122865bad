package timing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/ptx"
)

// TestPCStallsSumToStalls: asked for, the stalls by instruction are in
// function and pc order, each reason summing to the grid's stalls exactly
// (a sampled grid's too, scaled); barrier stalls sit on barrier
// instructions and the issues on the instructions issued; asking changes
// no result, and not asking gives none.
func TestPCStallsSumToStalls(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	pm, err := ptx.Parse("reduce.sm90.ptx", lessonPTX(t, "reduce.sm90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ir.Lower(pm, nil)
	if err != nil {
		t.Fatal(err)
	}
	barrier, selected := -1, -1
	for i, n := range timing.StallNames {
		switch n {
		case "barrier":
			barrier = i
		case "selected":
			selected = i
		}
	}
	for _, tc := range []struct {
		kernel  string
		logn    int
		bs      uint32
		sampled bool
	}{
		{"reduceNeighboredLess", 21, 512, true}, // TestDeterminism's grid (shared)
		{"reduceInterleaved", 18, 512, false},
	} {
		name := fmt.Sprintf("%s 2^%d", tc.kernel, tc.logn)
		plain := sharedReduce(t, tc.kernel, tc.logn, tc.bs, 1, warpsim.TimingOptions{})
		r := runReduceWith(t, "h100", tc.kernel, tc.logn, tc.bs, warpsim.Options{Mode: warpsim.ModeTiming, Timing: warpsim.TimingOptions{PCStalls: true}})
		a, tm := plain.res.Grids[0].Timing, r.res.Grids[0].Timing
		if a.PCStalls != nil {
			t.Errorf("%s: stalls by instruction without asking", name)
		}
		if tm.Sampled != tc.sampled {
			t.Errorf("%s: sampled %v, want %v", name, tm.Sampled, tc.sampled)
		}
		if a.Cycles != tm.Cycles || fmt.Sprint(a.Stalls) != fmt.Sprint(tm.Stalls) || a.IssueCycles != tm.IssueCycles {
			t.Errorf("%s: asking for stalls by instruction changed the timing: %d cycles %v, then %d %v", name, a.Cycles, a.Stalls, tm.Cycles, tm.Stalls)
		}
		if len(tm.PCStalls) == 0 {
			t.Fatalf("%s: no stalls by instruction", name)
		}
		sum := make([]uint64, len(tm.Stalls))
		for i, p := range tm.PCStalls {
			if i > 0 {
				q := tm.PCStalls[i-1]
				if !(q.Func < p.Func || q.Func == p.Func && q.PC < p.PC) {
					t.Errorf("%s: %s:%d after %s:%d", name, p.Func, p.PC, q.Func, q.PC)
				}
			}
			f := prog.FuncByName[p.Func]
			if f < 0 || p.PC >= len(prog.Funcs[f].Code) || len(p.Stalls) != len(tm.Stalls) {
				t.Fatalf("%s: %s:%d: not an instruction (or %d reasons)", name, p.Func, p.PC, len(p.Stalls))
			}
			// A barrier's wait is charged to the instruction after it,
			// the one the warp waits to issue.
			if p.Stalls[barrier] > 0 && (p.PC == 0 || !strings.HasPrefix(prog.Funcs[f].Text[p.PC-1], "bar")) {
				t.Errorf("%s: %d barrier stall cycles on %q, not after a barrier", name, p.Stalls[barrier], prog.Funcs[f].Text[p.PC])
			}
			for k, v := range p.Stalls {
				sum[k] += v
			}
		}
		if fmt.Sprint(sum) != fmt.Sprint(tm.Stalls) {
			t.Errorf("%s: stalls by instruction sum to %v, the grid's are %v", name, sum, tm.Stalls)
		}
		if !tc.sampled && sum[selected] != tm.IssueCycles {
			t.Errorf("%s: %d issues by instruction, %d issued", name, sum[selected], tm.IssueCycles)
		}
		if tm.Stalls[barrier] == 0 {
			t.Errorf("%s: no barrier stalls to place", name)
		}
	}
}
