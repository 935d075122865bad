package sanitize_test

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/sanitize"
)

// asyncBoundsKernels make cp.async copies out of bounds (16 threads, each
// copying 16 bytes): into a 240-byte shared buffer (thread 15's lands past
// it), and from the 4 KiB buffer's last 16 bytes on (threads 1-15 read past
// it). Thread 0 then reads past the shared buffer too.
const asyncBoundsKernels = header + `
.visible .entry dstPast(.param .u64 in)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 buf[240];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3], 16;
	cp.async.commit_group;
	cp.async.wait_all;
	bar.sync 0;
	ld.shared.u32 %r5, [buf+240];
	ret;
}
.visible .entry srcPast(.param .u64 in)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 buf[256];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3+4080], 16;
	cp.async.commit_group;
	cp.async.wait_all;
	bar.sync 0;
	ld.shared.u32 %r5, [buf+256];
	ret;
}
`

// TestAsyncCopyBounds: memcheck checks a cp.async's source and destination
// at the cp.async, and the kernel stops after it, as on the H100
// (testdata/sanitize/probe5: cp_async_smem_oob's thread 0 then read past
// the shared memory too, unreported); initcheck and racecheck see no
// access at the issue.
func TestAsyncCopyBounds(t *testing.T) {
	for _, c := range []struct {
		kernel string
		tool   sanitize.Tool
		want   []string
		not    []string
	}{
		{"dstPast", sanitize.Memcheck, []string{"Invalid __shared__ write of size 16 bytes", "by thread (15,0,0)", "ERROR SUMMARY: 1 error"}, []string{"__shared__ read"}},
		{"srcPast", sanitize.Memcheck, []string{"Invalid __global__ read of size 16 bytes", "by thread (1,0,0)", "is 1 bytes after the nearest allocation", "by thread (15,0,0)", "ERROR SUMMARY: 15 errors"}, []string{"__shared__"}},
		// thread 0's source was never written; the others' lie outside
		// every allocation (memcheck's)
		{"srcPast", sanitize.Initcheck, []string{"Uninitialized __global__ memory read of size 16 bytes", "by thread (0,0,0)", "ERROR SUMMARY: 1 error"}, nil},
		{"srcPast", sanitize.Racecheck, []string{"RACECHECK SUMMARY: 0 hazards displayed"}, nil},
	} {
		t.Run(c.kernel+"."+c.tool.String(), func(t *testing.T) {
			out, _, _ := runKernel(t, sanitize.Options{Tool: c.tool}, asyncBoundsKernels, c.kernel, 1, 16)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.not {
				if strings.Contains(out, w) {
					t.Errorf("report has %q:\n%s", w, out)
				}
			}
		})
	}
}

// bulkOddKernels: thread 0 makes a bulk copy of 100 bytes (not a multiple
// of 16) onto an mbarrier that expects 100, and every thread tests the
// phase once.
const bulkOddKernels = header + `
.visible .entry bulkOdd(.param .u64 in)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 bar[8];
	.shared .align 16 .b8 buf[128];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra WAIT;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 100;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 100, [bar];
WAIT:
	bar.sync 0;
	mbarrier.test_wait.parity.shared::cta.b64 %p2, [bar], 0;
	ret;
}
`

// TestBulkCopyOddSize: a bulk copy whose size is not a multiple of 16 is
// no error on the H100 — the kernel runs on and no tool reports it
// (testdata/sanitize/probe5, bulk_size) — where warpsim used to fault it
// as a misaligned access.
func TestBulkCopyOddSize(t *testing.T) {
	for _, tool := range []sanitize.Tool{sanitize.Memcheck, sanitize.Synccheck} {
		t.Run(tool.String(), func(t *testing.T) {
			out, _, err := runKernel(t, sanitize.Options{Tool: tool}, bulkOddKernels, "bulkOdd", 1, 32)
			if err != nil || !strings.Contains(out, "ERROR SUMMARY: 0 errors") {
				t.Errorf("launch error %v, report:\n%s", err, out)
			}
		})
	}
}

// remoteKernels: clusters of two blocks of 64 threads, each with 256 bytes
// of shared memory; threads 60-63 write the other block's words 62-65
// through mapa (two past its end), as probe5/dsmem_oob does.
const remoteKernels = header + `
.visible .entry remotePast(.param .u64 in) .reqnctapercluster 2, 1, 1
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b8 buf[256];
	mov.u32 %r1, %tid.x;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	setp.lt.u32 %p1, %r1, 60;
	@%p1 bra DONE;
	mov.u32 %r2, %cluster_ctarank;
	xor.b32 %r3, %r2, 1;
	mov.u64 %rd1, buf;
	cvta.shared.u64 %rd1, %rd1;
	mapa.u64 %rd2, %rd1, %r3;
	add.u32 %r4, %r1, 2;
	mul.wide.u32 %rd3, %r4, 4;
	add.u64 %rd2, %rd2, %rd3;
	st.u32 [%rd2], %r1;
DONE:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;
}
`

// TestRemoteSharedBounds: memcheck checks an access to another cluster
// block's shared memory against that block's size and reports it in the
// H100's words (testdata/sanitize/probe5, dsmem_oob): each lane past the
// end, per block, "Invalid __remote_shared__ write" at "0x500 in CTA 1".
func TestRemoteSharedBounds(t *testing.T) {
	out, _, _ := runKernel(t, sanitize.Options{Tool: sanitize.Memcheck}, remoteKernels, "remotePast", 2, 64)
	for _, w := range []string{
		"Invalid __remote_shared__ write of size 4 bytes",
		"by thread (62,0,0) in block (0,0,0)\n=========     Access to 0x500 in CTA 1 is out of bounds",
		"by thread (63,0,0) in block (1,0,0)\n=========     Access to 0x504 in CTA 0 is out of bounds",
		"ERROR SUMMARY: 4 errors",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
}
