package cudart

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

func TestRetarget(t *testing.T) {
	cases := []struct {
		arch, ptx, want, note string
	}{
		{"a100", ".version 8.0\n.target sm_90\n", ".version 8.0\n.target sm_80\n", "compiled for sm_90; simulating it on a100 (sm_80)"},
		{"a100", ".version 8.0\n.target sm_90a\n", ".version 8.0\n.target sm_80\n", "compiled for sm_90"},
		{"h100", ".version 8.0\n.target sm_80\n", ".version 8.0\n.target sm_80\n", ""},
		{"h100", ".version 8.0\n.target sm_90\n", ".version 8.0\n.target sm_90\n", ""},
		{"h100", "// no target\n", "// no target\n", ""},
	}
	for _, c := range cases {
		t.Run(c.arch+"/"+strings.Fields(c.ptx)[len(strings.Fields(c.ptx))-1], func(t *testing.T) {
			s := &Server{opt: Options{Arch: arch.MustLookup(c.arch)}}
			got, note := s.retarget("k.ptx", []byte(c.ptx))
			if string(got) != c.want {
				t.Errorf("PTX %q, want %q", got, c.want)
			}
			if c.note == "" && note != nil || !strings.Contains(string(note), c.note) {
				t.Errorf("note %q, want one containing %q", note, c.note)
			}
		})
	}
}

func TestModuleName(t *testing.T) {
	cases := []struct{ ptx, want string }{
		{".file\t1 \"/home/u/reduce.cu\"\n", "reduce.ptx"},
		{"\t.file 1 \"dir/k.cu\", 1700000000, 100\n", "k.ptx"},
		{".target sm_90\n", "module3.ptx"},
	}
	for _, c := range cases {
		if got := moduleName([]byte(c.ptx), 3); got != c.want {
			t.Errorf("moduleName(%q) = %q, want %q", c.ptx, got, c.want)
		}
	}
}
