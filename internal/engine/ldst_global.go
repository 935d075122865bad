// Warp-wide global loads and stores: one check of all lanes, then the request at once.

package engine

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// The warp-wide forms below run a whole request when every executing lane
// is aligned and inside one place in memory: they first check all lanes,
// changing nothing, and report false (the lane-by-lane path then runs the
// request from the start and reports the fault) otherwise. They count
// exactly what the lane-by-lane path counts.

// laneAddrs computes the executing lanes' addresses.
func (wp *warp) laneAddrs(in *ir.Inst, base uint64, exec uint32, addrs *[32]uint64) {
	b := base + uint64(in.Imm)
	if in.A[0] < 0 {
		for l := range addrs {
			addrs[l] = b
		}
		return
	}
	r := wp.r(in.A[0])
	for l := range addrs {
		addrs[l] = b + r[l]
	}
	if in.Space == ptxtype.SpaceShared { // 32 bits wide, as laneAddr
		for l := range addrs {
			addrs[l] = uint64(uint32(addrs[l]))
		}
	}
}

// allocFor is the cached allocation holding [addr, addr+n), or nil when
// neither the last one hit nor a recent one holds it.
func (wp *warp) allocFor(addr, n uint64) *Alloc {
	if a := wp.cache; a != nil && addr >= a.Base && addr+n <= a.Base+a.Size && addr+n >= addr {
		return a
	}
	for _, a := range wp.recent {
		if a != nil && addr >= a.Base && addr < a.Base+a.Size && addr+n <= a.Base+a.Size {
			wp.cache = a
			return a
		}
	}
	return nil
}

// globalWarp checks a warp's global request of n bytes per lane: every
// executing lane aligned and inside one cached allocation, which it
// returns (nil otherwise). It also reports whether the request is a whole
// warp's on consecutive elements.
func (wp *warp) globalWarp(exec uint32, addrs *[32]uint64, n uint64) (*Alloc, bool) {
	first := addrs[bits.TrailingZeros32(exec)]
	a := wp.allocFor(first, n)
	if a == nil {
		return nil, false
	}
	lo, hi := a.Base, a.Base+a.Size-n // hi: a.Size >= n, as first fits
	if exec == fullMask {
		// Whole warp: the alignment, lowest and highest address of all.
		or, mn, mx, gap := uint64(0), addrs[0], addrs[0], uint64(0)
		for l := range addrs {
			x := addrs[l]
			or |= x
			mn, mx = min(mn, x), max(mx, x)
			gap |= x - addrs[0] - uint64(l)*n
		}
		if or&(n-1) != 0 || mn < lo || mx > hi {
			return nil, false
		}
		return a, gap == 0
	}
	bad := uint64(0)
	for l := range addrs {
		x := addrs[l]
		if exec>>l&1 != 0 && (x&(n-1) != 0 || x < lo || x > hi) {
			bad |= 1
		}
	}
	if bad != 0 {
		return nil, false
	}
	return a, false
}

// noteSectorsWarp records the sectors of a global request whose lanes
// each touch one sector (naturally aligned, at most 32 bytes), as
// noteSectors would lane by lane. Consecutive elements cover consecutive
// sectors.
func (wp *warp) noteSectorsWarp(exec uint32, addrs *[32]uint64, contiguous bool) {
	if contiguous && len(wp.sectors) == 0 {
		for s := addrs[0] >> 5; s <= addrs[31]>>5; s++ {
			wp.sectors = append(wp.sectors, s)
		}
		wp.sectorsSorted, wp.sectorsSeen.n = true, -1
		return
	}
	last := ^uint64(0)
	for l := range addrs {
		if exec>>l&1 == 0 {
			continue
		}
		if s := addrs[l] >> 5; s != last {
			last = s
			wp.sectors, wp.sectorsSorted = noteDistinct(wp.sectors, wp.sectorsSorted, &wp.sectorsSeen, s)
		}
	}
}

// flushGlobalWarp counts a warp-wide global request. Consecutive elements
// of a whole warp cover a range of sectors: with no step record to fill,
// they are counted without being listed.
func (wp *warp) flushGlobalWarp(in *ir.Inst, exec uint32, addrs *[32]uint64, n uint64, contiguous, store bool) {
	if contiguous && wp.rec == nil && len(wp.sectors) == 0 {
		wp.countGlobalRange(addrs[0], n, store)
		return
	}
	wp.noteSectorsWarp(exec, addrs, contiguous)
	k := bits.OnesCount32(exec)
	wp.flushStats(in, &memStats{global: k, bytes: uint64(k) * n}, store)
}

// laneStepsGo reports whether the 32 lanes of r step by n (consecutive: lane
// l holds r[0] + l*n, modulo 2^64) or all hold r[0] (uniform), in one pass.
//
// The last lane decides which of the two can hold: all lanes the same needs
// r[31] == r[0], consecutive needs r[31] == r[0] + 31n, and both at once
// need n == 0 (31 is odd, so 31n wraps to 0 only for n == 0); so the lanes
// between are compared against one pattern, not two, and not at all when
// the last lane fits neither.
func laneStepsGo(r *[32]uint64, n uint64) (cons, uniform bool) {
	r0 := r[0]
	switch r[31] {
	case r0:
		var s0, s1 uint64
		for l := 1; l < 31; l += 2 {
			s0 |= r[l] ^ r0
			s1 |= r[l+1] ^ r0
		}
		uniform = s0|s1 == 0
		return uniform && n == 0, uniform
	case r0 + 31*n:
		var g0, g1 uint64
		w0, w1, n2 := r0+n, r0+2*n, 2*n
		for l := 1; l < 31; l += 2 {
			g0 |= r[l] ^ w0
			g1 |= r[l+1] ^ w1
			w0 += n2
			w1 += n2
		}
		return g0|g1 == 0, false
	}
	return false, false
}

