// Calls: frames pushed and returned, local memory backed on demand, direct and indirect calls.

package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
)

// pushFrame makes fn the executing function with a fresh register file.
func (wp *warp) pushFrame(fn *ir.Func, fi int, base, sp uint32, stackBase int, call *ir.CallSite, callPC int) {
	d := len(wp.frames)
	need := fn.NumSlots * 32
	if len(wp.regPool) <= d || cap(wp.regPool[d])-wp.regPoolOff[d] < need {
		// (A kernel's files were placed when its block started:
		// setupBlock.) A call: the block's warps' files for it in one
		// buffer, unless that would be large.
		ws, from := wp.blk.warps, 0
		if len(ws)*regLines(need)*64 > callArenaBytes || wp.idx >= len(ws) || ws[wp.idx] != wp {
			ws, from = []*warp{wp}, wp.idx
		}
		wp.w.placeRegs(ws, from, d, need)
	}
	buf, off := wp.regPool[d], wp.regPoolOff[d]
	regs := buf[off : off+need : off+need]
	if wp.regPoolFn[d] != fn {
		if wp.regPoolFn[d] != zeroedRegs {
			clear(regs)
		}
		for _, c := range fn.Consts {
			r := (*[32]uint64)(regs[int(c.Slot)*32:])
			for l := range r {
				r[l] = c.Value
			}
		}
		wp.regPoolFn[d] = fn
	}
	pbase := uint32(paramScratchLo)
	if d > 0 {
		cur := &wp.frames[d-1]
		pbase = cur.pbase + uint32(cur.fn.ScratchBytes)
	}
	wp.frames = append(wp.frames, frame{fn: fn, fi: fi, regs: regs, base: base, pbase: pbase, sp: sp, stackBase: stackBase, call: call, callPC: callPC})
	wp.frameBase = stackBase
	wp.fn, wp.fi, wp.code, wp.regs = fn, fi, fn.Code, regs
	if fn.FrameBytes > 0 {
		wp.ensureLocal(base, wp.valid&^wp.exited)
	}
}

// ensureLocal backs the local memory of lanes mask from low up
// (stack.go).
func (wp *warp) ensureLocal(low uint32, mask uint32) {
	for l := 0; l < 32; l++ {
		if mask>>l&1 != 0 && (len(wp.local[l]) == 0 || uint64(wp.localHi[l])-uint64(len(wp.local[l])) > uint64(low)) {
			wp.reachLocal(l, low)
			wp.backLocal(l, low, false)
		}
	}
}

// returnFrame copies the callee's return values to the caller's frame for
// the lanes that return, and resumes the caller.
func (wp *warp) returnFrame() {
	callee := wp.frames[len(wp.frames)-1]
	wp.frames = wp.frames[:len(wp.frames)-1]
	caller := &wp.frames[len(wp.frames)-1]
	wp.fn, wp.fi, wp.code, wp.regs = caller.fn, caller.fi, caller.fn.Code, caller.regs
	wp.frameBase = caller.stackBase
	if len(wp.stack) == 0 {
		return
	}
	mask := wp.stack[len(wp.stack)-1].mask
	cs := callee.call
	for i, r := range cs.Rets {
		if i >= len(callee.fn.Rets) {
			break
		}
		src := uint64(callee.pbase) + uint64(callee.fn.Rets[i].Offset)
		dst := uint64(caller.pbase) + uint64(r.Offset)
		size := uint64(min(r.Size, callee.fn.Rets[i].Size))
		for l := 0; l < 32; l++ {
			if mask>>l&1 != 0 {
				copy(wp.localBytes(l, dst, size), wp.localBytes(l, src, size))
			}
		}
	}
}

// indirectCall calls through a function pointer. Lanes whose pointers
// differ (or whose guard is off) are split into one entry per callee that
// re-executes the call; it reports false when it only split.
func (wp *warp) indirectCall(pc int, in *ir.Inst, cs *ir.CallSite, mask, exec uint32) bool {
	ptrs := wp.r(cs.Target)
	funcs := wp.w.l.mod.Prog.Funcs
	first := bits.TrailingZeros32(exec)
	same := exec == mask
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 && ptrs[l] != ptrs[first] {
			same = false
		}
	}
	if !same {
		top := &wp.stack[len(wp.stack)-1]
		top.pc = int32(pc + 1)
		rest := exec
		for rest != 0 {
			l := bits.TrailingZeros32(rest)
			var g uint32
			for k := 0; k < 32; k++ {
				if rest>>k&1 != 0 && ptrs[k] == ptrs[l] {
					g |= 1 << k
				}
			}
			rest &^= g
			wp.stack = append(wp.stack, entry{pc: int32(pc), rpc: int32(pc + 1), mask: g})
		}
		return false
	}
	p := ptrs[first]
	fi := (p - ir.FuncAddrBase) / 16
	if p < ir.FuncAddrBase || p%16 != 0 || fi >= uint64(len(funcs)) || funcs[fi].Code == nil || funcs[fi].Entry {
		wp.fault(FaultIllegal, pc, first, p, true, "indirect call through %#x, which is not a device function's address", p)
		return true
	}
	wp.callFunc(pc, cs, int(fi), exec)
	return true
}

// call enters a device function for lanes exec.
func (wp *warp) call(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	wp.callFunc(pc, cs, int(cs.Callee), exec)
}

func (wp *warp) callFunc(pc int, cs *ir.CallSite, fi int, exec uint32) {
	l := wp.w.l
	if why := l.mod.unsupported[fi]; why != "" {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call of %s, which cannot run: %s", l.mod.Prog.Funcs[fi].Name, why)
		return
	}
	callee := l.mod.Prog.Funcs[fi]
	cur := &wp.frames[len(wp.frames)-1]
	// stack.go: a direct call of a function on no call cycle places its
	// frame in its caller's, above the caller's own; another call's frame
	// goes below the stack in use, with callOverhead bytes above it.
	var base, sp uint32
	if !cs.Indirect && l.mod.inFrame[fi] {
		base = cur.base + uint32(alignInt(cur.fn.FrameBytes, 16))
		sp = cur.sp
	} else if need := l.stackTop - int(cur.sp) + l.mod.extent[fi] + callOverhead; need > l.stackMax {
		why := "cudaLimitStackSize"
		if l.stackMax == maxLocal {
			why = "warpsim's own bound on a thread's local memory"
		}
		wp.fault(FaultStackOverflow, pc, bits.TrailingZeros32(exec), 0, false,
			"the call of %s at depth %d needs %d bytes of stack per thread; the stack is %d bytes (%s)",
			callee.Name, len(wp.frames), need, l.stackMax, why)
		return
	} else {
		// callOverhead bytes at the frame's top, above its arrays, for
		// what the call saves (stack.go)
		base = cur.sp - uint32(l.mod.extent[fi]+callOverhead)
		sp = base
	}
	wp.ensureLocal(base, exec)
	pbase := cur.pbase + uint32(cur.fn.ScratchBytes)
	for i, a := range cs.Args {
		if i >= len(callee.Params) {
			break
		}
		src := uint64(cur.pbase) + uint64(a.Offset)
		dst := uint64(pbase) + uint64(callee.Params[i].Offset)
		size := uint64(min(a.Size, callee.Params[i].Size))
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				copy(wp.localBytes(l, dst, size), wp.localBytes(l, src, size))
			}
		}
	}
	stackBase := len(wp.stack)
	wp.stack = append(wp.stack, entry{pc: 0, rpc: -1, mask: exec})
	wp.pushFrame(callee, fi, base, sp, stackBase, cs, pc)
}
