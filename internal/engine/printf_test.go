package engine

import "testing"

// printfPTX is vprintf as nvcc emits it: the format string in a .global
// byte array, the arguments packed in the local depot (an int at offset
// 0, a double at offset 8), both passed as generic addresses.
const printfPTX = `
.global .align 1 .b8 $str[11] = {116, 105, 100, 32, 37, 100, 32, 37, 102, 10, 0};
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.visible .entry pr()
{
	.local .align 8 .b8 __local_depot0[16];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.reg .f64 %fd<2>;
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	mov.u32 %r1, %tid.x;
	cvt.rn.f64.u32 %fd1, %r1;
	mul.f64 %fd1, %fd1, 0d3FE0000000000000;
	add.u64 %rd1, %SP, 0;
	add.u64 %rd2, %SPL, 0;
	st.local.u32 [%rd2], %r1;
	st.local.f64 [%rd2+8], %fd1;
	mov.u64 %rd3, $str;
	cvta.global.u64 %rd4, %rd3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd4;
	.param .b64 param1;
	st.param.b64 [param1], %rd1;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r2, [retval0];
	}
	ret;
}
`

func TestVprintf(t *testing.T) {
	m := testModule(t, printfPTX)
	_, out, err := m.launchTest(t, run{kernel: "pr", block: [3]uint32{4}})
	if err != nil {
		t.Fatal(err)
	}
	want := "tid 0 0.000000\ntid 1 0.500000\ntid 2 1.000000\ntid 3 1.500000\n"
	if out.String() != want {
		t.Errorf("printf output %q, want %q", out.String(), want)
	}
}
