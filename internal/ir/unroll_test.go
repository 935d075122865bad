package ir

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// ptxasCounts reads ptxas -v's register counts from a recording's env.txt
// (nvcc --resource-usage: "Compiling entry function 'k'" then "Used N
// registers").
func ptxasCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entry := regexp.MustCompile(`Compiling entry function '(\w+)'`)
	used := regexp.MustCompile(`Used (\d+) registers`)
	out := map[string]int{}
	name := ""
	for _, l := range strings.Split(string(b), "\n") {
		if m := entry.FindStringSubmatch(l); m != nil {
			name = m[1]
		} else if m := used.FindStringSubmatch(l); m != nil && name != "" {
			out[name], _ = strconv.Atoi(m[1])
			name = ""
		}
	}
	return out
}

// TestRegEstimateUnrolledGuards holds the estimate to ptxas's count (and
// the warps of 128-thread blocks an SM it allows) on the loop shapes of
// testdata/timing/mlp and shortocc's g_sum: loops ptxas unrolls again with
// 16 guarded loads, whose guards it keeps partly in general registers
// (P2R in their SASS: 34 registers, 48 warps), and the loops it leaves as
// nvcc wrote them or unrolls without guards (at most 32, 64 warps).
func TestRegEstimateUnrolledGuards(t *testing.T) {
	type file struct{ ptx, env string }
	mlp := file{"../../testdata/timing/mlp/h100/mlp_nvcc.ptx", "../../testdata/timing/mlp/h100/env.txt"}
	so := file{"../../testdata/timing/shortocc/h100/shortocc_nvcc.ptx", "../../testdata/timing/shortocc/h100/env.txt"}
	cases := []struct {
		f      file
		kernel string
		warps  int // with ptxas's count, 128-thread blocks
	}{
		{mlp, "p_dflt", 48}, {mlp, "q_sum_int", 48}, {mlp, "q_sum_dbl", 48}, {mlp, "q_max_guard", 48}, {so, "g_sum", 48},
		{mlp, "q_sum_plain", 64}, {mlp, "p_u4g", 64}, {mlp, "p_dot", 64}, {mlp, "p_cpnc", 64}, {mlp, "q_sum_heavy", 64},
		{so, "g_copy", 64}, {so, "g_triad", 64}, {so, "g_fill", 64},
	}
	funcs := map[string]map[string]*Func{}
	counts := map[string]map[string]int{}
	for _, c := range cases {
		if funcs[c.f.ptx] != nil {
			continue
		}
		src, err := os.ReadFile(c.f.ptx)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(filepath.Base(c.f.ptx), src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Lower(m, func(string) bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		funcs[c.f.ptx] = map[string]*Func{}
		for _, f := range p.Funcs {
			funcs[c.f.ptx][f.Name] = f
		}
		counts[c.f.ptx] = ptxasCounts(t, c.f.env)
	}
	// warps128 is the warps of 128-thread blocks an SM at r registers a
	// thread: 8-register allocation, 16,384 registers a sub-partition.
	warps128 := func(r int) int {
		a := (r + 7) / 8 * 8
		return min(64, 4*(16384/(a*32)))
	}
	for _, c := range cases {
		f := funcs[c.f.ptx][c.kernel]
		want, ok := counts[c.f.ptx][c.kernel]
		if f == nil || !ok {
			t.Fatalf("%s: %s not in the PTX or env.txt", c.f.ptx, c.kernel)
		}
		if w := warps128(want); w != c.warps {
			t.Fatalf("%s: ptxas's %d registers give %d warps, the table says %d", c.kernel, want, w, c.warps)
		}
		got := f.RegEstimate
		if warps128(got) != c.warps || (c.warps == 48 && got != want) {
			t.Errorf("%s: estimate %d registers (%d warps an SM), ptxas %d (%d warps)", c.kernel, got, warps128(got), want, c.warps)
		}
	}
}

// TestPredicatedBranchesMarked: the lowering marks the branches ptxas
// if-converts (a guard over a short stretch with a load) BraPredicated, for
// the timing model, and leaves one whose stretch holds a barrier, or that
// skips more than ifConvertMax instructions, a plain branch.
func TestPredicatedBranchesMarked(t *testing.T) {
	body := func(mid string) string {
		return ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd0, [p0];\nmov.u32 %r0, %tid.x;\n" +
			"setp.ge.u32 %p0, %r0, 64;\n@%p0 bra SKIP;\nld.global.u32 %r1, [%rd0];\n" + mid + "add.s32 %r2, %r2, %r1;\nSKIP:\nst.global.u32 [%rd0], %r2;\nret;"
	}
	long := strings.Repeat("add.s32 %r3, %r3, 1;\n", ifConvertMax)
	for _, c := range []struct {
		name, mid string
		want      bool
	}{
		{"a guarded load", "", true},
		{"a barrier in the stretch", "bar.sync 0;\n", false},
		{"a stretch too long", long, false},
	} {
		f := lowerOne(t, body(c.mid))
		n := 0
		for _, in := range f.Code {
			if in.Op == OpBra && in.Mode == BraPredicated {
				n++
			}
		}
		if got := n == 1; got != c.want {
			t.Errorf("%s: %d branches marked predicated, want marked %v", c.name, n, c.want)
		}
	}
}
