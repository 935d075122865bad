package ir

import (
	"reflect"
	"testing"
)

// inlineFramesPTX: h (in b.h) inlined into g (in a.h) inlined into the
// kernel (in k.cu), nvcc's chain; then, as warpsim cc wrote a nested
// chain's innermost call alone before, h inlined at a position in a.h that
// no level of the chain before has: its caller is not known.
const inlineFramesPTX = `.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/k.cu"
.file 2 "/src/a.h"
.file 3 "/src/b.h"
.visible .entry _Z1kPi(.param .u64 p)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	.loc 1 5 1
	ld.param.u64 %rd1, [p];
	.loc 2 7 3, function_name $L__info_string0, inlined_at 1 6 5
	mov.u32 %r1, 1;
	.loc 2 8 3, function_name $L__info_string0, inlined_at 1 6 5
	.loc 3 2 1, function_name $L__info_string1, inlined_at 2 8 3
	mov.u32 %r2, 2;
	.loc 2 9 3, function_name $L__info_string0, inlined_at 1 6 5
	mov.u32 %r3, 3;
	.loc 3 2 1, function_name $L__info_string1, inlined_at 2 8 3
	st.global.u32 [%rd1], %r2;
	.loc 1 7 1
	mov.u32 %r4, 4;
	.loc 3 2 1, function_name $L__info_string1, inlined_at 2 40 9
	st.global.u32 [%rd1], %r4;
	ret;
}
	.section	.debug_str
	{
$L__info_string0:
.b8 95,90,49,103,118,0
$L__info_string1:
.b8 95,90,49,104,118,0
	}
`

// TestInlineFrames checks the callers InlineFrames gives an instruction:
// innermost first, each with its call's file and line and the first pc of
// the call's inlined code; none past a call whose caller is not known.
func TestInlineFrames(t *testing.T) {
	f := lowerKernel(t, inlineFramesPTX).Funcs[0]
	if f.Text[4] != "st.global.u32 [%rd1], %r2;" || f.Text[6] != "st.global.u32 [%rd1], %r4;" {
		t.Fatalf("code changed: %q", f.Text)
	}
	// pc 4: h (_Z1hv) in g (_Z1gv) in the kernel. h's code begins at
	// pc 2, g's at pc 1.
	if got := f.InlinedFunc(4); got != "_Z1hv" {
		t.Errorf("pc 4 lies in %q, want _Z1hv", got)
	}
	want := []InlineFrame{{Func: "_Z1gv", File: "/src/a.h", Line: 8, PC: 2}, {Func: "", File: "/src/k.cu", Line: 6, PC: 1}}
	if got := f.InlineFrames(4); !reflect.DeepEqual(got, want) {
		t.Errorf("pc 4: frames %+v, want %+v", got, want)
	}
	// pc 3: g's own line, in the kernel.
	if got := f.InlineFrames(3); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("pc 3: frames %+v, want %+v", got, want[1:])
	}
	// pc 6: h called from a.h:40, a call no level of the chain before
	// has, and a.h holds none of the kernel's own lines: named by h, no
	// frame.
	if got := f.InlinedFunc(6); got != "_Z1hv" {
		t.Errorf("pc 6 lies in %q, want _Z1hv", got)
	}
	if got := f.InlineFrames(6); got != nil {
		t.Errorf("pc 6: frames %+v, want none", got)
	}
	if got := f.InlineFrames(5); got != nil {
		t.Errorf("pc 5 (the kernel's own): frames %+v", got)
	}
}
