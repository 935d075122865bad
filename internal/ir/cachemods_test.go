package ir

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestCheckTriton3AgainstPtxas checks Check against ptxas's verdicts on
// Triton's own PTX that ptxas refused on the H100 (testdata/triton3/ptxas:
// the PTX Triton 3.6 printed with ptxas's errors, from logs/record1.log
// there): tl.load/tl.store with both a cache modifier and an eviction
// policy, and griddepcontrol (gdc_wait) in sm_80 PTX. Check must refuse
// exactly the lines ptxas refused, quoting one of ptxas's messages for
// each, and nothing else.
func TestCheckTriton3AgainstPtxas(t *testing.T) {
	const dir = "../../testdata/triton3/ptxas/"
	verdict, err := os.ReadFile(dir + "ptxas.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[int][]string{} // file → line → ptxas's messages
	re := regexp.MustCompile(`^ptxas (\S+), line (\d+); error\s+: (.*)`)
	for _, l := range strings.Split(string(verdict), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			if want[m[1]] == nil {
				want[m[1]] = map[int][]string{}
			}
			want[m[1]][n] = append(want[m[1]][n], m[3])
		}
	}
	if len(want) != 2 || len(want["cache_hints_sm90.ptx"]) != 3 || len(want["gdc_sm80.ptx"]) != 2 {
		t.Fatalf("ptxas.txt: %v, want 3 lines of cache_hints_sm90.ptx and 2 of gdc_sm80.ptx", want)
	}
	for file, lines := range want {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(dir + file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ptx.Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]string{}
			for _, e := range Check(m) {
				got[e.Pos.Line] = e.Msg
			}
			for line, msgs := range lines {
				g, ok := got[line]
				if !ok {
					t.Errorf("line %d: ptxas says %q; Check accepts it", line, msgs)
					continue
				}
				quoted := false
				for _, msg := range msgs {
					quoted = quoted || strings.Contains(g, msg)
				}
				if !quoted {
					t.Errorf("line %d: Check says %q, which quotes none of ptxas's %q", line, g, msgs)
				}
			}
			for line, msg := range got {
				if _, ok := lines[line]; !ok {
					t.Errorf("line %d: Check says %q; ptxas accepts it", line, msg)
				}
			}
		})
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

// TestMinTarget: griddepcontrol under each .target (ptxas: sm_90 or higher).
func TestMinTarget(t *testing.T) {
	for _, c := range []struct {
		target string
		bad    bool
	}{{"sm_80", true}, {"sm_89", true}, {"sm_90", false}, {"sm_90a", false}, {"sm_100", false}} {
		src := ".version 8.7\n.target " + c.target + "\n.address_size 64\n.visible .entry k()\n{\n\tgriddepcontrol.wait;\n\tret;\n}\n"
		m, err := ptx.Parse("k.ptx", []byte(src))
		if err != nil {
			t.Fatalf("%s: parse: %v", c.target, err)
		}
		errs := Check(m)
		var here []string
		for _, e := range errs {
			if e.Pos.Line == 6 {
				here = append(here, e.Msg)
			}
		}
		if bad := len(here) > 0; bad != c.bad {
			t.Errorf(".target %s: errors %v, want griddepcontrol refused=%v", c.target, errs, c.bad)
		}
	}
}
