package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// CUDA error codes the device runtime returns.
const (
	cudaSuccess                   = 0
	cudaErrorInvalidValue         = 1
	cudaErrorInvalidConfiguration = 9
)

// devRuntime implements the device runtime calls of dynamic parallelism,
// per active lane, in lane order: parameter buffers are device
// allocations; a launch is queued (cdp.go runs it); each thread keeps its
// last error for cudaGetLastError and cudaPeekAtLastError.
func (wp *warp) devRuntime(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	l := wp.w.l
	t := l.tree
	arg := func(i, size, lane int) uint64 {
		if i >= len(cs.Args) {
			return 0
		}
		return wp.frameWord(cs.Args[i].Offset, size, lane)
	}
	dim3 := func(i, lane int) [3]uint32 {
		if i >= len(cs.Args) {
			return [3]uint32{1, 1, 1}
		}
		off := cs.Args[i].Offset
		return [3]uint32{uint32(wp.frameWord(off, 4, lane)), uint32(wp.frameWord(off+4, 4, lane)), uint32(wp.frameWord(off+8, 4, lane))}
	}
	funcIndex := func(p uint64) (int, bool) {
		fi := (p - ir.FuncAddrBase) / 16
		if p < ir.FuncAddrBase || p%16 != 0 || fi >= uint64(len(l.mod.Prog.Funcs)) || !l.mod.Prog.Funcs[fi].Entry {
			return 0, false
		}
		return int(fi), true
	}
	// store writes a handle through a pointer argument; false on a fault.
	store := func(ptr uint64, v uint64, lane int) bool {
		b, _ := wp.resolve(pc, ptxtype.SpaceGeneric, ptr, 8, lane)
		if b == nil {
			return false
		}
		storeLE(b, 8, v)
		return true
	}
	for lane := 0; lane < 32; lane++ {
		if exec>>lane&1 == 0 {
			continue
		}
		var ret uint64
		switch in.Mode {
		case ir.DevRTGetParameterBufferV2, ir.DevRTGetParameterBuffer:
			ch := childLaunch{fn: -1}
			size := 0
			if in.Mode == ir.DevRTGetParameterBufferV2 {
				fi, ok := funcIndex(arg(0, 8, lane))
				if !ok {
					break // null buffer: the launch fails
				}
				ch.fn = fi
				ch.grid, ch.block = dim3(1, lane), dim3(2, lane)
				ch.shmem = uint32(arg(3, 4, lane))
				size = l.mod.Prog.Funcs[fi].ParamBytes
			} else {
				size = int(arg(1, 8, lane))
			}
			addr, err := l.mod.Mem.AllocPrivate(uint64(max(size, 1)))
			if err != nil {
				break
			}
			ch.params, ch.paramSize = addr, size
			l.childMu.Lock()
			l.pending[addr] = ch
			l.childMu.Unlock()
			// The new allocation must be visible to this launch's lookups.
			wp.recent[wp.recentNext%len(wp.recent)] = &Alloc{Base: addr, Size: uint64(size), Data: mustBytes(l.mod.Mem, addr, uint64(size))}
			wp.recentNext++
			ret = addr
		case ir.DevRTLaunchDeviceV2, ir.DevRTLaunchDevice:
			ret = wp.devLaunch(in.Mode, lane, arg, dim3, funcIndex)
			wp.lastErr[lane] = uint32(ret)
		case ir.DevRTMemcpyAsync, ir.DevRTMemsetAsync, ir.DevRTMemcpy2DAsync, ir.DevRTMemset2DAsync:
			ret = wp.devCopyCall(in.Mode, lane, arg) // devcopy.go
		case ir.DevRTGetLastError:
			ret = uint64(wp.lastErr[lane])
			wp.lastErr[lane] = cudaSuccess
		case ir.DevRTPeekAtLastError:
			ret = uint64(wp.lastErr[lane])
		case ir.DevRTDeviceSynchronize:
			cycles, code := wp.deviceSync()
			if wp.rec != nil {
				wp.rec.Event = EventDevSync
				wp.rec.SyncCycles += cycles
			}
			ret = uint64(code)
			if code != cudaSuccess {
				wp.lastErr[lane] = code
			}
			if wp.w.fault != nil {
				return
			}
		case ir.DevRTStreamCreateWithFlags, ir.DevRTEventCreateWithFlags:
			t.mu.Lock()
			h := t.newHandle(in.Mode == ir.DevRTEventCreateWithFlags)
			t.mu.Unlock()
			if !store(arg(0, 8, lane), h, lane) {
				return
			}
		case ir.DevRTStreamDestroy, ir.DevRTEventDestroy:
			// A destroyed stream's work still runs; the handle goes.
			h := arg(0, 8, lane)
			t.mu.Lock()
			if s, ok := t.handles[h]; ok && s.event == (in.Mode == ir.DevRTEventDestroy) {
				delete(t.handles, h)
			} else if h != 0 || in.Mode == ir.DevRTEventDestroy {
				ret = cudaErrorInvalidResourceHandle
			}
			t.mu.Unlock()
		case ir.DevRTEventRecord:
			e, sh := arg(0, 8, lane), arg(1, 8, lane)
			t.mu.Lock()
			ev, ok := t.handles[e]
			s, sok := wp.w.stream(sh)
			switch {
			case !ok || !ev.event || !sok:
				ret = cudaErrorInvalidResourceHandle
			case s != nil:
				ev.last = s.last
			default:
				ev.last = nil
			}
			t.mu.Unlock()
		case ir.DevRTStreamWaitEvent:
			sh, e := arg(0, 8, lane), arg(1, 8, lane)
			t.mu.Lock()
			ev, ok := t.handles[e]
			s, sok := wp.w.stream(sh)
			switch {
			case !ok || !ev.event || !sok:
				ret = cudaErrorInvalidResourceHandle
			case s != nil && ev.last != nil:
				s.waits = append(s.waits, ev.last)
			}
			t.mu.Unlock()
		}
		if ret != cudaSuccess && in.Mode >= ir.DevRTStreamCreateWithFlags {
			wp.lastErr[lane] = uint32(ret)
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), lane, ret)
		}
	}
}

