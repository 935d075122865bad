package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// This file is the sanitizer's seam (internal/sanitize implements it). A
// launch whose Config.Check is nil never reaches it: each hook is one nil
// test on a warp field in the instruction's slow path, so the functional
// engine pays nothing for it.

// Checker sees, before they happen, every memory access and every
// synchronization of a launch's threads. A hook that returns false stops
// the kernel: the engine records a FaultSanitizer fault there (the checker
// has kept its own report of why). Access may instead stop only some
// lanes and let the kernel go on (CheckAccess.Stop), as compute-sanitizer's
// memcheck does: those lanes exit without making the access, every other
// thread runs on, and the launch fails when it ends. Hooks are called from the goroutine
// running the block; a launch under a checker should run its blocks on one
// worker (Config.Workers = 1) so that reports come in the same order every
// run.
type Checker interface {
	// Access checks one memory instruction's accesses, one per executing
	// lane, before any of them happens.
	Access(s *CheckSite, a *CheckAccess) bool
	// Barrier is a warp's arrival at bar.sync, bar.red, bar.arrive or
	// barrier; count is the instruction's thread count, or -1.
	Barrier(s *CheckSite, id, count int) bool
	// WarpSync is a warp-level operation with a member mask: bar.warp.sync,
	// shfl.sync, vote.sync, match.sync, redux.sync. member holds each
	// executing lane's mask (lanes of different tiles give different ones).
	WarpSync(s *CheckSite, member *[32]uint32) bool
}

// MbarChecker is optionally implemented by a Checker: it sees a warp's
// misuse of an mbarrier object before the engine acts on it (any use of an
// object no mbarrier.init made valid, an arrival of more than the phase's
// pending count). False stops the kernel (FaultSanitizer). Without a
// checker, a misuse with Fatal set faults the kernel as on the GPU.
type MbarChecker interface {
	Mbarrier(s *CheckSite, m *CheckMbar) bool
}

// HeapChecker is optionally implemented by a Checker: it sees a lane's
// device-side free() of a pointer that is not a live device-heap block
// (Double: the block was freed already; otherwise the pointer is outside
// the device heap) before the engine faults the kernel for it. False
// stops the kernel (FaultSanitizer) instead of the engine's fault.
type HeapChecker interface {
	HeapFree(s *CheckSite, lane int, addr uint64, double bool) bool
}

// AsyncChecker is optionally implemented by a Checker: it follows the
// shared-memory writes of asynchronous copies (cp.async, cp.async.bulk into
// shared memory) from their issue to what orders them for other threads,
// as compute-sanitizer's racecheck does ("invalid memcpy_async
// synchronization", "invalid async operation synchronization"). The bytes
// landing still reach Access (CheckAccess.Async set) for memcheck and
// initcheck.
type AsyncChecker interface {
	Async(s *CheckSite, a *CheckAsync)
}

// CheckAsync is one event of one lane's asynchronous copy into shared
// memory.
type CheckAsync struct {
	Event uint8 // AsyncIssue, AsyncDone, AsyncArrive or AsyncWaited
	Kind  uint8 // AsyncIssue: AsyncKindCopy (cp.async) or AsyncKindBulk (cp.async.bulk)
	Lane  int
	// Addr and Size: the destination's offset in the block's shared
	// memory and its bytes (not for AsyncWaited).
	Addr, Size uint64
	// Mbar: the mbarrier's offset in the block's shared memory (a bulk
	// copy's AsyncIssue, AsyncArrive, AsyncWaited).
	Mbar uint64
}

// Asynchronous-copy events (CheckAsync.Event).
const (
	// AsyncIssue: the copy is issued; its bytes land at an unknown time
	// (a cp.async's by its thread's wait, a bulk copy's by the completion
	// of its mbarrier's phase).
	AsyncIssue uint8 = iota + 1
	// AsyncDone: the thread's cp.async.wait_group/wait_all completed its
	// cp.async: the bytes have landed.
	AsyncDone
	// AsyncArrive: the thread's cp.async.mbarrier.arrive: its cp.async's
	// bytes are ordered by the phase of the mbarrier Mbar.
	AsyncArrive
	// AsyncWaited: the lane's mbarrier.test_wait/try_wait on Mbar found
	// the phase complete.
	AsyncWaited
)

