package timing_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/testenv"
)

// copyFaultPTX: every thread copies one word from in to out at its global
// index; in holds n words, so the threads past n read out of bounds.
const copyFaultPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry cp(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd3, %r4, 4;
	add.u64 %rd4, %rd1, %rd3;
	ld.global.u32 %r5, [%rd4];
	add.u64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r5;
	ret;
}
`

// TestParallelFaultDeterministic: a grid whose SMs run on several threads
// and fault in many blocks at once reports the same fault (block, thread,
// address) for any number of workers, as on one.
func TestParallelFaultDeterministic(t *testing.T) {
	const blocks, threads = 2048, 256
	var first string
	for _, workers := range []int{1, 4, 16} {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: true}})
		mod, err := dev.LoadModule("cp.ptx", []byte(copyFaultPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("cp")
		if err != nil {
			t.Fatal(err)
		}
		// The input covers the first 300 blocks: every block after them
		// faults, the first wave's last ones in the same quantum.
		in, _ := dev.Malloc(4 * 300 * threads)
		out, _ := dev.Malloc(4 * blocks * threads)
		_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
			params(in, out))
		var f *warpsim.Fault
		if !errors.As(err, &f) {
			t.Fatalf("%d workers: err = %v, want a fault", workers, err)
		}
		if first == "" {
			first = f.Error()
			t.Logf("1 worker: %s", first)
			continue
		}
		if got := f.Error(); got != first {
			t.Errorf("%d workers: fault\n%s\nwant (1 worker)\n%s", workers, got, first)
		}
	}
}

// TestParallelPanicBecomesInternalFault: a panic on one SM's thread (a bug
// in the engine or the model) is raised again on the launch's thread and
// becomes the launch's internal-error fault naming the block, the warp and
// its PTX line; the device goes on running launches.
func TestParallelPanicBecomesInternalFault(t *testing.T) {
	const blocks, threads = 2048, 256
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: 4, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{NoSampling: true}})
	mod, err := dev.LoadModule("cp.ptx", []byte(copyFaultPTX))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("cp")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := dev.Malloc(4 * blocks * threads)
	out, _ := dev.Malloc(4 * blocks * threads)
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}}
	engine.SetStepHook(func(block, warp int, in *ir.Inst) {
		if block == 700 && warp == 3 && in != nil && in.Op == ir.OpSt {
			panic("injected: the engine went wrong")
		}
	})
	_, err = dev.Launch(k, cfg, params(in, out))
	engine.SetStepHook(nil)
	var f *warpsim.Fault
	if !errors.As(err, &f) {
		t.Fatalf("err = %v, want a fault", err)
	}
	msg := f.Error()
	for _, want := range []string{"warpsim internal error in warp 3", "injected: the engine went wrong", "block (700,0,0)", "st.global.u32", "please report it"} {
		if !strings.Contains(msg, want) {
			t.Errorf("fault report lacks %q:\n%s", want, msg)
		}
	}
	if _, err := dev.Launch(k, cfg, params(in, out)); err != nil {
		t.Errorf("the launch after the panic: %v", err)
	}
}

// sharedHistPTX: a shared-memory histogram: every thread adds 1 to bin
// tid%8 of its block's shared bins with atom.shared, then thread 0 writes
// the bins to out[block*8 ...].
const sharedHistPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry hist(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.reg .pred %p<2>;
	.shared .align 4 .u32 bins[8];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra ADD;
	st.shared.v4.u32 [bins], {0, 0, 0, 0};
	st.shared.v4.u32 [bins+16], {0, 0, 0, 0};
ADD:
	bar.sync 0;
	and.b32 %r2, %r1, 7;
	shl.b32 %r3, %r2, 2;
	mov.u32 %r4, bins;
	add.u32 %r5, %r4, %r3;
	atom.shared.add.u32 %r6, [%r5], 1;
	bar.sync 0;
	@%p1 bra DONE;
	mov.u32 %r7, %ctaid.x;
	mul.wide.u32 %rd2, %r7, 32;
	add.u64 %rd3, %rd1, %rd2;
	ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [bins];
	st.global.v4.u32 [%rd3], {%r8, %r9, %r10, %r11};
	ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [bins+16];
	st.global.v4.u32 [%rd3+16], {%r8, %r9, %r10, %r11};
DONE:
	ret;
}
`

