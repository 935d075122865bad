package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// The asynchronous proxy for cp.async (OpAsync, modes Async*): a copy is
// checked when issued but its bytes move only when the group that holds it
// completes, at the thread's cp.async.wait_group / wait_all, or when the
// thread's cp.async.mbarrier.arrive fires. A kernel that reads shared memory
// without waiting sees what was there before, as it may on the GPU.

// asyncCopy is one pending cp.async of one thread.
type asyncCopy struct {
	dst, src      uint64
	dstSpace      ptxtype.Space
	group         int32
	lane          uint8
	size, srcSize uint8
}

// asyncState is a warp's pending copies, in issue order, and each thread's
// count of committed groups (the id of its open group).
type asyncState struct {
	copies    []asyncCopy
	committed [32]int32
}

func (s *asyncState) reset() {
	s.copies = s.copies[:0]
	s.committed = [32]int32{}
}

func (wp *warp) asyncInst(pc int, in *ir.Inst, exec uint32) {
	to := &wp.fn.TensorOps[in.Imm]
	st := &wp.async
	switch in.Mode {
	case ir.AsyncCopy:
		wp.recordTensorBegin()
		defer wp.recordTensorEnd()
		var lanes [32]cpAsyncLane // for the step record (recordtensor.go)
		nl := 0
		var bad uint32 // lanes memcheck found invalid
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			dst := wp.operandAddr(ptxtype.SpaceShared, to.Dst, to.DstOff, l)
			src := wp.operandAddr(ptxtype.SpaceGlobal, to.Src, to.SrcOff, l)
			n := uint64(to.Size)
			ss := n
			if to.SrcSize >= 0 {
				ss = wp.r(to.SrcSize)[l] & 0xffffffff
				if ss > n {
					ss = n
				}
			}
			if dst%n != 0 || src%n != 0 {
				a := dst
				if src%n != 0 {
					a = src
				}
				wp.fault(FaultMisaligned, pc, l, a, true, "cp.async of %d bytes at %#x is not %d-byte aligned", n, a, n)
				return
			}
			// memcheck sees the copy's source read and where its bytes
			// will land at the cp.async, before the engine's own bounds
			// checks; an invalid copy stops the kernel once every lane of
			// the instruction is checked (the H100 reported nothing after
			// it, not even an invalid read by another thread:
			// testdata/sanitize/probe5, cp_async_smem_oob, cp_async_tail)
			if ss > 0 && !wp.checkPieces(pc, CheckLoad, ptxtype.SpaceGlobal, l, src, ss) ||
				!wp.checkBounds(pc, CheckStore, to.DstSpace, l, dst, n) {
				if wp.state == warpDone {
					return
				}
				bad |= 1 << uint(l)
				continue
			}
			if b, _ := wp.resolve(pc, to.DstSpace, dst, n, l); b == nil {
				return
			}
			if ss > 0 {
				if b, _ := wp.resolveFor(pc, ptxtype.SpaceGlobal, src, ss, l, true); b == nil {
					return
				}
				wp.recordTensorPiece(accGlobal, src, ss, false, true)
			}
			if wp.chk != nil {
				wp.asyncEvent(pc, AsyncIssue, AsyncKindCopy, l, to.DstSpace, dst, n, 0)
			}
			st.copies = append(st.copies, asyncCopy{dst: dst, src: src, dstSpace: to.DstSpace, group: st.committed[l],
				lane: uint8(l), size: uint8(n), srcSize: uint8(ss)})
			if wp.rec != nil {
				line := ^uint64(0) // a zero fill reads no line
				if ss > 0 {
					line = src >> 7
				}
				lanes[nl] = cpAsyncLane{line: line, word: uint32(dst >> 2), words: uint8(n / 4)}
				nl++
			}
		}
		if bad != 0 {
			wp.sanitizerStop(pc, bad)
			return
		}
		if wp.rec != nil {
			wp.rec.Wavefronts = cpAsyncWavefronts(lanes[:nl])
		}
	case ir.AsyncCommit:
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				st.committed[l]++
			}
		}
	case ir.AsyncWaitGroup:
		var limit [32]int32
		for l := 0; l < 32; l++ {
			limit[l] = -1
			if exec>>l&1 != 0 {
				limit[l] = st.committed[l] - to.Num // groups below this id complete
			}
		}
		wp.completeCopies(pc, &limit, CheckStore, nil)
	case ir.AsyncWaitAll:
		wp.completeAll(pc, exec, CheckStore, nil)
	case ir.AsyncMbarArrive:
		// the copies' bytes are ordered by the mbarrier: they reach the
		// checker as atomic writes (written for initcheck, never a race by
		// themselves) and as AsyncArrive (racecheck orders them by the
		// barrier's phase)
		var mbars *[32]uint64
		if wp.chk != nil {
			mbars = &wp.chkBuf.mbars
			for l := 0; l < 32; l++ {
				if exec>>l&1 != 0 {
					a := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, l)
					mbars[l], _ = wp.sharedOff(to.DstSpace, a)
				}
			}
		}
		wp.completeAll(pc, exec, CheckAtomic, mbars)
		if r := wp.rec; r != nil && exec != 0 {
			l := bits.TrailingZeros32(exec)
			addr := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, l)
			r.Mbar = addr + 1
		}
		if to.Flag { // .noinc: the arrival counts against the expected count
			wp.mbarrierInst(pc, in, to, exec)
		}
	case ir.AsyncBulkSync:
	case ir.AsyncBulkG2S, ir.AsyncBulkS2G:
		wp.bulkCopy(pc, in, to, exec)
	case ir.AsyncBulkS2S, ir.AsyncBulkRed, ir.AsyncStore, ir.AsyncRed:
		wp.asyncExt(pc, in, to, exec) // asyncext.go
	case ir.AsyncTensorG2S, ir.AsyncTensorS2G, ir.AsyncTensorRed, ir.AsyncTensormapReplace, ir.AsyncTensormapCopy:
		wp.tmaInst(pc, in, to, exec) // tma.go
	default:
		wp.mbarrierInst(pc, in, to, exec)
	}
}

