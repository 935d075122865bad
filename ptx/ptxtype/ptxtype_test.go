package ptxtype

import "testing"

// TestSpellings: the declaration spaces are the eight the PTX ISA lists
// for declarations (.reg, .sreg, .const, .global, .local, .param, .shared,
// .tex), each spelled back by String; every type spells back likewise, and
// ByName takes it without its dot.
func TestSpellings(t *testing.T) {
	want := map[string]Space{".reg": SpaceReg, ".sreg": SpaceSReg, ".const": SpaceConst, ".global": SpaceGlobal,
		".local": SpaceLocal, ".param": SpaceParam, ".shared": SpaceShared, ".tex": SpaceTex}
	if len(Spaces) != len(want) {
		t.Errorf("Spaces has %d entries, want %d: %v", len(Spaces), len(want), Spaces)
	}
	for name, s := range want {
		if Spaces[name] != s {
			t.Errorf("Spaces[%q] = %v, want %v", name, Spaces[name], s)
		}
		if s.String() != name {
			t.Errorf("%v.String() = %q, want %q", s, s.String(), name)
		}
	}
	if SpaceGeneric.String() != ".generic" {
		t.Errorf("SpaceGeneric.String() = %q", SpaceGeneric.String())
	}
	for name, ty := range Types {
		if ty.String() != name {
			t.Errorf("%q's type spells %q", name, ty.String())
		}
		if ty == TexRef || ty == SamplerRef || ty == SurfRef {
			continue
		}
		if got, ok := ByName(name[1:]); !ok || got != ty {
			t.Errorf("ByName(%q) = %v, %v", name[1:], got, ok)
		}
	}
}