// TestParallelSharedAtomics: a grid whose only atomics are on shared
// memory runs its SMs on several threads (parallelSafe) and gives the same
// timing account and bins on 1, 3 and 7 threads. Small enough for the race
// detector.
func TestParallelSharedAtomics(t *testing.T) {
	const blocks, threads = 300, 256
	var first string
	for _, workers := range []int{1, 3, 7} {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: true}})
		mod, err := dev.LoadModule("hist.ptx", []byte(sharedHistPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("hist")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(32 * blocks)
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
			params(out))
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 32*blocks)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8*blocks; i++ {
			if v := binary.LittleEndian.Uint32(b[4*i:]); v != threads/8 {
				t.Fatalf("%d workers: block %d bin %d holds %d, want %d", workers, i/8, i%8, v, threads/8)
			}
		}
		got := fmt.Sprintf("%+v", *res.Grids[0].Timing)
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("%d workers: timing %s\nwant (1 worker) %s", workers, got, first)
		}
	}
}

// spinFaultPTX: each block's warp runs a chain of dependent multiply-adds,
// n0 rounds in block 0 and n1 in the others, then reads the word at bad
// (not allocated): every block faults, when its chain ends.
const spinFaultPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 bad, .param .u32 n0, .param .u32 n1)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [bad];
	ld.param.u32 %r1, [n0];
	ld.param.u32 %r2, [n1];
	mov.u32 %r3, %ctaid.x;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 mov.u32 %r1, %r2;
	mov.u32 %r4, %tid.x;
	mov.u32 %r5, 0;
LOOP:
	mad.lo.u32 %r4, %r4, 3, 1;
	mad.lo.u32 %r4, %r4, 5, 7;
	mad.lo.u32 %r4, %r4, 3, 1;
	mad.lo.u32 %r4, %r4, 5, 7;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p2, %r5, %r1;
	@%p2 bra LOOP;
	ld.global.u32 %r6, [%rd1];
	add.u32 %r7, %r6, %r4;
	st.global.u32 [%rd1], %r7;
	ret;
}
`

// TestFaultEarliestAnyWorkers: when blocks on two SMs fault, the launch
// reports the fault that happened first (by cycle, then SM), for 1, 2, 4,
// 8 and 16 workers: block 1, whose chain is shorter, though block 0's
// slot was made first and, on one or two workers, block 0's SM may have
// run ahead into the next quantum and faulted there before the grid
// stopped (runAhead). Block 1's fault moves over two quanta (n1, about
// 27 cycles a round) and block 0's from a fifth of a quantum to about two
// after it (d), so some of them fall in the same quantum and some in
// consecutive ones, block 1's in the quantum an SM runs ahead from.
func TestFaultEarliestAnyWorkers(t *testing.T) {
	for n1 := uint32(12); n1 <= 20; n1 += 2 {
		for d := uint32(1); d <= 8; d++ {
			for _, workers := range []int{1, 2, 4, 8, 16} {
				dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
					Timing: warpsim.TimingOptions{NoSampling: true}})
				mod, err := dev.LoadModule("spin.ptx", []byte(spinFaultPTX))
				if err != nil {
					t.Fatal(err)
				}
				k, err := mod.Kernel("spin")
				if err != nil {
					t.Fatal(err)
				}
				_, err = dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 2, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}},
					params(uint64(16), n1+d, n1))
				var f *warpsim.Fault
				if !errors.As(err, &f) {
					t.Fatalf("n0 = %d, n1 = %d, %d workers: err = %v, want a fault", n1+d, n1, workers, err)
				}
				if f.Block != (warpsim.Dim3{X: 1, Y: 1, Z: 1}) && f.Block != (warpsim.Dim3{X: 1}) {
					t.Errorf("n0 = %d, n1 = %d, %d workers: fault in block %v, want block 1 (the earlier fault)", n1+d, n1, workers, f.Block)
				}
			}
		}
	}
}

// clockPTX: every thread reads %globaltimer and %clock64, runs a chain of
// dependent global loads (a few rounds more in each block of a group of
// seven, so blocks end at different times), then reads %globaltimer_lo,
// %globaltimer_hi and %clock64 again, and stores the four values at
// out[4*i ...] (i its global index).
const clockPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry clk(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<16>;
	mov.u64 %rd1, %globaltimer;
	mov.u64 %rd2, %clock64;
	ld.param.u64 %rd3, [in];
	ld.param.u64 %rd4, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	rem.u32 %r5, %r2, 7;
	mad.lo.u32 %r5, %r5, 3, 4;
	and.b32 %r6, %r4, 1023;
	mov.u32 %r7, 0;
LOOP:
	mul.wide.u32 %rd5, %r6, 4;
	add.u64 %rd6, %rd3, %rd5;
	ld.global.u32 %r8, [%rd6];
	add.u32 %r6, %r8, %r6;
	and.b32 %r6, %r6, 1023;
	add.u32 %r7, %r7, 1;
	setp.lt.u32 %p1, %r7, %r5;
	@%p1 bra LOOP;
	mov.u32 %r9, %globaltimer_lo;
	mov.u32 %r10, %globaltimer_hi;
	mov.u64 %rd7, %clock64;
	mov.b64 %rd8, {%r9, %r10};
	mul.wide.u32 %rd9, %r4, 32;
	add.u64 %rd10, %rd4, %rd9;
	st.global.v2.u64 [%rd10], {%rd1, %rd2};
	st.global.v2.u64 [%rd10+16], {%rd8, %rd7};
	ret;
}
`

