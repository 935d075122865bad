package cc

import (
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// testdata/inlined/inl.clang.ptx is clang 22's PTX for inl.cu, compiled
// with warpsim cc's device flags (DeviceFlags, 2026-11-28) and its paths
// shortened: put is inlined into outer, outer into the kernel k, and
// threadIdx.x's accessor into k.

// TestNVCCInlines: each .loc clang wrote inside inlined code gets the
// innermost inlined function (by its mangled name, in .debug_str) and that
// call's position, as nvcc writes them; clang's DWARF sections and the
// target's "debug" go.
func TestNVCCInlines(t *testing.T) {
	in, err := os.ReadFile("testdata/inlined/inl.clang.ptx")
	if err != nil {
		t.Fatal(err)
	}
	out, err := nvccInlines(in)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"\n.target sm_90\n",
		".loc\t2 34 47, function_name $L__info_string0, inlined_at 1 3 60 ",
		".loc\t1 2 65, function_name $L__info_string1, inlined_at 1 3 51 ",
		".loc\t1 1 59, function_name $L__info_string2, inlined_at 1 2 56 ",
		".loc\t1 3 74                          // inl.cu:3:74\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, gone := range []string{".debug_info", ".debug_abbrev", ", debug"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s is still there", gone)
		}
	}
	m, err := ptx.Parse("inl.ptx", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	// The names, read back as the sanitizer reads them.
	want := map[string]string{
		"mov.u32":   "_ZN26__cuda_builtin_threadIdx_t7__get_xEv",
		"add.s32":   "_Z5outerPii",
		"st.shared": "_Z3putPii",
		"bar.sync":  "",
		"ld.shared": "",
		"add.s64":   "",
		"st.global": "",
	}
	for _, s := range m.Funcs[0].Body {
		if s.Kind != ptx.StmtInstr {
			continue
		}
		in := s.Instr
		op := in.Op
		if len(in.Mods) > 0 {
			op += "." + in.Mods[0]
		}
		w, ok := want[op]
		if !ok {
			continue
		}
		delete(want, op)
		name := ""
		if in.Loc.Inlined > 0 {
			name = m.InlineNames[m.Inlines[in.Loc.Inlined-1].Func]
		}
		if name != w {
			t.Errorf("%s at line %d: inlined from %q, want %q", op, in.Loc.Line, name, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("instructions not found: %v", want)
	}
}

// TestNVCCInlinesWithout: PTX without clang's .debug_info is left as it
// is; a chain .debug_info does not describe keeps its plain .loc, and is
// reported.
func TestNVCCInlinesWithout(t *testing.T) {
	plain := []byte(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.loc\t1 1 1 // a.cu:1:1 @[ a.cu:2:3 ]\n\tret;\n}\n\t.file\t1 \"a.cu\"\n")
	if out, err := nvccInlines(plain); err != nil || string(out) != string(plain) {
		t.Errorf("changed PTX without .debug_info (%v):\n%s", err, out)
	}
	in, err := os.ReadFile("testdata/inlined/inl.clang.ptx")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(in), "inl.cu:1:59 @[ inl.cu:2:56 @[", "inl.cu:1:59 @[ inl.cu:2:57 @[", 1)
	out, err := nvccInlines([]byte(bad))
	if err == nil || !strings.Contains(err.Error(), "inl.cu:2:57") {
		t.Errorf("error %v, want one naming the chain", err)
	}
	if !strings.Contains(string(out), ".loc\t1 1 59                          // inl.cu:1:59") || strings.Contains(string(out), ".debug_info") {
		t.Errorf("the unknown chain's .loc changed, or .debug_info stayed:\n%s", out)
	}
}