// bulkCopy runs cp.async.bulk for each active lane: the bytes move at once;
// a copy into shared memory then completes its size in transactions on its
// mbarrier (so the barrier's phase completes when every expected byte has
// arrived, as on the GPU).
func (wp *warp) bulkCopy(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	g2s := in.Mode == ir.AsyncBulkG2S
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		dst := wp.operandAddr(bulkSpace(g2s), to.Dst, to.DstOff, l)
		src := wp.operandAddr(bulkSpace(!g2s), to.Src, to.SrcOff, l)
		n := wp.r(to.A[0])[l] & 0xffffffff
		if n%16 != 0 && dst%16 == 0 && src%16 == 0 {
			// A size that is not a multiple of 16: the H100 runs on, no
			// sanitizer tool reports it, and the mbarrier's phase never
			// completes (testdata/sanitize/probe5, bulk_size: 100 bytes
			// expected and copied). Which bytes landed was not recorded;
			// here none do, and no transaction completes.
			continue
		}
		if n%16 != 0 || dst%16 != 0 || src%16 != 0 {
			wp.fault(FaultMisaligned, pc, l, dst, true, "cp.async.bulk of %d bytes from %#x to %#x: size and addresses must be multiples of 16", n, src, dst)
			return
		}
		srcSpace, dstSpace := ptxtype.SpaceGlobal, ptxtype.SpaceShared
		if !g2s {
			srcSpace, dstSpace = ptxtype.SpaceShared, ptxtype.SpaceGlobal
		}
		if n > 0 {
			dop := CheckStore
			if g2s {
				dop = CheckAtomic // ordered by the mbarrier (AsyncIssue below)
			}
			if !wp.checkPieces(pc, CheckLoad, srcSpace, l, src, n) || !wp.checkPieces(pc, dop, dstSpace, l, dst, n) {
				return
			}
			if g2s && wp.chk != nil {
				mb := wp.operandAddr(ptxtype.SpaceShared, to.MbarSlot, to.MbarOff, l)
				mb, _ = wp.sharedOff(ptxtype.SpaceShared, mb)
				wp.asyncEvent(pc, AsyncIssue, AsyncKindBulk, l, dstSpace, dst, n, mb)
			}
			d, _ := wp.resolve(pc, dstSpace, dst, n, l)
			if d == nil {
				return
			}
			s, _ := wp.resolve(pc, srcSpace, src, n, l)
			if s == nil {
				return
			}
			copy(d, s)
		}
		if g2s {
			addr := wp.operandAddr(ptxtype.SpaceShared, to.MbarSlot, to.MbarOff, l)
			if r := wp.rec; r != nil {
				// the timing model sees the source's sectors as one
				// global load of the warp (ir.Class: ClassLdGlobal) whose
				// arrival completes the mbarrier's transactions
				r.Space = SpaceGlobal
				for a := src &^ 31; a < src+n; a += 32 {
					r.Sectors = append(r.Sectors, a>>5)
				}
				r.Bytes += uint32(n)
				if r.Mbar == 0 {
					r.Mbar = addr + 1
				}
			}
			if addr&7 != 0 {
				wp.fault(FaultMisaligned, pc, l, addr, true, "mbarrier object at %#x is not 8-byte aligned", addr)
				return
			}
			b, _ := wp.resolve(pc, ptxtype.SpaceShared, addr, 8, l)
			if b == nil {
				return
			}
			m := loadMbar(b)
			m.tx -= int64(n)
			m.store(b)
		} else if r := wp.rec; r != nil {
			// a copy out of shared memory: one global store of the warp
			// (ir.Class: ClassStGlobal), whose source read its bulk group
			// waits for (timing: bulkGroup)
			r.Space, r.Store = SpaceGlobal, true
			for a := dst &^ 31; a < dst+n; a += 32 {
				r.Sectors = append(r.Sectors, a>>5)
			}
			r.Bytes += uint32(n)
		}
	}
}