// TestParallelClockReads: a grid that reads %globaltimer (whole and as
// _lo/_hi) and %clock64 runs its SMs on several threads, and every value
// it reads, its timing account and every block's SM, start and end are
// the same on 1 and 16 workers (TestLongParallelClockReads: 2, 4, 8 and 1
// again); the values are times: each thread's second reading is later
// than its first by what its clock counted at the H100 preset's clock,
// and the second launch's first reading comes after the first launch's
// last one.
func TestParallelClockReads(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	checkParallelClockReads(t, 1, 16)
}

// TestLongParallelClockReads is TestParallelClockReads on the powers of two
// between and on 1 again.
func TestLongParallelClockReads(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkParallelClockReads(t, 2, 4, 8, 1)
}

func checkParallelClockReads(t *testing.T, workerCounts ...int) {
	const blocks, threads = 600, 128
	const n = blocks * threads
	khz := float64(arch.MustLookup("h100").ClockKHz)
	var first, firstVals string
	for _, workers := range workerCounts {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: true}})
		mod, err := dev.LoadModule("clk.ptx", []byte(clockPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("clk")
		if err != nil {
			t.Fatal(err)
		}
		in, _ := dev.Malloc(4 * 1024)
		src := make([]byte, 4*1024)
		for i := range 1024 {
			binary.LittleEndian.PutUint32(src[4*i:], uint32(i*37+11))
		}
		if err := dev.Write(in, src); err != nil {
			t.Fatal(err)
		}
		var accounts, vals strings.Builder
		var lastEnd uint64
		for launch := range 2 {
			out, _ := dev.Malloc(32 * n)
			res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
				params(in, out))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&accounts, "%+v\n", *res.Grids[0].Timing)
			b := make([]byte, 32*n)
			if err := dev.Read(out, b); err != nil {
				t.Fatal(err)
			}
			vals.Write(b)
			var minStart, maxEnd uint64 = ^uint64(0), 0
			for i := range n {
				t0, c0 := binary.LittleEndian.Uint64(b[32*i:]), binary.LittleEndian.Uint64(b[32*i+8:])
				t1, c1 := binary.LittleEndian.Uint64(b[32*i+16:]), binary.LittleEndian.Uint64(b[32*i+24:])
				minStart, maxEnd = min(minStart, t0), max(maxEnd, t1)
				if t1 <= t0 || c1 <= c0 {
					t.Fatalf("%d workers, launch %d, thread %d: times %d then %d ns, clocks %d then %d", workers, launch, i, t0, t1, c0, c1)
				}
				// The timer ticks at the SM clock's rate, the preset's
				// (the reads of the timer and the clock are an
				// instruction apart).
				if want := float64(c1-c0) * 1e6 / khz; math.Abs(float64(t1-t0)-want) > 8 {
					t.Fatalf("%d workers, launch %d, thread %d: %d ns between the timer's reads, %d cycles (%.0f ns) between the clock's",
						workers, launch, i, t1-t0, c1-c0, want)
				}
			}
			if minStart < lastEnd {
				t.Errorf("%d workers: launch %d's first timer reading %d ns is before the last launch's last %d ns", workers, launch, minStart, lastEnd)
			}
			lastEnd = maxEnd
		}
		if first == "" {
			first, firstVals = accounts.String(), vals.String()
			continue
		}
		if accounts.String() != first {
			t.Errorf("%d workers: timing\n%s\nwant (%d workers)\n%s", workers, accounts.String(), workerCounts[0], first)
		}
		if vals.String() != firstVals {
			t.Errorf("%d workers: the values read differ from %d workers'", workers, workerCounts[0])
		}
	}
}

