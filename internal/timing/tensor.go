package timing

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
)

// TensorPipe is a sub-partition's tensor pipe (ir.ClassTensor: mma.sync,
// wmma.mma, wgmma.mma_async), per input element type (tensor.Elem): an MMA
// of M multiply-adds per warp keeps the pipe busy ceil(M / MACs) cycles
// (its issue interval; other MMAs wait for it on math_pipe_throttle) and
// its result is ready Latency cycles after that.
type TensorPipe struct {
	// MACs is the multiply-adds the pipe does per cycle for mma.sync and
	// wmma; WgmmaMACs for wgmma (0: MACs).
	MACs, WgmmaMACs [tensor.S32 + 1]uint32
	// Latency is the cycles from the end of an MMA's issue interval to
	// its result.
	Latency [tensor.S32 + 1]uint32
}

// tensorCost is a tensor-pipe instruction's issue interval and latency:
// from the preset's TensorPipe, or the class tables where it has no rate
// for the instruction's input type.
func (p *Params) tensorCost(in *ir.Inst) (interval, latency uint32) {
	elem, macs := ir.TensorWork(in)
	if int(elem) >= len(p.Tensor.MACs) {
		elem = tensor.ElemNone
	}
	rate := p.Tensor.MACs[elem]
	if in.Mode == ir.TensorWgmma && p.Tensor.WgmmaMACs[elem] != 0 {
		rate = p.Tensor.WgmmaMACs[elem]
	}
	if rate == 0 {
		return p.Interval[ir.ClassTensor], p.Latency[ir.ClassTensor]
	}
	interval = (macs + rate - 1) / rate
	return interval, interval + p.Tensor.Latency[elem]
}

// tensorTable builds a per-type table from the types given.
func tensorTable(m map[tensor.Elem]uint32) (t [tensor.S32 + 1]uint32) {
	for e, v := range m {
		t[e] = v
	}
	return t
}

// wgmmaGroup keeps a warp's wgmma groups: wgmma.mma_async joins the open
// group (done: when its result is ready), commit_group closes it, and
// wait_group N holds the warp until all but the newest N committed groups
// are done (on the wait stall: a fixed-latency dependency, the tensor
// pipe's result).
func wgmmaGroup(w *warpT, in *ir.Inst, done, now uint64) {
	switch {
	case in.Mode == ir.TensorWgmma:
		w.wgmmaOpen = max(w.wgmmaOpen, done)
	case in.Cmp == ir.WgmmaCommit:
		if w.nGroups == len(w.wgmmaGroups) {
			// More groups in flight than kept: merge the two oldest.
			w.wgmmaGroups[1] = max(w.wgmmaGroups[0], w.wgmmaGroups[1])
			copy(w.wgmmaGroups[:], w.wgmmaGroups[1:])
			w.nGroups--
		}
		w.wgmmaGroups[w.nGroups] = w.wgmmaOpen
		w.nGroups++
		w.wgmmaOpen = 0
	case in.Cmp == ir.WgmmaWait:
		keep := min(int(in.Vec), w.nGroups)
		n := w.nGroups - keep
		t := uint64(0)
		for _, g := range w.wgmmaGroups[:n] {
			t = max(t, g)
		}
		copy(w.wgmmaGroups[:], w.wgmmaGroups[n:w.nGroups])
		w.nGroups = keep
		if t > max(w.ready, now+1) {
			w.ready, w.readyWhy = t, stallWait
		}
	}
}
