package ptx

import (
	"os"
	"reflect"
	"testing"
)

// chainOf is the inlining chain of loc, innermost first: each level's
// function label and the position of the call it replaced.
func chainOf(m *Module, loc Loc) []Inline {
	var out []Inline
	for rec := loc.Inlined; rec > 0; {
		r := m.Inlines[rec-1]
		out = append(out, Inline{Func: r.Func, At: r.At})
		if r.Parent >= rec {
			break
		}
		rec = r.Parent
	}
	return out
}

// TestInlineChains parses nvcc's nested inlining records (nvcc 13's PTX of
// testdata/timing/mechanisms/h100/mech.cu: rowreuse_body<0>, inlined into
// the kernel at line 44, calls lda<0> at line 41; in the next kernel lda<1>
// calls __ldg at line 34), where one .loc per level opens a chain, a .loc
// of the inner level alone continues it, and a call from another line of
// the innermost level than its last .loc's (line 335: __ldg called at
// 1:34:3 while the .loc before is lda's 1:33:3) lies in that level, and
// checks that Format writes them back so they parse to the same chains.
func TestInlineChains(t *testing.T) {
	src, err := os.ReadFile("../testdata/timing/mechanisms/h100/mech.ptx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("mech.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	outer := Inline{Func: "$L__info_string0", At: Loc{File: 1, Line: 44, Col: 41}}
	inner := Inline{Func: "$L__info_string1", At: Loc{File: 1, Line: 41, Col: 3}}
	ldg := []Inline{
		{Func: "$L__info_string4", At: Loc{File: 1, Line: 34, Col: 3}},
		{Func: "$L__info_string3", At: Loc{File: 1, Line: 41, Col: 3}},
		{Func: "$L__info_string2", At: Loc{File: 1, Line: 45, Col: 41}},
	}
	// The instructions of mech.ptx lines 181 (after ".loc 1 41 3 … inlined_at
	// 1 44 41" and ".loc 1 33 3 … inlined_at 1 41 3"), 186 (back at the
	// outer level), 192 (".loc 1 36 3 … inlined_at 1 41 3" alone: the
	// chain goes on) and 148 (the outer level only).
	for _, tc := range []struct {
		line  int
		text  string
		pos   Loc
		chain []Inline
	}{
		{181, "cvt.u64.u32 %rd18, %r21", Loc{File: 1, Line: 33, Col: 3}, []Inline{inner, outer}},
		{186, "mul.lo.s64 %rd22, %rd18, %rd5", Loc{File: 1, Line: 41, Col: 3}, []Inline{outer}},
		{192, "ld.global.f32 %f13, [%rd21]", Loc{File: 1, Line: 36, Col: 3}, []Inline{inner, outer}},
		{148, "cvta.to.global.u64 %rd1, %rd16", Loc{File: 1, Line: 39, Col: 3}, []Inline{outer}},
		{318, "ld.global.nc.f32 %f12, [%rd17]", Loc{File: 2, Line: 134, Col: 49}, ldg},
		{335, "ld.global.nc.f32 %f13, [%rd18]", Loc{File: 2, Line: 134, Col: 49}, ldg},
	} {
		in := instrAt(m, tc.line)
		if in == nil {
			t.Fatalf("line %d: no instruction", tc.line)
		}
		if got := in.String(); got != tc.text {
			t.Fatalf("line %d is %q, want %q (mech.ptx changed?)", tc.line, got, tc.text)
		}
		if in.Loc.Pos() != tc.pos {
			t.Errorf("line %d: position %+v, want %+v", tc.line, in.Loc.Pos(), tc.pos)
		}
		if got := chainOf(m, in.Loc); !reflect.DeepEqual(got, tc.chain) {
			t.Errorf("line %d: chain %+v, want %+v", tc.line, got, tc.chain)
		}
	}

	// Printed and parsed again, every instruction keeps its chain.
	m2, err := Parse("mech2.ptx", Format(m))
	if err != nil {
		t.Fatal(err)
	}
	var a, b [][]Inline
	for _, f := range m.Funcs {
		walkInstrs(f.Body, func(in *Instr) { a = append(a, chainOf(m, in.Loc)) })
	}
	for _, f := range m2.Funcs {
		walkInstrs(f.Body, func(in *Instr) { b = append(b, chainOf(m2, in.Loc)) })
	}
	if len(a) != len(b) {
		t.Fatalf("%d instructions, %d after Format", len(a), len(b))
	}
	nested := 0
	for i := range a {
		if len(a[i]) > 1 {
			nested++
		}
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Errorf("instruction %d: chain %+v, after Format %+v", i, a[i], b[i])
		}
	}
	if nested == 0 {
		t.Error("no instruction lies in a nested chain")
	}
}

// TestInlineChainUnknownCall: a call position that no level of the chain
// before has is the enclosing function's own (a new chain).
func TestInlineChainUnknownCall(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.file 1 "a.cu"
.visible .entry k()
{
	.reg .b32 %r<3>;
	.loc 1 10 3, function_name $L__info_string0, inlined_at 1 20 5
	mov.u32 %r1, 1;
	.loc 1 12 3, function_name $L__info_string1, inlined_at 1 10 3
	mov.u32 %r2, 2;
	.loc 1 30 7, function_name $L__info_string1, inlined_at 1 21 5
	mov.u32 %r1, 3;
	ret;
}
`
	m, err := Parse("a.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var chains [][]Inline
	walkInstrs(m.Funcs[0].Body, func(in *Instr) { chains = append(chains, chainOf(m, in.Loc)) })
	a := Inline{Func: "$L__info_string0", At: Loc{File: 1, Line: 20, Col: 5}}
	b := Inline{Func: "$L__info_string1", At: Loc{File: 1, Line: 10, Col: 3}}
	c := Inline{Func: "$L__info_string1", At: Loc{File: 1, Line: 21, Col: 5}}
	want := [][]Inline{{a}, {b, a}, {c}, {c}}
	if !reflect.DeepEqual(chains, want) {
		t.Errorf("chains %+v, want %+v", chains, want)
	}
}

// walkInstrs calls fn on each instruction of body, nested blocks included,
// in order.
func walkInstrs(body []Stmt, fn func(*Instr)) {
	for i := range body {
		switch s := &body[i]; s.Kind {
		case StmtInstr:
			fn(s.Instr)
		case StmtBlock:
			walkInstrs(s.Block, fn)
		}
	}
}
