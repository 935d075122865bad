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

// TestTrackUnused: with --track-unused-memory, initcheck reports at
// cudaFree the bytes of an allocation nothing wrote, in the H100's words
// (probe2/recorded/unused_memory.*, probe3/recorded/unused_gaps.*).
func TestTrackUnused(t *testing.T) {
	tests := []struct {
		size   uint64
		writes [][2]uint64 // offset, bytes
		want   string
	}{
		{1000, [][2]uint64{{0, 256}}, "=========  Unused memory in allocation 0x1000 of size 1,000 bytes\n=========     Not written 744 bytes at offset 0x100 (0x1100)\n=========     74.4% of allocation were unused.\n"},
		{1024, [][2]uint64{{0, 64}, {128, 64}}, "=========     Not written 896 bytes between offsets 0x40 (0x1040) and 0x3ff (0x13ff) (inclusive)\n=========     87.5% of allocation were unused.\n"},
		{512, [][2]uint64{{0, 100}}, "=========     Not written 412 bytes at offset 0x64 (0x1064)\n=========     80.4688% of allocation were unused.\n"},
		{300, nil, "=========  Unused memory in allocation 0x1000 of size 300 bytes\n=========     Not written any memory.\n=========     100% of allocation were unused.\n"},
		{64, [][2]uint64{{0, 64}}, ""},
	}
	for _, tc := range tests {
		for _, track := range []bool{false, true} {
			s := sanitize.New(sanitize.Options{Tool: sanitize.Initcheck, TrackUnused: track})
			s.HostAlloc(0x1000, tc.size)
			for _, w := range tc.writes {
				s.HostWrite(0x1000, 0x1000+w[0], w[1])
			}
			s.HostFree(0x1000)
			out := string(s.Take())
			switch {
			case !track || tc.want == "":
				if out != "" || s.Errors() != 0 {
					t.Errorf("size %d, track %v: want no report, got %d errors:\n%s", tc.size, track, s.Errors(), out)
				}
			case !strings.Contains(out, tc.want) || s.Errors() != 1:
				t.Errorf("size %d: want %q (1 error), got %d errors:\n%s", tc.size, tc.want, s.Errors(), out)
			}
		}
	}
}
