package ir

import (
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestFastForms: the instructions whose general paths the engine no longer
// has (32-bit integer and, or, xor, shl, unsigned shr and setp) always get
// a fast form, its constant-operand form where the second source is an
// immediate; the others keep the general path.
func TestFastForms(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	.reg .f32 %f<4>;
	and.b32 %r1, %r2, %r3;
	or.b32 %r1, %r2, 7;
	xor.b32 %r1, %r2, %r3;
	and.s32 %r1, %r2, %r3;
	shl.b32 %r1, %r2, %r3;
	shr.u32 %r1, %r2, 3;
	shr.b32 %r1, %r2, %r3;
	setp.lt.s32 %p1, %r2, %r3;
	setp.hs.u32 %p1, %r2, 5;
	setp.ne.b32 %p1, %r2, %r3;
	fma.rn.f32 %f1, %f2, %f3, %f1;
	add.s32 %r1, %r2, -1;
	mul.lo.s32 %r1, %r2, 3;
	add.s32 %r1, 1, %r2;
	shr.s32 %r1, %r2, %r3;
	setp.lt.s32 %p1|%p2, %r2, %r3;
	setp.lt.and.s32 %p1, %r2, %r3, %p2;
	setp.lt.f32 %p1, %f2, %f3;
	fma.rn.ftz.f32 %f1, %f2, %f3, %f1;
	fma.rz.f32 %f1, %f2, %f3, %f1;
	ret;
}
`
	m, err := ptx.Parse("fast.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fast{FastAnd32, FastOr32Imm, FastXor32, FastAnd32, FastShl32, FastShrU32Imm, FastShrU32,
		FastSetp32, FastSetp32Imm, FastSetp32, FastFmaF32, FastAdd32Imm, FastMulLo32Imm, FastAdd32,
		FastNone, FastNone, FastNone, FastNone, FastNone, FastNone, FastNone}
	code := p.Funcs[p.FuncByName["k"]].Code
	for i, w := range want {
		if code[i].Fast != w {
			t.Errorf("instruction %d (%s): fast form %d, want %d", i, p.Funcs[p.FuncByName["k"]].Text[i], code[i].Fast, w)
		}
	}
}
