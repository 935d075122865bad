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
			p := lowerKernel(t, head+c.body+"\nret;\n}\n")
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

// TestContractMulAdd lists which multiply-add pairs run fused (ptxas
// contracts them, internal/ir/contract.go) and which keep both roundings.
// The rules: no rounding modifier on either, every reader of the product
// such an add or sub, nothing between that rewrites its operands, .ftz
// alike, and the readers in the multiply's block (a label a branch
// targets ends it) unless the multiply has an immediate operand.
func TestContractMulAdd(t *testing.T) {
	const head = `.version 8.7
.target sm_90
.address_size 64
.const .align 4 .b8 cv[16];
.visible .entry k(.param .f32 k_a, .param .f64 k_d)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .b16 %rs<8>;
	ld.param.b32 %r1, [k_a];
	ld.param.b64 %rd1, [k_d];
	mov.b32 %r2, 0f44400000;
	mov.b32 %r3, 0f3727C5AC;
	mov.b64 %rd2, 0d4008000000000000;
	mov.b64 %rd3, 0d3FF0000000000001;
	cvt.rn.f16.f32 %rs1, %r1;
	cvt.rn.f16.f32 %rs2, %r2;
	cvt.rn.f16.f32 %rs3, %r3;
`
	const none, fma, ext = 0, 1, 2
	cases := []struct {
		name, body string
		want       int   // none, fma (an add) or ext (ExtMulAdd, a sub)
		mode       uint8 // ExtMulAdd's negations
		class      Class
	}{
		{"f32 add, product first", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r4, %r3;", fma, 0, ClassFMA},
		{"f32 add, product second", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", fma, 0, ClassFMA},
		{"f32 sub, product first", "mul.f32 %r4, %r1, %r2;\nsub.f32 %r5, %r4, %r3;", ext, 2, ClassFMA},
		{"f32 sub, product second", "mul.f32 %r4, %r1, %r2;\nsub.f32 %r5, %r3, %r4;", ext, 1, ClassFMA},
		{"f32 .ftz on both", "mul.ftz.f32 %r4, %r1, %r2;\nadd.ftz.f32 %r5, %r4, %r3;", fma, 0, ClassFMA},
		{"f64 add", "mul.f64 %rd4, %rd1, %rd2;\nadd.f64 %rd5, %rd4, %rd3;", fma, 0, ClassFP64},
		{"f64 sub", "mul.f64 %rd4, %rd1, %rd2;\nsub.f64 %rd5, %rd3, %rd4;", ext, 1, ClassFP64},
		{"f16 add", "mul.f16 %rs4, %rs1, %rs2;\nadd.f16 %rs5, %rs4, %rs3;", fma, 0, ClassFMA},
		{"f16x2 sub", "mul.f16x2 %r4, %r1, %r2;\nsub.f16x2 %r5, %r4, %r3;", ext, 2, ClassFMA},
		{"unrelated instruction between", "mul.f32 %r4, %r1, %r2;\nmov.b32 %r6, 7;\nadd.f32 %r5, %r3, %r4;", fma, 0, ClassFMA},
		{"mul.rn is not contracted", "mul.rn.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
		{"add.rn is not contracted", "mul.f32 %r4, %r1, %r2;\nadd.rn.f32 %r5, %r3, %r4;", none, 0, 0},
		{"add.sat is not contracted", "mul.f32 %r4, %r1, %r2;\nadd.sat.f32 %r5, %r3, %r4;", none, 0, 0},
		{"product read by two adds: both fused", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;\nadd.f32 %r6, %r4, %r3;", fma, 0, ClassFMA},
		{"product read by an add and a sub: both fused", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r6, %r4, %r3;\nsub.f32 %r5, %r3, %r4;", ext, 1, ClassFMA},
		{"an operand rewritten before the second reader", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;\nmov.b32 %r1, 0f3F800000;\nadd.f32 %r6, %r4, %r3;", none, 0, 0},
		{"product read twice", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;\nmov.b32 %r6, %r4;", none, 0, 0},
		{"product added to itself", "mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r4, %r4;", none, 0, 0},
		{"operand rewritten between", "mul.f32 %r4, %r1, %r2;\nmov.b32 %r2, 0f3F800000;\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
		{"branch target between", "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\nmul.f32 %r4, %r1, %r2;\n$L1:\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
		{"a label no branch targets between (clang's line tables)", "mul.f32 %r4, %r1, %r2;\n$L__tmp1:\nadd.f32 %r5, %r3, %r4;", fma, 0, ClassFMA},
		{"guarded multiply", "setp.eq.u32 %p1, %r1, 0;\n@%p1 mul.f32 %r4, %r1, %r2;\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
		{"guarded add", "setp.eq.u32 %p1, %r1, 0;\nmul.f32 %r4, %r1, %r2;\n@%p1 add.f32 %r5, %r3, %r4;", none, 0, 0},
		{"add.ftz after a mul without .ftz", "mul.f32 %r4, %r1, %r2;\nadd.ftz.f32 %r5, %r3, %r4;", none, 0, 0},
		{"types differ", "mul.f32 %r4, %r1, %r2;\nadd.f16x2 %r5, %r3, %r4;", none, 0, 0},
		{"integer multiply", "mul.lo.u32 %r4, %r1, %r2;\nadd.u32 %r5, %r3, %r4;", none, 0, 0},
		{"product overwrites an operand", "mul.f32 %r1, %r1, %r2;\nadd.f32 %r5, %r3, %r1;", none, 0, 0},
		// Readers in other blocks: fused when the multiply has an
		// immediate operand and every path to them comes from it with the
		// other operand unchanged (programs8's lbm: 1.5·|u|² before
		// clang's loop, FFMA with -1.5 inside it on the H100); a product
		// of two registers stays rounded (testdata/contract f32_hoisted,
		// f32_branch_add_only: FMUL and FADDs in the H100's SASS).
		{"loop-invariant product by an immediate, sub in the loop", "mul.f32 %r4, %r1, 0f3FC00000;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", ext, 1, ClassFMA},
		{"loop-invariant product of two registers, sub in the loop", "ld.global.f32 %r9, [%rd1];\nmul.f32 %r4, %r9, %r2;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", none, 0, 0},
		{"product by an immediate, add in a branch's arm", "mul.f32 %r4, %r1, 0f40400000;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\nadd.f32 %r5, %r3, %r4;\n$L1:", fma, 0, ClassFMA},
		{"product of two registers, add in a branch's arm", "ld.global.f32 %r9, [%rd1];\nmul.f32 %r4, %r9, %r2;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\nadd.f32 %r5, %r3, %r4;\n$L1:", none, 0, 0},
		// Kernel parameters and __constant__ variables at fixed addresses
		// count as immediates: SASS reads them as constant-bank operands
		// (testdata/programs9/probe/hoist.cu: param·register, const²,
		// const·param fused in the loop; register² not; programs9's ray).
		{"loop-invariant product of a kernel parameter and a register, sub in the loop", "ld.global.f32 %r9, [%rd1];\nmul.f32 %r4, %r1, %r9;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", ext, 1, ClassFMA},
		{"loop-invariant square of a __constant__ value, sub in the loop", "ld.const.f32 %r9, [cv+12];\nmul.f32 %r4, %r9, %r9;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", ext, 1, ClassFMA},
		{"loop-invariant __constant__ times a kernel parameter, add in the loop", "ld.const.f32 %r9, [cv];\nmul.f32 %r4, %r9, %r1;\nmov.b32 %r7, 0;\n$L1:\nadd.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", fma, 0, ClassFMA},
		{"loop-invariant square of a loaded register, sub in the loop", "ld.global.f32 %r9, [%rd1];\nmul.f32 %r4, %r9, %r9;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", none, 0, 0},
		{"a __constant__ value written again is a register", "ld.const.f32 %r9, [cv];\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 mov.b32 %r9, 0f3F800000;\nmul.f32 %r4, %r9, %r2;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", none, 0, 0},
		{"operand rewritten in the loop", "mul.f32 %r4, %r1, 0f3FC00000;\nmov.b32 %r7, 0;\n$L1:\nsub.f32 %r5, %r3, %r4;\nadd.f32 %r1, %r1, %r3;\nadd.s32 %r7, %r7, 1;\nsetp.lt.u32 %p1, %r7, 4;\n@%p1 bra $L1;", none, 0, 0},
		{"operand rewritten on one path to the reader", "mul.f32 %r4, %r1, 0f3FC00000;\nsetp.eq.u32 %p1, %r3, 0;\n@%p1 bra $L1;\nmov.b32 %r1, 0f3F800000;\n$L1:\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
		{"a path to the reader skips the multiply", "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\nmul.f32 %r4, %r1, 0f3FC00000;\n$L1:\nadd.f32 %r5, %r3, %r4;", none, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lowerKernel(t, head+c.body+"\nret;\n}\n")
			got, at := none, -1
			for i := range p.Funcs[0].Code {
				switch in := &p.Funcs[0].Code[i]; {
				case in.Op == OpFma:
					got, at = fma, i
				case in.Op == OpExt && in.Mode == ExtMulAdd:
					got, at = ext, i
				}
			}
			if got != c.want {
				t.Fatalf("got %d, want %d (0 none, 1 fma, 2 ExtMulAdd)", got, c.want)
			}
			if got == none {
				return
			}
			in := &p.Funcs[0].Code[at]
			if in.Class != c.class || (got == ext && in.Cmp != c.mode) {
				t.Errorf("class %v mode %d, want class %v mode %d", in.Class, in.Cmp, c.class, c.mode)
			}
			// The fused instruction reads the multiply's operands and the
			// addend: the slots of %r1/%rd1/%rs1, %r2/…, %r3/….
			mul := &p.Funcs[0].Code[at-1]
			for k := at - 2; mul.Op != OpMul; k-- {
				mul = &p.Funcs[0].Code[k]
			}
			if in.A[0] != mul.A[0] || in.A[1] != mul.A[1] {
				t.Errorf("fused operands %v, multiply's %v", in.A[:3], mul.A[:2])
			}
		})
	}
}

// lowerKernel parses and lowers a one-kernel module.
func lowerKernel(t *testing.T, src string) *Program {
	t.Helper()
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
