// Warp-wide shared loads and stores, and the uniform ld.param.

package engine

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
)

// sharedWarp checks a shared request of n bytes per lane (1, 2 or 4: one
// word each): every executing lane aligned and inside the block's shared
// memory. It records the words, except for a whole warp on one word or on
// 32 consecutive words (one wavefront, no conflict), which it reports as
// single.
func (wp *warp) sharedWarp(exec uint32, addrs *[32]uint64, n uint64) (ok, single bool) {
	lim := uint64(len(wp.blk.shared))
	if exec == fullMask {
		// Whole warp: the alignment and highest address of all.
		or, mn, mx, gap := uint64(0), addrs[0], uint64(0), uint64(0)
		for l := range addrs {
			x := addrs[l]
			or |= x
			mn, mx = min(mn, x), max(mx, x)
			gap |= x - addrs[0] - uint64(l)*4
		}
		if or&(n-1) != 0 || mx >= lim || mx+n > lim {
			return false, false
		}
		if mn == mx || gap == 0 {
			// A broadcast, or consecutive words: each bank serves one.
			return true, true
		}
	} else {
		bad := uint64(0)
		for l := range addrs {
			x := addrs[l]
			if exec>>l&1 != 0 && (x&(n-1) != 0 || x >= lim || x+n > lim) {
				bad |= 1
			}
		}
		if bad != 0 {
			return false, false
		}
	}
	for l := range addrs {
		if exec>>l&1 != 0 {
			wp.words, wp.wordsSorted = noteDistinct(wp.words, wp.wordsSorted, &wp.wordsSeen, addrs[l]>>2)
		}
	}
	return true, false
}

// flushShared counts a shared request of one wavefront and no bank
// conflict, as flushStats would for it.
func (wp *warp) flushShared(store bool) {
	if r := wp.rec; r != nil {
		r.Store, r.Space = store, SpaceShared
		r.Wavefronts++
	}
	c := &wp.w.c
	if store {
		c.SharedStoreRequests++
		c.SharedStoreTransactions++
	} else {
		c.SharedLoadRequests++
		c.SharedLoadTransactions++
	}
}

// sharedRange is the common cases of sharedWarp: a whole warp's 4-byte
// request on 32 consecutive words, or on one word for all lanes (a
// broadcast: bcast, 4 bytes), aligned and inside the block's shared memory
// (one wavefront, no conflict). It returns the request's bytes, or nil
// otherwise (sharedWarp then checks it lane by lane).
func (wp *warp) sharedRange(in *ir.Inst, exec uint32, base, n uint64) (b []byte, bcast bool) {
	if n != 4 || exec != fullMask {
		return nil, false
	}
	first, size := base+uint64(in.Imm), uint64(128)
	if in.A[0] < 0 {
		size, bcast = 4, true
	} else {
		// Consecutive words, or one word for every lane.
		r := wp.r(in.A[0])
		switch cons, same := laneSteps(r, 4); {
		case cons:
		case same:
			size, bcast = 4, true
		default:
			return nil, false
		}
		first += r[0]
	}
	sh := wp.blk.shared
	if first&3 != 0 || first >= uint64(len(sh)) || first+size > uint64(len(sh)) {
		return nil, false
	}
	return sh[first : first+size : first+size], bcast
}

// sharedPart is sharedRange for part of a warp (exec not the whole warp,
// no step record to fill): a 4-byte request whose executing lanes read
// consecutive words (lane l at at+4l) or all one word (bcast: lane l at
// at), aligned and inside the block's shared memory. Such a request is
// one wavefront without a conflict, as sharedWarp and flushStats count it
// (one word, or consecutive increasing words). ok is false otherwise.
func (wp *warp) sharedPart(in *ir.Inst, exec uint32, base, n uint64) (at uint64, bcast, ok bool) {
	if n != 4 || exec == 0 || wp.rec != nil {
		return 0, false, false
	}
	l0, lh := bits.TrailingZeros32(exec), 31-bits.LeadingZeros32(exec)
	lo := base + uint64(in.Imm)
	hi := lo
	if in.A[0] >= 0 {
		r := wp.r(in.A[0])
		r0 := r[l0]
		var gs, gc uint64
		for m := exec &^ (1 << l0); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			gs |= r[l] ^ r0
			gc |= r[l] ^ (r0 + 4*uint64(l-l0))
		}
		switch {
		case gs == 0:
			bcast = true
		case gc != 0:
			return 0, false, false
		}
		lo += r0
		hi = lo
		if !bcast {
			hi = lo + 4*uint64(lh-l0)
		}
	} else {
		bcast = true
	}
	if lo&3 != 0 || hi < lo || hi >= uint64(len(wp.blk.shared)) || hi+4 > uint64(len(wp.blk.shared)) {
		return 0, false, false
	}
	if bcast {
		return lo, true, true
	}
	return lo - 4*uint64(l0), false, true
}

