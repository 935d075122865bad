package engine

import "testing"

// divWaitPTX: one warp; lanes 1-31 arrive on an mbarrier of 32 and wait in
// a try_wait loop of their own while lane 0 (the branch's taken side, so
// run second) stores a flag, arrives and waits in another loop; after the
// join every lane reads the flag and stores it at out[tid].
const divWaitPTX = `
.visible .entry divwait(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 8 .b64 bar;
	.shared .align 4 .b32 flag;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, bar;
	mov.u32 %r6, flag;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra $init_done;
	mbarrier.init.shared.b64 [%r2], 32;
	st.shared.u32 [%r6], 0;
$init_done:
	bar.sync 0;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $first;
	mbarrier.arrive.shared.b64 %rd2, [%r2];
$wait_rest:
	mbarrier.try_wait.shared.b64 %p2, [%r2], %rd2;
	@!%p2 bra $wait_rest;
	bra.uni $join;
$first:
	st.shared.u32 [%r6], 7;
	mbarrier.arrive.shared.b64 %rd3, [%r2];
$wait_first:
	mbarrier.try_wait.shared.b64 %p3, [%r2], %rd3;
	@!%p3 bra $wait_first;
$join:
	ld.shared.u32 %r3, [%r6];
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	st.global.u32 [%rd5], %r3;
	ret;
}
`

// TestDivergedWaitYields: under independent thread scheduling a failed
// mbarrier wait on one path of a diverged warp yields to the warp's other
// path (as the H100's YIELD before each retry), so lane 0 arrives after
// the other lanes' first failed try_wait, not after the forward-progress
// limit (spinLimit back edges): every lane reads the flag lane 0 stored
// before its arrival, in fewer than 60 warp instructions (the loop would
// take over 2 x spinLimit: 2,074 before the yield).
func TestDivergedWaitYields(t *testing.T) {
	m := testModule(t, divWaitPTX)
	out := m.buffer(t, 32*4)
	for _, workers := range []int{1, 2} {
		c, _, err := m.launchTest(t, run{kernel: "divwait", block: [3]uint32{32}, params: u64p(out), its: true, workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for l, v := range m.u32s(t, out, 32) {
			if v != 7 {
				t.Errorf("workers %d: lane %d read the flag as %d, want 7", workers, l, v)
			}
		}
		if c.InstExecuted >= 60 {
			t.Errorf("workers %d: %d warp instructions: the waiting path did not yield", workers, c.InstExecuted)
		}
		t.Logf("workers %d: %d warp instructions", workers, c.InstExecuted)
	}
}
