package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// scopeKernel wraps body (lines) in a kernel; body line i is PTX line i+6.
func scopeKernel(body ...string) string {
	return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" +
		strings.Join(body, "\n") + "\nret;\n}\n"
}

// TestLabelScopes checks which label each branch takes in { } blocks, as
// ptxas scopes them (testdata/ptx/scopes records ptxas's verdicts and the
// H100's paths): a label is seen by its block and nested blocks, an inner
// one shadows an outer one, siblings and enclosing blocks do not see it.
// want maps a branch's body line to its target's body line (the
// instruction after the label); err is the error ptxas would give instead.
func TestLabelScopes(t *testing.T) {
	cases := []struct {
		name string
		body []string
		want map[int]int
		err  string
	}{
		{"siblings", []string{
			".reg .pred %p; .reg .b32 %r;",
			"{", "@%p bra S;", "add.u32 %r, %r, 1;", "S:", "add.u32 %r, %r, 2;", "}",
			"{", "@%p bra S;", "add.u32 %r, %r, 3;", "S:", "add.u32 %r, %r, 4;", "}",
		}, map[int]int{2: 5, 8: 11}, ""},
		{"inner shadows outer", []string{
			".reg .pred %p; .reg .b32 %r;",
			"@%p bra L;",
			"{", "@%p bra L;", "add.u32 %r, %r, 1;", "L:", "add.u32 %r, %r, 2;", "}",
			"@%p bra L;",
			"L:", "add.u32 %r, %r, 3;",
		}, map[int]int{1: 10, 3: 6, 8: 10}, ""},
		{"backward shadow", []string{
			".reg .pred %p; .reg .b32 %r;",
			"L:", "add.u32 %r, %r, 1;",
			"{", "@%p bra L;", "L:", "add.u32 %r, %r, 2;", "}",
			"@%p bra L;",
		}, map[int]int{4: 6, 8: 2}, ""},
		{"nested reaches out", []string{
			".reg .pred %p; .reg .b32 %r;",
			"{", "{", "@%p bra M;", "{", "@%p bra O;", "}", "}", "M:", "add.u32 %r, %r, 1;", "}",
			"O:", "add.u32 %r, %r, 2;",
		}, map[int]int{3: 9, 5: 12}, ""},
		{"label after the block's last statement", []string{
			".reg .pred %p;",
			"{", "@%p bra E;", "E:", "}",
		}, map[int]int{2: 5}, ""}, // E names the pc after the block: the ret on body line 5
		{"outer into inner", []string{
			".reg .pred %p; .reg .b32 %r;",
			"@%p bra IN;", "{", "IN:", "add.u32 %r, %r, 1;", "}",
		}, nil, "k.ptx:7:1: undefined label IN"},
		{"sibling's label", []string{
			".reg .pred %p; .reg .b32 %r;",
			"{", "X:", "add.u32 %r, %r, 1;", "}", "{", "@%p bra X;", "}",
		}, nil, "k.ptx:12:1: undefined label X"},
		{"duplicate in a block", []string{
			".reg .b32 %r;",
			"{", "D:", "add.u32 %r, %r, 1;", "D:", "add.u32 %r, %r, 2;", "}",
		}, nil, "k.ptx:10:1: label D redefined"},
		{"duplicate at function level", []string{
			".reg .b32 %r;",
			"D:", "add.u32 %r, %r, 1;", "D:", "add.u32 %r, %r, 2;",
		}, nil, "k.ptx:9:1: label D redefined"},
		{"table and label share names", []string{
			".reg .b32 %r;",
			"T: .branchtargets A;", "T:", "A:", "add.u32 %r, %r, 1;",
		}, nil, "k.ptx:8:1: label T redefined"},
		{"outer table, inner label", []string{
			".reg .b32 %r;",
			"T: .branchtargets A, C;", "brx.idx %r, T;", "A:", "add.u32 %r, %r, 1;", "{", "C:", "add.u32 %r, %r, 2;", "}",
		}, nil, "k.ptx:7:1: undefined label C"},
		{"table in a sibling", []string{
			".reg .b32 %r;",
			"{", "T: .branchtargets A;", "A:", "add.u32 %r, %r, 1;", "}", "{", "brx.idx %r, T;", "}",
		}, nil, "undefined .branchtargets list T"},
		{"register twice in a block", []string{
			"{", ".reg .b32 %t;", ".reg .b32 %t;", "mov.u32 %t, 1;", "}",
		}, nil, "k.ptx:8:11: register %t redefined in the same block"},
		{"register range twice in a block", []string{
			".reg .b32 %q<70000>;", ".reg .b32 %q<70000>;", "mov.u32 %q1, 1;",
		}, nil, "k.ptx:7:11: register %q<70000> redefined in the same block"},
		{"range register past its count", []string{
			".reg .b32 %q<70000>;", "mov.u32 %q70000, 1;",
		}, nil, "undefined register %q70000"},
		{"range register with a leading zero", []string{
			".reg .b32 %q<70000>;", "mov.u32 %q01, 1;",
		}, nil, "undefined register %q01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ptx.Parse("k.ptx", []byte(scopeKernel(c.body...)))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			p, err := Lower(m, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f := p.Funcs[0]
			lineOf := func(pc int32) int {
				if int(pc) >= len(f.Lines) {
					return -1
				}
				return f.Lines[pc].PTXLine - 6
			}
			got := map[int]int{}
			for pc, in := range f.Code {
				if in.Op == OpBra {
					got[lineOf(int32(pc))] = lineOf(in.Target)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("branch line → target line %v, want %v", got, c.want)
			}
		})
	}
}

// TestManyRegisters lowers functions beyond 65,536 registers: ten million
// declared (ptxas accepts them; only the used ones get slots), and a chain
// through 70,001 used ones.
func TestManyRegisters(t *testing.T) {
	src := scopeKernel(".reg .b32 %q<10000000>;", ".reg .f32 %f<70000>;",
		"mov.u32 %q9999999, 1;", "mov.b32 %f69999, %q9999999;", "mov.b32 %q5, %f69999;")
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Funcs[0].NumSlots; n > 16 {
		t.Errorf("%d slots for 3 used registers", n)
	}
	var b strings.Builder
	b.WriteString(".reg .b32 %c<70001>;\nmov.u32 %c0, 0;\n")
	for i := 0; i < 70000; i++ {
		fmt.Fprintf(&b, "add.u32 %%c%d, %%c%d, 1;\n", i+1, i)
	}
	m, err = ptx.Parse("k.ptx", []byte(scopeKernel(b.String())))
	if err != nil {
		t.Fatal(err)
	}
	if p, err = Lower(m, nil); err != nil {
		t.Fatal(err)
	}
	f := p.Funcs[0]
	if f.NumSlots < 70001 {
		t.Errorf("%d slots for 70,001 used registers", f.NumSlots)
	}
	// One value is live at a time in the chain: ptxas's floor of 8.
	if f.RegEstimate != 8 {
		t.Errorf("RegEstimate %d, want 8", f.RegEstimate)
	}
}
