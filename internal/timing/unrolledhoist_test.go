package timing

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/ptx"
)

// loadsAhead is how many loads of f's loop with the most loads (ptxas's
// body of p.LoopUnroll PTX bodies when ir marks its back edge
// BraUnrolled) a warp issues under the hoisting bound before one must
// wait, no load returning: the model's counterpart of the loads ptxas puts
// ahead of the first instruction that reads one. It walks the body in the
// PTX's order through the bound's own steps (hoistWords, registerGate's
// heldGate, holdLoads), and the body's size.
func loadsAhead(f *ir.Func, p *Params) (ahead, body int) {
	unroll := 0
	if p.UnrolledHoistBound {
		unroll = p.LoopUnroll
	}
	budget := hoistWords(f, f.RegEstimate, p.ConstBankLive, unroll)
	loop, most := -1, 0
	for pc := range f.Code {
		in := &f.Code[pc]
		if in.Op != ir.OpBra || in.Target < 0 || int(in.Target) > pc {
			continue
		}
		n := 0
		for q := int(in.Target); q < pc; q++ {
			if heldLoad(&f.Code[q]) {
				n++
			}
		}
		if n > most {
			loop, most = pc, n
		}
	}
	if loop < 0 {
		return 0, 0
	}
	times := 1
	if f.Code[loop].Mode == ir.BraUnrolled && p.LoopUnroll > 1 {
		times = p.LoopUnroll
	}
	sm := &smT{now: 10}
	w := &warpT{regReady: make([]uint64, f.NumSlots), regKind: make([]uint8, f.NumSlots)}
	s := &gridState{p: p}
	live := liveWords(f, p.ConstBankLive)
	back := uint64(1 << 20) // when the loads return: after every step here
	for range times {
		for pc := int(f.Code[loop].Target); pc < loop; pc++ {
			in := &f.Code[pc]
			kind, ready := prodFixed, uint64(0)
			switch {
			case heldLoad(in):
				if budget > 0 && w.heldN > 0 && heldGate(w, int(live[pc]), budget) != 0 {
					return ahead, most * times
				}
				ahead++
				kind, ready = prodLong, back
			case s.hoistable(in) && pendingOperand(sm, w, in):
				if budget > 0 {
					holdLoads(sm, w, in, f, back)
				}
				kind, ready = prodHoisted, back
			}
			for _, d := range in.D {
				if d >= 0 {
					w.regReady[d], w.regKind[d] = ready, kind
				}
			}
		}
	}
	return ahead, most * times
}

// pendingOperand says whether in reads a load's or hoisted arithmetic's
// result that is not back.
func pendingOperand(sm *smT, w *warpT, in *ir.Inst) bool {
	for _, r := range in.A {
		if r >= 0 && int(r) < len(w.regReady) && w.regReady[r] > sm.now && (w.regKind[r] == prodLong || w.regKind[r] == prodHoisted) {
			return true
		}
	}
	return false
}

// sassAhead reads a table of ahead.py (testdata/timing/hoist): kernel to
// the loads ptxas issues in its loop before the first instruction that
// reads one, and what reads it first.
func sassAhead(t *testing.T, path string) map[string]struct {
	ahead int
	use   string
} {
	t.Helper()
	b, err := testenv.ReadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]struct {
		ahead int
		use   string
	}{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		var name, use string
		var ahead, words, body int
		if n, err := fmt.Sscanf(strings.Replace(line, ";", "", 1), "%s ahead %d loads %d words of %d LDG in loop first use %s", &name, &ahead, &words, &body, &use); n != 5 {
			t.Fatalf("%s: bad line %q: %v", path, line, err)
		}
		out[name] = struct {
			ahead int
			use   string
		}{ahead, use}
	}
	return out
}

