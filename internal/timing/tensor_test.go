package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
)

// mmaInst is a tensor-pipe instruction of macs multiply-adds per warp on
// elem inputs, as lowering marks it (ir.TensorWork).
func mmaInst(mode uint8, elem tensor.Elem, macs uint32) *ir.Inst {
	in := &ir.Inst{Op: ir.OpTensor, Mode: mode, Class: ir.ClassTensor, Cmp: uint8(elem), Guard: -1,
		D: [4]int32{-1, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}
	for 256<<in.Vec < macs {
		in.Vec++
	}
	return in
}

// TestTensorPipeThroughput: warps issuing only MMAs issue one per the
// shape's issue interval on a sub-partition, however many are ready. The
// H100's mma.sync intervals are measured (testdata/tensorlesson/h100/
// mb_stdout.txt, at 8 warps per sub-partition: m16n8k16 f16 6.24, bf16
// 6.23, m16n8k8 tf32 6.23, m16n8k32 s8 6.25, m16n8k8 f16 4.26, m8n8k4 f64
// 16.01); wmma m16n16k16 is two of HMMA.16816 (not measured), wgmma and
// the A100 and V100 the vendors' published dense rates per sub-partition
// (whitepapers: H100 512, A100 256, V100 128 f16 multiply-adds a cycle).
func TestTensorPipeThroughput(t *testing.T) {
	tests := []struct {
		arch     string
		name     string
		mode     uint8
		elem     tensor.Elem
		macs     uint32
		interval float64
	}{
		{"h100", "mma.sync m16n8k16 f16", ir.TensorMMA, tensor.F16, 16 * 8 * 16, 6.24},
		{"h100", "mma.sync m16n8k16 bf16", ir.TensorMMA, tensor.BF16, 16 * 8 * 16, 6.23},
		{"h100", "mma.sync m16n8k8 tf32", ir.TensorMMA, tensor.TF32, 16 * 8 * 8, 6.23},
		{"h100", "mma.sync m16n8k32 s8", ir.TensorMMA, tensor.S8, 16 * 8 * 32, 6.25},
		{"h100", "mma.sync m16n8k8 f16", ir.TensorMMA, tensor.F16, 16 * 8 * 8, 4.26},
		{"h100", "mma.sync m8n8k4 f64", ir.TensorMMA, tensor.F64, 8 * 8 * 4, 16.01},
		{"h100", "wmma m16n16k16 f16", ir.TensorWmmaMMA, tensor.F16, 16 * 16 * 16, 12.5},
		{"h100", "wgmma m64n128k16 f16 (a warp's quarter)", ir.TensorWgmma, tensor.F16, 16 * 128 * 16, 64},
		{"a100", "mma.sync m16n8k16 f16", ir.TensorMMA, tensor.F16, 16 * 8 * 16, 8},
		{"a100", "mma.sync m16n8k8 tf32", ir.TensorMMA, tensor.TF32, 16 * 8 * 8, 8},
		{"a100", "mma.sync m8n8k4 f64", ir.TensorMMA, tensor.F64, 8 * 8 * 4, 16},
		{"v100", "wmma m16n16k16 f16", ir.TensorWmmaMMA, tensor.F16, 16 * 16 * 16, 32},
	}
	// Warps waiting for the tensor pipe show math_pipe_throttle, as Nsight
	// Compute names the wait for the pipes of the math units.
	if why := throttleReason(ir.ClassTensor); why != stallMathPipeThrottle {
		t.Errorf("waiting for the tensor pipe: %s, want math_pipe_throttle", StallNames[why])
	}
	for _, tc := range tests {
		d := New(arch.MustLookup(tc.arch), Options{Scheduler: GTO})
		s := &gridState{d: d, p: d.p}
		sm := &smT{sps: make([]spT, 1)}
		sp := &sm.sps[0]
		in := mmaInst(tc.mode, tc.elem, tc.macs)
		for i := 0; i < 8; i++ {
			sp.warps = append(sp.warps, &warpT{idx: i, sp: sp, age: uint64(i + 1), next: in, depValid: true})
		}
		// The second half's issues: the steady rate (a wgmma queue takes
		// its first few at once, WgmmaQueue).
		const cycles = 1920
		issued := 0
		for sm.now = 0; sm.now < 2*cycles; sm.now++ {
			w, _ := s.pick(sm, sp)
			if w == nil {
				continue
			}
			if sm.now >= cycles {
				issued++
			}
			sp.last = w
			s.complete(sm, sp, w, in, &engine.StepRecord{}, 1)
			w.dep = sm.now + 1
			w.changed()
		}
		// 1%: the recordings' own spread between types of one cost.
		if got := float64(cycles) / float64(issued); math.Abs(got-tc.interval) > 0.01*tc.interval+0.01 {
			t.Errorf("%s %s: %d MMAs in %d cycles, one every %.2f, want %.2f", tc.arch, tc.name, issued, cycles, got, tc.interval)
		}
	}
}

// TestTensorLatency: an MMA's result is ready its pipe time plus the
// preset's latency after issue (H100 m16n8k16 f16: 6.25 + 23, rounded up
// to 30 cycles; a dependent chain takes 29.9 cycles per instruction on the
// H100, testdata/tensorlesson/h100/mb_stdout.txt), and a dependent MMA
// waits for it on the wait stall (a fixed-latency producer). The warp's
// next branch waits until 13 cycles after the MMA's pipe time (its MMAs do
// not overlap across a loop's back edge: TensorPipe.Release).
func TestTensorLatency(t *testing.T) {
	d := New(arch.MustLookup("h100"), Options{Scheduler: GTO})
	s := &gridState{d: d, p: d.p}
	sm := &smT{sps: make([]spT, 1)}
	sp := &sm.sps[0]
	in := mmaInst(ir.TensorMMA, tensor.F16, 16*8*16)
	in.D[0], in.A[0] = 0, 0
	w := &warpT{sp: sp, next: in, regReady: make([]uint64, 1), regKind: make([]uint8, 1)}
	sm.now = 100
	s.complete(sm, sp, w, in, &engine.StepRecord{}, 1)
	if got := w.regReady[0] - sm.now; got != 30 {
		t.Errorf("m16n8k16 f16 result after %d cycles, want 30", got)
	}
	if at, why := s.depReady(w); at != 130 || why != stallWait {
		t.Errorf("dependent MMA ready at %d (%s), want 130 (wait)", at, StallNames[why])
	}
	w.depValid = false
	w.next = &ir.Inst{Op: ir.OpBra, Class: ir.ClassBranch, Guard: -1, D: [4]int32{-1, -1, -1, -1}, A: [5]int32{-1, -1, -1, -1, -1}}
	if at, why := s.depReady(w); at != 120 || why != stallWait {
		t.Errorf("branch after the MMA ready at %d (%s), want 120 (wait)", at, StallNames[why])
	}
}

// TestWgmmaWaitGroup: wgmma.mma_async does not hold the warp; its
// wait_group N does, until all but the newest N committed groups are done
// (a wgmma m64n128k16 f16 on the H100: 64 cycles of the pipe plus 23).
func TestWgmmaWaitGroup(t *testing.T) {
	d := New(arch.MustLookup("h100"), Options{Scheduler: GTO})
	s := &gridState{d: d, p: d.p}
	sm := &smT{sps: make([]spT, 1)}
	sp := &sm.sps[0]
	mma := mmaInst(ir.TensorWgmma, tensor.F16, 16*128*16)
	mma.D[0] = 0
	commit := &ir.Inst{Op: ir.OpTensor, Mode: ir.TensorWgmmaSync, Class: ir.ClassBarrier, Cmp: ir.WgmmaCommit, Guard: -1}
	wait := func(n uint8) *ir.Inst {
		return &ir.Inst{Op: ir.OpTensor, Mode: ir.TensorWgmmaSync, Class: ir.ClassBarrier, Cmp: ir.WgmmaWait, Vec: n, Guard: -1}
	}
	w := &warpT{sp: sp, regReady: make([]uint64, 1), regKind: make([]uint8, 1)}
	step := func(at uint64, in *ir.Inst) {
		sm.now = at
		w.ready = at + 1
		s.complete(sm, sp, w, in, &engine.StepRecord{}, 1)
	}
	// A warp's quarter of m64n128k16 f16: 32768 multiply-adds, 64 cycles
	// at 512 a cycle; its result 31 + 1.18 × 64 = 106.5 cycles after it
	// issues (WgmmaLatency, WgmmaResultPct): 43 after the pipe's end, 107.
	step(0, mma) // group 1: done at 107
	step(1, commit)
	if w.regReady[0] != 0 {
		t.Errorf("wgmma marked its accumulator ready at %d: the warp must wait at wait_group instead", w.regReady[0])
	}
	step(64, mma) // group 2: the pipe is free at 64, ends at 128, done at 128+43
	step(65, commit)
	step(66, wait(1))
	if w.ready != 107 || w.readyWhy != stallWait {
		t.Errorf("wait_group 1: ready at %d (%s), want 107 (wait)", w.ready, StallNames[w.readyWhy])
	}
	step(108, wait(0))
	if w.ready != 171 {
		t.Errorf("wait_group 0: ready at %d, want 171", w.ready)
	}
	step(200, wait(0)) // nothing in flight
	if w.ready != 201 {
		t.Errorf("wait_group 0 with nothing in flight: ready at %d, want 201", w.ready)
	}
}

// TestCpAsyncWaitGroup: a cp.async does not hold the warp; its group
// completes when its last copy's source arrives, and wait_group N /
// wait_all hold the warp until the groups they cover complete.
func TestCpAsyncWaitGroup(t *testing.T) {
	s := &gridState{}
	sm := &smT{}
	w := &warpT{}
	op := func(mode uint8, at, done uint64) {
		sm.now = at
		w.ready = at + 1
		s.asyncGroup(sm, w, &ir.Inst{Op: ir.OpAsync, Mode: mode}, 0, done)
	}
	op(ir.AsyncCopy, 0, 300)
	op(ir.AsyncCopy, 1, 280)
	op(ir.AsyncCommit, 2, 0) // group 1: 300
	op(ir.AsyncCopy, 3, 500)
	op(ir.AsyncCommit, 4, 0) // group 2: 500
	op(ir.AsyncCopy, 5, 700) // open
	if w.ready != 6 {
		t.Errorf("cp.async held the warp until %d", w.ready)
	}
	if got := w.cpAsync.wait(&sm.smQuantum, 1, false); got != 300 {
		t.Errorf("wait_group 1: groups done at %d, want 300", got)
	}
	op(ir.AsyncWaitAll, 10, 0)
	if w.ready != 700 || w.readyWhy != stallWait {
		t.Errorf("wait_all: ready at %d (%s), want 700 (wait)", w.ready, StallNames[w.readyWhy])
	}
	op(ir.AsyncWaitAll, 800, 0)
	if w.ready != 801 {
		t.Errorf("wait_all with nothing in flight: ready at %d, want 801", w.ready)
	}
}

// TestWgmmaOverheadAndLatency: a wgmma's pipe time is its multiply-adds at
// the wgmma rate, at least WgmmaMinCycles, plus WgmmaOverhead; its result
// WgmmaLatency + WgmmaResultPct% of the multiply-adds' time after it issues
// (the H100's: 18, 31, 118%, testdata/timing/wgmma); mma.sync keeps its own.
// A warp's quarter of m64n64k16 f16 is 16384 multiply-adds: 32 cycles at 512
// a cycle, the result 31 + 37.76 = 68.76 cycles after the issue, 37 (rounded
// up) after the pipe's end; of m64n8k16, 2048: 4 cycles, held to 18.
func TestWgmmaOverheadAndLatency(t *testing.T) {
	p := *ForArch(arch.MustLookup("h100"), 0)
	wg := mmaInst(ir.TensorWgmma, tensor.F16, 16*64*16)
	mma := mmaInst(ir.TensorMMA, tensor.F16, 16*8*16)
	if cost, lat, _ := p.tensorCost(wg); cost != 32*TensorFrac || lat != 37 {
		t.Errorf("h100 wgmma m64n64k16: %d/%d cycles, latency %d; want 32, 37", cost, TensorFrac, lat)
	}
	if cost, _, _ := p.tensorCost(mmaInst(ir.TensorWgmma, tensor.F16, 16*8*16)); cost != 18*TensorFrac {
		t.Errorf("h100 wgmma m64n8k16: %d/%d cycles; want 18", cost, TensorFrac)
	}
	mcost, mlat, _ := p.tensorCost(mma)
	p.Tensor.WgmmaOverhead[tensor.F16] = 3 * TensorFrac / 2
	p.Tensor.WgmmaLatency[tensor.F16] = 41
	// 41 + 37.76 = 78.76 after the issue, 45.26 after the pipe's 33.5: 46.
	if cost, lat, _ := p.tensorCost(wg); cost != 32*TensorFrac+3*TensorFrac/2 || lat != 46 {
		t.Errorf("with 1.5 cycles' overhead and latency 41: %d/%d cycles, latency %d; want 33.5, 46", cost, TensorFrac, lat)
	}
	if cost, lat, _ := p.tensorCost(mma); cost != mcost || lat != mlat {
		t.Errorf("mma.sync changed with wgmma's figures: %d, %d; want %d, %d", cost, lat, mcost, mlat)
	}
}
