package sanitize_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/sanitize"
)

// mbarKernels misuse an mbarrier in the ways testdata/sanitize/mbar
// recorded on the H100 (TestSanitizeMbarSuite compares those programs); a
// block of 32 threads runs each.
const mbarKernels = header + `
// Every lane arrives on a barrier nobody initialized.
.visible .entry uninit(.param .u64 out)
{
	.reg .b64 %rd<2>;
	.shared .align 8 .b8 bar[8];
	mbarrier.arrive.shared::cta.b64 %rd1, [bar];
	ret;
}
// Lane 0 initializes, invalidates, then arrives; lanes 1-31 do nothing.
.visible .entry inval(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	.shared .align 8 .b8 bar[8];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra done;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.inval.shared::cta.b64 [bar];
	mbarrier.arrive.shared::cta.b64 %rd1, [bar];
done:
	ret;
}
// Lane 0 arrives with a count of 8 on a barrier of 4.
.visible .entry overflow(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	.shared .align 8 .b8 bar[8];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra done;
	mbarrier.init.shared::cta.b64 [bar], 4;
	mbarrier.arrive.shared::cta.b64 %rd1, [bar], 8;
done:
	ret;
}
// Every lane initializes the barrier for 32 and arrives once: no misuse.
.visible .entry fine(.param .u64 out)
{
	.reg .b64 %rd<2>;
	.shared .align 8 .b8 bar[8];
	mbarrier.init.shared::cta.b64 [bar], 32;
	bar.sync 0;
	mbarrier.arrive.shared::cta.b64 %rd1, [bar];
	ret;
}
`

// TestMbarrierMisuse: each tool's report of each misuse, and whether the
// kernel stops, as the H100 showed (synccheck names every misusing thread
// and stops; memcheck reports the hardware exception of a never-initialized
// barrier or an overflow for every thread of the warp; racecheck and
// initcheck report nothing; the kernel fails wherever the GPU faults).
func TestMbarrierMisuse(t *testing.T) {
	for _, c := range []struct {
		kernel string
		tool   sanitize.Tool
		errors int    // ERROR SUMMARY (racecheck: hazards)
		first  string // the first error's first line, if any
		lines  []string
		fails  bool // the launch fails
	}{
		{"uninit", sanitize.Synccheck, 32, "Barrier error detected. Missing init.", []string{"by thread (31,0,0)", "Barrier is located at shared address 0x400"}, true},
		{"uninit", sanitize.Memcheck, 32, "Unknown Error", []string{"by thread (31,0,0) in block (0,0,0)"}, true},
		{"uninit", sanitize.Racecheck, 0, "", nil, true},
		{"uninit", sanitize.Initcheck, 0, "", nil, true},
		{"inval", sanitize.Synccheck, 1, "Barrier error detected. Missing init.", []string{"by thread (0,0,0)"}, true},
		{"inval", sanitize.Memcheck, 0, "", nil, false},
		{"overflow", sanitize.Synccheck, 1, "Barrier error detected. Barrier overflow.", []string{"by thread (0,0,0)"}, true},
		{"overflow", sanitize.Memcheck, 32, "Unknown Error", nil, true},
		{"overflow", sanitize.Racecheck, 0, "", nil, true},
		{"fine", sanitize.Synccheck, 0, "", nil, false},
		{"fine", sanitize.Memcheck, 0, "", nil, false},
	} {
		t.Run(c.kernel+"/"+c.tool.String(), func(t *testing.T) {
			out, san, err := runKernel(t, sanitize.Options{Tool: c.tool}, mbarKernels, c.kernel, 1, 32)
			if (err != nil) != c.fails {
				t.Errorf("launch error %v, want failure %v", err, c.fails)
			}
			if c.tool != sanitize.Racecheck {
				if got := san.Errors(); got != c.errors {
					t.Errorf("%d errors, want %d\n%s", got, c.errors, out)
				}
			} else if !strings.Contains(out, "RACECHECK SUMMARY: 0 hazards displayed") {
				t.Errorf("racecheck reported:\n%s", out)
			}
			if c.first != "" && !strings.HasPrefix(out, sanitize.Prefix+c.first+"\n") {
				t.Errorf("report does not begin with %q:\n%s", c.first, out)
			}
			for _, l := range c.lines {
				if !strings.Contains(out, l) {
					t.Errorf("report lacks %q:\n%s", l, out)
				}
			}
		})
	}
}

