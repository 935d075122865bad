package engine

import (
	"errors"
	"testing"
)

// Expected values in these tests are derived by hand from the PTX ISA's
// semantics of each instruction, never from the engine.

const ifElsePTX = `
.visible .entry ifelse(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 12;
	add.s64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $then;
	activemask.b32 %r4;
	mov.u32 %r2, 2;
	bra.uni $join;
$then:
	activemask.b32 %r4;
	mov.u32 %r2, 1;
$join:
	activemask.b32 %r5;
	st.global.u32 [%rd3], %r2;
	st.global.u32 [%rd3+4], %r4;
	st.global.u32 [%rd3+8], %r5;
	ret;
}
`

func TestIfElseReconvergence(t *testing.T) {
	m := testModule(t, ifElsePTX)
	out := m.buffer(t, 32*12)
	c, _, err := m.launchTest(t, run{kernel: "ifelse", block: [3]uint32{32}, params: u64p(out)})
	if err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 32*3)
	for l := 0; l < 32; l++ {
		wantV, wantMask := uint32(2), uint32(0xffff0000)
		if l < 16 {
			wantV, wantMask = 1, 0x0000ffff
		}
		if got[3*l] != wantV || got[3*l+1] != wantMask || got[3*l+2] != 0xffffffff {
			t.Errorf("lane %d: value %d mask %#x after-join mask %#x; want %d %#x 0xffffffff",
				l, got[3*l], got[3*l+1], got[3*l+2], wantV, wantMask)
		}
	}
	// One warp: the @%p1 bra (divergent) and the else path's bra.uni.
	if c.Branch != 2 || c.DivergentBranch != 1 {
		t.Errorf("branch %d divergent %d, want 2 and 1", c.Branch, c.DivergentBranch)
	}
	// 6 before the branch incl. bra; else: 3 (activemask, mov, bra); then: 2;
	// join: 5 (activemask, 3 st, ret).
	if c.InstExecuted != 16 {
		t.Errorf("inst_executed %d, want 16", c.InstExecuted)
	}
	// 6×32 + 3×16 + 2×16 + 5×32
	if c.ThreadInstExecuted != 6*32+3*16+2*16+5*32 {
		t.Errorf("thread_inst_executed %d, want %d", c.ThreadInstExecuted, 6*32+3*16+2*16+5*32)
	}
	if c.GstRequests != 3 || c.GstTransactions != 3*12 || c.GstBytes != 3*128 {
		t.Errorf("gst requests %d transactions %d bytes %d, want 3, 36, 384", c.GstRequests, c.GstTransactions, c.GstBytes)
	}
}

// nestedLoopPTX: each lane loops tid%4+1 times; inside, odd iterations of
// odd lanes add 10, and a lane breaks out when its sum exceeds 12.
const nestedLoopPTX = `
.visible .entry nested(.param .u64 out)
{
	.reg .pred %p<5>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;
	add.s32 %r2, %r2, 1;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
	and.b32 %r8, %r1, 1;
$loop:
	add.s32 %r4, %r4, 1;
	and.b32 %r9, %r3, 1;
	setp.eq.u32 %p1, %r9, 1;
	setp.eq.u32 %p2, %r8, 1;
	and.pred %p3, %p1, %p2;
	@!%p3 bra $noadd;
	add.s32 %r4, %r4, 10;
	setp.gt.u32 %p4, %r4, 12;
	@%p4 bra $out;
$noadd:
	add.s32 %r3, %r3, 1;
	setp.lt.u32 %p1, %r3, %r2;
	@%p1 bra $loop;
$out:
	activemask.b32 %r10;
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	st.global.u32 [%rd3+4], %r10;
	ret;
}
`

