package sanitize_test

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/sanitize"
)

// heapFreeKernels misuse device-side free(), as probe2's heap_double_free.cu
// and heap_free_global.cu do on the H100.
const heapFreeKernels = header + `
.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.extern .func free(.param .b64 free_param_0);
// Thread 1 frees its block twice.
.visible .entry doubleFree(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .pred %p;
	.reg .b64 %rd<3>;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p, %r1, 1;
	@%p bra DONE;
	mov.u64 %rd1, 16;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 %rd2, [retval0];
	}
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	call.uni free, (param0);
	}
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	call.uni free, (param0);
	}
DONE:
	ret;
}
// Thread 0 frees the cudaMalloc'd buffer.
.visible .entry freeGlobal(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .pred %p;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p, %r1, 0;
	@%p bra DONE;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd1;
	call.uni free, (param0);
	}
DONE:
	ret;
}
`

// TestHeapFree: memcheck reports a device-side double free and a free of a
// pointer outside the device heap with the H100's words, and the kernel
// stops (probe2/recorded/heap_*.memcheck.stdout).
func TestHeapFree(t *testing.T) {
	mem := sanitize.Options{Tool: sanitize.Memcheck}
	for _, tc := range []struct {
		kernel string
		want   []string
	}{
		{"doubleFree", []string{"========= Malloc/Free Error encountered : Device-side double free\n=========     at doubleFree+0x", "in t.ptx:32\n=========     by thread (1,0,0) in block (0,0,0)\n=========     Address 0x", "ERROR SUMMARY: 1 error"}},
		{"freeGlobal", []string{"========= Malloc/Free Error encountered : Invalid pointer to device-side free\n=========     at freeGlobal+0x", "by thread (0,0,0) in block (0,0,0)\n=========     Address 0x", "ERROR SUMMARY: 1 error"}},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			out, san, err := runKernel(t, mem, heapFreeKernels, tc.kernel, 1, 32)
			if err == nil {
				t.Errorf("the launch succeeded; the sanitizer should have stopped it")
			}
			if san.Stops() != 1 {
				t.Errorf("Stops() = %d, want 1", san.Stops())
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