// replayMixPTX: every thread copies its word from in to out, writes one
// byte of it to part at eight times its index (a partial sector of a line
// of its own), reads a word of in again at seven times its index (a line
// another block read, an L2 hit or a miss by when) and adds it into out:
// loads that miss and hit the L2, whole and partial stores, and a store
// whose data is a load of the same quantum (the replay evaluates it).
const replayMixPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry mix(.param .u64 in, .param .u64 out, .param .u64 part, .param .u32 mask)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u64 %rd3, [part];
	ld.param.u32 %r9, [mask];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd4, %r4, 4;
	add.u64 %rd5, %rd1, %rd4;
	ld.global.u32 %r5, [%rd5];
	add.u64 %rd6, %rd2, %rd4;
	st.global.u32 [%rd6], %r5;
	mul.wide.u32 %rd7, %r4, 8;
	add.u64 %rd8, %rd3, %rd7;
	st.global.u8 [%rd8], %r5;
	mul.lo.u32 %r6, %r4, 7;
	and.b32 %r6, %r6, %r9;
	mul.wide.u32 %rd9, %r6, 4;
	add.u64 %rd10, %rd1, %rd9;
	ld.global.u32 %r7, [%rd10];
	add.u32 %r8, %r7, %r5;
	st.global.u32 [%rd6], %r8;
	ret;
}
`

// TestParallelReplayAnyWorkers: a memory-bound grid (replayMixPTX, 1320
// blocks of 256 threads, a wave and a quarter on the H100) gives the same
// timing account (every field: cycles, stalls, DRAM and L2 traffic, every
// block's SM, start and end), the same counters and the same output on 1
// and 16 workers (TestLongParallelReplayAnyWorkers: 2, 3, 4, 8 and 1
// again): the replay's answers and the SMs' futures settled on whichever
// threads (overlap) come out as on one.
func TestParallelReplayAnyWorkers(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	checkParallelReplay(t, []int{1, 16})
}

// TestLongParallelReplayAnyWorkers is TestParallelReplayAnyWorkers on 2,
// 3, 4 and 8 workers and on 1 again.
func TestLongParallelReplayAnyWorkers(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkParallelReplay(t, []int{1, 2, 3, 4, 8, 1})
}

func checkParallelReplay(t *testing.T, workerCounts []int) {
	const blocks, threads = 1320, 256
	const n = blocks * threads
	var first, firstOut string
	for i, workers := range workerCounts {
		t0 := time.Now()
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: true}})
		mod, err := dev.LoadModule("mix.ptx", []byte(replayMixPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("mix")
		if err != nil {
			t.Fatal(err)
		}
		in, _ := dev.Malloc(4 * 1 << 19)
		out, _ := dev.Malloc(4 * n)
		part, _ := dev.Malloc(8 * n)
		words := make([]byte, 4<<19)
		for j := range 1 << 19 {
			binary.LittleEndian.PutUint32(words[4*j:], uint32(j*2654435761))
		}
		if err := dev.Write(in, words); err != nil {
			t.Fatal(err)
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
			params(in, out, part, uint32(1<<19-1)))
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		t.Logf("%d workers: %d cycles (%v)", workers, res.Grids[0].Timing.Cycles, time.Since(t0))
		got := make([]byte, 4*n)
		if err := dev.Read(out, got); err != nil {
			t.Fatal(err)
		}
		// The output is the kernel's, whatever the timing: checked
		// word by word here, not against the first run.
		for j := range n {
			want := binary.LittleEndian.Uint32(words[4*j:]) + binary.LittleEndian.Uint32(words[4*(j*7&(1<<19-1)):])
			if w := binary.LittleEndian.Uint32(got[4*j:]); w != want {
				t.Fatalf("%d workers: out[%d] = %#x, want %#x", workers, j, w, want)
			}
		}
		g := &res.Grids[0]
		acct := fmt.Sprintf("%+v\ncounters %+v", *g.Timing, res.Counters)
		if i == 0 {
			first, firstOut = acct, fmt.Sprintf("%x", got)
			if g.Timing.DRAMWriteBytes == 0 && g.Timing.L2Hits == 0 {
				t.Fatalf("1 worker: no L2 traffic in the account: %s", acct)
			}
			continue
		}
		if acct != first {
			t.Errorf("%d workers: account\n%s\nwant (%d workers)\n%s", workers, acct, workerCounts[0], first)
		}
		if fmt.Sprintf("%x", got) != firstOut {
			t.Errorf("%d workers: output differs from %d workers'", workers, workerCounts[0])
		}
	}
}

// TestParallelCrewEndsWithGrid: a parallel grid's threads (the crew) live
// for the grid and no longer: after a launch on 2 and one on 16 workers
// the process has no more goroutines than before it.
func TestParallelCrewEndsWithGrid(t *testing.T) {
	for _, workers := range []int{2, 16} {
		const blocks, threads = 264, 64 // two blocks for each of the H100's 132 SMs
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: workers, Mode: warpsim.ModeTiming,
			Timing: warpsim.TimingOptions{NoSampling: true}})
		mod, err := dev.LoadModule("mix.ptx", []byte(replayMixPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("mix")
		if err != nil {
			t.Fatal(err)
		}
		in, _ := dev.Malloc(4 * blocks * threads)
		out, _ := dev.Malloc(4 * blocks * threads)
		part, _ := dev.Malloc(8 * blocks * threads)
		before := runtime.NumGoroutine()
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: blocks, Y: 1, Z: 1}, Block: warpsim.Dim3{X: threads, Y: 1, Z: 1}},
			params(in, out, part, uint32(blocks*threads-1)))
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if res.Grids[0].Timing == nil || res.Grids[0].Timing.Cycles == 0 {
			t.Fatalf("%d workers: no timing account", workers)
		}
		// The crew's goroutines end on their own once told to: give them
		// a moment.
		n := runtime.NumGoroutine()
		for deadline := time.Now().Add(5 * time.Second); n > before && time.Now().Before(deadline); n = runtime.NumGoroutine() {
			time.Sleep(10 * time.Millisecond)
		}
		if n > before {
			t.Errorf("%d workers: %d goroutines after a parallel grid, %d before", workers, n, before)
		}
	}
}
