// Loads and stores lane by lane: address generation and resolution on every state space, and the byte moves.

package engine

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// access classes, for the counters.
const (
	accGlobal uint8 = iota
	accShared
	accLocal
	accParam
	accNone
)

// resolve maps a lane's address in space to n bytes of backing memory. It
// sets a fault and returns nil when the access is out of bounds.
func (wp *warp) resolve(pc int, space ptxtype.Space, addr uint64, n uint64, lane int) ([]byte, uint8) {
	return wp.resolveFor(pc, space, addr, n, lane, false)
}

// resolveFor is resolve; read marks a load (else the bytes may be
// written), which matters in the mapped padding around an allocation
// (Memory.Padding).
func (wp *warp) resolveFor(pc int, space ptxtype.Space, addr uint64, n uint64, lane int, read bool) ([]byte, uint8) {
	switch space {
	case ptxtype.SpaceGeneric:
		switch {
		case addr >= SharedWindow && addr < SharedWindow+WindowSize:
			return wp.resolve(pc, ptxtype.SpaceShared, addr-SharedWindow, n, lane)
		case addr >= LocalWindow && addr < LocalWindow+WindowSize:
			return wp.resolve(pc, ptxtype.SpaceLocal, addr-LocalWindow, n, lane)
		case addr >= ParamWindow && addr < ParamWindow+WindowSize:
			return wp.resolve(pc, ptxtype.SpaceParam, addr-ParamWindow, n, lane)
		}
		fallthrough
	case ptxtype.SpaceGlobal, ptxtype.SpaceConst:
		if a := wp.cache; a != nil && addr >= a.Base && addr+n <= a.Base+a.Size && addr+n >= addr {
			off := addr - a.Base
			return a.Data[off : off+n : off+n], accGlobal
		}
		for _, a := range wp.recent {
			if a != nil && addr >= a.Base && addr < a.Base+a.Size && addr+n <= a.Base+a.Size {
				wp.cache = a
				off := addr - a.Base
				return a.Data[off : off+n : off+n], accGlobal
			}
		}
		a, ok := findAlloc(wp.w.l.allocs, addr, n)
		if !ok {
			// Made after the launch began: a device-side launch's
			// parameter buffer (a warp's 32 lanes make 32 at once, more
			// than recent holds).
			a, ok = wp.w.l.mod.Mem.live(addr, n)
		}
		if ok {
			wp.recent[wp.recentNext%len(wp.recent)] = a
			wp.recentNext++
		}
		if !ok {
			// Device malloc'd memory is looked up apart and never cached,
			// so an access after a free faults.
			if b, ok := wp.w.l.mod.Mem.heap.find(addr, n); ok {
				return b, accGlobal
			}
			if b, ok := wp.w.l.mod.Mem.Padding(wp.w.l.allocs, addr, n, !read, wp.chk == nil); ok {
				return b, accGlobal
			}
			if read || wp.storing {
				if b, ok := wp.w.l.mod.Mem.Straddling(wp.w.l.allocs, addr, n, wp.straddle[:], read && wp.chk == nil); ok {
					if !read {
						// a plain store: its bytes go to memory when
						// written into b (store, Memory.WriteStraddling)
						wp.straddleAt, wp.straddleN = addr, n
					}
					return b, accGlobal
				}
			}
			msg, inHeap := wp.w.l.mod.Mem.heap.describe(addr, n, spaceWord(space))
			if !inHeap {
				msg = wp.w.l.mod.Mem.unmapped(addr, n, spaceWord(space))
			}
			wp.fault(FaultOutOfBounds, pc, lane, addr, true, "%s", msg)
			return nil, accNone
		}
		wp.cache = a
		off := addr - a.Base
		return a.Data[off : off+n : off+n], accGlobal
	case ptxtype.SpaceShared:
		sh := wp.blk.shared
		if addr >= 1<<clusterShift && addr < WindowSize {
			return wp.remoteShared(pc, addr, n, lane) // cluster.go
		}
		if addr+n > uint64(len(sh)) && addr+n <= uint64(wp.w.l.sharedMap) {
			// past the block's bytes, inside its last allocation unit
			// (Config.SharedUnit): mapped, as on the GPU
			return sh[addr : addr+n : addr+n], accShared
		}
		if addr+n > uint64(len(sh)) || addr+n < addr {
			wp.fault(FaultOutOfBounds, pc, lane, addr, true, "%d-byte shared access at offset %#x is outside the block's %d bytes of shared memory", n, addr, len(sh))
			return nil, accNone
		}
		return sh[addr : addr+n : addr+n], accShared
	case ptxtype.SpaceLocal:
		b := wp.localBytes(lane, addr, n)
		if b == nil {
			wp.fault(FaultOutOfBounds, pc, lane, addr, true, "%d-byte local access at %#x is outside the thread's local memory [%#x, %#x) (its stack, which grows down from %#x, and the bytes above it)",
				n, addr, wp.w.l.stackLow(), localWindowTop, wp.w.l.stackTop)
			return nil, accNone
		}
		return b, accLocal
	case ptxtype.SpaceParam:
		p := wp.w.l.cfg.Params
		if addr+n > uint64(len(p)) || addr+n < addr {
			wp.fault(FaultOutOfBounds, pc, lane, addr, true, "%d-byte parameter access at offset %#x is outside the %d-byte parameter buffer", n, addr, len(p))
			return nil, accNone
		}
		return p[addr : addr+n : addr+n], accParam
	}
	wp.fault(FaultIllegal, pc, lane, addr, true, "access to the %s state space is not supported", spaceWord(space))
	return nil, accNone
}