// loadShared is a 1-, 2- or 4-byte unsigned shared load.
func (wp *warp) loadShared(in *ir.Inst, exec uint32, base, n uint64) bool {
	if exec != fullMask {
		if at, bcast, ok := wp.sharedPart(in, exec, base, n); ok {
			d, sh := wp.r(in.D[0]), wp.blk.shared
			step := uint64(4)
			if bcast {
				step = 0
			}
			for m := exec; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				a := at + step*uint64(l)
				d[l] = uint64(binary.LittleEndian.Uint32(sh[a : a+4]))
			}
			wp.flushShared(false)
			return true
		}
	}
	if b, bcast := wp.sharedRange(in, exec, base, n); b != nil {
		d := wp.r(in.D[0])
		if bcast {
			// One word for all lanes: one wavefront, as sharedWarp counts it.
			fill32(d, uint64(binary.LittleEndian.Uint32(b)))
		} else {
			widen32(d, (*[32]uint32)(unsafe.Pointer(&b[0])))
		}
		wp.flushShared(false)
		return true
	}
	var addrs [32]uint64
	wp.laneAddrs(in, base, exec, &addrs)
	ok, single := wp.sharedWarp(exec, &addrs, n)
	if !ok {
		return false
	}
	d := wp.r(in.D[0])
	sh := wp.blk.shared
	for l := range addrs {
		if exec>>l&1 == 0 {
			continue
		}
		if n == 4 {
			d[l] = uint64(binary.LittleEndian.Uint32(sh[addrs[l]:]))
		} else {
			d[l] = loadLE(sh[addrs[l]:], int(n))
		}
	}
	if single {
		wp.flushShared(false)
	} else {
		wp.flushStats(in, &memStats{shared: bits.OnesCount32(exec)}, false)
	}
	return true
}

// storeShared is a 1-, 2- or 4-byte shared store.
func (wp *warp) storeShared(in *ir.Inst, exec uint32, base, n uint64) bool {
	if exec != fullMask {
		if at, bcast, ok := wp.sharedPart(in, exec, base, n); ok && !bcast {
			v, sh := wp.r(in.A[1]), wp.blk.shared
			for m := exec; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				a := at + 4*uint64(l)
				binary.LittleEndian.PutUint32(sh[a:a+4], uint32(v[l]))
			}
			wp.blk.sharedDirty = true
			wp.flushShared(true)
			return true
		}
	}
	if b, bcast := wp.sharedRange(in, exec, base, n); b != nil && !bcast {
		narrow32((*[32]uint32)(unsafe.Pointer(&b[0])), wp.r(in.A[1]))
		wp.blk.sharedDirty = true
		wp.flushShared(true)
		return true
	}
	var addrs [32]uint64
	wp.laneAddrs(in, base, exec, &addrs)
	ok, single := wp.sharedWarp(exec, &addrs, n)
	if !ok {
		return false
	}
	v := wp.r(in.A[1])
	sh := wp.blk.shared
	wp.blk.sharedDirty = true
	for l := range addrs {
		if exec>>l&1 == 0 {
			continue
		}
		if n == 4 {
			binary.LittleEndian.PutUint32(sh[addrs[l]:], uint32(v[l]))
		} else {
			storeLE(sh[addrs[l]:], int(n), v[l])
		}
	}
	if single {
		wp.flushShared(true)
	} else {
		wp.flushStats(in, &memStats{shared: bits.OnesCount32(exec)}, true)
	}
	return true
}

// loadParamUniform is ld.param of a kernel parameter at a fixed offset:
// one read, broadcast to the executing lanes.
func (wp *warp) loadParamUniform(in *ir.Inst, exec uint32, base uint64, size int, n uint64, signed bool, extMask uint64) bool {
	addr := base + uint64(in.Imm)
	p := wp.w.l.cfg.Params
	if addr&(n-1) != 0 || addr+n > uint64(len(p)) || addr+n < addr {
		return false
	}
	for v := 0; v < int(in.Vec); v++ {
		x := loadLE(p[addr+uint64(v*size):], size)
		if signed {
			x = sext(x, size) & extMask
		}
		d := wp.r(in.D[v])
		if exec == fullMask {
			fill32(d, x)
			continue
		}
		for l := range d {
			if exec>>l&1 != 0 {
				d[l] = x
			}
		}
	}
	wp.flushStats(in, &memStats{param: bits.OnesCount32(exec), paramOff: addr + 1}, false)
	return true
}
