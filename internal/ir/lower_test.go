package ir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

func lowerFile(t *testing.T, path string) *Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	p, err := Lower(m, func(name string) bool { return strings.HasPrefix(name, "__nv_") })
	if err != nil {
		t.Fatalf("lower: %v", err)
	}
	return p
}

func TestLowerLessons(t *testing.T) {
	for _, name := range []string{"divergence", "reduce", "coarsen"} {
		t.Run(name, func(t *testing.T) {
			p := lowerFile(t, "../../examples/lessons/"+name+".sm90.ptx")
			for _, f := range p.Funcs {
				t.Logf("%s: %d insts, %d slots, regs %d, frame %d", f.Name, len(f.Code), f.NumSlots, f.RegEstimate, f.FrameBytes)
			}
		})
	}
}
