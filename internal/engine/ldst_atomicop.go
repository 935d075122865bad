// The atomic operations: each op's new value, the 16- and 128-bit forms, CAS loops on global memory.

package engine

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// atomOp is the new value of an atomic on old with operands b (and c for cas).
func atomOp(in *ir.Inst, old, b, c uint64) uint64 {
	t := in.Type
	size := ir.TypeSize(t)
	m := typeMask(t)
	switch in.Mode {
	case ir.AtomAdd:
		switch t {
		case ptxtype.F16:
			return uint64(scalar.AddF16(uint16(old), uint16(b), scalar.RN, false, false))
		case ptxtype.BF16:
			return uint64(scalar.AddBF16(uint16(old), uint16(b), scalar.RN, false, false))
		case ptxtype.F16x2:
			return uint64(scalar.AddF16x2(uint32(old), uint32(b), scalar.RN, false, false))
		case ptxtype.BF16x2:
			return uint64(scalar.AddBF16x2(uint32(old), uint32(b), scalar.RN, false, false))
		case ptxtype.F32:
			return uint64(math.Float32bits(math.Float32frombits(uint32(old)) + math.Float32frombits(uint32(b))))
		case ptxtype.F64:
			return math.Float64bits(math.Float64frombits(old) + math.Float64frombits(b))
		}
		return (old + b) & m
	case ir.AtomMin, ir.AtomMax:
		if r, ok := halfMinMax(t, in.Mode == ir.AtomMax, old, b); ok {
			return r
		}
		less := false
		if ir.IsSigned(t) {
			less = int64(sext(b, size)) < int64(sext(old, size))
		} else if t == ptxtype.F32 {
			less = math.Float32frombits(uint32(b)) < math.Float32frombits(uint32(old))
		} else {
			less = b&m < old&m
		}
		if (in.Mode == ir.AtomMin) == less {
			return b & m
		}
		return old
	case ir.AtomAnd:
		return old & b & m
	case ir.AtomOr:
		return (old | b) & m
	case ir.AtomXor:
		return (old ^ b) & m
	case ir.AtomExch:
		return b & m
	case ir.AtomCas:
		if old&m == b&m {
			return c & m
		}
		return old
	case ir.AtomInc:
		if old&m >= b&m {
			return 0
		}
		return (old + 1) & m
	case ir.AtomDec:
		if old&m == 0 || old&m > b&m {
			return b & m
		}
		return (old - 1) & m
	}
	return old
}

// halfMinMax is atom.min/max.noftz on f16, bf16 and their packed pairs
// (the sm_90 vector forms): min/max without NaN propagation, as the H100
// does (testdata/atomics16).
func halfMinMax(t ptxtype.Type, isMax bool, old, b uint64) (uint64, bool) {
	switch {
	case t == ptxtype.F16 && isMax:
		return uint64(scalar.MaxF16(uint16(old), uint16(b), false, false)), true
	case t == ptxtype.F16:
		return uint64(scalar.MinF16(uint16(old), uint16(b), false, false)), true
	case t == ptxtype.BF16 && isMax:
		return uint64(scalar.MaxBF16(uint16(old), uint16(b), false)), true
	case t == ptxtype.BF16:
		return uint64(scalar.MinBF16(uint16(old), uint16(b), false)), true
	case t == ptxtype.F16x2 && isMax:
		return uint64(scalar.MaxF16x2(uint32(old), uint32(b), false, false)), true
	case t == ptxtype.F16x2:
		return uint64(scalar.MinF16x2(uint32(old), uint32(b), false, false)), true
	case t == ptxtype.BF16x2 && isMax:
		return uint64(scalar.MaxBF16x2(uint32(old), uint32(b), false)), true
	case t == ptxtype.BF16x2:
		return uint64(scalar.MinBF16x2(uint32(old), uint32(b), false)), true
	}
	return 0, false
}

// atomic128Mu serializes the 128-bit global atomics of all blocks (Go has
// no 128-bit compare-and-swap); each half is still read and written with
// 64-bit atomics, so word atomics of other goroutines stay race-free.
var atomic128Mu sync.Mutex

