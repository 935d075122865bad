package ptx

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func parseFile(t testing.TB, path string) *Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return m
}

// instrAt returns the instruction that starts on line of m's file.
func instrAt(m *Module, line int) *Instr {
	var found *Instr
	var walk func([]Stmt)
	walk = func(body []Stmt) {
		for i := range body {
			s := &body[i]
			switch s.Kind {
			case StmtInstr:
				if m.File.Position(s.Pos).Line == line && found == nil {
					found = s.Instr
				}
			case StmtBlock:
				walk(s.Block)
			}
		}
	}
	for _, f := range m.Funcs {
		walk(f.Body)
	}
	return found
}

func funcNamed(m *Module, name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// TestNvccInstructions checks instructions of nvcc 13's lesson PTX, by
// source line, against the text of the file.
func TestNvccInstructions(t *testing.T) {
	tests := []struct {
		file string
		line int
		want string
	}{
		{"divergence.sm90.ptx", 25, "ld.param.u64 %rd1, [warmingup_param_0]"},
		{"divergence.sm90.ptx", 27, "mov.u32 %r1, %ctaid.x"},
		{"divergence.sm90.ptx", 31, "mov.u32 %r5, WARP_SZ"},
		{"divergence.sm90.ptx", 35, "selp.f32 %f1, 0f43480000, 0f42C80000, %p1"},
		{"divergence.sm90.ptx", 38, "st.global.f32 [%rd4], %f1"},
		{"divergence.sm90.ptx", 39, "ret"},
		{"nested.sm90.ptx", 62, "st.local.v2.u32 [%rd1], {%r11, %r1}"},
		{"nested.sm90.ptx", 64, "st.local.u32 [%rd1+8], %r7"},
		{"nested.sm90.ptx", 70, "st.param.b64 [param0], %rd5"},
		{"nested.sm90.ptx", 74, "call.uni (retval0), vprintf, (param0, param1)"},
		{"nested.sm90.ptx", 83, "@%p1 bra $L__BB0_5"},
		{"nested.sm90.ptx", 475, "atom.global.max.s32 %r4, [%rd3], %r2"},
		{"nested.sm90.ptx", 580, "atom.global.add.u32 %r1, [%rd2], 1"},
		{"cdp1_sm80.ptx", 90, "bar.sync 0"},
		{"coarsen.sm90.ptx", 90, "st.shared.f32 [%r5], %f6"},
	}
	mods := map[string]*Module{}
	for _, tc := range tests {
		m := mods[tc.file]
		if m == nil {
			m = parseFile(t, filepath.Join("testdata/nvcc", tc.file))
			mods[tc.file] = m
		}
		in := instrAt(m, tc.line)
		if in == nil {
			t.Errorf("%s:%d: no instruction", tc.file, tc.line)
			continue
		}
		if got := in.String(); got != tc.want {
			t.Errorf("%s:%d: got %q, want %q", tc.file, tc.line, got, tc.want)
		}
	}
}

func TestNvccStructure(t *testing.T) {
	m := parseFile(t, "testdata/nvcc/nested.sm90.ptx")
	if m.Version != "9.0" || !reflect.DeepEqual(m.Target, []string{"sm_90"}) || m.AddressSize != 64 {
		t.Errorf("header: version %q target %q address size %d", m.Version, m.Target, m.AddressSize)
	}
	if len(m.Vars) != 4 {
		t.Fatalf("got %d module variables, want 4", len(m.Vars))
	}
	str := m.Vars[0]
	if str.Name != "$str" || str.Space != SpaceGlobal || str.Type != B8 || str.Align != 1 ||
		!reflect.DeepEqual(str.Dims, []int{51}) || len(str.Init) != 50 || str.Init[0].Bits != 82 {
		t.Errorf("$str: %+v", str)
	}
	gpb := funcNamed(m, "__cudaCDP2GetParameterBufferV2")
	if gpb == nil || gpb.HasBody || gpb.Linkage != LinkExtern || len(gpb.Returns) != 1 || len(gpb.Params) != 4 {
		t.Fatalf("__cudaCDP2GetParameterBufferV2: %+v", gpb)
	}
	if p := gpb.Params[1]; p.Align != 4 || p.Type != B8 || !reflect.DeepEqual(p.Dims, []int{12}) {
		t.Errorf("param 1: %+v", p)
	}
	k := funcNamed(m, "_Z16nestedHelloWorldii")
	if k == nil || !k.Entry || k.Linkage != LinkVisible || len(k.Params) != 2 || k.Params[0].Type != U32 {
		t.Fatalf("kernel: %+v", k)
	}
	// .local .align 8 .b8 __local_depot0[16]; then .reg .b64 %SP;
	d := k.Body[0].Decl
	if k.Body[0].Kind != StmtDecl || d.Space != SpaceLocal || d.Align != 8 || d.Name != "__local_depot0" {
		t.Errorf("first statement: %+v", k.Body[0])
	}
	if d := k.Body[4].Decl; d == nil || d.Name != "%r" || d.RegRange != 12 || d.Type != B32 {
		t.Errorf("fifth statement: %+v", k.Body[4])
	}
	var blocks int
	for _, s := range k.Body {
		if s.Kind == StmtBlock {
			blocks++
		}
	}
	if blocks != 4 {
		t.Errorf("got %d call blocks, want 4", blocks)
	}
}

func TestParseCorpora(t *testing.T) {
	files, _ := filepath.Glob("testdata/nvcc/*.ptx")
	clang, _ := filepath.Glob("testdata/clang/*.ptx")
	files = append(files, clang...)
	if len(files) < 5 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) { parseFile(t, f) })
	}
}
