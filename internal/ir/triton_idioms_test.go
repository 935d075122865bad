package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// tritonHeader is the module header and kernel prologue the idiom tests
// share; each case supplies directives after the parameter list and a body.
const tritonHeader = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(
	.param .u64 .ptr .global .align 1 k_param_0,
	.param .u32 k_param_1,
	.param .u64 .ptr .global .align 1 k_param_2,
	.param .u64 .ptr .global .align 1 k_param_3
)
`

// TestTritonIdioms lowers the constructs Triton 3.x and its inline
// assembly write (issue 18): each must lower without error.
func TestTritonIdioms(t *testing.T) {
	cases := []struct{ name, attrs, body string }{
		{"one-element brace load and store", ".reqntid 128", `
	.reg .pred %p<3>; .reg .b16 %rs<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
	ld.param.b64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 64;
	mov.b16 %rs2, -16128;
	mov.b16 %rs3, 0x3C00;
	// begin inline asm
	mov.u16 %rs1, %rs2;
	@%p1 ld.global.b16 { %rs1 }, [ %rd1 + 0 ];
	// end inline asm
	mov.u32 %r2, 0x0;
	// begin inline asm
	mov.u32 %r3, %r2;
	@%p1 ld.global.b32 { %r3 }, [ %rd1 + 0 ];
	// end inline asm
	// begin inline asm
	@%p1 st.global.b32 [ %rd1 + 0 ], { %r3 };
	// end inline asm
	@%p1 st.global.b16 [ %rd1 + 0 ], { %rs3 };
	ret;`},
		{"predicated vector access with other values", ".maxntid 256, 1, 1\n.minnctapersm 1\n.maxnreg 128", `
	.reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
	ld.param.b64 %rd1, [k_param_0];
	mov.pred %p1, -1;
	// begin inline asm
	mov.u32 %r1, 0x0;
	mov.u32 %r2, 0xBF800000;
	mov.u32 %r3, %r2;
	mov.u32 %r4, %r2;
	@%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
	// end inline asm
	@%p1 st.global.v2.b32 [ %rd1 + 0 ], { %r1, %r2 };
	ret;`},
		{"scoped inline asm registers", ".explicitcluster\n.reqnctapercluster 1, 1, 1\n.maxclusterrank 8", `
	.reg .b32 %r<8>;
	mov.u32 %r1, %laneid;
	// begin inline asm
	{
	.reg .pred ep;
	.reg .b32 el;
	setp.eq.u32 ep, %r1, 0;
	selp.u32 %r2, 1, 0, ep;
	mov.b32 el, %r2;
	mov.b32 %r3, el;
	}
	// end inline asm
	{
	.reg .pred ep;
	setp.ne.u32 ep, %r3, 0;
	@ep add.u32 %r3, %r3, 1;
	}
	ret;`},
		{"pragma nounroll and trailing scratch parameters", ".reqntid 32", `
	.reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
	ld.param.b64 %rd2, [k_param_2];
	ld.param.b64 %rd3, [k_param_3];
	ld.param.b32 %r1, [k_param_1];
	mov.u32 %r2, 0;
$L__BB0_1:
	.pragma "nounroll";
	add.s32 %r2, %r2, 1;
	setp.lt.s32 %p1, %r2, %r1;
	@%p1 bra $L__BB0_1;
	ret;`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := tritonHeader + c.attrs + "\n{\n" + c.body + "\n}\n"
			m, err := ptx.Parse("k.ptx", []byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if _, err := Lower(m, nil); err != nil {
				t.Fatalf("lower: %v", err)
			}
		})
	}
}

// TestUnsupportedStopsCleanly: a function with many unsupported
// instructions reports them, and not the labels after the point where
// lowering gave up as undefined.
func TestUnsupportedStopsCleanly(t *testing.T) {
	var b strings.Builder
	b.WriteString(tritonHeader + "{\n.reg .b32 %r<4>; .reg .b64 %rd<4>;\nbra $L__end;\n")
	for i := 0; i < 20; i++ {
		b.WriteString("multimem.red.relaxed.sys.global.add.u32 [%rd1], %r1;\n")
	}
	b.WriteString("$L__end:\nret;\n}\n")
	m, err := ptx.Parse("k.ptx", []byte(b.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	_, err = Lower(m, nil)
	if err == nil {
		t.Fatal("lowered multimem.red, which is not simulated")
	}
	if msg := err.Error(); !strings.Contains(msg, "k.ptx:13:1: multimem.red.relaxed.sys.global.add.u32 is not supported yet") ||
		strings.Contains(msg, "undefined label") {
		t.Errorf("error %q: want the first multimem.red named with its line, and no undefined label", msg)
	}
}

// TestNotYetSimulatedISA: forms of the PTX ISA that warpsim does not run
// (the sm_100 conversions and reductions the H100 lacks, among others) are
// refused with "<instruction> is not supported yet" at their line.
func TestNotYetSimulatedISA(t *testing.T) {
	cases := []struct{ instr, name string }{
		{"cvt.rn.satfinite.e2m1x2.f32 %rs1, %f1, %f2;", "cvt.rn.satfinite.e2m1x2.f32"},
		{"cvt.rn.satfinite.e3m2x2.f32 %rs1, %f1, %f2;", "cvt.rn.satfinite.e3m2x2.f32"},
		{"cvt.rz.satfinite.ue8m0x2.f32 %rs1, %f1, %f2;", "cvt.rz.satfinite.ue8m0x2.f32"},
		{"cvt.rn.bf16x2.e4m3x2 %r1, %rs1;", "cvt.rn.bf16x2.e4m3x2"},
		{"redux.sync.min.f32 %f1, %f2, 0xffffffff;", "redux.sync.min.f32"},
		{"multimem.ld_reduce.relaxed.sys.global.add.f32 %f1, [%rd1];", "multimem.ld_reduce.relaxed.sys.global.add.f32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" +
				".reg .b16 %rs<3>; .reg .b32 %r<3>; .reg .f32 %f<3>; .reg .b64 %rd<3>;\n" + c.instr + "\nret;\n}\n"
			m, err := ptx.Parse("k.ptx", []byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = Lower(m, nil)
			if err == nil || !strings.Contains(err.Error(), "k.ptx:7:1: "+c.name+" is not supported yet") {
				t.Fatalf("error %v, want %q at k.ptx:7:1", err, c.name+" is not supported yet")
			}
		})
	}
}
