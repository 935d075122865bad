package ir

import (
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// TestLibcallFoldedArgs: a libdevice call whose argument stores just before
// it store constants is LibcallFolded (backprop's unrolled powf(2.0f, i)); a
// call with a register argument keeps its function's kind.
func TestLibcallFoldedArgs(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) __nv_powf(.param .b32 __nv_powf_param_0, .param .b32 __nv_powf_param_1);
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	{
	.param .b32 param0;
	.param .b32 param1;
	.param .b32 retval0;
	st.param.b32 [param1], 1065353216;
	st.param.b32 [param0], 1073741824;
	call.uni (retval0), __nv_powf, (param0, param1);
	ld.param.b32 %r1, [retval0];
	}
	ld.global.b32 %r2, [%rd1];
	{
	.param .b32 param0;
	.param .b32 param1;
	.param .b32 retval0;
	st.param.b32 [param1], 1065353216;
	st.param.b32 [param0], %r2;
	call.uni (retval0), __nv_powf, (param0, param1);
	ld.param.b32 %r3, [retval0];
	}
	add.s32 %r3, %r3, %r1;
	st.global.b32 [%rd1], %r3;
	ret;
}
`
	m, err := ptx.Parse("fold.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(m, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	var modes []uint8
	for _, f := range p.Funcs {
		for _, in := range f.Code {
			if in.Op == OpLibcall {
				modes = append(modes, in.Mode)
				if in.Mode == LibcallFolded && ClassOf(&in) != ClassALU {
					t.Errorf("a folded call's class is %v, want alu", ClassOf(&in))
				}
			}
		}
	}
	want := []uint8{LibcallFolded, LibcallNames["__nv_powf"]}
	if len(modes) != 2 || modes[0] != want[0] || modes[1] != want[1] {
		t.Errorf("calls' kinds %v, want %v", modes, want)
	}
	if LibcallKind("__nv_tanhf") != LibcallMathF32 || LibcallKind("__nv_tanh") != LibcallMathF64 || LibcallKind("__nv_popc") != LibcallOther || LibcallKind("__nv_sinf") != LibcallSinf {
		t.Errorf("LibcallKind: tanhf %d, tanh %d, popc %d, sinf %d", LibcallKind("__nv_tanhf"), LibcallKind("__nv_tanh"), LibcallKind("__nv_popc"), LibcallKind("__nv_sinf"))
	}
}