// Kinds of asynchronous copy (CheckAsync.Kind).
const (
	AsyncKindCopy uint8 = iota + 1 // cp.async (memcpy_async)
	AsyncKindBulk                  // cp.async.bulk (an async operation on an mbarrier)
)

// CheckMbar is one mbarrier instruction's misuse, per lane.
type CheckMbar struct {
	Lanes uint32     // the lanes that misused the object
	Kind  [32]uint8  // MbarMissingInit or MbarOverflow
	Addr  [32]uint64 // the object's offset in the block's shared memory
	// Fatal: the GPU stops the kernel for one of them
	// (cudaErrorLaunchFailure; memcheck sees a hardware exception).
	Fatal bool
}

// Kinds of mbarrier misuse (CheckMbar.Kind).
const (
	MbarMissingInit uint8 = iota + 1 // the object was never initialized, or was invalidated
	MbarOverflow                     // an arrival of more than the pending count
)

// FaultSanitizer is the fault a checker raises to stop a kernel; CUDA
// reports it as cudaErrorLaunchFailure, as under compute-sanitizer.
const FaultSanitizer FaultKind = 100

// Access operations (CheckAccess.Op).
const (
	CheckLoad uint8 = iota
	CheckStore
	CheckAtomic
)

// CheckSite is where and by whom an instruction runs. The warp reuses one
// site, so a checker that keeps anything must copy it.
type CheckSite struct {
	Mem    *Memory
	Prog   *ir.Program
	Kernel *ir.Func // the launched kernel
	Func   *ir.Func // the function executing (the kernel or a callee)
	// Grid identifies the grid (parent and child grids differ); compare
	// with ==.
	Grid        any
	PC          int
	Inst        *ir.Inst
	GridDim     [3]uint32
	BlockDim    [3]uint32
	Block       [3]uint32
	BlockLinear int
	Warp        int            // warp index in the block
	Tid         *[3][32]uint32 // per lane thread index
	Exec        uint32         // lanes executing the instruction
	Live        uint32         // lanes of the warp that have not exited
	SharedBytes int            // the block's shared memory (static + dynamic)
	StackLow    uint32         // the lowest local address the thread's stack may reach
	StackTop    uint32         // the end of the kernel's frame, the stack's top
	Scratch     uint32         // where the parameter scratch begins (local addresses from it up are not the stack)
	Frames      []LocalFrame   // the warp's live call frames in local memory, the kernel's first (stack.go)
	Line        ir.LineInfo    // the instruction's PTX and source line
}

// CheckAccess is one memory instruction's accesses: per executing lane the
// space it resolved to (generic addresses resolved through the windows) and
// the address in that space (a global address; an offset into shared,
// local or parameter memory).
type CheckAccess struct {
	// Stop is set by Access (cleared before each call): the lanes it
	// found invalid, to exit there without making the access while the
	// kernel goes on (Access then returns true).
	Stop    uint32
	Op      uint8
	Size    uint32 // bytes per lane, vector elements together
	Generic bool   // the instruction addressed generically
	// Async: the bytes of an asynchronous copy landing (cp.async at its
	// wait), which a race checker follows through AsyncChecker instead.
	Async bool
	// Bounds: only where the access lies is checked (memcheck): an
	// asynchronous copy's destination at the copy's issue, before its
	// bytes land (the H100's memcheck reports a cp.async past the block's
	// shared memory at the cp.async: testdata/sanitize/probe5,
	// cp_async_smem_oob).
	Bounds bool
	// Same: for a shared-memory store, per lane, the bytes of its access
	// (bit i: byte i) that write the value already there; compute-
	// sanitizer's racecheck raises no hazard for a write that changes
	// nothing (testdata/sanitize/race_waw_same.cu, race_waw_mixed.cu,
	// race_raw_same.cu).
	Same  [32]uint16
	Space [32]uint8
	Addr  [32]uint64
}

