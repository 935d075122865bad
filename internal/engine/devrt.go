package engine

import "github.com/warpsim/warpsim/internal/ir"

// CUDA error codes the device runtime returns.
const (
	cudaSuccess                     = 0
	cudaErrorInvalidValue           = 1
	cudaErrorLaunchMaxDepthExceeded = 65
	cudaErrorInvalidConfiguration   = 9
)

// devRuntime implements the device runtime calls of dynamic parallelism,
// per active lane: parameter buffers are device allocations; a launch is
// queued and runs after the current grid.
func (wp *warp) devRuntime(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	l := wp.w.l
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
			var buf uint64
			var fi = -1
			var grid, block [3]uint32
			var shmem uint32
			if in.Mode == ir.DevRTLaunchDeviceV2 {
				buf = arg(0, 8, lane)
			} else {
				f, ok := funcIndex(arg(0, 8, lane))
				if !ok {
					ret = cudaErrorInvalidValue
					break
				}
				fi, buf = f, arg(1, 8, lane)
				grid, block, shmem = dim3(2, lane), dim3(3, lane), uint32(arg(4, 4, lane))
			}
			l.childMu.Lock()
			ch, ok := l.pending[buf]
			switch {
			case !ok || ch.launched:
				ret = cudaErrorInvalidValue
			case l.depth+1 >= maxLaunchDepth:
				ret = cudaErrorLaunchMaxDepthExceeded
			default:
				if fi >= 0 {
					ch.fn, ch.grid, ch.block, ch.shmem = fi, grid, block, shmem
					ch.paramSize = l.mod.Prog.Funcs[fi].ParamBytes
				}
				if ch.fn < 0 || ch.grid[0]*ch.grid[1]*ch.grid[2] == 0 || ch.block[0]*ch.block[1]*ch.block[2] == 0 {
					ret = cudaErrorInvalidConfiguration
					break
				}
				ch.launched = true
				l.pending[buf] = ch
				l.children = append(l.children, ch)
				if wp.rec != nil {
					wp.rec.Event = EventDevLaunch
				}
			}
			l.childMu.Unlock()
		case ir.DevRTGetLastError:
			ret = cudaSuccess
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), lane, ret)
		}
	}
}

func mustBytes(m *Memory, addr, n uint64) []byte {
	b, err := m.Bytes(addr, n)
	if err != nil {
		return nil
	}
	return b
}
