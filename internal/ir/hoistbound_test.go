package ir

import (
	"os"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestLaunchBoundsRegs: the registers ptxas lets a kernel take when its
// launch bounds name its block and its blocks an SM — 65,536 over their
// threads, in steps of eight, at most 255 and .maxnreg — and none without
// both.
func TestLaunchBoundsRegs(t *testing.T) {
	for _, tc := range []struct {
		name            string
		ntid            [3]int
		minBlocks, nreg int
		want            int
	}{
		{"no bounds", [3]int{}, 0, 0, 0},
		{"maxntid alone", [3]int{256, 1, 1}, 0, 0, 0},
		{"(256, 1)", [3]int{256, 1, 1}, 1, 0, 255},
		{"(1024, 2)", [3]int{1024, 1, 1}, 2, 0, 32},
		{"(256, 4)", [3]int{256, 1, 1}, 4, 0, 64},
		{"(96, 5): 136.5 down to 136", [3]int{96, 1, 1}, 5, 0, 136},
		{"(16x16, 1) with .maxnreg 40", [3]int{16, 16, 1}, 1, 40, 40},
	} {
		f := &Func{MaxNTID: tc.ntid, MinBlocks: tc.minBlocks, MaxNReg: tc.nreg}
		if got := LaunchBoundsRegs(f); got != tc.want {
			t.Errorf("%s: %d registers, want %d", tc.name, got, tc.want)
		}
	}
}

// TestUnrolledLoadWords: a loop ptxas unrolls again counts the words its
// PTX body's global loads write — rowreuse's four iterations of two f32
// loads, 8 (testdata/timing/mechanisms/h100/mech.ptx) — and a kernel with
// no such loop none (reread: stepped by blockDim.x).
func TestUnrolledLoadWords(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/mechanisms/h100/mech.ptx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse("mech.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"rowreuse": 8, "rowreuse_nc": 8, "reread": 0}
	for _, f := range p.Funcs {
		if w, ok := want[f.Name]; ok {
			if f.UnrolledLoadWords != w {
				t.Errorf("%s: %d words a PTX body, want %d", f.Name, f.UnrolledLoadWords, w)
			}
			delete(want, f.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("mech.ptx has no %v", want)
	}
}