// completeAll completes every pending copy of the lanes in exec, open group included.
func (wp *warp) completeAll(pc int, exec uint32, op uint8, mbars *[32]uint64) {
	var limit [32]int32
	for l := 0; l < 32; l++ {
		limit[l] = -1
		if exec>>l&1 != 0 {
			limit[l] = 1 << 30
		}
	}
	wp.completeCopies(pc, &limit, op, mbars)
}

// completeCopies performs, in issue order, each pending copy whose group id
// is below its lane's limit, and drops it from the queue. mbars (under a
// checker) holds each lane's mbarrier of a cp.async.mbarrier.arrive.
func (wp *warp) completeCopies(pc int, limit *[32]int32, op uint8, mbars *[32]uint64) {
	st := &wp.async
	k := 0
	for _, c := range st.copies {
		if c.group >= limit[c.lane] {
			st.copies[k] = c
			k++
			continue
		}
		l := int(c.lane)
		// the sanitizer sees the shared-memory write when it happens
		if wp.chk != nil {
			wp.chkBuf.access.Async = true
			ok := wp.checkOne(pc, op, c.dstSpace, l, c.dst, uint64(c.size))
			wp.chkBuf.access.Async = false
			if !ok {
				return
			}
			if mbars != nil {
				wp.asyncEvent(pc, AsyncArrive, AsyncKindCopy, l, c.dstSpace, c.dst, uint64(c.size), mbars[l])
			} else {
				wp.asyncEvent(pc, AsyncDone, AsyncKindCopy, l, c.dstSpace, c.dst, uint64(c.size), 0)
			}
		}
		dst, _ := wp.resolve(pc, c.dstSpace, c.dst, uint64(c.size), l)
		if dst == nil {
			return
		}
		var src []byte
		if c.srcSize > 0 {
			if src, _ = wp.resolveFor(pc, ptxtype.SpaceGlobal, c.src, uint64(c.srcSize), l, true); src == nil {
				return
			}
		}
		for i := range dst {
			if i < int(c.srcSize) {
				dst[i] = src[i]
			} else {
				dst[i] = 0
			}
		}
	}
	st.copies = st.copies[:k]
}

// checkOne hands one lane's access by a tensor-core or asynchronous
// instruction to the sanitizer (nil checker: nothing to do). space is a
// PTX space (generic addresses are resolved to shared or global); shared
// addresses are offsets in the block's shared memory.
func (wp *warp) checkOne(pc int, op uint8, space ptxtype.Space, lane int, addr, n uint64) bool {
	return wp.checkAt(pc, op, space, lane, addr, n, false)
}