func spaceWord(s ptxtype.Space) string {
	switch s {
	case ptxtype.SpaceGlobal:
		return "global"
	case ptxtype.SpaceShared:
		return "shared"
	case ptxtype.SpaceLocal:
		return "local"
	case ptxtype.SpaceConst:
		return "const"
	case ptxtype.SpaceParam:
		return "param"
	}
	return "generic"
}

func loadLE(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// loadGlobalLE loads from global memory, which other blocks, on other
// goroutines, may be updating with atomics at the same moment (a CAS loop's
// first read, a polled flag). Whole aligned words are read with atomic
// loads, plain moves on amd64 and arm64, so such kernels are no data race
// for Go either. Global memory is backed by 8-byte-aligned words and
// accesses are naturally aligned (misaligned ones fault first).
func loadGlobalLE(b []byte, n int) uint64 {
	switch n {
	case 4:
		return uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(&b[0]))))
	case 8:
		return atomic.LoadUint64((*uint64)(unsafe.Pointer(&b[0])))
	}
	return loadLE(b, n)
}

func storeLE(b []byte, n int, v uint64) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// operandAddr is the address lane l gives an operand of a tensor-core or
// asynchronous instruction (cp.async, cp.async.bulk and TMA, mbarrier,
// ldmatrix/stmatrix, wmma load/store): register reg (none when negative)
// plus off, taken modulo 2^32 in the .shared space as laneAddr takes an
// ordinary access's, so a register below a shared variable plus an offset
// lands inside it. (wgmma's matrix descriptors hold 18-bit shared
// addresses, and mma.sync has no memory operands.)
func (wp *warp) operandAddr(space ptxtype.Space, reg int32, off int64, l int) uint64 {
	a := uint64(off)
	if reg >= 0 {
		a += wp.r(reg)[l]
	}
	if space == ptxtype.SpaceShared {
		a = uint64(uint32(a))
	}
	return a
}

// bulkSpace is the space of a bulk copy's shared end (true) or global
// end (false).
func bulkSpace(shared bool) ptxtype.Space {
	if shared {
		return ptxtype.SpaceShared
	}
	return ptxtype.SpaceGlobal
}

// laneAddr is lane l's address of a memory instruction. A .shared
// address is 32 bits wide (the shared window's offsets; a .shared::cluster
// one too, (rank+1)<<clusterShift | offset), and the register plus the
// offset wraps there, as on the GPU: nvcc writes a tile's row base
// s - 64*tid and reads [base+68] (testdata/programs8 needle, shoc_fft:
// PTX ISA "the address is computed modulo the address size").
func (wp *warp) laneAddr(in *ir.Inst, base uint64, l int) uint64 {
	a := base + uint64(in.Imm)
	if in.A[0] >= 0 {
		a += wp.regs[int(in.A[0])*32+l]
	}
	if in.Space == ptxtype.SpaceShared {
		a = uint64(uint32(a))
	}
	return a
}