// devLaunch is cudaLaunchDevice(V2) for one lane: the launch is checked
// against the device runtime's limits and queued in the block's list.
func (wp *warp) devLaunch(mode uint8, lane int, arg func(i, size, lane int) uint64, dim3 func(i, lane int) [3]uint32, funcIndex func(uint64) (int, bool)) uint64 {
	w := wp.w
	l := w.l
	t := l.tree
	var buf, stream uint64
	fi := -1
	var grid, block [3]uint32
	var shmem uint32
	if mode == ir.DevRTLaunchDeviceV2 {
		buf, stream = arg(0, 8, lane), arg(1, 8, lane)
	} else {
		f, ok := funcIndex(arg(0, 8, lane))
		if !ok {
			return cudaErrorInvalidValue
		}
		fi, buf = f, arg(1, 8, lane)
		grid, block, shmem = dim3(2, lane), dim3(3, lane), uint32(arg(4, 4, lane))
		stream = arg(5, 8, lane)
	}
	l.childMu.Lock()
	ch, ok := l.pending[buf]
	if ok && !ch.launched && fi >= 0 {
		ch.fn, ch.grid, ch.block, ch.shmem = fi, grid, block, shmem
		ch.paramSize = l.mod.Prog.Funcs[fi].ParamBytes
	}
	switch {
	case !ok || ch.launched:
		l.childMu.Unlock()
		return cudaErrorInvalidValue
	case ch.fn < 0 || ch.grid[0]*ch.grid[1]*ch.grid[2] == 0 || ch.block[0]*ch.block[1]*ch.block[2] == 0,
		t.limits.MaxThreadsPerBlock > 0 && uint64(ch.block[0])*uint64(ch.block[1])*uint64(ch.block[2]) > uint64(t.limits.MaxThreadsPerBlock),
		t.limits.MaxSharedPerBlock > 0 && uint64(ch.shmem)+uint64(l.mod.Prog.StaticShared[ch.fn]) > uint64(t.limits.MaxSharedPerBlock):
		l.childMu.Unlock()
		return cudaErrorInvalidConfiguration
	}
	ch.launched = true
	l.pending[buf] = ch
	l.childMu.Unlock()
	n := &cdpNode{fn: ch.fn, grid: ch.grid, block: ch.block, shmem: ch.shmem, depth: l.depth + 1, warp: wp.idx, parent: l.node,
		tail: stream == streamTailLaunch}
	if b, err := l.mod.Mem.Bytes(ch.params, uint64(ch.paramSize)); err == nil {
		n.params = append([]byte(nil), b...)
	}
	lim := t.limits
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := w.stream(stream)
	switch {
	case !ok:
		return cudaErrorInvalidResourceHandle
	case lim.MaxDepth > 0 && l.depth+1 >= lim.MaxDepth:
		return cudaErrorLaunchMaxDepthExceeded
	case lim.PendingLaunches > 0 && t.pending >= lim.PendingLaunches:
		return cudaErrorLaunchPendingCountExceeded
	}
	if s != nil {
		if s.last != nil {
			n.deps = append(n.deps, s.last)
		}
		n.deps = append(n.deps, s.waits...)
		s.last, s.waits = n, nil
	}
	t.pending++
	if l.node != nil {
		l.node.open++
	}
	w.kids = append(w.kids, n)
	w.epoch++
	l.launches.Add(1)
	if wp.rec != nil {
		wp.rec.Event = EventDevLaunch
		wp.rec.Launches = append(wp.rec.Launches, &n.tag)
	}
	return cudaSuccess
}

func mustBytes(m *Memory, addr, n uint64) []byte {
	b, err := m.Bytes(addr, n)
	if err != nil {
		return nil
	}
	return b
}