// TestUnrolledHoistAsPtxas compares the loads the model issues ahead of
// their first consumer in a loop ptxas unrolls (loadsAhead) with the loads
// ptxas puts there (ahead.py over the SASS), with UnrolledHoistBound off
// (the H100 preset) and on. The study kernels (the SASS the rule was chosen on: mech.cu's
// rowreuse, rowgpu's rg, programs9/unroll, mlp) and testdata/timing/hoist's
// held-out family (nvcc 13, sm_90: six loop shapes, 0 to 12 words held
// live, four load widths, no bounds, __launch_bounds__(256, 1) and
// (1024, 2)) are judged apart: the mean |model - SASS| with the bound on
// must stay within hoistAheadTol and below the mean with it off. Loops
// whose first use is a store (copies) are left out: the bound counts
// arithmetic issued ahead.
func TestUnrolledHoistAsPtxas(t *testing.T) {
	off := ForArch(arch.MustLookup("h100"), 1755)
	if off.LoopUnroll != 4 || !off.HoistLoads || !off.ConstBankLive {
		t.Fatal("the H100 preset has LoopUnroll not 4, or HoistLoads or ConstBankLive off")
	}
	on := *off
	on.UnrolledHoistBound = true
	p := &on
	root := "../../testdata/"
	type set struct {
		name, sass string
		ptx        []string
		tol        float64
	}
	for _, st := range []set{
		{"study", "timing/hoist/study_ahead.txt", []string{"timing/mechanisms/h100/mech.ptx", "timing/rowgpu/h200/rowgpu_mb.nvcc.ptx",
			"programs9/unroll/unroll_mb.nvcc.ptx", "timing/mlp/h100/mlp_nvcc.ptx"}, hoistAheadTol["study"]},
		{"held out, no bounds", "timing/hoist/h200/ahead_default.txt", []string{"timing/hoist/h200/hoist_mb.nvcc.ptx"}, hoistAheadTol["plain"]},
		{"held out, (256, 1)", "timing/hoist/h200/ahead_default.txt", []string{"timing/hoist/h200/hoist_mb.nvcc.ptx"}, hoistAheadTol["lb1"]},
		{"held out, (1024, 2)", "timing/hoist/h200/ahead_default.txt", []string{"timing/hoist/h200/hoist_mb.nvcc.ptx"}, hoistAheadTol["lb2"]},
	} {
		sass := sassAhead(t, filepath.Join(root, st.sass))
		var n int
		var errOff, errOn float64
		var rows []string
		for _, file := range st.ptx {
			src, err := testenv.ReadRecording(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptx.Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := ir.Lower(m, func(string) bool { return false })
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range prog.Funcs {
				rec, ok := sass[f.Name]
				lb1, lb2 := strings.HasSuffix(f.Name, "_lb1"), strings.HasSuffix(f.Name, "_lb2")
				switch {
				case !ok || len(f.LiveWords) == 0 || strings.HasPrefix(rec.use, "ST"):
					continue
				case strings.HasSuffix(st.name, "(256, 1)") != lb1, strings.HasSuffix(st.name, "(1024, 2)") != lb2:
					continue
				}
				a0, body := loadsAhead(f, off)
				a1, _ := loadsAhead(f, p)
				if body == 0 {
					continue
				}
				want := min(rec.ahead, body) // ptxas's body may be longer (fc_const: 27 PTX bodies)
				n++
				errOff += math.Abs(float64(a0 - want))
				errOn += math.Abs(float64(a1 - want))
				rows = append(rows, fmt.Sprintf("%s %d/%d/%d", f.Name, want, a0, a1))
			}
		}
		if n == 0 {
			t.Fatalf("%s: no kernel compared", st.name)
		}
		errOff /= float64(n)
		errOn /= float64(n)
		t.Logf("%-20s %3d kernels: mean |model - SASS| loads ahead %.1f with the bound off, %.1f on (SASS/off/on: %s)", st.name, n, errOff, errOn, strings.Join(rows, ", "))
		if errOn > st.tol || errOn >= errOff {
			t.Errorf("%s: mean |model - SASS| %.1f loads with UnrolledHoistBound (off %.1f; bound %.1f)", st.name, errOn, errOff, st.tol)
		}
	}
}

// hoistAheadTol bounds TestUnrolledHoistAsPtxas's mean |model - SASS| a
// set, a little over what the rule gives (2026-11-28: study 2.7 loads, 7.7
// with the bound off; held out 2.9, 0.0 and 2.9, off 10.7, 6.6 and 9.9).
var hoistAheadTol = map[string]float64{"study": 3.5, "plain": 3.5, "lb1": 0.5, "lb2": 3.5}
