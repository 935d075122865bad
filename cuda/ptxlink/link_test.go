package ptxlink

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

const header = ".version 8.0\n.target sm_90\n.address_size 64\n\n"

// Modules as clang -fgpu-rdc writes them (trimmed).
const modA = header + `.extern .func  (.param .b32 func_retval0) _Z5scalei
(
	.param .b32 _Z5scalei_param_0
)
;
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.extern .global .align 4 .b8 table[16];
.global .align 1 .b8 $str[4] = {97, 37, 100};
.func  (.param .b32 func_retval0) _ZL6helperi(
	.param .b32 _ZL6helperi_param_0
)
{
	.loc	1 3 0
	ret;
}
.weak .func  (.param .b32 func_retval0) _Z5twiceIiET_S0_(
	.param .b32 _Z5twiceIiET_S0__param_0
)
{
	ret;
}
.visible .entry _Z1kPi(
	.param .u64 .ptr .align 1 _Z1kPi_param_0
)
{
	.loc	1 4 0
	mov.u64 	%rd1, $str;
	mov.u64 	%rd2, table;
	call.uni (retval0), _Z5scalei, (param0);
	call.uni (retval0), _ZL6helperi, (param0);
	ret;
}
	.section	.debug_macinfo	{	}
	.file	1 "a.cu"
`

const modB = header + `.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.visible .global .align 4 .b8 table[16] = {100, 0, 0, 0};
.global .align 1 .b8 $str[4] = {98, 37, 100};
.func  (.param .b32 func_retval0) _ZL6helperi(
	.param .b32 _ZL6helperi_param_0
)
{
	ret;
}
.weak .func  (.param .b32 func_retval0) _Z5twiceIiET_S0_(
	.param .b32 _Z5twiceIiET_S0__param_0
)
{
	ret;
}
.visible .func  (.param .b32 func_retval0) _Z5scalei(
	.param .b32 _Z5scalei_param_0
)
{
	.loc	2 7 0
	mov.u64 	%rd1, $str;
	call.uni (retval0), _ZL6helperi, (param0);
	ret;
}
	.file	1 "b.h"
	.file	2 "b.cu"
`

func TestLink(t *testing.T) {
	out, err := Link([]Module{{"a", []byte(modA)}, {"b", []byte(modB)}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	count := func(s string) int { return strings.Count(got, s) }
	checks := []struct {
		name string
		ok   bool
	}{
		{"one header", count(".version 8.0") == 1 && count(".target sm_90") == 1},
		{"extern function resolved to a prototype", count(".extern .func  (.param .b32 func_retval0) _Z5scalei") == 0 && count(".visible .func  (.param .b32 func_retval0) _Z5scalei(") == 2},
		{"prototype before its first call", strings.Index(got, "_Z5scalei_param_0\n)\n;") < strings.Index(got, "call.uni (retval0), _Z5scalei")},
		{"undefined extern kept once", count(".extern .func  (.param .b32 func_retval0) vprintf") == 1},
		{"extern variable resolved", count(".extern .global .align 4 .b8 table") == 0 && count(".visible .global .align 4 .b8 table[16]") == 1},
		{"variables before code", strings.Index(got, ".b8 table[16]") < strings.Index(got, ".entry _Z1kPi")},
		{"internal string renamed in b", count("$str[4] = {97") == 1 && count("$str__m1[4] = {98") == 1 && count("mov.u64 \t%rd1, $str__m1;") == 1 && count("mov.u64 \t%rd1, $str;") == 1},
		{"internal function renamed in b", count("_ZL6helperi__m1(") >= 1 && count("call.uni (retval0), _ZL6helperi__m1,") == 1 && count("call.uni (retval0), _ZL6helperi,") == 1},
		{"weak definition kept once", count("_Z5twiceIiET_S0_(\n\t.param .b32 _Z5twiceIiET_S0__param_0\n)\n{") == 1},
		{"debug sections dropped", count(".section") == 0},
		{"files renumbered", count(`.file	1 "a.cu"`) == 1 && count(`.file	2 "b.h"`) == 1 && count(`.file	3 "b.cu"`) == 1},
		{"b's .loc moved to its file", count(".loc	3 7 0") == 1 && count(".loc	1 4 0") == 1},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s:\n%s", c.name, got)
		}
	}
}

func TestLinkErrors(t *testing.T) {
	def := header + ".visible .func f()\n{\n\tret;\n}\n"
	cases := []struct {
		name string
		mods []Module
		want string
	}{
		{"multiple definition", []Module{{"x.o", []byte(def)}, {"y.o", []byte(def)}}, "multiple definition of f (in x.o and y.o)"},
		{"unterminated", []Module{{"x.o", []byte(def)}, {"z.o", []byte(header + ".visible .func g()\n{\n\tret;\n")}}, "z.o: unterminated statement"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Link(c.mods)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// inlineModule is a module with one kernel whose store was inlined from
// the function named in its .debug_str, as nvcc -rdc and warpsim cc write
// them: every module numbers its strings from $L__info_string0.
func inlineModule(kernel, inlined string) string {
	var b strings.Builder
	for _, c := range []byte(inlined) {
		fmt.Fprintf(&b, "%d,", c)
	}
	return header + `.visible .entry ` + kernel + `(
	.param .u64 .ptr .align 1 ` + kernel + `_param_0
)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<2>;
	.loc	1 3 0
	ld.param.b64 	%rd1, [` + kernel + `_param_0];
	mov.u32 	%r1, 7;
	.loc	2 9 5, function_name $L__info_string0, inlined_at 1 4 3
	st.global.b32 	[%rd1], %r1;
	.loc	1 5 1
	ret;
}
	.file	1 "` + kernel + `.cu"
	.file	2 "helpers.h"
	.section	.debug_str
	{
$L__info_string0:
.b8 ` + b.String() + `0
	}
`
}

// TestLinkDebugStrings: two modules whose .debug_str labels collide keep
// their own names for their inlined code once linked (before, the sections
// were dropped and neither store had a name).
func TestLinkDebugStrings(t *testing.T) {
	out, err := Link([]Module{
		{"a", []byte(inlineModule("_Z1aPi", "_Z5storeAPi"))},
		{"b", []byte(inlineModule("_Z1bPi", "_Z5storeBPi"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse("linked.ptx", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(string(out), ".section"); n != 1 {
		t.Errorf("%d .section blocks, want one .debug_str:\n%s", n, out)
	}
	want := map[string]string{"_Z1aPi": "_Z5storeAPi", "_Z1bPi": "_Z5storeBPi"}
	for _, f := range m.Funcs {
		var got []string
		for _, s := range f.Body {
			if s.Kind != ptx.StmtInstr || s.Instr.Op != "st" {
				continue
			}
			in := s.Instr
			if in.Loc.Inlined == 0 {
				t.Errorf("%s: the store has no inlining record", f.Name)
				continue
			}
			inl := m.Inlines[in.Loc.Inlined-1]
			got = append(got, m.InlineNames[inl.Func])
			if file := m.SourceFiles[in.Loc.File]; file != "helpers.h" || inl.At.Line != 4 || m.SourceFiles[inl.At.File] != f.Name+".cu" {
				t.Errorf("%s: store at %s:%d inlined at %s:%d", f.Name, file, in.Loc.Line, m.SourceFiles[inl.At.File], inl.At.Line)
			}
		}
		if len(got) != 1 || got[0] != want[f.Name] {
			t.Errorf("%s: the inlined store is named %q, want %q", f.Name, got, want[f.Name])
		}
	}
}