func TestNestedDivergenceLoopBreak(t *testing.T) {
	m := testModule(t, nestedLoopPTX)
	out := m.buffer(t, 32*8)
	if _, _, err := m.launchTest(t, run{kernel: "nested", block: [3]uint32{32}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 64)
	for l := 0; l < 32; l++ {
		// By hand: n = l%4+1 iterations; each adds 1; for odd lanes,
		// iteration i=1 and 3 add 10 and may break when the sum > 12.
		var want uint32
		switch l % 4 {
		case 0:
			want = 1 // one iteration, i=0
		case 1:
			want = 1 + 1 + 10 // i=0: 1; i=1: 2+10 = 12, not > 12, continue; loop ends (n=2)
		case 2:
			want = 3 // three plain iterations
		case 3:
			want = 1 + 1 + 10 + 1 + 1 + 10 // i=1 → 12; i=2 → 13; i=3 → 14+10 = 24 > 12: break
		}
		if got[2*l] != want {
			t.Errorf("lane %d: sum %d, want %d", l, got[2*l], want)
		}
		if got[2*l+1] != 0xffffffff {
			t.Errorf("lane %d: activemask after the loop %#x, want 0xffffffff", l, got[2*l+1])
		}
	}
}

// barrierPTX reverses a 128-element array through shared memory: every
// thread must see the other warps' stores after bar.sync.
const barrierPTX = `
.visible .entry rev(.param .u64 out)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	.shared .align 4 .b8 s[512];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, s;
	shl.b32 %r3, %r1, 2;
	add.s32 %r4, %r2, %r3;
	mul.lo.s32 %r5, %r1, 3;
	st.shared.u32 [%r4], %r5;
	bar.sync 0;
	sub.s32 %r6, 127, %r1;
	shl.b32 %r7, %r6, 2;
	add.s32 %r8, %r2, %r7;
	ld.shared.u32 %r9, [%r8];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r9;
	ret;
}
`

func TestBarrierSharedReverse(t *testing.T) {
	m := testModule(t, barrierPTX)
	out := m.buffer(t, 128*4)
	c, _, err := m.launchTest(t, run{kernel: "rev", block: [3]uint32{128}, params: u64p(out)})
	if err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 128)
	for i, v := range got {
		if v != uint32(3*(127-i)) {
			t.Fatalf("out[%d] = %d, want %d", i, v, 3*(127-i))
		}
	}
	// Consecutive 4-byte words: one wavefront per request, no conflicts.
	if c.SharedStoreRequests != 4 || c.SharedStoreTransactions != 4 || c.SharedStBankConflict != 0 {
		t.Errorf("shared stores: %d requests %d transactions %d conflicts", c.SharedStoreRequests, c.SharedStoreTransactions, c.SharedStBankConflict)
	}
	if c.SharedLoadRequests != 4 || c.SharedLoadTransactions != 4 {
		t.Errorf("shared loads: %d requests %d transactions", c.SharedLoadRequests, c.SharedLoadTransactions)
	}
}

// bankPTX: lane l stores to word l*stride: stride 2 puts two distinct
// words in each of 16 banks (2 wavefronts, 1 conflict); stride 32 puts all
// 32 words in bank 0 (32 wavefronts, 31 conflicts).
const bankPTX = `
.visible .entry bank(.param .u32 stride)
{
	.reg .b32 %r<8>;
	.shared .align 4 .b8 s[4096];
	ld.param.u32 %r1, [stride];
	mov.u32 %r2, %tid.x;
	mul.lo.s32 %r3, %r2, %r1;
	shl.b32 %r4, %r3, 2;
	mov.u32 %r5, s;
	add.s32 %r6, %r5, %r4;
	st.shared.u32 [%r6], %r2;
	ret;
}
`

func TestSharedBankConflicts(t *testing.T) {
	m := testModule(t, bankPTX)
	for _, tc := range []struct{ stride, wave, conflicts uint32 }{{1, 1, 0}, {2, 2, 1}, {32, 32, 31}, {0, 1, 0}} {
		p := []byte{byte(tc.stride), 0, 0, 0}
		c, _, err := m.launchTest(t, run{kernel: "bank", block: [3]uint32{32}, params: p})
		if err != nil {
			t.Fatal(err)
		}
		if c.SharedStoreTransactions != uint64(tc.wave) || c.SharedStBankConflict != uint64(tc.conflicts) {
			t.Errorf("stride %d: %d wavefronts %d conflicts, want %d %d", tc.stride, c.SharedStoreTransactions, c.SharedStBankConflict, tc.wave, tc.conflicts)
		}
	}
}