// TestMbarrierMisusePlain: without a sanitizer, the misuses the GPU faults
// for fault the kernel; an arrival on an invalidated barrier does not.
func TestMbarrierMisusePlain(t *testing.T) {
	for _, c := range []struct {
		kernel, want string
	}{
		{"uninit", "which no mbarrier.init initialized"},
		{"overflow", "exceeds the pending arrivals"},
		{"inval", ""},
		{"fine", ""},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			err := runPlain(t, mbarKernels, c.kernel, 1, 32)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// runPlain launches kernel on a device without a sanitizer.
func runPlain(t *testing.T, src, kernel string, grid, block uint32) error {
	t.Helper()
	a, err := arch.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Workers: 2})
	m, err := dev.LoadModule("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := dev.Malloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	params := binary.LittleEndian.AppendUint64(nil, buf)
	_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: grid, Y: 1, Z: 1}, Block: warpsim.Dim3{X: block, Y: 1, Z: 1}}, params[:k.ParamBytes()])
	return err
}

// asyncRaceKernels: 64 threads cp.async 16 bytes each into shared memory;
// after a bar.sync each reads (volatile) the slot of the thread 32 away,
// early (before cp.async.wait_all) or late (after the wait and a second
// bar.sync).
const asyncRaceKernels = header + `
.visible .entry early(.param .u64 in)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 buf[1024];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3], 16;
	cp.async.commit_group;
	bar.sync 0;
	xor.b32 %r5, %r2, 512;
	add.u32 %r5, %r3, %r5;
	ld.volatile.shared.u32 %r6, [%r5];
	cp.async.wait_all;
	bar.sync 0;
	ret;
}
.visible .entry late(.param .u64 in)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 buf[1024];
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
	xor.b32 %r5, %r2, 512;
	add.u32 %r5, %r3, %r5;
	ld.volatile.shared.u32 %r6, [%r5];
	ret;
}
`

// asyncOrderKernels: more orderings of asynchronous copies' writes, 64
// threads each. A cp.async read after a barrier but before its writer's
// wait (which comes after a second barrier); cp.async copies completed on
// an mbarrier (cp.async.mbarrier.arrive.noinc) read before and after a
// wait on it; a 256-byte bulk copy by thread 0 read before any wait, after
// each thread's own wait, after thread 0's wait and a barrier, and after
// thread 0's wait with no barrier.
var asyncOrderKernels = header + `
.visible .entry cpWaitLater(.param .u64 in)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 buf[1024];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3], 16;
	cp.async.commit_group;
	bar.sync 0;
	xor.b32 %r5, %r2, 512;
	add.u32 %r5, %r3, %r5;
	ld.volatile.shared.u32 %r6, [%r5];
	bar.sync 0;
	cp.async.wait_all;
	ret;
}
.visible .entry cpMbarEarly(.param .u64 in)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 bar[8];
	.shared .align 16 .b8 buf[1024];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra go;
	mbarrier.init.shared::cta.b64 [bar], 64;
go:
	bar.sync 0;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3], 16;
	cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];
	xor.b32 %r5, %r2, 512;
	add.u32 %r5, %r3, %r5;
	ld.volatile.shared.u32 %r6, [%r5];
wait:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra wait;
	ret;
}
.visible .entry cpMbarWaited(.param .u64 in)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 bar[8];
	.shared .align 16 .b8 buf[1024];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra go;
	mbarrier.init.shared::cta.b64 [bar], 64;
go:
	bar.sync 0;
	shl.b32 %r2, %r1, 4;
	mov.u32 %r3, buf;
	add.u32 %r4, %r3, %r2;
	cvt.u64.u32 %rd2, %r2;
	add.u64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [%r4], [%rd3], 16;
	cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];
wait:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra wait;
	xor.b32 %r5, %r2, 512;
	add.u32 %r5, %r3, %r5;
	ld.volatile.shared.u32 %r6, [%r5];
	ret;
}
` + bulkKernel("bulkEarly", "READ\n\tWAITALL") + bulkKernel("bulkWaitEach", "WAITALL\n\tREAD") +
	bulkKernel("bulkWaitOneBar", "WAIT0\n\tbar.sync 0;\n\tREAD") + bulkKernel("bulkWaitOne", "WAIT0\n\tREAD")

