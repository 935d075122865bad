package engine

// This file executes the memory instructions: loads, stores and atomics on
// every state space, warp-wide where it can, lane by lane where it must.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
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

// memStats accumulates one request's footprint for the counters.
type memStats struct {
	global, shared, local, param int
	bytes                        uint64
	// paramOff is the parameter-buffer offset of the first lane's
	// parameter read plus one (0: none).
	paramOff uint64
}

// noteAccess adds one lane's access of n bytes at addr to the request's
// footprint: the sectors of a global access, the words of a shared one.
func (wp *warp) noteAccess(st *memStats, kind uint8, addr, n uint64) {
	switch kind {
	case accGlobal:
		st.global++
		st.bytes += n
		wp.noteSectors(addr, n)
	case accShared:
		st.shared++
		wp.noteWords(addr, n)
	case accLocal:
		st.local++
	case accParam:
		st.param++
		if st.paramOff == 0 {
			if addr >= ParamWindow && addr < ParamWindow+WindowSize {
				addr -= ParamWindow // a generic address (cvta.param)
			}
			st.paramOff = addr + 1
		}
	}
}

// noteSectors records the 32-byte sectors of a global access.
func (wp *warp) noteSectors(addr, n uint64) {
	for s := addr >> 5; s <= (addr+n-1)>>5; s++ {
		wp.sectors, wp.sectorsSorted = noteDistinct(wp.sectors, wp.sectorsSorted, &wp.sectorsSeen, s)
	}
}

// noteWords records the 4-byte words of a shared access.
func (wp *warp) noteWords(addr, n uint64) {
	for w := addr >> 2; w <= (addr+n-1)>>2; w++ {
		wp.words, wp.wordsSorted = noteDistinct(wp.words, wp.wordsSorted, &wp.wordsSeen, w)
	}
}

// distinctFilter is a 256-bit filter of the values in a set that
// noteDistinct keeps: a value whose bit is clear is not in the set, so
// only a value whose bit is set needs the search (about one in sixteen
// among 32 distinct values). n is how many values of the set it holds;
// when that is not the set's length (the set was emptied, or appended to
// elsewhere: n = -1), it is rebuilt.
type distinctFilter struct {
	bits [4]uint64
	n    int
}

// filterBit is v's word in the filter and its bit there.
func filterBit(v uint64) (int, uint64) {
	h := v * 0x9e3779b97f4a7c15 >> 56
	return int(h >> 6), 1 << (h & 63)
}

// noteDistinct adds v to set (a list, in first-arrival order) unless
// present. While values arrive in increasing order, as coalesced accesses
// do, no search is needed; otherwise f spares most searches.
func noteDistinct(set []uint64, sorted bool, f *distinctFilter, v uint64) ([]uint64, bool) {
	k := len(set)
	w, b := filterBit(v)
	if k == 0 {
		f.bits = [4]uint64{}
		f.bits[w], f.n = b, 1
		return append(set, v), true
	}
	if f.n != k {
		f.bits = [4]uint64{}
		for _, t := range set {
			tw, tb := filterBit(t)
			f.bits[tw] |= tb
		}
	}
	f.n = k + 1
	if sorted && v > set[k-1] {
		f.bits[w] |= b
		return append(set, v), true
	}
	if f.bits[w]&b != 0 {
		for _, t := range set {
			if t == v {
				f.n = k
				return set, sorted
			}
		}
	}
	f.bits[w] |= b
	return append(set, v), false
}

// wavefronts is the number of shared-memory wavefronts of a request: the
// largest number of distinct 4-byte words any of the 32 banks must serve.
func (wp *warp) wavefronts() (wave, ideal uint64) {
	if k := len(wp.words); k > 0 && wp.wordsSorted && wp.words[k-1]-wp.words[0] == uint64(k-1) {
		// Consecutive words (distinct and increasing): each bank serves
		// k/32 of them, rounded up, as few as possible.
		ideal = uint64((k + 31) / 32)
		return ideal, ideal
	}
	var per [32]uint8
	var most uint8
	for _, w := range wp.words {
		b := w & 31
		per[b]++
		if per[b] > most {
			most = per[b]
		}
	}
	ideal = uint64((len(wp.words) + 31) / 32)
	return uint64(most), ideal
}

func (wp *warp) flushStats(in *ir.Inst, st *memStats, store bool) {
	if wp.rec != nil {
		wp.recordAccess(st, store)
	}
	c := &wp.w.c
	if st.global > 0 {
		if store {
			c.GstRequests++
			c.GstTransactions += uint64(len(wp.sectors))
			c.GstBytes += st.bytes
		} else {
			c.GldRequests++
			c.GldTransactions += uint64(len(wp.sectors))
			c.GldBytes += st.bytes
		}
	}
	if st.local > 0 {
		if store {
			c.LocalStoreRequests++
		} else {
			c.LocalLoadRequests++
		}
	}
	if st.shared > 0 {
		wave, ideal := wp.wavefronts()
		conflicts := uint64(0)
		if wave > ideal {
			conflicts = wave - ideal
		}
		if store {
			c.SharedStoreRequests++
			c.SharedStoreTransactions += wave
			c.SharedStBankConflict += conflicts
		} else {
			c.SharedLoadRequests++
			c.SharedLoadTransactions += wave
			c.SharedLdBankConflict += conflicts
		}
	}
	wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
	wp.words, wp.wordsSorted = wp.words[:0], true
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