func (wp *warp) load(pc int, in *ir.Inst, exec uint32) {
	size := ir.TypeSize(in.Type)
	vec := int(in.Vec)
	n := uint64(size * vec)
	base := wp.symBase(in)
	signed := ir.IsSigned(in.Type) && (size < 4 || in.Cmp == ir.LdWideDest && size < 8)
	extMask := uint64(0xffffffff)
	if in.Cmp == ir.LdWideDest {
		extMask = ^uint64(0)
	}
	var st memStats
	fast := in.Space != ptxtype.SpaceShared && in.Space != ptxtype.SpaceLocal && in.Space != ptxtype.SpaceParam && vec == 1 && !signed
	shared := in.Space == ptxtype.SpaceShared && vec == 1 && !signed && size <= 4 // one word per lane
	switch {
	case in.Space == ptxtype.SpaceParam && in.A[0] < 0:
		if wp.loadParamUniform(in, exec, base, size, n, signed, extMask) {
			return
		}
	case shared:
		if wp.loadShared(in, exec, base, n) {
			return
		}
	case fast && (size == 4 || size == 8):
		if wp.loadGlobalWarp(in, exec, base, n) {
			return
		}
	}
	lastSector := ^uint64(0)
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := wp.laneAddr(in, base, l)
		if addr&(n-1) != 0 {
			wp.fault(FaultMisaligned, pc, l, addr, true, "%d-byte load at %#x is not %d-byte aligned", n, addr, n)
			return
		}
		if sh := wp.blk.shared; shared && addr < uint64(len(sh)) && addr+n <= uint64(len(sh)) {
			wp.regs[int(in.D[0])*32+l] = loadLE(sh[addr:addr+n], size)
			st.shared++
			wp.words, wp.wordsSorted = noteDistinct(wp.words, wp.wordsSorted, &wp.wordsSeen, addr>>2)
			continue
		}
		if a := wp.cache; fast && a != nil && addr >= a.Base && addr < a.Base+a.Size && addr+n <= a.Base+a.Size {
			// Fast path: a global access inside the allocation hit last.
			off := addr - a.Base
			wp.regs[int(in.D[0])*32+l] = loadGlobalLE(a.Data[off:off+n], size)
			st.global++
			st.bytes += n
			if s := addr >> 5; s != lastSector {
				lastSector = s
				wp.noteSectors(addr, n)
			}
			continue
		}
		b, kind := wp.resolveFor(pc, in.Space, addr, n, l, true)
		if b == nil {
			return
		}
		wp.noteAccess(&st, kind, addr, n)
		for v := 0; v < vec; v++ {
			var x uint64
			if kind == accGlobal {
				x = loadGlobalLE(b[v*size:], size)
			} else {
				x = loadLE(b[v*size:], size)
			}
			if signed {
				x = sext(x, size) & extMask
			}
			wp.regs[int(in.D[v])*32+l] = x
		}
	}
	wp.flushStats(in, &st, false)
}

func (wp *warp) store(pc int, in *ir.Inst, exec uint32) {
	size := ir.TypeSize(in.Type)
	vec := int(in.Vec)
	n := uint64(size * vec)
	base := wp.symBase(in)
	var st memStats
	wp.stored = true
	fast := in.Space != ptxtype.SpaceShared && in.Space != ptxtype.SpaceLocal && in.Space != ptxtype.SpaceParam && vec == 1
	shared := in.Space == ptxtype.SpaceShared && vec == 1 && size <= 4 // one word per lane
	switch {
	case shared:
		if wp.storeShared(in, exec, base, n) {
			return
		}
	case fast && (size == 4 || size == 8):
		if wp.storeGlobalWarp(in, exec, base, n) {
			return
		}
	}
	lastSector := ^uint64(0)
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := wp.laneAddr(in, base, l)
		if addr&(n-1) != 0 {
			wp.fault(FaultMisaligned, pc, l, addr, true, "%d-byte store at %#x is not %d-byte aligned", n, addr, n)
			return
		}
		if sh := wp.blk.shared; shared && addr < uint64(len(sh)) && addr+n <= uint64(len(sh)) {
			wp.blk.sharedDirty = true
			storeLE(sh[addr:addr+n], size, wp.regs[int(in.A[1])*32+l])
			st.shared++
			wp.words, wp.wordsSorted = noteDistinct(wp.words, wp.wordsSorted, &wp.wordsSeen, addr>>2)
			continue
		}
		if a := wp.cache; fast && a != nil && addr >= a.Base && addr < a.Base+a.Size && addr+n <= a.Base+a.Size {
			off := addr - a.Base
			storeLE(a.Data[off:off+n], size, wp.regs[int(in.A[1])*32+l])
			st.global++
			st.bytes += n
			if s := addr >> 5; s != lastSector {
				lastSector = s
				wp.noteSectors(addr, n)
			}
			continue
		}
		wp.storing = true
		b, kind := wp.resolve(pc, in.Space, addr, n, l)
		wp.storing = false
		if b == nil {
			return
		}
		if kind == accParam {
			wp.fault(FaultIllegal, pc, l, addr, true, "store to the kernel parameter buffer")
			return
		}
		if kind == accShared {
			wp.blk.sharedDirty = true
		}
		wp.noteAccess(&st, kind, addr, n)
		for v := 0; v < vec; v++ {
			storeLE(b[v*size:], size, wp.regs[int(in.A[1+v])*32+l])
		}
		if wp.straddleN != 0 {
			wp.w.l.mod.Mem.WriteStraddling(wp.w.l.allocs, wp.straddleAt, b, wp.chk == nil)
			wp.straddleN = 0
		}
	}
	wp.flushStats(in, &st, true)
}