// warpOpsPTX writes, per lane, the results of the warp-level primitives.
const warpOpsPTX = `
.visible .entry warpops(.param .u64 out)
{
	.reg .pred %p<6>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.lo.s32 %r2, %r1, 10;
	shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
	shfl.sync.up.b32 %r4|%p2, %r2, 2, 0, -1;
	shfl.sync.bfly.b32 %r5, %r2, 1, 31, -1;
	shfl.sync.idx.b32 %r6, %r2, 5, 31, -1;
	and.b32 %r7, %r1, 1;
	setp.eq.u32 %p3, %r7, 1;
	vote.sync.ballot.b32 %r8, %p3, -1;
	vote.sync.any.pred %p4, %p3, -1;
	vote.sync.all.pred %p5, %p3, -1;
	selp.u32 %r9, 1, 0, %p4;
	selp.u32 %r10, 1, 0, %p5;
	shr.u32 %r11, %r1, 2;
	match.any.sync.b32 %r12, %r11, -1;
	redux.sync.add.u32 %r13, %r1, -1;
	redux.sync.max.u32 %r14, %r2, -1;
	selp.u32 %r15, 1, 0, %p1;
	selp.u32 %r16, 1, 0, %p2;
	mov.u32 %r17, %lanemask_lt;
	mul.wide.u32 %rd2, %r1, 64;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
	st.global.v4.u32 [%rd3+16], {%r8, %r9, %r10, %r12};
	st.global.v4.u32 [%rd3+32], {%r13, %r14, %r15, %r16};
	st.global.u32 [%rd3+48], %r17;
	ret;
}
`