// checkBuf is a warp's scratch for its checker, allocated only under one.
// LocalFrame is a live call frame: function Func's frame at local address
// Base, FrameBytes long (its .local arrays at the top, Func.Locals); Top
// ends what it takes of the stack, with what its call saved above it
// (stack.go). CallPC is the pc of the call that made it, in its caller's
// code (the frame before it); -1 for the kernel's.
type LocalFrame struct {
	Func      *ir.Func
	Base, Top uint32
	CallPC    int
}

type checkBuf struct {
	frames  []LocalFrame
	site    CheckSite
	access  CheckAccess
	members [32]uint32
	mbar    CheckMbar
	async   CheckAsync
	mbars   [32]uint64 // a cp.async.mbarrier.arrive's mbarrier per lane
}

// setChecker attaches the launch's checker (nil when not sanitizing).
func (wp *warp) setChecker(c Checker) {
	wp.chk = c
	if c != nil && wp.chkBuf == nil {
		wp.chkBuf = new(checkBuf)
	}
}

// site fills the warp's check site for the instruction at pc.
func (wp *warp) site(pc int, exec uint32) *CheckSite {
	s := &wp.chkBuf.site
	l := wp.w.l
	*s = CheckSite{
		Mem: l.mod.Mem, Prog: l.mod.Prog, Kernel: l.fn, Func: wp.fn, Grid: l, PC: pc, Inst: &wp.code[pc],
		GridDim: l.cfg.Grid, BlockDim: l.cfg.Block, Block: wp.blk.idx, BlockLinear: wp.blk.linear,
		Warp: wp.idx, Tid: &wp.tid, Exec: exec, Live: wp.valid &^ wp.exited,
		SharedBytes: len(wp.blk.shared), StackLow: uint32(l.stackLow()),
		StackTop: uint32(l.stackTop), Scratch: paramScratchLo,
	}
	if pc >= 0 && pc < len(wp.fn.Lines) {
		s.Line = wp.fn.Lines[pc]
	}
	wp.chkBuf.frames = wp.chkBuf.frames[:0]
	for i := range wp.frames {
		f := &wp.frames[i]
		top := f.base + uint32(f.fn.FrameBytes)
		if i > 0 && f.base != wp.frames[i-1].base+uint32(alignInt(wp.frames[i-1].fn.FrameBytes, 16)) {
			top += callOverhead // placed below its caller's (callFunc)
		}
		wp.chkBuf.frames = append(wp.chkBuf.frames, LocalFrame{Func: f.fn, Base: f.base, Top: top, CallPC: f.callPC})
	}
	s.Frames = wp.chkBuf.frames
	return s
}

// checkMem hands a load, store or atomic to the checker before the engine
// executes it; false means the instruction is not executed: the kernel
// stops, or every executing lane was stopped. Lanes the checker stops
// leave *exec.
func (wp *warp) checkMem(pc int, in *ir.Inst, exec *uint32, op uint8) bool {
	n := uint64(ir.TypeSize(in.Type))
	if op != CheckAtomic {
		n *= uint64(in.Vec)
	}
	if !wp.checkAccess(pc, in, *exec, wp.symBase(in), n, op) {
		return false
	}
	if stop := wp.chkBuf.access.Stop & *exec; stop != 0 {
		wp.stopLanes(pc, stop)
		*exec &^= stop
	}
	return *exec != 0
}

// stopLanes ends lanes a checker found invalid while the kernel goes on:
// they exit; the launch's first such error becomes its fault when it ends,
// and blocks past the faulting block's wave no longer start.
func (wp *warp) stopLanes(pc int, lanes uint32) {
	l := wp.w.l
	l.faultMu.Lock()
	if l.checked == nil {
		l.checked = wp.faultAt(FaultSanitizer, pc, lanes, 0, false, "stopped by the sanitizer")
		if wave := l.cfg.CheckWave; wave > 0 {
			l.checkCap.Store(int64((wp.blk.linear/wave + 1) * wave))
		}
	}
	l.faultMu.Unlock()
	wp.exit(lanes)
}