// globalRange is the common case of globalWarp: a whole warp's request on
// consecutive n-byte elements, aligned and inside one cached allocation,
// with no step record to fill and no sector listed yet. It returns the
// request's 32*n bytes, or nil otherwise (the general forms then run it).
// With uniform, a whole warp's request on one n-byte element (every lane
// the same address: a broadcast) is accepted too, and its n bytes returned
// with uniform true.
func (wp *warp) globalRange(in *ir.Inst, exec uint32, base, n uint64, uniform bool) ([]byte, uint64, bool) {
	if exec != fullMask || in.A[0] < 0 || wp.rec != nil || len(wp.sectors) != 0 {
		return nil, 0, false
	}
	r := wp.r(in.A[0])
	cons, same := laneSteps(r, n)
	if !cons && !(uniform && same) {
		return nil, 0, false
	}
	first := base + uint64(in.Imm) + r[0]
	size := 32 * n
	if !cons {
		size = n
	}
	if first&(n-1) != 0 || first+size < first {
		return nil, 0, false
	}
	a := wp.allocFor(first, size)
	if a == nil {
		return nil, 0, false
	}
	off := first - a.Base
	return a.Data[off : off+size : off+size], first, !cons
}

// countGlobalRange counts a whole warp's request on consecutive n-byte
// elements from first, as flushStats counts it lane by lane: one request,
// the sectors the range covers, 32*n bytes.
func (wp *warp) countGlobalRange(first, n uint64, store bool) {
	sectors, bytes := (first+31*n)>>5-first>>5+1, 32*n
	c := &wp.w.c
	if store {
		c.GstRequests++
		c.GstTransactions += sectors
		c.GstBytes += bytes
	} else {
		c.GldRequests++
		c.GldTransactions += sectors
		c.GldBytes += bytes
	}
}

// loadGlobalWarp is a 4- or 8-byte global (or generic) load.
func (wp *warp) loadGlobalWarp(in *ir.Inst, exec uint32, base, n uint64) bool {
	if b, first, uniform := wp.globalRange(in, exec, base, n, true); b != nil {
		d := wp.r(in.D[0])
		if uniform {
			// A broadcast: the element read once, one sector, as the
			// lane-by-lane form counts it (32 lanes of n bytes).
			var v uint64
			if n == 4 {
				v = uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(&b[0]))))
			} else {
				v = atomic.LoadUint64((*uint64)(unsafe.Pointer(&b[0])))
			}
			fill32(d, v)
			c := &wp.w.c
			c.GldRequests++
			c.GldTransactions++
			c.GldBytes += 32 * n
			return true
		}
		if n == 4 {
			loadWords32(d, (*[32]uint32)(unsafe.Pointer(&b[0])))
		} else {
			loadWords64(d, (*[32]uint64)(unsafe.Pointer(&b[0])))
		}
		wp.countGlobalRange(first, n, false)
		return true
	}
	var addrs [32]uint64
	wp.laneAddrs(in, base, exec, &addrs)
	a, contiguous := wp.globalWarp(exec, &addrs, n)
	if a == nil {
		return false
	}
	d := wp.r(in.D[0])
	data := a.Data
	if n == 4 {
		for l := range addrs {
			if exec>>l&1 != 0 {
				d[l] = uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(&data[addrs[l]-a.Base]))))
			}
		}
	} else {
		for l := range addrs {
			if exec>>l&1 != 0 {
				d[l] = atomic.LoadUint64((*uint64)(unsafe.Pointer(&data[addrs[l]-a.Base])))
			}
		}
	}
	wp.flushGlobalWarp(in, exec, &addrs, n, contiguous, false)
	return true
}

// storeGlobalWarp is a 4- or 8-byte global (or generic) store.
func (wp *warp) storeGlobalWarp(in *ir.Inst, exec uint32, base, n uint64) bool {
	if b, first, _ := wp.globalRange(in, exec, base, n, false); b != nil {
		v := wp.r(in.A[1])
		if n == 4 {
			narrow32((*[32]uint32)(unsafe.Pointer(&b[0])), v)
		} else {
			*(*[32]uint64)(unsafe.Pointer(&b[0])) = *v
		}
		wp.countGlobalRange(first, n, true)
		return true
	}
	var addrs [32]uint64
	wp.laneAddrs(in, base, exec, &addrs)
	a, contiguous := wp.globalWarp(exec, &addrs, n)
	if a == nil {
		return false
	}
	v := wp.r(in.A[1])
	data := a.Data
	if n == 4 {
		for l := range addrs {
			if exec>>l&1 != 0 {
				binary.LittleEndian.PutUint32(data[addrs[l]-a.Base:], uint32(v[l]))
			}
		}
	} else {
		for l := range addrs {
			if exec>>l&1 != 0 {
				binary.LittleEndian.PutUint64(data[addrs[l]-a.Base:], v[l])
			}
		}
	}
	wp.flushGlobalWarp(in, exec, &addrs, n, contiguous, true)
	return true
}
