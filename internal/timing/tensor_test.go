package timing

import (
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
// shape's issue interval on a sub-partition, however many are ready; the
// intervals are the vendors' published dense rates per sub-partition
// (whitepapers: V100 128, A100 256, H100 512 f16 multiply-adds a cycle for
// wgmma; see the presets' [TC] notes for mma.sync on the H100).
func TestTensorPipeThroughput(t *testing.T) {
	tests := []struct {
		arch     string
		name     string
		mode     uint8
		elem     tensor.Elem
		macs     uint32
		interval int
	}{
		{"h100", "mma.sync m16n8k16 f16", ir.TensorMMA, tensor.F16, 16 * 8 * 16, 8},
		{"h100", "mma.sync m16n8k16 bf16", ir.TensorMMA, tensor.BF16, 16 * 8 * 16, 8},
		{"h100", "mma.sync m16n8k8 tf32", ir.TensorMMA, tensor.TF32, 16 * 8 * 8, 8},
		{"h100", "mma.sync m16n8k32 s8", ir.TensorMMA, tensor.S8, 16 * 8 * 32, 8},
		{"h100", "mma.sync m8n8k4 f64", ir.TensorMMA, tensor.F64, 8 * 8 * 4, 8},
		{"h100", "wmma m16n16k16 f16", ir.TensorWmmaMMA, tensor.F16, 16 * 16 * 16, 16},
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
		const cycles = 1920
		issued := 0
		for sm.now = 0; sm.now < cycles; sm.now++ {
			w, _ := s.pick(sm, sp)
			if w == nil {
				continue
			}
			issued++
			sp.last = w
			s.complete(sm, sp, w, in, &engine.StepRecord{}, 1)
			w.dep = sm.now + 1
		}
		if want := cycles / tc.interval; issued != want {
			t.Errorf("%s %s: %d MMAs in %d cycles, want %d (one every %d)", tc.arch, tc.name, issued, cycles, want, tc.interval)
		}
	}
}

// TestTensorLatency: an MMA's result is ready its interval plus the
// preset's latency after issue (H100 and A100 m16n8k16 f16: 32 cycles, the
// A100's published figure, Sun et al. 2022), and a dependent MMA waits
// for it on the wait stall (a fixed-latency producer).
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
	if got := w.regReady[0] - sm.now; got != 32 {
		t.Errorf("m16n8k16 f16 result after %d cycles, want 32", got)
	}
	if at, why := s.depReady(w); at != 132 || why != stallWait {
		t.Errorf("dependent MMA ready at %d (%s), want 132 (wait)", at, StallNames[why])
	}
}

// TestWgmmaWaitGroup: wgmma.mma_async does not hold the warp; its
// wait_group N does, until all but the newest N committed groups are done
// (a wgmma m64n128k16 f16 on the H100: 64 cycles of the pipe plus 24).
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
	step(0, mma) // group 1: done at 88
	step(1, commit)
	if w.regReady[0] != 0 {
		t.Errorf("wgmma marked its accumulator ready at %d: the warp must wait at wait_group instead", w.regReady[0])
	}
	step(64, mma) // group 2: the pipe is free at 64, done at 64+88
	step(65, commit)
	step(66, wait(1))
	if w.ready != 88 || w.readyWhy != stallWait {
		t.Errorf("wait_group 1: ready at %d (%s), want 88 (wait)", w.ready, StallNames[w.readyWhy])
	}
	step(88, wait(0))
	if w.ready != 152 {
		t.Errorf("wait_group 0: ready at %d, want 152", w.ready)
	}
	step(200, wait(0)) // nothing in flight
	if w.ready != 201 {
		t.Errorf("wait_group 0 with nothing in flight: ready at %d, want 201", w.ready)
	}
}
