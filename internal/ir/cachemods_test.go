package ir

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestCacheModsAgainstPtxas checks Check against ptxas's verdict on Triton's
// own PTX for tl.load/tl.store with both a cache modifier and an eviction
// policy (testdata/triton3/ptxas: the PTX Triton 3.6 printed when ptxas
// refused it on the H100, and ptxas's errors, from logs/record1.log there):
// Check must refuse exactly the lines ptxas refused, and nothing else.
func TestCacheModsAgainstPtxas(t *testing.T) {
	const dir = "../../testdata/triton3/ptxas/"
	src, err := os.ReadFile(dir + "cache_hints_sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	verdict, err := os.ReadFile(dir + "ptxas.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{} // line → ptxas's message
	re := regexp.MustCompile(`line (\d+); error\s+: (.*)`)
	for _, l := range strings.Split(string(verdict), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			want[n] = m[2]
		}
	}
	if len(want) != 3 {
		t.Fatalf("%d ptxas errors in ptxas.txt, want 3", len(want))
	}
	m, err := ptx.Parse("cache_hints_sm90.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, e := range Check(m) {
		got[e.Pos.Line] = e.Msg
	}
	for line, msg := range want {
		if g, ok := got[line]; !ok {
			t.Errorf("line %d: ptxas says %q; Check accepts it", line, msg)
		} else if !strings.Contains(g, msg) {
			t.Errorf("line %d: Check says %q, which does not quote ptxas's %q", line, g, msg)
		}
	}
	for line, msg := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d: Check says %q; ptxas accepts it", line, msg)
		}
	}
}

// TestCacheMods: the rule on single instructions, from the PTX ISA's two
// forms of ld and st (a cache operator, or eviction priorities, never both).
func TestCacheMods(t *testing.T) {
	for _, c := range []struct {
		instr string
		bad   bool
	}{
		{"ld.global.cg.b32 %r1, [%rd1];", false},
		{"ld.global.L1::evict_last.b32 %r1, [%rd1];", false},
		{"ld.global.L1::evict_first.L2::evict_last.b32 %r1, [%rd1];", false},
		{"ld.global.cg.L2::cache_hint.b32 %r1, [%rd1], %rd2;", false},
		{"ld.global.ca.L2::128B.b32 %r1, [%rd1];", false},
		{"ld.global.cs.L1::evict_last.b32 %r1, [%rd1];", true},
		{"ld.global.cv.L2::evict_first.b32 %r1, [%rd1];", true},
		{"ld.global.nc.ca.L1::no_allocate.b32 %r1, [%rd1];", true},
		{"st.global.wb.L1::evict_normal.b32 [%rd1], %r1;", true},
		{"st.global.L1::evict_first.b32 [%rd1], %r1;", false},
	} {
		src := ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\t" +
			c.instr + "\n\tret;\n}\n"
		m, err := ptx.Parse("k.ptx", []byte(src))
		if err != nil {
			t.Fatalf("%s: parse: %v", c.instr, err)
		}
		errs := Check(m)
		if bad := len(errs) > 0; bad != c.bad {
			t.Errorf("%s: errors %v, want rejected=%v", c.instr, errs, c.bad)
		} else if bad && (errs[0].Pos.Line != 8 || !strings.Contains(errs[0].Msg, "cannot be combined")) {
			t.Errorf("%s: %v, want line 8 saying the qualifiers cannot be combined", c.instr, errs)
		}
	}
}
