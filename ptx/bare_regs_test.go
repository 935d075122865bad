package ptx

import "testing"

// Inline asm declares registers without '%' ("p", "q"); they appear as
// guards, negated operands and setp/shfl pairs.
func TestBareRegisterNames(t *testing.T) {
	src := `.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	{
	.reg .pred p, q;
	setp.eq.f32 p|q, %f2, %f3;
	@!q add.f32 %f9, %f9, 0f40000000;
	shfl.sync.idx.b32 %r31|q, %r1, %r34, %r35, -1;
	selp.u32 %r32, 1, 0, !p;
	}
}
`
	m, err := Parse("bare.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ins []*Instr
	for _, st := range m.Funcs[0].Body[0].Block {
		if st.Kind == StmtInstr {
			ins = append(ins, st.Instr)
		}
	}
	if len(ins) != 4 {
		t.Fatalf("got %d instructions, want 4", len(ins))
	}
	setp := ins[0]
	if got := setp.Operands[0]; got.Kind != OpdPair || got.Elems[0].Name != "p" || got.Elems[1].Name != "q" {
		t.Errorf("setp pair = %+v", got)
	}
	add := ins[1]
	if add.Guard != "q" || !add.GuardNeg {
		t.Errorf("guard = %q neg %v, want q, true", add.Guard, add.GuardNeg)
	}
	shfl := ins[2]
	if got := shfl.Operands[0]; got.Kind != OpdPair || got.Elems[0].Name != "%r31" || got.Elems[1].Name != "q" {
		t.Errorf("shfl pair = %+v", got)
	}
	selp := ins[3]
	if got := selp.Operands[3]; got.Kind != OpdReg || got.Name != "p" || !got.Neg {
		t.Errorf("selp predicate = %+v", got)
	}
}