func TestWarpPrimitives(t *testing.T) {
	m := testModule(t, warpOpsPTX)
	out := m.buffer(t, 32*64)
	if _, _, err := m.launchTest(t, run{kernel: "warpops", block: [3]uint32{32}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 32*16)
	for l := uint32(0); l < 32; l++ {
		g := got[16*l : 16*l+16]
		down, downOK := (l+1)*10, uint32(1)
		if l == 31 {
			down, downOK = 310, 0 // out of range: own value, predicate false
		}
		up, upOK := uint32(0), uint32(1)
		if l >= 2 {
			up = (l - 2) * 10
		} else {
			up, upOK = l*10, 0
		}
		want := []uint32{
			down, up, (l ^ 1) * 10, 50,
			0xaaaaaaaa, 1, 0, 0xf << (4 * (l / 4)),
			496, 310, downOK, upOK,
			1<<l - 1,
		}
		for i, w := range want {
			if g[i] != w {
				t.Errorf("lane %d field %d = %#x, want %#x", l, i, g[i], w)
			}
		}
	}
}

// atomicPTX: every thread adds 1 to a counter and keeps the ticket it got.
const atomicPTX = `
.visible .entry tickets(.param .u64 ctr, .param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [ctr];
	ld.param.u64 %rd2, [out];
	atom.global.add.u32 %r1, [%rd1], 1;
	atom.global.max.s32 %r2, [%rd1+4], %r1;
	red.global.add.u64 [%rd1+8], 3;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	atom.global.exch.b32 %r3, [%rd4], 1;
	ret;
}
`

func TestAtomicsContention(t *testing.T) {
	m := testModule(t, atomicPTX)
	const blocks, threads = 64, 256
	ctr := m.buffer(t, 16)
	out := m.buffer(t, 4*blocks*threads)
	if _, _, err := m.launchTest(t, run{kernel: "tickets", grid: [3]uint32{blocks}, block: [3]uint32{threads}, params: u64p(ctr, out), workers: 2}); err != nil {
		t.Fatal(err)
	}
	c := m.u32s(t, ctr, 4)
	if c[0] != blocks*threads || c[1] != blocks*threads-1 || c[2] != 3*blocks*threads || c[3] != 0 {
		t.Errorf("counters %v, want [%d %d %d 0]", c, blocks*threads, blocks*threads-1, 3*blocks*threads)
	}
	for i, v := range m.u32s(t, out, blocks*threads) {
		if v != 1 {
			t.Fatalf("ticket %d was handed out %d times", i, v)
		}
	}
}

// lockPTX: every lane of one warp takes a global spin lock in turn and
// increments a plain counter inside the critical section. Without forward
// progress for the lock holder (pre-Volta SIMT), this hangs.
const lockPTX = `
.visible .entry lock(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [p];
$spin:
	atom.global.cas.b32 %r1, [%rd1], 0, 1;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra $spin;
	ld.volatile.global.u32 %r2, [%rd1+4];
	add.s32 %r2, %r2, 1;
	st.volatile.global.u32 [%rd1+4], %r2;
	atom.global.exch.b32 %r3, [%rd1], 0;
	ret;
}
`

func TestSpinLockForwardProgress(t *testing.T) {
	m := testModule(t, lockPTX)
	p := m.buffer(t, 8)
	if _, _, err := m.launchTest(t, run{kernel: "lock", block: [3]uint32{32}, params: u64p(p), its: true, steps: 1 << 24}); err != nil {
		t.Fatal(err)
	}
	if got := m.u32s(t, p, 2); got[0] != 0 || got[1] != 32 {
		t.Errorf("lock %d counter %d, want 0 and 32", got[0], got[1])
	}
	// Without independent thread scheduling the same kernel never ends.
	_, _, err := m.launchTest(t, run{kernel: "lock", block: [3]uint32{32}, params: u64p(p), its: false, steps: 100000})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultWatchdog {
		t.Errorf("pre-Volta run: err %v, want a watchdog fault", err)
	}
}

// recursionPTX computes fact(tid%10+1) with a recursive .func.
const recursionPTX = `
.func (.param .b64 ret) fact(.param .b64 n)
{
	.reg .pred %p<2>;
	.reg .b64 %rd<6>;
	ld.param.b64 %rd1, [n];
	setp.le.u64 %p1, %rd1, 1;
	@%p1 bra $base;
	sub.s64 %rd2, %rd1, 1;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	.param .b64 retval0;
	call.uni (retval0), fact, (param0);
	ld.param.b64 %rd3, [retval0];
	}
	mul.lo.s64 %rd4, %rd3, %rd1;
	st.param.b64 [ret], %rd4;
	ret;
$base:
	st.param.b64 [ret], 1;
	ret;
}

.visible .entry facts(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 10;
	add.s32 %r3, %r2, 1;
	cvt.u64.u32 %rd2, %r3;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	.param .b64 retval0;
	call.uni (retval0), fact, (param0);
	ld.param.b64 %rd3, [retval0];
	}
	mul.wide.u32 %rd4, %r1, 8;
	add.s64 %rd5, %rd1, %rd4;
	st.global.u64 [%rd5], %rd3;
	ret;
}
`

func TestRecursion(t *testing.T) {
	m := testModule(t, recursionPTX)
	out := m.buffer(t, 64*8)
	if _, _, err := m.launchTest(t, run{kernel: "facts", block: [3]uint32{64}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 128)
	fact := []uint64{1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800}
	for i := 0; i < 64; i++ {
		v := uint64(got[2*i]) | uint64(got[2*i+1])<<32
		if want := fact[i%10+1]; v != want {
			t.Errorf("thread %d: fact(%d) = %d, want %d", i, i%10+1, v, want)
		}
	}
}

// indirectPTX calls twice() for even lanes and thrice() for odd lanes
// through a function pointer, and also through a pointer table in a
// module variable initialized with function addresses.
const indirectPTX = `
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	shl.b32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) thrice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	mul.lo.s32 %r2, %r1, 3;
	st.param.b32 [r], %r2;
	ret;
}
.global .align 8 .u64 table[2] = {twice, thrice};
.visible .entry indirect(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	mov.u64 %rd2, twice;
	mov.u64 %rd3, thrice;
	selp.b64 %rd4, %rd2, %rd3, %p1;
	add.s32 %r3, %r1, 100;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r3;
	.param .b32 retval0;
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (retval0), %rd4, (param0), prototype_0;
	ld.param.b32 %r4, [retval0];
	}
	mov.u64 %rd5, table;
	xor.b32 %r5, %r2, 1;
	mul.wide.u32 %rd6, %r5, 8;
	add.s64 %rd7, %rd5, %rd6;
	ld.global.u64 %rd8, [%rd7];
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (retval0), %rd8, (param0), prototype_1;
	ld.param.b32 %r6, [retval0];
	}
	mul.wide.u32 %rd9, %r1, 8;
	add.s64 %rd9, %rd1, %rd9;
	st.global.v2.u32 [%rd9], {%r4, %r6};
	ret;
}
`

func TestIndirectCalls(t *testing.T) {
	m := testModule(t, indirectPTX)
	out := m.buffer(t, 32*8)
	if _, _, err := m.launchTest(t, run{kernel: "indirect", block: [3]uint32{32}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 64)
	for l := uint32(0); l < 32; l++ {
		w0, w1 := 2*(l+100), 3*l // even: twice via selp, thrice via table[1]
		if l%2 == 1 {
			w0, w1 = 3*(l+100), 2*l
		}
		if got[2*l] != w0 || got[2*l+1] != w1 {
			t.Errorf("lane %d: %d %d, want %d %d", l, got[2*l], got[2*l+1], w0, w1)
		}
	}
}

// barRedPTX: a block-wide popc/and/or reduction of (tid % 3 == 0).
const barRedPTX = `
.visible .entry barred(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 3;
	setp.eq.u32 %p1, %r2, 0;
	bar.red.popc.u32 %r3, 0, %p1;
	bar.red.and.pred %p2, 1, %p1;
	bar.red.or.pred %p3, 2, !%p1;
	selp.u32 %r4, 1, 0, %p2;
	selp.u32 %r5, 1, 0, %p3;
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r3, %r4};
	st.global.u32 [%rd3+8], %r5;
	ret;
}
`

func TestBarrierReduction(t *testing.T) {
	m := testModule(t, barRedPTX)
	out := m.buffer(t, 96*16)
	if _, _, err := m.launchTest(t, run{kernel: "barred", block: [3]uint32{96}, params: u64p(out)}); err != nil {
		t.Fatal(err)
	}
	got := m.u32s(t, out, 96*4)
	for i := 0; i < 96; i++ {
		// 0, 3, …, 93: 32 of 96 threads; not all; some thread has !p.
		if got[4*i] != 32 || got[4*i+1] != 0 || got[4*i+2] != 1 {
			t.Fatalf("thread %d: popc %d and %d or %d, want 32 0 1", i, got[4*i], got[4*i+1], got[4*i+2])
		}
	}
}

// TestDeterminism: results and counters of a race-free kernel do not
// depend on how many workers run its blocks.
func TestDeterminism(t *testing.T) {
	m := testModule(t, sharedReducePTX)
	const blocks = 64
	in := m.buffer(t, 4*blocks*256)
	vals := make([]uint32, blocks*256)
	for i := range vals {
		vals[i] = uint32(i*2654435761) >> 7
	}
	m.setU32s(t, in, vals)
	var first []uint32
	var firstC Counters
	for _, w := range []int{1, 2, 3} {
		out := m.buffer(t, 4*blocks)
		c, _, err := m.launchTest(t, run{kernel: "sred", grid: [3]uint32{blocks}, block: [3]uint32{256}, params: u64p(in, out), workers: w})
		if err != nil {
			t.Fatal(err)
		}
		got := m.u32s(t, out, blocks)
		if first == nil {
			first, firstC = got, c
			for b := 0; b < blocks; b++ {
				var s uint32
				for _, v := range vals[256*b : 256*b+256] {
					s += v
				}
				if got[b] != s {
					t.Fatalf("block %d sum %d, want %d", b, got[b], s)
				}
			}
			continue
		}
		if c != firstC {
			t.Errorf("workers=%d counters %+v differ from workers=1 %+v", w, c, firstC)
		}
		for b := range got {
			if got[b] != first[b] {
				t.Fatalf("workers=%d block %d: %d vs %d", w, b, got[b], first[b])
			}
		}
	}
}
