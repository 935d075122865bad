package engine

import (
	"errors"
	"strings"
	"testing"
)

// faultPTX has one kernel per fault kind; the expected PTX line of each
// fault is the line of its instruction's text.
const faultPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry oob(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r2, [%rd3];
	ret;
}
.visible .entry misaligned(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
	st.global.u32 [%rd1+2], %r1;
	ret;
}
.visible .entry deadlock()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra $a;
	bar.sync 1;
	ret;
$a:
	bar.sync 0;
	ret;
}
.visible .entry exited()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $done;
	bar.sync 0;
$done:
	ret;
}
.visible .entry trapper()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mad.lo.s32 %r3, %r2, 16, %r1;
	setp.eq.u32 %p1, %r3, 37;
	@%p1 trap;
	ret;
}
.visible .entry forever()
{
$l:
	bra.uni $l;
}
`

// lineOf is the 1-based line of the first line of src containing text.
func lineOf(t *testing.T, src, text string) int {
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%q not in source", text)
	return 0
}

func TestFaults(t *testing.T) {
	m := testModule(t, faultPTX)
	buf := m.buffer(t, 100*4) // 100 elements: thread 100 of block 0 reads past the end
	cases := []struct {
		name    string
		r       run
		kind    FaultKind
		block   [3]uint32
		thread  [3]uint32
		line    int
		addr    uint64
		hasAddr bool
		text    string
	}{
		{"oob", run{kernel: "oob", block: [3]uint32{128}, params: u64p(buf), workers: 1}, FaultOutOfBounds,
			[3]uint32{}, [3]uint32{100}, 13, buf + 400, true, "ld.global.u32 %r2, [%rd3];"},
		{"misaligned", run{kernel: "misaligned", grid: [3]uint32{2}, block: [3]uint32{4}, params: u64p(buf), workers: 1}, FaultMisaligned,
			[3]uint32{}, [3]uint32{0}, 21, buf + 2, true, "st.global.u32 [%rd1+2], %r1;"},
		{"deadlock", run{kernel: "deadlock", block: [3]uint32{64}}, FaultBarrierDeadlock,
			[3]uint32{}, [3]uint32{0}, 34, 0, false, "bar.sync 0;"},
		{"trap", run{kernel: "trapper", grid: [3]uint32{1, 2}, block: [3]uint32{16, 4}, workers: 1}, FaultTrap,
			[3]uint32{}, [3]uint32{5, 2}, 57, 0, false, "@%p1 trap;"},
		{"watchdog", run{kernel: "forever", block: [3]uint32{32}, steps: 5000}, FaultWatchdog,
			[3]uint32{}, [3]uint32{0}, 62, 0, false, "bra.uni $l;"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := m.launchTest(t, tc.r)
			var f *Fault
			if !errors.As(err, &f) {
				t.Fatalf("err = %v, want a *Fault", err)
			}
			tc.line = lineOf(t, faultPTX, tc.text)
			if f.Kind != tc.kind || f.Block != tc.block || f.Thread != tc.thread || f.Line.PTXLine != tc.line ||
				f.HasAddr != tc.hasAddr || f.Addr != tc.addr || !strings.Contains(f.Text, tc.text) {
				t.Errorf("fault kind %v block %v thread %v line %d addr %#x(%v) text %q\nwant kind %v block %v thread %v line %d addr %#x(%v) text %q",
					f.Kind, f.Block, f.Thread, f.Line.PTXLine, f.Addr, f.HasAddr, f.Text, tc.kind, tc.block, tc.thread, tc.line, tc.addr, tc.hasAddr, tc.text)
			}
		})
	}
	// Warps that exited are not waited for at a barrier.
	if _, _, err := m.launchTest(t, run{kernel: "exited", block: [3]uint32{96}}); err != nil {
		t.Errorf("barrier with exited warps: %v", err)
	}
}
