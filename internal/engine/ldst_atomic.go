// Atomics and reductions (atom, red): dispatch over spaces, the shared fast path, address counts for timing.

package engine

import (
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// atomic executes atom/red: global ones with real atomics (other blocks
// run on other goroutines), shared and local ones directly (a block runs on
// one goroutine).
func (wp *warp) atomic(pc int, in *ir.Inst, exec uint32) {
	size := ir.TypeSize(in.Type)
	n := uint64(size)
	base := wp.symBase(in)
	bv, cv := wp.r(in.A[1]), (*[32]uint64)(nil)
	if in.Mode == ir.AtomCas {
		cv = wp.r(in.A[2])
	}
	if in.Vec == 0 { // a vector atomic's later elements are the same request
		wp.w.c.AtomicRequests++
	}
	if in.Type == ptxtype.B128 {
		wp.atomic128(pc, in, exec, base)
		return
	}
	if n == 4 && wp.rec == nil && (in.Space == ptxtype.SpaceShared || in.Space == ptxtype.SpaceGeneric) && wp.atomicShared32(in, exec, base, bv, cv) {
		return
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := wp.laneAddr(in, base, l)
		if addr&(n-1) != 0 {
			wp.fault(FaultMisaligned, pc, l, addr, true, "%d-byte atomic at %#x is not %d-byte aligned", n, addr, n)
			return
		}
		b, kind := wp.resolve(pc, in.Space, addr, n, l)
		if b == nil {
			return
		}
		var c uint64
		if cv != nil {
			c = cv[l]
		}
		var old uint64
		changed := true
		if kind == accShared {
			wp.blk.sharedDirty = true
		}
		if kind == accGlobal {
			old, changed = atomicRMW(b, addr, in, bv[l], c)
		} else {
			old = loadLE(b, size)
			nv := atomOp(in, old, bv[l], c)
			storeLE(b, size, nv)
			changed = nv != old
		}
		if changed {
			wp.stored = true // progress: a failed cas is not
		}
		if in.Op == ir.OpAtom {
			wp.regs[int(in.D[0])*32+l] = old
		}
		if wp.rec != nil {
			wp.recordAtomicLane(kind, addr, n)
		}
	}
	if r := wp.rec; r != nil {
		r.Store = true
		r.Sectors = append(r.Sectors, wp.sectors...)
		wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
		r.AddrDistinct, r.AddrMaxDup = addrMultiplicity(wp, in, base, exec)
	}
}

// atomicShared32 is a 4-byte shared atomic (or a generic one on the
// shared window) whose executing lanes are all aligned and inside the
// block's shared memory (it reports false, having changed nothing,
// otherwise): the lanes in order, as the lane-by-lane loop runs them, with
// no address resolution per lane.
func (wp *warp) atomicShared32(in *ir.Inst, exec uint32, base uint64, bv, cv *[32]uint64) bool {
	var addrs [32]uint64
	wp.laneAddrs(in, base, exec, &addrs)
	sh := wp.blk.shared
	lim := min(uint64(len(sh)), 1<<clusterShift)
	if in.Space == ptxtype.SpaceGeneric {
		for l := range addrs {
			addrs[l] -= SharedWindow // outside the window: a huge offset
		}
	}
	bad := uint64(0)
	for l := range addrs {
		x := addrs[l]
		if exec>>l&1 != 0 && (x&3 != 0 || x >= lim || x+4 > lim) {
			bad |= 1
		}
	}
	if bad != 0 {
		return false
	}
	wp.blk.sharedDirty = true
	add := in.Mode == ir.AtomAdd && (in.Type == ptxtype.U32 || in.Type == ptxtype.S32 || in.Type == ptxtype.B32)
	var d *[32]uint64
	if in.Op == ir.OpAtom {
		d = wp.r(in.D[0])
	}
	for l := range addrs {
		if exec>>l&1 == 0 {
			continue
		}
		p := (*uint32)(unsafe.Pointer(&sh[addrs[l]]))
		old := uint64(*p)
		var nv uint64
		if add {
			nv = uint64(uint32(old + bv[l]))
		} else {
			var c uint64
			if cv != nil {
				c = cv[l]
			}
			nv = atomOp(in, old, bv[l], c)
		}
		*p = uint32(nv)
		if nv != old {
			wp.stored = true // progress: a failed cas is not
		}
		if d != nil {
			d[l] = old
		}
	}
	return true
}

// addrMultiplicity counts an atomic's distinct lane addresses and the most
// lanes on one address (for the timing model's serialization). A 16-bit
// atomic other than cas and exch counts 4-byte words: the SM has no such
// atomic and ptxas makes it a compare-and-swap loop on the word.
func addrMultiplicity(wp *warp, in *ir.Inst, base uint64, exec uint32) (distinct, maxDup uint32) {
	var addrs [32]uint64
	var dup [32]uint32
	mask := ^uint64(0)
	if ir.TypeSize(in.Type) == 2 && in.Mode != ir.AtomCas && in.Mode != ir.AtomExch {
		mask = ^uint64(3)
	}
	n := 0
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		a := wp.laneAddr(in, base, l) & mask
		k := 0
		for k < n && addrs[k] != a {
			k++
		}
		if k == n {
			addrs[n] = a
			n++
			if mask != ^uint64(0) {
				wp.rec.Words = append(wp.rec.Words, a>>2)
			}
		}
		dup[k]++
		maxDup = max(maxDup, dup[k])
	}
	return uint32(n), maxDup
}

// recordAtomicLane adds one lane's atomic to the step record.
func (wp *warp) recordAtomicLane(kind uint8, addr, n uint64) {
	r := wp.rec
	switch kind {
	case accGlobal:
		r.Space = SpaceGlobal
		wp.noteSectors(addr, n)
	case accShared:
		r.Space = SpaceShared
		r.Wavefronts = 1 // the shared atomic unit takes a warp's updates in one pass
	case accLocal:
		r.Space = SpaceLocal
	}
	r.Bytes += uint32(n)
}
