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
	checkAgainstPtxas(t, "../../testdata/triton3/ptxas/", map[string]int{"cache_hints_sm90.ptx": 3, "gdc_sm80.ptx": 2})
}

// TestCheckTriton4AgainstPtxas: the fourth batch's PTX that ptxas refused
// (testdata/triton4/ptxas: Triton's sm_80 PTX converting to fp8 e5m2 with
// cvt.rn.satfinite.e5m2x2.f16x2, an sm_89 feature) is refused by Check on
// the same lines, quoting ptxas.
func TestCheckTriton4AgainstPtxas(t *testing.T) {
	checkAgainstPtxas(t, "../../testdata/triton4/ptxas/", map[string]int{"reshape_and_cache_sm80.ptx": 2})
}

// checkAgainstPtxas: for each PTX file of dir that ptxas.txt names (with
// the number of lines it refuses, counts), Check refuses exactly ptxas's
// lines, each with a message that quotes one of ptxas's.
func checkAgainstPtxas(t *testing.T, dir string, counts map[string]int) {
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
	if len(want) != len(counts) {
		t.Fatalf("ptxas.txt names %d files, want %d", len(want), len(counts))
	}
	for f, n := range counts {
		if len(want[f]) != n {
			t.Fatalf("ptxas.txt: %d lines of %s, want %d", len(want[f]), f, n)
		}
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

// TestMinTargetPackedFP8Cvt: cvt to and from the packed fp8 types under
// each .target (ptxas: "Feature 'cvt with .e4m3x2/.e5m2x2' requires .target
// sm_89 or higher"); unpacked conversions are not affected.
func TestMinTargetPackedFP8Cvt(t *testing.T) {
	for _, c := range []struct {
		target, instr string
		bad           bool
	}{
		{"sm_80", "cvt.rn.satfinite.e5m2x2.f16x2 %rs1, %r1;", true},
		{"sm_80", "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;", true},
		{"sm_86", "cvt.rn.f16x2.e4m3x2 %r1, %rs1;", true},
		{"sm_89", "cvt.rn.satfinite.e5m2x2.f16x2 %rs1, %r1;", false},
		{"sm_90", "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;", false},
		{"sm_80", "cvt.rn.f16.f32 %rs1, %f1;", false},
	} {
		src := ".version 8.7\n.target " + c.target + "\n.address_size 64\n.visible .entry k()\n{\n" +
			"\t.reg .b16 %rs<2>;\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<3>;\n\t" + c.instr + "\n\tret;\n}\n"
		m, err := ptx.Parse("k.ptx", []byte(src))
		if err != nil {
			t.Fatalf("%s: parse: %v", c.instr, err)
		}
		var here []string
		for _, e := range Check(m) {
			if e.Pos.Line == 9 {
				here = append(here, e.Msg)
			}
		}
		if bad := len(here) > 0; bad != c.bad || bad && !strings.Contains(here[0], "sm_89") {
			t.Errorf(".target %s %s: errors %v, want refused=%v (naming sm_89)", c.target, c.instr, here, c.bad)
		}
	}
}
