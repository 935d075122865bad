package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// memFast runs a load or store of the straight run (warp.run) in one of the
// warp-wide forms of ldst_global.go and ldst_shared.go directly, without
// exec's dispatch and load's and store's preparation: a 4- or 8-byte
// global, constant or generic access (loadGlobalWarp, storeGlobalWarp), a
// 1-, 2- or 4-byte unsigned shared one (loadShared, storeShared) and
// ld.param of a kernel parameter at a fixed offset (loadParamUniform).
// Those forms check every executing lane first and change nothing when they
// decline, so memFast reports false, having changed nothing, wherever load
// or store would take another path (a vector, a signed narrow load, a lane
// outside the cached allocation or the block's shared memory, a misaligned
// lane): exec then runs the instruction from the start and counts or faults
// exactly as before. With a checker attached (wp.chk) it declines at once:
// every access goes through checkMem.
func (wp *warp) memFast(in *ir.Inst, exec uint32) bool {
	if wp.chk != nil || in.Vec != 1 {
		return false
	}
	size := ir.TypeSize(in.Type)
	n := uint64(size)
	base := uint64(0)
	if in.SymKind != ir.SymNone {
		base = wp.symBase(in)
	}
	if in.Op == ir.OpLd {
		if ir.IsSigned(in.Type) && (size < 4 || in.Cmp == ir.LdWideDest && size < 8) {
			return false
		}
		switch in.Space {
		case ptxtype.SpaceParam:
			if in.A[0] >= 0 {
				return false
			}
			if exec == fullMask {
				// loadParamUniform's whole-warp case: one read, broadcast;
				// its flushStats counts nothing for the parameter space
				// and empties the request's lists.
				addr, p := base+uint64(in.Imm), wp.w.l.cfg.Params
				if addr&(n-1) != 0 || addr+n > uint64(len(p)) || addr+n < addr {
					return false
				}
				fill32(wp.r(in.D[0]), loadLE(p[addr:addr+n], size))
				wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
				wp.words, wp.wordsSorted = wp.words[:0], true
				return true
			}
			return wp.loadParamUniform(in, exec, base, size, n, false, 0xffffffff)
		case ptxtype.SpaceShared:
			return size <= 4 && wp.loadShared(in, exec, base, n)
		case ptxtype.SpaceLocal:
			return false
		}
		return (size == 4 || size == 8) && wp.loadGlobalWarp(in, exec, base, n)
	}
	switch in.Space {
	case ptxtype.SpaceShared:
		if size <= 4 && wp.storeShared(in, exec, base, n) {
			wp.stored = true
			return true
		}
	case ptxtype.SpaceLocal, ptxtype.SpaceParam:
	default:
		if (size == 4 || size == 8) && wp.storeGlobalWarp(in, exec, base, n) {
			wp.stored = true
			return true
		}
	}
	return false
}
