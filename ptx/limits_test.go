package ptx

import (
	"errors"
	"strings"
	"testing"
)

func TestGiveUpAfterTenErrors(t *testing.T) {
	src := ".version 9.0\n" + strings.Repeat(".address_size 7\n", 50)
	_, err := Parse("junk.ptx", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != maxErrors {
		t.Fatalf("got %v, want %d errors", err, maxErrors)
	}
	if list[0].Pos.Line != 2 || list[9].Pos.Line != 11 {
		t.Errorf("errors at lines %d..%d, want 2..11", list[0].Pos.Line, list[9].Pos.Line)
	}
}

func TestDeepNesting(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"blocks", ".entry k() " + strings.Repeat("{", 100000) + strings.Repeat("}", 100000), "1:268: blocks nested too deeply"},
		{"init", ".global .u32 x[1] = " + strings.Repeat("{", 100000), "1:85: initializer nested too deeply"},
		{"unclosed", ".entry k() " + strings.Repeat("{", 100), "expected '}', found end of file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("deep.ptx", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse("a.ptx", []byte(".version 9.0\n.target sm_90\n.entry k() {\n\tmov.u32 %r1, #;\n\tadd.s32 %r1 %r2;\n}\n"))
	want := "a.ptx:4:15: illegal character '#'\na.ptx:5:14: expected ';', found '%r2'"
	if err == nil || err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if (ErrorList{}).Err() != nil {
		t.Error("empty ErrorList.Err() is not nil")
	}
	if got := (Position{"f.ptx", 3, 7}).String(); got != "f.ptx:3:7" {
		t.Errorf("Position.String() = %q", got)
	}
}

func TestInstrString(t *testing.T) {
	tests := []struct{ src, want string }{
		{"@!%p1 ld.global.f32 %f1, [%rd2+4];", "@!%p1 ld.global.f32 %f1, [%rd2+4]"},
		{"@%p2 bra.uni $L__BB0_3;", "@%p2 bra.uni $L__BB0_3"},
		{"st.shared.v2.f32 [%r1+-8], {%f1, %f2};", "st.shared.v2.f32 [%r1-8], {%f1, %f2}"},
		{"mov.b32 %r1, 0F7FC00000;", "mov.b32 %r1, 0f7FC00000"},
		{"mov.f64 %fd1, 1.5;", "mov.f64 %fd1, 0d3FF8000000000000"},
		{"add.s32 %r1, %r2, 0xffffffff;", "add.s32 %r1, %r2, 4294967295"},
		{"add.s64 %rd1, %rd2, -0x10;", "add.s64 %rd1, %rd2, -16"},
		{"setp.ne.and.b32 %p1|%p2, %r1, 0, !%p3;", "setp.ne.and.b32 %p1|%p2, %r1, 0, !%p3"},
		{"ld.const.u32 %r1, [-4];", "ld.const.u32 %r1, [-4]"},
		{"call.uni _Z1fv, ();", "call.uni _Z1fv, ()"},
	}
	for _, tc := range tests {
		m, err := Parse("i.ptx", []byte(".entry k() {\n"+tc.src+"\n}\n"))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := m.Funcs[0].Body[0].Instr.String(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestByteOrderMark(t *testing.T) {
	m, err := Parse("bom.ptx", []byte("\xEF\xBB\xBF.version 9.0\n.target sm_90\n"))
	if err != nil || m.Version != "9.0" {
		t.Errorf("got %v, version %q", err, m.Version)
	}
}
