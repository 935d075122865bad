package timing_test

import (
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// hotLoopPTX: every thread runs iters rounds of a global load, integer and
// float arithmetic, a shared-memory store, a barrier, a neighbour's shared
// word, a reciprocal square root and a global store, the timing model's
// per-instruction paths (scoreboard, pipes, L1, L2 and DRAM, the quanta's
// futures, barriers).
const hotLoopPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry loop(.param .u64 in, .param .u64 out, .param .u32 iters)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .f32 %f<4>;
	.reg .pred %p<2>;
	.shared .align 4 .u32 buf[128];
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [iters];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.u32 %r5, %r3, %r4, %r2;
	mul.wide.u32 %rd3, %r5, 4;
	add.u64 %rd4, %rd1, %rd3;
	add.u64 %rd5, %rd2, %rd3;
	shl.b32 %r6, %r2, 2;
	mov.u32 %r7, buf;
	add.u32 %r8, %r7, %r6;
	add.u32 %r12, %r2, 1;
	and.b32 %r12, %r12, 127;
	shl.b32 %r12, %r12, 2;
	add.u32 %r12, %r7, %r12;
	mov.u32 %r9, 0;
	mov.u32 %r10, 0;
LOOP:
	ld.global.u32 %r11, [%rd4];
	add.u32 %r10, %r10, %r11;
	cvt.rn.f32.u32 %f1, %r10;
	rsqrt.approx.f32 %f2, %f1;
	mov.b32 %r13, %f2;
	xor.b32 %r10, %r10, %r13;
	st.shared.u32 [%r8], %r10;
	bar.sync 0;
	ld.shared.u32 %r11, [%r12];
	add.u32 %r10, %r10, %r11;
	st.global.u32 [%rd5], %r10;
	bar.sync 0;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, %r1;
	@%p1 bra LOOP;
	ret;
}
`

// TestTimingHotLoopAllocs: the timing model allocates nothing per
// instruction or cycle: a launch running five times as many loop rounds
// (the same blocks, more than four times the instructions, half again the
// cycles: the blocks' dispatch and the launch take the rest) allocates no
// more than the shorter one but for the growth of buffers reused from
// quantum to quantum (slack). What a launch allocates per grid and per
// block (its SMs, caches, block slots) is the same for both.
func TestTimingHotLoopAllocs(t *testing.T) {
	const blocks, threads, slack = 264, 128, 32
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: 1, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{NoSampling: true}})
	mod, err := dev.LoadModule("loop.ptx", []byte(hotLoopPTX))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("loop")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := dev.Malloc(4 * blocks * threads)
	out, _ := dev.Malloc(4 * blocks * threads)
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}}
	run := func(iters uint32) (allocs float64, inst, cycles uint64) {
		allocs = testing.AllocsPerRun(1, func() {
			res, err := dev.Launch(k, cfg, params(in, out, iters))
			if err != nil {
				t.Fatal(err)
			}
			inst, cycles = res.Counters.InstExecuted, res.Grids[0].Timing.Cycles
		})
		return allocs, inst, cycles
	}
	shortA, shortI, shortC := run(8)
	longA, longI, longC := run(40)
	t.Logf("8 rounds: %.0f allocations, %d warp instructions, %d cycles; 40 rounds: %.0f, %d, %d",
		shortA, shortI, shortC, longA, longI, longC)
	if longI < 4*shortI || 2*longC < 3*shortC {
		t.Fatalf("the longer launch ran %d instructions in %d cycles against %d in %d: not enough more to tell", longI, longC, shortI, shortC)
	}
	if longA > shortA+slack {
		t.Errorf("40 rounds allocate %.0f times, 8 rounds %.0f: the timing model allocates per instruction or cycle", longA, shortA)
	}
}