// atomic128 executes atom.cas.b128/atom.exch.b128: D[0], D[1] get the old
// value's halves; A[1], A[2] are b's halves, A[3], A[4] c's (cas).
func (wp *warp) atomic128(pc int, in *ir.Inst, exec uint32, base uint64) {
	bl, bh := wp.r(in.A[1]), wp.r(in.A[2])
	var cl, ch *[32]uint64
	if in.Mode == ir.AtomCas {
		cl, ch = wp.r(in.A[3]), wp.r(in.A[4])
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := wp.laneAddr(in, base, l)
		if addr&15 != 0 {
			wp.fault(FaultMisaligned, pc, l, addr, true, "16-byte atomic at %#x is not 16-byte aligned", addr)
			return
		}
		b, kind := wp.resolve(pc, in.Space, addr, 16, l)
		if b == nil {
			return
		}
		nl, nh := bl[l], bh[l]
		var ol, oh uint64
		changed := false
		if kind == accGlobal && uintptr(unsafe.Pointer(&b[0]))&7 == 0 {
			pl, ph := (*uint64)(unsafe.Pointer(&b[0])), (*uint64)(unsafe.Pointer(&b[8]))
			atomic128Mu.Lock()
			ol, oh = atomic.LoadUint64(pl), atomic.LoadUint64(ph)
			if cl == nil || ol == nl && oh == nh {
				if cl != nil {
					nl, nh = cl[l], ch[l]
				}
				atomic.StoreUint64(pl, nl)
				atomic.StoreUint64(ph, nh)
				changed = ol != nl || oh != nh
			}
			atomic128Mu.Unlock()
		} else {
			if kind == accShared {
				wp.blk.sharedDirty = true
			}
			ol, oh = loadLE(b[:8], 8), loadLE(b[8:], 8)
			if cl == nil || ol == nl && oh == nh {
				if cl != nil {
					nl, nh = cl[l], ch[l]
				}
				storeLE(b[:8], 8, nl)
				storeLE(b[8:], 8, nh)
				changed = ol != nl || oh != nh
			}
		}
		if changed {
			wp.stored = true // progress: a failed cas is not
		}
		if in.Op == ir.OpAtom {
			wp.regs[int(in.D[0])*32+l] = ol
			wp.regs[int(in.D[1])*32+l] = oh
		}
		if wp.rec != nil {
			wp.recordAtomicLane(kind, addr, 16)
		}
	}
	if r := wp.rec; r != nil {
		r.Store = true
		r.Sectors = append(r.Sectors, wp.sectors...)
		wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
		r.AddrDistinct, r.AddrMaxDup = addrMultiplicity(wp, in, base, exec)
	}
}

// atomicRMW performs the atomic on global memory at addr and returns the
// old value and whether memory may have changed.
func atomicRMW(b []byte, addr uint64, in *ir.Inst, v, c uint64) (uint64, bool) {
	if len(b) == 2 {
		if old, changed, ok := atomicRMW16(b, addr, in, v, c); ok {
			return old, changed
		}
	}
	switch len(b) {
	case 4:
		p := (*uint32)(unsafe.Pointer(&b[0]))
		switch in.Mode {
		case ir.AtomAdd:
			if !ir.IsFloat(in.Type) {
				return uint64(atomic.AddUint32(p, uint32(v)) - uint32(v)), uint32(v) != 0
			}
		case ir.AtomExch:
			old := atomic.SwapUint32(p, uint32(v))
			return uint64(old), old != uint32(v)
		case ir.AtomAnd:
			return uint64(atomic.AndUint32(p, uint32(v))), true
		case ir.AtomOr:
			return uint64(atomic.OrUint32(p, uint32(v))), true
		}
		for {
			old := atomic.LoadUint32(p)
			nv := uint32(atomOp(in, uint64(old), v, c))
			if nv == old {
				return uint64(old), false
			}
			if atomic.CompareAndSwapUint32(p, old, nv) {
				return uint64(old), true
			}
		}
	case 8:
		p := (*uint64)(unsafe.Pointer(&b[0]))
		switch in.Mode {
		case ir.AtomAdd:
			if !ir.IsFloat(in.Type) {
				return atomic.AddUint64(p, v) - v, v != 0
			}
		case ir.AtomExch:
			old := atomic.SwapUint64(p, v)
			return old, old != v
		case ir.AtomAnd:
			return atomic.AndUint64(p, v), true
		case ir.AtomOr:
			return atomic.OrUint64(p, v), true
		}
		for {
			old := atomic.LoadUint64(p)
			nv := atomOp(in, old, v, c)
			if nv == old {
				return old, false
			}
			if atomic.CompareAndSwapUint64(p, old, nv) {
				return old, true
			}
		}
	}
	// Not reached for aligned memory (atomicRMW16).
	old := loadLE(b, len(b))
	nv := atomOp(in, old, v, c)
	storeLE(b, len(b), nv)
	return old, nv != old
}

// atomicRMW16 is a 16-bit global atomic (cas.b16, the f16/bf16 ones) as a
// compare-and-swap loop on the aligned 32-bit word holding it, so that
// other blocks' goroutines updating the word's other half are not lost.
// ok is false when the memory is not laid out with the device address's
// alignment (never for the engine's allocations).
func atomicRMW16(b []byte, addr uint64, in *ir.Inst, v, c uint64) (old uint64, changed, ok bool) {
	p := unsafe.Pointer(&b[0])
	if uintptr(p)&3 != uintptr(addr&3) || addr&1 != 0 {
		return 0, false, false
	}
	sh := uint(addr&2) * 8
	w := (*uint32)(unsafe.Add(p, -int(addr&2)))
	for {
		ow := atomic.LoadUint32(w)
		o := uint64(ow>>sh) & 0xffff
		nv := atomOp(in, o, v, c) & 0xffff
		if nv == o {
			return o, false, true
		}
		nw := ow&^(0xffff<<sh) | uint32(nv)<<sh
		if atomic.CompareAndSwapUint32(w, ow, nw) {
			return o, true, true
		}
	}
}