func (wp *warp) checkAccess(pc int, in *ir.Inst, exec uint32, base, n uint64, op uint8) bool {
	a := &wp.chkBuf.access
	a.Stop, a.Op, a.Size, a.Generic, a.Async = 0, op, uint32(n), in.Space == ptxtype.SpaceGeneric, false
	for m := exec; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		addr := wp.laneAddr(in, base, l)
		sp := SpaceGlobal
		switch in.Space {
		case ptxtype.SpaceShared:
			sp = SpaceShared
		case ptxtype.SpaceLocal:
			sp = SpaceLocal
		case ptxtype.SpaceParam:
			sp = SpaceConst
		case ptxtype.SpaceGeneric:
			switch {
			case addr >= SharedWindow && addr < SharedWindow+WindowSize:
				sp, addr = SpaceShared, addr-SharedWindow
				if addr >= 1<<clusterShift {
					// Distributed shared memory (cluster.go): the block's
					// own copy is checked as its shared memory; another
					// block's is SpaceRemoteShared, where memcheck checks
					// the bounds (every block of the grid has the same
					// shared size) and the others look no further (their
					// shadow state is per block).
					if int(addr>>clusterShift)-1 != wp.w.cb.rank {
						sp = SpaceRemoteShared
					} else {
						addr &= 1<<clusterShift - 1
					}
				}
			case addr >= LocalWindow && addr < LocalWindow+WindowSize:
				sp, addr = SpaceLocal, addr-LocalWindow
			}
		}
		a.Space[l], a.Addr[l] = sp, addr
		a.Same[l] = 0
		if op == CheckStore && sp == SpaceShared {
			a.Same[l] = wp.sameBytes(in, l, addr)
		}
	}
	if exec == 0 {
		return true
	}
	if wp.chk.Access(wp.site(pc, exec), a) {
		return true
	}
	wp.sanitizerStop(pc, exec)
	return false
}

// sameBytes is the mask of the bytes of lane l's store in, at shared
// offset addr, that write what the block's shared memory holds there.
func (wp *warp) sameBytes(in *ir.Inst, l int, addr uint64) uint16 {
	if in.Op != ir.OpSt {
		return 0
	}
	size := ir.TypeSize(in.Type)
	sh := wp.blk.shared
	if n := uint64(size * int(in.Vec)); n > 16 || addr+n > uint64(len(sh)) {
		return 0
	}
	var b [8]byte
	var same uint16
	for v := 0; v < int(in.Vec); v++ {
		storeLE(b[:size], size, wp.regs[int(in.A[1+v])*32+l])
		for i := 0; i < size; i++ {
			if b[i] == sh[addr+uint64(v*size+i)] {
				same |= 1 << (v*size + i)
			}
		}
	}
	return same
}

// checkBarrier hands a barrier arrival to the checker.
func (wp *warp) checkBarrier(pc int, in *ir.Inst, exec uint32) bool {
	lane := bits.TrailingZeros32(exec)
	id, count := int(wp.r(in.A[0])[lane]), -1
	if in.A[1] >= 0 {
		count = int(uint32(wp.r(in.A[1])[lane]))
	}
	if wp.chk.Barrier(wp.site(pc, exec), id, count) {
		return true
	}
	wp.sanitizerStop(pc, exec)
	return false
}

// checkWarpSync hands a warp-level operation's member mask (in slot) to
// the checker; an operation without a mask (the pre-sync forms) passes.
func (wp *warp) checkWarpSync(pc int, slot int32, exec uint32) bool {
	if slot < 0 {
		return true
	}
	m := &wp.chkBuf.members
	r := wp.r(slot)
	for l := range m {
		m[l] = uint32(r[l])
	}
	if wp.chk.WarpSync(wp.site(pc, exec), m) {
		return true
	}
	wp.sanitizerStop(pc, exec)
	return false
}

func (wp *warp) sanitizerStop(pc int, exec uint32) {
	wp.w.fault = wp.faultAt(FaultSanitizer, pc, exec, 0, false, "stopped by the sanitizer")
	wp.state = warpDone
}
