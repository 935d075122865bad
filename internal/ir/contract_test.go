package ir

import (
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestContractDivFull: which div.full.f32 + add/sub pairs become one fused
// instruction (ptxas's FFMA; testdata/triton/probes/layernorm_var is the
// H100's evidence) and which stay apart.
func TestContractDivFull(t *testing.T) {
	const head = `.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .f32 k_a)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	ld.param.b32 %r1, [k_a];
	mov.b32 %r2, 0f44400000;
	mov.b32 %r3, 0f3727C5AC;
`
	cases := []struct {
		name, body string
		fused      bool
		mode       uint8
	}{
		{"add, quotient second", "div.full.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", true, 0},
		{"add, quotient first", "div.full.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r4, %r3;", true, 0},
		{"sub, quotient second", "div.full.f32 %r4, %r1, %r2;\nsub.f32 %r5, %r3, %r4;", true, 1},
		{"sub, quotient first", "div.full.f32 %r4, %r1, %r2;\nsub.f32 %r5, %r4, %r3;", true, 2},
		{"unrelated instruction between", "div.full.f32 %r4, %r1, %r2;\nmov.b32 %r6, 7;\nadd.f32 %r5, %r3, %r4;", true, 0},
		{"add.rn is not contracted", "div.full.f32 %r4, %r1, %r2;\nadd.rn.f32 %r5, %r3, %r4;", false, 0},
		{"quotient read twice", "div.full.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;\nmov.b32 %r6, %r4;", false, 0},
		{"divisor rewritten between", "div.full.f32 %r4, %r1, %r2;\nmov.b32 %r2, 0f3F800000;\nadd.f32 %r5, %r3, %r4;", false, 0},
		{"label between", "div.full.f32 %r4, %r1, %r2;\n$L1:\nadd.f32 %r5, %r3, %r4;", false, 0},
		{"guarded division", "setp.eq.u32 %p1, %r1, 0;\n@%p1 div.full.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", false, 0},
		{"div.rn is not div.full", "div.rn.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", false, 0},
		{"add.ftz after a div.full without .ftz", "div.full.f32 %r4, %r1, %r2;\nadd.ftz.f32 %r5, %r3, %r4;", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ptx.Parse("k.ptx", []byte(head+c.body+"\nret;\n}\n"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := Lower(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			var fused *Inst
			for i := range p.Funcs[0].Code {
				if in := &p.Funcs[0].Code[i]; in.Op == OpExt && in.Mode == ExtDivFullAdd {
					fused = in
				}
			}
			if (fused != nil) != c.fused {
				t.Fatalf("fused = %v, want %v", fused != nil, c.fused)
			}
			if fused != nil && (fused.Cmp != c.mode || fused.Class != ClassFMA) {
				t.Errorf("mode %d class %v, want mode %d class fma", fused.Cmp, fused.Class, c.mode)
			}
		})
	}
}