// checkBounds is checkOne for where an access lies only
// (CheckAccess.Bounds): memcheck sees it, initcheck and racecheck do not.
func (wp *warp) checkBounds(pc int, op uint8, space ptxtype.Space, lane int, addr, n uint64) bool {
	return wp.checkAt(pc, op, space, lane, addr, n, true)
}

func (wp *warp) checkAt(pc int, op uint8, space ptxtype.Space, lane int, addr, n uint64, bounds bool) bool {
	if wp.chk == nil {
		return true
	}
	sp := SpaceGlobal
	switch {
	case space == ptxtype.SpaceShared:
		sp = SpaceShared
	case space == ptxtype.SpaceGeneric && addr >= SharedWindow && addr < SharedWindow+WindowSize:
		sp, addr = SpaceShared, addr-SharedWindow
	}
	if sp == SpaceShared && addr >= 1<<clusterShift {
		// another cluster block's shared memory (a multicast TMA): left to
		// the engine's bounds check, as checkAccess does; the block's own
		// copy is checked as its shared memory
		if int(addr>>clusterShift)-1 != wp.w.cb.rank {
			return true
		}
		addr &= 1<<clusterShift - 1
	}
	a := &wp.chkBuf.access
	a.Stop, a.Op, a.Size, a.Generic, a.Bounds = 0, op, uint32(n), space == ptxtype.SpaceGeneric, bounds
	a.Space[lane], a.Addr[lane] = sp, addr
	defer func() { a.Bounds = false }()
	if !wp.chk.Access(wp.site(pc, 1<<uint(lane)), a) {
		wp.sanitizerStop(pc, 1<<uint(lane))
		return false
	}
	if a.Stop>>uint(lane)&1 != 0 {
		// memcheck stops the lane (the access is not made) and the kernel
		// goes on; the launch fails when it ends, as for a load
		wp.stopLanes(pc, 1<<uint(lane))
		return false
	}
	return true
}

// checkPieces reports n bytes at addr as naturally aligned pieces of at
// most 16 bytes, the widths the sanitizer knows.
func (wp *warp) checkPieces(pc int, op uint8, space ptxtype.Space, lane int, addr, n uint64) bool {
	if wp.chk == nil {
		return true
	}
	for off := uint64(0); off < n; {
		sz := uint64(1)
		for _, s := range [...]uint64{16, 8, 4, 2} {
			if (addr+off)%s == 0 && off+s <= n {
				sz = s
				break
			}
		}
		if !wp.checkOne(pc, op, space, lane, addr+off, sz) {
			return false
		}
		off += sz
	}
	return true
}

// sharedOff returns the offset in the block's own shared memory of addr in
// space (a shared address, a generic one in the shared window, a
// shared::cluster one of this block); false for any other memory.
func (wp *warp) sharedOff(space ptxtype.Space, addr uint64) (uint64, bool) {
	switch {
	case space == ptxtype.SpaceShared:
	case space == ptxtype.SpaceGeneric && addr >= SharedWindow && addr < SharedWindow+WindowSize:
		addr -= SharedWindow
	default:
		return 0, false
	}
	if addr >= 1<<clusterShift {
		if int(addr>>clusterShift)-1 != wp.w.cb.rank {
			return 0, false
		}
		addr &= 1<<clusterShift - 1
	}
	return addr, true
}

// asyncEvent hands one lane's asynchronous-copy event to the checker when
// it follows them (AsyncChecker); a destination outside the block's own
// shared memory is not followed. mbar is already a shared offset.
func (wp *warp) asyncEvent(pc int, ev, kind uint8, lane int, space ptxtype.Space, addr, n, mbar uint64) {
	ac, ok := wp.chk.(AsyncChecker)
	if !ok {
		return
	}
	a := &wp.chkBuf.async
	*a = CheckAsync{Event: ev, Kind: kind, Lane: lane, Size: n, Mbar: mbar}
	if ev != AsyncWaited {
		if a.Addr, ok = wp.sharedOff(space, addr); !ok {
			return
		}
	}
	ac.Async(wp.site(pc, 1<<uint(lane)), a)
}
