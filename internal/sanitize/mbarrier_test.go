package sanitize_test

import (
	"encoding/binary"
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

// TestAsyncCopyRaces: racecheck sees a cp.async's shared-memory write when
// the copy completes (at its wait), so a read of another warp's slot before
// the wait races with it and a read after the wait and a barrier does not.
// (Not recorded on the H100 yet: testdata/sanitize/mbar/pending.)
func TestAsyncCopyRaces(t *testing.T) {
	for _, c := range []struct {
		kernel string
		want   string
	}{
		{"early", "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"},
		{"late", "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			out, _, err := runKernel(t, sanitize.Options{Tool: sanitize.Racecheck}, asyncRaceKernels, c.kernel, 1, 64)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("report lacks %q:\n%s", c.want, out)
			}
			if c.kernel == "early" && !strings.Contains(out, "Race reported between Write access at early+0x") {
				t.Errorf("the race is not the copy's write against the read:\n%s", out)
			}
		})
	}
}