// bulkKernel is a kernel in which thread 0 copies 256 bytes into buf with
// cp.async.bulk on the mbarrier bar and, after a bar.sync, body runs:
// READ (each thread reads the word at 4 x its index), WAITALL (each thread
// waits for the phase), WAIT0 (thread 0 waits).
func bulkKernel(name, body string) string {
	body = strings.NewReplacer(
		"READ", "shl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, buf;\n\tadd.u32 %r3, %r3, %r2;\n\tld.volatile.shared.u32 %r4, [%r3];",
		"WAITALL", "waitall:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;\n\t@!%p2 bra waitall;",
		"WAIT0", "@%p1 bra skip;\nwait0:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;\n\t@!%p2 bra wait0;\nskip:",
	).Replace(body)
	return `
.visible .entry ` + name + `(.param .u64 in)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b8 bar[8];
	.shared .align 16 .b8 buf[256];
	ld.param.u64 %rd1, [in];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra go;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 256;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];
go:
	bar.sync 0;
	` + body + `
	ret;
}
`
}

// TestAsyncCopyRaces: racecheck records an asynchronous copy's write into
// shared memory when it is issued and orders it for other threads only
// after the writer's cp.async wait and a barrier, or, on an mbarrier, after
// the reader's own wait on it or a barrier after any thread's; each other
// read races with it, as on the H100 (testdata/sanitize/mbar: async_cp_early
// and async_bulk_early, whose counts the bulk cases repeat: the copying
// thread's warp's reads are warnings).
func TestAsyncCopyRaces(t *testing.T) {
	const none = "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
	cp := "Race reported between Write access at %s+0x"
	for _, c := range []struct {
		src, kernel string
		report      string // --racecheck-report
		want        []string
	}{
		{asyncRaceKernels, "early", "analysis", []string{"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)", fmt.Sprintf(cp, "early"), "[256 hazards]"}},
		{asyncRaceKernels, "early", "hazard", []string{"RACECHECK SUMMARY: 100 hazards displayed (256 errors, 0 warnings)",
			"Error: Potential RAW hazard detected (invalid memcpy_async synchronization) at __shared__ 0x"}},
		{asyncRaceKernels, "late", "analysis", []string{none}},
		{asyncOrderKernels, "cpWaitLater", "analysis", []string{"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)", fmt.Sprintf(cp, "cpWaitLater"), "[256 hazards]"}},
		{asyncOrderKernels, "cpMbarEarly", "analysis", []string{"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)", "[256 hazards]"}},
		{asyncOrderKernels, "cpMbarWaited", "analysis", []string{none}},
		{asyncOrderKernels, "bulkEarly", "analysis", []string{"RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)", fmt.Sprintf(cp, "bulkEarly"), "[256 hazards]"}},
		{asyncOrderKernels, "bulkEarly", "hazard", []string{"RACECHECK SUMMARY: 100 hazards displayed (128 errors, 128 warnings)",
			"Warning: (Warp Level Programming) Potential RAW hazard detected (invalid async operation synchronization) at __shared__ 0x"}},
		{asyncOrderKernels, "bulkWaitEach", "analysis", []string{none}},
		{asyncOrderKernels, "bulkWaitOneBar", "analysis", []string{none}},
		{asyncOrderKernels, "bulkWaitOne", "hazard", []string{"RACECHECK SUMMARY: 100 hazards displayed (128 errors, 124 warnings)"}},
	} {
		t.Run(c.kernel+"."+c.report, func(t *testing.T) {
			out, _, err := runKernel(t, sanitize.Options{Tool: sanitize.Racecheck, RaceReport: c.report}, c.src, c.kernel, 1, 64)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
