package engine

import (
	"fmt"
	"math/bits"
	"runtime"
	"unsafe"

	"github.com/warpsim/warpsim/internal/hostmem"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

const fullMask = 0xffffffff

// entry is one reconvergence-stack entry: the lanes in mask run from pc
// until pc reaches rpc, where they join the entry below.
type entry struct {
	pc, rpc int32
	mask    uint32
	// parked marks lanes waiting at a warp-synchronous instruction for
	// member lanes on another path (syncWait).
	parked bool
	// barPark marks lanes waiting at a block barrier instruction (at pc)
	// for the warp's other lanes to reach it (barWait).
	barPark bool
}

// frame is one call level of a warp: the callee's register file and its
// per-thread frame in local memory.
type frame struct {
	fn        *ir.Func
	fi        int
	regs      []uint64
	base      uint32 // local-memory offset of the frame
	pbase     uint32 // local-memory offset of its parameter scratch (stack.go)
	sp        uint32 // the stack pointer while it runs: the lowest byte in use (stack.go)
	stackBase int    // reconvergence-stack depth at entry
	call      *ir.CallSite
	callPC    int // the pc of the call in the caller's code; -1 for the kernel's frame
}

// spinLimit is how many store-free backward branches a partial warp may
// take before the lanes waiting for it are let run ahead (forward progress
// under independent thread scheduling).
const spinLimit = 1024

// warp is one warp's architectural state.
type warp struct {
	w      *worker
	blk    *block
	idx    int
	valid  uint32 // lanes that exist (a partial last warp has fewer)
	exited uint32
	state  uint8

	stack  []entry
	frames []frame
	// frameBase is the top frame's stackBase (kept with frames).
	frameBase int
	regs      []uint64
	fn        *ir.Func
	fi        int
	code      []ir.Inst

	tid   [3][32]uint32
	local [32][]byte
	// scratch backs each lane's parameter scratch (stack.go).
	scratch [32][]byte
	// localHi is the local address just past local[l]'s bytes, and
	// localReach how far below the window's top lane l's local memory
	// reaches (stack.go).
	localHi    [32]uint32
	localReach [32]uint32
	// tidFor is the warp index and block shape tid was computed for
	// (tidOK false: not computed yet).
	tidFor [3]int
	tidOK  bool

	regPool   [][]uint64
	regPoolFn []*ir.Func
	// regPoolOff is where in each of regPool's buffers the register file
	// starts (placeRegs: 0, the buffers being placed by their warp's index).
	regPoolOff []int

	tmp   [32]uint64
	cache *Alloc
	// recent are the last allocations looked up, tried before a search.
	recent     [4]*Alloc
	recentNext int

	lastErr [32]uint32 // each thread's last device runtime error

	barID      int
	barPC      int
	barMask    uint32
	barRedDst  int32
	barRedMode uint8
	barRedMask uint32
	// A barrier instruction that part of the warp has reached under
	// independent thread scheduling (barWait): the lanes there (pend) and
	// those of them whose guard holds (pendExec), its pc, function and
	// call depth. pend is 0 when none.
	pend, pendExec uint32
	pendPC, pendFi int
	pendDepth      int

	backEdges int // consecutive backward branches without a store (forward-progress detection)
	stored    bool
	// waitFailed is set by an mbarrier test_wait / try_wait that found a
	// lane's phase incomplete (and cleared by one that did not): the
	// warp's next backward branch yields to its other paths (noteBackEdge,
	// yieldWait), as the H100's YIELD before each retry.
	waitFailed bool
	clock      uint64

	// chk is the launch's sanitizer (check.go); nil when not sanitizing.
	chk    Checker
	chkBuf *checkBuf

	// rec, when a driver asked for step records, describes the
	// instruction being executed; nil under the functional driver.
	rec *StepRecord

	sectors       []uint64
	words         []uint64
	sectorsSorted bool
	wordsSorted   bool
	// sectorsSeen and wordsSeen filter sectors and words (noteDistinct).
	sectorsSeen, wordsSeen distinctFilter
	args                   []uint64

	// straddle holds the bytes of a read or a plain store that straddles
	// the end of an allocation (Memory.Straddling), until the instruction
	// uses them; storing says a plain store is resolving its address,
	// straddleAt and straddleN (n > 0) which store's bytes straddle holds
	// for Memory.WriteStraddling.
	straddle   [64]byte
	storing    bool
	straddleAt uint64
	straddleN  uint64
	// async holds the warp's pending cp.async copies (asyncproxy.go).
	async asyncState
}

// r returns the 32 lanes of register slot s.
func (wp *warp) r(s int32) *[32]uint64 { return (*[32]uint64)(wp.regs[int(s)*32 : int(s)*32+32]) }

// ru is r without the bounds check, for the fast forms' operands (warp.fast
// and the straight run's whole-warp setp), whose slots Load checked
// against their function's register file (checkFastSlots).
func (wp *warp) ru(s int32) *[32]uint64 {
	return (*[32]uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(wp.regs)), uintptr(s)*(32*8)))
}

func (wp *warp) reset(b *block, idx, nthreads int, fn *ir.Func) {
	wp.blk = b
	wp.idx = idx
	first := idx * 32
	n := nthreads - first
	if n >= 32 {
		wp.valid = fullMask
	} else {
		wp.valid = uint32(1)<<n - 1
	}
	cfg := wp.w.l.cfg
	bx, by := int(cfg.Block[0]), int(cfg.Block[1])
	if key := [3]int{idx, bx, by}; !wp.tidOK || wp.tidFor != key {
		// Thread ids depend only on the warp's index and the block's
		// shape: computed once per launch shape, by counting, not dividing.
		x, y, z := uint32(first%bx), uint32(first/bx%by), uint32(first/(bx*by))
		for l := 0; l < 32; l++ {
			wp.tid[0][l], wp.tid[1][l], wp.tid[2][l] = x, y, z
			if x++; int(x) == bx {
				x = 0
				if y++; int(y) == by {
					y = 0
					z++
				}
			}
		}
		wp.tidFor, wp.tidOK = key, true
	}
	wp.exited = 0
	wp.async.reset()
	wp.lastErr = [32]uint32{}
	wp.state = warpRunning
	wp.stack = append(wp.stack[:0], entry{pc: 0, rpc: -1, mask: wp.valid})
	wp.frames = wp.frames[:0]
	wp.barRedDst = -1
	wp.pend = 0
	wp.backEdges = 0
	wp.waitFailed = false
	wp.setChecker(cfg.Check)
	// cache and recent stay valid for the whole launch: workers and their
	// warps live for one launch, during which no allocation is freed.
	kernelBase := uint32(wp.w.l.stackTop - wp.w.l.mod.extent[wp.w.l.cfg.Kernel])
	wp.pushFrame(fn, wp.w.l.cfg.Kernel, kernelBase, kernelBase, 0, nil, -1)
}

// zeroedRegs marks a pooled register file that is all zeros and belongs to
// no function yet (regPoolFn): pushFrame need not clear it.
var zeroedRegs = new(ir.Func)

// callArenaBytes is the most a block's warps' register files for a called
// function take in one buffer (placeRegs at a call depth): beyond it the
// calling warp gets a file of its own, since its block's other warps may
// never make the call.
const callArenaBytes = 256 << 10

// placeRegs gives the warps of ws (the block's, from its warp from on, in
// index order) that lack it room at call depth d (0: the kernel) for a
// register file of need uint64s, in one buffer for all of them. Until the
// thirteenth round every warp's file was an allocation of its own with a
// 4 KiB pad (the cuda::barrier grid of testdata/timing/parallel3: 8,448
// resident warps of 32,000 bytes in buffers of 36 KiB, 341 of its
// process's 448 MB), which the SMs' threads made and first touched at
// once, their page faults contending in the kernel (testdata/timing/parallel/JOURNAL.md);
// a block's warps now take one allocation with no pad between them.
//
// Each warp's file starts at its index times an odd number of cache lines
// (regLines) from the buffer's first, so the same slot of 64 consecutive
// warps falls on 64 distinct lines modulo 4 KiB: in distinct sets of a
// 4 KiB-periodic L1 data cache. Go's allocator gives buffers of 4 KiB and
// more 4 KiB-aligned, so files of a multiple of 4 KiB, or a warp each at
// the same place in its own buffer, would put the same slot of every warp
// in the same sets, and a block's warps taking turns (a barrier every few
// instructions) would evict each other's registers: 8 warps of
// sharedReducePTX on 8 ways, about four L1 misses per warp instruction in
// cachegrind. The buffer's first file starts where the worker's place in
// the order workers were made (seq) continues that count, so the blocks
// resident on an SM do not line their warps up either: at most 63 lines
// of pad per buffer. Only where data lies changes.
func (w *worker) placeRegs(ws []*warp, from, d, need int) {
	lo, hi := -1, -1
	for i, wp := range ws {
		for len(wp.regPool) <= d {
			wp.regPool = append(wp.regPool, nil)
			wp.regPoolFn = append(wp.regPoolFn, nil)
			wp.regPoolOff = append(wp.regPoolOff, 0)
		}
		if cap(wp.regPool[d])-wp.regPoolOff[d] < need {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return
	}
	if d == 0 {
		// A kernel's: every warp of the block anew, in the worker's
		// buffer for them (regBuf) when it has room: kept from grid to
		// grid, as the worker is (keepSlots). The pool's other warps
		// lose theirs, which may lie where these now do.
		lo, hi = 0, len(ws)-1
		for _, wp := range w.pool[len(ws):] {
			if len(wp.regPool) > 0 {
				wp.regPool[0], wp.regPoolFn[0] = nil, nil
			}
		}
	}
	lines := regLines(need)
	stride := lines * 8
	size := (hi-lo+1)*stride + 63*8 + 7
	var buf []uint64
	mark := zeroedRegs
	if d == 0 && cap(w.regBuf) >= size {
		buf, mark = w.regBuf[:size], nil // (pushFrame clears a file it takes)
	} else {
		// An eighth more room than this kernel needs, for a later one
		// with a few more slots (the stream copy's init_f32 and copy_k:
		// 26 and 27); pages never written cost no memory.
		buf = w.l.regBuffer(size, size+size/8) // zeroed
		hostmem.Populate(buf)
		if d == 0 {
			w.regBuf = buf
		}
	}
	first := (8 - int(uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%64/8)) % 8
	first += (w.seq%64*len(w.blk.warps) + from + lo) * lines % 64 * 8
	for i, wp := range ws[lo : hi+1] {
		if d == 0 || cap(wp.regPool[d])-wp.regPoolOff[d] < need {
			o := first + i*stride
			wp.regPool[d], wp.regPoolOff[d], wp.regPoolFn[d] = buf[o:o+stride:o+stride], 0, mark
		}
	}
}

// regSlab is where a launch on several threads allocates register files:
// huge pages, where the host gives them (hostmem.Slab).
var regSlab hostmem.Slab

// hugeRegsThreads is the fewest threads (workers, and the host's CPUs) a
// launch runs on for its register files to come from regSlab. Threads that
// first touch their blocks' files at once fault in 4 KiB pages contending
// in the kernel: on 8 workers of the 16-core device machine huge pages cut
// a process's faults by a quarter to two thirds and, on three grids of
// four, its system time by about a third (testdata/timing/parallel10). On
// one thread they brought nothing measured there, and on the 2-core VM
// the same first touch takes more system time in huge pages than in small
// ones (docs/testing.md).
const hugeRegsThreads = 4

// regBuffer allocates a zeroed buffer of n words, capacity c, for register
// files: from regSlab when the launch runs on hugeRegsThreads or more.
func (l *launch) regBuffer(n, c int) []uint64 {
	wk := l.cfg.Workers
	if wk <= 0 {
		wk = runtime.GOMAXPROCS(0)
	}
	if wk >= hugeRegsThreads && runtime.NumCPU() >= hugeRegsThreads {
		return regSlab.Words(n, c)
	}
	return make([]uint64, n, c)
}

// regLines is the cache lines (of 64 bytes) a register file of need
// uint64s takes in its buffer (placeRegs): rounded up to an odd number, so
// that the files of 64 consecutive warps start at 64 distinct lines
// modulo 4 KiB.
func regLines(need int) int {
	return (need+7)/8 | 1
}

// pushFrame makes fn the executing function with a fresh register file.
func (wp *warp) pushFrame(fn *ir.Func, fi int, base, sp uint32, stackBase int, call *ir.CallSite, callPC int) {
	d := len(wp.frames)
	need := fn.NumSlots * 32
	if len(wp.regPool) <= d || cap(wp.regPool[d])-wp.regPoolOff[d] < need {
		// (A kernel's files were placed when its block started:
		// setupBlock.) A call: the block's warps' files for it in one
		// buffer, unless that would be large.
		ws, from := wp.blk.warps, 0
		if len(ws)*regLines(need)*64 > callArenaBytes || wp.idx >= len(ws) || ws[wp.idx] != wp {
			ws, from = []*warp{wp}, wp.idx
		}
		wp.w.placeRegs(ws, from, d, need)
	}
	buf, off := wp.regPool[d], wp.regPoolOff[d]
	regs := buf[off : off+need : off+need]
	if wp.regPoolFn[d] != fn {
		if wp.regPoolFn[d] != zeroedRegs {
			clear(regs)
		}
		for _, c := range fn.Consts {
			r := (*[32]uint64)(regs[int(c.Slot)*32:])
			for l := range r {
				r[l] = c.Value
			}
		}
		wp.regPoolFn[d] = fn
	}
	pbase := uint32(paramScratchLo)
	if d > 0 {
		cur := &wp.frames[d-1]
		pbase = cur.pbase + uint32(cur.fn.ScratchBytes)
	}
	wp.frames = append(wp.frames, frame{fn: fn, fi: fi, regs: regs, base: base, pbase: pbase, sp: sp, stackBase: stackBase, call: call, callPC: callPC})
	wp.frameBase = stackBase
	wp.fn, wp.fi, wp.code, wp.regs = fn, fi, fn.Code, regs
	if fn.FrameBytes > 0 {
		wp.ensureLocal(base, wp.valid&^wp.exited)
	}
}

// ensureLocal backs the local memory of lanes mask from low up
// (stack.go).
func (wp *warp) ensureLocal(low uint32, mask uint32) {
	for l := 0; l < 32; l++ {
		if mask>>l&1 != 0 && (len(wp.local[l]) == 0 || uint64(wp.localHi[l])-uint64(len(wp.local[l])) > uint64(low)) {
			wp.reachLocal(l, low)
			wp.backLocal(l, low, false)
		}
	}
}

// exit removes lanes from the warp.
func (wp *warp) exit(mask uint32) {
	wp.exited |= mask
	for i := range wp.stack {
		wp.stack[i].mask &^= mask
	}
}

// settle pops finished and reconverged entries and returns from calls
// whose lanes have all returned. It reports false when the warp is done.
func (wp *warp) settle() bool {
	for {
		n := len(wp.stack)
		fr := &wp.frames[len(wp.frames)-1]
		if n == fr.stackBase {
			if len(wp.frames) == 1 {
				wp.state = warpDone
				return false
			}
			wp.returnFrame()
			continue
		}
		top := &wp.stack[n-1]
		if top.mask == 0 || top.pc == top.rpc {
			wp.stack = wp.stack[:n-1]
			continue
		}
		return true
	}
}

// returnFrame copies the callee's return values to the caller's frame for
// the lanes that return, and resumes the caller.
func (wp *warp) returnFrame() {
	callee := wp.frames[len(wp.frames)-1]
	wp.frames = wp.frames[:len(wp.frames)-1]
	caller := &wp.frames[len(wp.frames)-1]
	wp.fn, wp.fi, wp.code, wp.regs = caller.fn, caller.fi, caller.fn.Code, caller.regs
	wp.frameBase = caller.stackBase
	if len(wp.stack) == 0 {
		return
	}
	mask := wp.stack[len(wp.stack)-1].mask
	cs := callee.call
	for i, r := range cs.Rets {
		if i >= len(callee.fn.Rets) {
			break
		}
		src := uint64(callee.pbase) + uint64(callee.fn.Rets[i].Offset)
		dst := uint64(caller.pbase) + uint64(r.Offset)
		size := uint64(min(r.Size, callee.fn.Rets[i].Size))
		for l := 0; l < 32; l++ {
			if mask>>l&1 != 0 {
				copy(wp.localBytes(l, dst, size), wp.localBytes(l, src, size))
			}
		}
	}
}

// guardMask returns the lanes of mask whose guard predicate holds.
func (wp *warp) guardMask(in *ir.Inst, mask uint32) uint32 {
	m := predMask(wp.r(in.Guard))
	if in.GuardNeg {
		m = ^m
	}
	return m & mask
}

// predMask gathers a predicate register's lanes into a mask (predicates
// hold 0 or 1). Four independent accumulators keep the loop short.
func predMask(g *[32]uint64) uint32 {
	var m0, m1, m2, m3 uint64
	for l := 0; l < 32; l += 4 {
		m0 |= (g[l] & 1) << l
		m1 |= (g[l+1] & 1) << (l + 1)
		m2 |= (g[l+2] & 1) << (l + 2)
		m3 |= (g[l+3] & 1) << (l + 3)
	}
	return uint32(m0 | m1 | m2 | m3)
}

// out returns where an instruction writing slot d for lanes exec should
// compute: the register itself when every lane is active, else scratch
// that commit blends in.
func (wp *warp) out(d int32, exec uint32) *[32]uint64 {
	if exec == fullMask {
		return wp.r(d)
	}
	return &wp.tmp
}

func (wp *warp) commit(d int32, exec uint32) {
	if exec == fullMask {
		return
	}
	r := wp.r(d)
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 {
			r[l] = wp.tmp[l]
		}
	}
}

// faultAt builds a fault report for the first lane of mask at pc.
func (wp *warp) faultAt(kind FaultKind, pc int, mask uint32, addr uint64, hasAddr bool, detail string) *Fault {
	lane := 0
	if mask != 0 {
		lane = bits.TrailingZeros32(mask)
	}
	f := &Fault{Kind: kind, Func: wp.fn.Name, Block: wp.blk.idx, PC: pc, Addr: addr, HasAddr: hasAddr, Detail: detail,
		Thread: [3]uint32{wp.tid[0][lane], wp.tid[1][lane], wp.tid[2][lane]}}
	if pc >= 0 && pc < len(wp.fn.Lines) {
		f.Line = wp.fn.Lines[pc]
		f.Text = wp.fn.Text[pc]
	}
	return f
}

func (wp *warp) fault(kind FaultKind, pc int, lane int, addr uint64, hasAddr bool, format string, args ...any) {
	wp.w.fault = wp.faultAt(kind, pc, 1<<lane, addr, hasAddr, fmt.Sprintf(format, args...))
	wp.state = warpDone
}

// run executes up to budget warp instructions and returns how many it ran.
func (wp *warp) run(budget int) int {
	c := &wp.w.c
	var inst, threadInst uint64
	steps := 0
	var lt *lineTab // per-instruction counts, when a report asked for them
	if wp.w.l.cfg.Lines {
		lt = wp.w.lines()
	}
	its := wp.w.l.cfg.ITS
	for steps < budget && wp.state == warpRunning {
		if lt != nil {
			lt.flush(inst, threadInst, c)
		}
		n := len(wp.stack)
		top := &wp.stack[n-1]
		if top.pc == top.rpc || top.mask == 0 || n == wp.frameBase {
			if !wp.settle() {
				break
			}
			continue
		}
		if top.barPark {
			// Every other path of the warp waits or has finished.
			if !wp.barResume() {
				break
			}
			continue
		}
		mask := top.mask
		if wp.rec == nil && lt == nil {
			// A straight run of fast-form instructions (which never fault
			// nor touch the stack), the other instructions that leave the
			// stack alone (straight) and uniform branches, with the pc
			// kept in a register. It stops at anything else, a divergent
			// branch, a fault and at a backward branch where noteBackEdge
			// may rearrange the stack (a partial warp spinning without a
			// store under independent thread scheduling); at any other
			// backward branch it goes on.
			pc, rpc, code, k := top.pc, top.rpc, wp.code, 0
			back := false
			// ps, when not -1, is the predicate slot the previous
			// instruction (a whole-warp setp) set, and pm its lanes.
			ps, pm := int32(-1), uint32(0)
			for lim := budget - steps; pc != rpc && k < lim; {
				in := &code[pc]
				exec := mask
				if in.Guard >= 0 {
					if in.Guard == ps {
						g := pm
						if in.GuardNeg {
							g = ^g
						}
						exec = g & mask
					} else {
						exec = wp.guardMask(in, mask)
					}
				}
				if in.Fast != ir.FastNone {
					if exec != 0 {
						// This one and, for the whole warp, the
						// unguarded fast forms after it, up to a setp.
						var n int
						n, ps, pm = wp.fastRun(code, pc, rpc, lim-k, exec)
						pc += int32(n)
						k += n
						continue
					}
					ps = -1
					pc++
					k++
					continue
				}
				ps = -1
				if straight[in.Op] && in.Class != ir.ClassWarp {
					// exec may fault (the warp is then done); it reads
					// the stack as the general path leaves it.
					pc++
					k++
					if exec != 0 {
						if (in.Op == ir.OpLd || in.Op == ir.OpSt) && wp.memFast(in, exec) {
							continue
						}
						top.pc = pc
						wp.exec(int(pc-1), in, exec)
						if wp.state != warpRunning || top.mask != mask {
							// Done, or a checker stopped lanes (check.go).
							break
						}
					}
					continue
				}
				if in.Op == ir.OpBar && exec != 0 && (exec == wp.valid&^wp.exited || !its) {
					// A barrier, as the general path runs it: a warp that
					// must wait (or a checker's stop) ends the run here,
					// without going back through the general path.
					pc++
					k++
					top.pc = pc
					if wp.barrier(int(pc-1), in, exec) {
						break
					}
					continue
				}
				if in.Op != ir.OpBra || exec != 0 && exec != mask {
					break
				}
				c.Branch++
				k++
				if exec == 0 {
					pc++
					continue
				}
				pc = in.Target
				if in.Backward {
					// noteBackEdge's common cases inline: the loop goes on
					// in the straight run unless the stack may change (a
					// failed mbarrier wait's retry yields: noteBackEdge).
					if wp.waitFailed {
						back = true
						break
					}
					if wp.stored {
						wp.stored, wp.backEdges = false, 0
						continue
					}
					if wp.backEdges+1 < spinLimit || !its {
						wp.backEdges++
						continue
					}
					back = true
					break
				}
			}
			if k > 0 {
				top.pc = pc
				steps += k
				inst += uint64(k)
				threadInst += uint64(k) * uint64(bits.OnesCount32(mask))
				if back {
					wp.noteBackEdge()
				}
				continue
			}
		}
		pc := int(top.pc)
		in := &wp.code[pc]
		exec := mask
		if in.Guard >= 0 {
			exec = wp.guardMask(in, mask)
		}
		if lt != nil {
			lt.begin(int32(wp.fi), int32(pc), mask&^exec, inst, threadInst, c)
		}
		steps++
		inst++
		threadInst += uint64(bits.OnesCount32(mask))
		top.pc++
		if rec := wp.rec; rec != nil {
			rec.Func, rec.PC, rec.Inst, rec.Class, rec.Active, rec.Exec = int32(wp.fi), int32(pc), in, in.Class, mask, exec
		}
		if exec == 0 && in.Op != ir.OpBra {
			continue
		}
		if in.Fast != ir.FastNone {
			wp.fast(in, exec)
			continue
		}
		if in.Op == ir.OpBar && mask != wp.valid&^wp.exited && wp.w.l.cfg.ITS {
			if wp.barWait(pc, in, &exec) {
				inst--
				threadInst -= uint64(bits.OnesCount32(mask))
				continue
			}
		} else if in.Class == ir.ClassWarp && exec != wp.valid&^wp.exited && wp.w.l.cfg.ITS {
			if wp.syncWait(pc, in, &exec) {
				inst--
				threadInst -= uint64(bits.OnesCount32(mask))
				continue
			}
		}
		switch in.Op {
		case ir.OpBra:
			c.Branch++
			taken := exec
			if taken == 0 {
				continue
			}
			if taken == mask {
				top.pc = in.Target
				if in.Backward {
					wp.noteBackEdge()
				}
				continue
			}
			c.DivergentBranch++
			wp.diverge(pc, in, mask, taken)
		case ir.OpBrx:
			c.Branch++
			if wp.brx(pc, in, mask, exec) {
				c.DivergentBranch++
			}
		case ir.OpExit:
			wp.exit(exec)
			wp.settle()
		case ir.OpRet:
			if wp.rec != nil {
				wp.rec.Event = EventReturn
			}
			fr := &wp.frames[len(wp.frames)-1]
			for i := fr.stackBase; i < len(wp.stack); i++ {
				wp.stack[i].mask &^= exec
			}
			wp.settle()
		case ir.OpCall:
			if cs := &wp.fn.Calls[in.Imm]; cs.Indirect {
				if !wp.indirectCall(pc, in, cs, mask, exec) {
					inst--
					steps--
					threadInst -= uint64(bits.OnesCount32(mask))
				}
				continue
			}
			if exec != mask {
				// Guarded call: run it for the guarded lanes only.
				top.pc = int32(pc + 1)
				wp.stack = append(wp.stack, entry{pc: int32(pc), rpc: int32(pc + 1), mask: exec})
				inst--
				steps--
				threadInst -= uint64(bits.OnesCount32(mask))
				continue
			}
			if wp.rec != nil {
				wp.rec.Event = EventCall
			}
			wp.call(pc, in, exec)
		case ir.OpTrap:
			wp.fault(FaultTrap, pc, bits.TrailingZeros32(exec), 0, false, "trap instruction executed")
		case ir.OpBrkpt:
			wp.fault(FaultTrap, pc, bits.TrailingZeros32(exec), 0, false, "brkpt instruction executed")
		case ir.OpBar:
			if wp.barrier(pc, in, exec) {
				continue
			}
		default:
			wp.exec(pc, in, exec)
		}
	}
	if lt != nil {
		lt.flush(inst, threadInst, c)
	}
	c.InstExecuted += inst
	c.ThreadInstExecuted += threadInst
	wp.clock += uint64(steps) * 4
	return steps
}

// diverge splits the top entry at a divergent branch. The not-taken path
// runs first; both join at the branch's immediate post-dominator.
func (wp *warp) diverge(pc int, in *ir.Inst, mask, taken uint32) {
	n := len(wp.stack)
	top := &wp.stack[n-1]
	rpc := in.Reconv
	if rpc < 0 || rpc == top.rpc {
		// No reconvergence point below the enclosing one: replace the entry.
		rpc = top.rpc
		wp.stack = wp.stack[:n-1]
	} else {
		top.pc = rpc
	}
	wp.stack = append(wp.stack,
		entry{pc: in.Target, rpc: rpc, mask: taken},
		entry{pc: int32(pc + 1), rpc: rpc, mask: mask &^ taken})
}

// noteBackEdge implements forward progress under independent thread
// scheduling: a partial warp that keeps looping without writing memory
// while other lanes of the warp wait yields to them.
//
// A path that loops on a failed mbarrier wait yields at once to the warp's
// other paths (yieldWait): ptxas puts a YIELD before every retry of a wait
// (SYNCS.PHASECHK.TRANS64.TRYWAIT) and the H100 runs the other paths
// meanwhile (testdata/timing/syncmem's mbar_mb: thread 0 issues the copies
// while its warp's other lanes wait).
func (wp *warp) noteBackEdge() {
	if wp.waitFailed {
		wp.waitFailed = false
		if wp.w.l.cfg.ITS && wp.yieldWait() {
			wp.stored = false
			wp.backEdges = 0
			return
		}
	}
	if wp.stored {
		wp.stored = false
		wp.backEdges = 0
		return
	}
	wp.backEdges++
	if wp.backEdges < spinLimit || !wp.w.l.cfg.ITS {
		return
	}
	wp.backEdges = 0
	n := len(wp.stack)
	fr := &wp.frames[len(wp.frames)-1]
	if n-fr.stackBase < 2 {
		return
	}
	top := wp.stack[n-1]
	below := &wp.stack[n-2]
	if below.pc == top.rpc {
		// The lanes below wait at the join point: let them run ahead on
		// their own, and the looping lanes join only each other.
		waiting := below.mask &^ top.mask
		if waiting == 0 {
			return
		}
		below.mask = top.mask
		wp.stack = append(wp.stack, entry{pc: below.pc, rpc: below.rpc, mask: waiting})
		return
	}
	if below.rpc == top.rpc {
		// A sibling path has not run yet: run it first.
		wp.stack[n-1], wp.stack[n-2] = *below, top
	}
}

// yieldWait runs another path of the warp in place of the top one, whose
// mbarrier wait just failed, and reports whether it did. The waiting path
// also drops out of its join point: the paths it would have met there
// (siblings still on their way, lanes already waiting at the join) go on
// past it to the enclosing join, and the waiting lanes follow on their own
// once their wait succeeds. On the H100 a warp whose issuing lane waits in
// one loop and whose other lanes wait in another (mbar_mb.cu, nvcc's code)
// runs the code after the wait twice, once a path, in every round
// (testdata/timing/syncmem: the read loop's cycles doubled, the rounds'
// wait + second constant). Parked paths (syncWait) are left as they are.
func (wp *warp) yieldWait() bool {
	n := len(wp.stack)
	base := wp.frames[len(wp.frames)-1].stackBase
	if n-base < 2 {
		return false
	}
	y := wp.stack[n-1]
	// p: the nearest entry below holding lanes of the waiting path (its
	// join); the entries between are independent paths.
	p, between := -1, uint32(0)
	for i := n - 2; i >= base; i-- {
		e := &wp.stack[i]
		if e.mask&y.mask != 0 {
			p = i
			break
		}
		if e.parked {
			return false
		}
		if e.pc != e.rpc {
			between |= e.mask
		}
	}
	waiting := uint32(0)
	if p >= 0 && wp.stack[p].pc == y.rpc {
		join := &wp.stack[p]
		waiting = join.mask &^ y.mask &^ between &^ wp.exited
		if between == 0 && waiting == 0 {
			return false
		}
		for i := p + 1; i < n-1; i++ {
			if e := &wp.stack[i]; e.rpc == y.rpc && e.pc != e.rpc {
				e.rpc = join.rpc
			}
		}
		join.mask = y.mask
	} else if between == 0 {
		return false
	}
	// The waiting path goes just above its join (or to the bottom when no
	// entry holds its lanes), under the others.
	at := max(p+1, base)
	copy(wp.stack[at+1:n], wp.stack[at:n-1])
	wp.stack[at] = y
	if waiting != 0 {
		wp.stack = append(wp.stack, entry{pc: y.rpc, rpc: wp.stack[p].rpc, mask: waiting})
	}
	return true
}

// syncWait makes a warp-synchronous instruction (shfl, vote, match,
// redux, bar.warp .sync) wait, under independent thread scheduling, for
// the lanes its member mask names that noteBackEdge let run on another path:
// the GPU executes it once every named lane has arrived. Lanes parked at
// this instruction with the same join point are merged into the executing
// ones (exec grows); if named lanes are still missing and an independent
// path below holds them, the top entry parks here and that path runs
// first. It reports true when the warp parked. (Block barriers: barWait.)
func (wp *warp) syncWait(pc int, in *ir.Inst, exec *uint32) bool {
	var member uint32
	slot := in.A[1]
	switch in.Op {
	case ir.OpShfl:
		slot = in.A[3]
	case ir.OpBarWarp:
		slot = in.A[0]
	case ir.OpActivemask:
		return false
	}
	if slot < 0 {
		return false
	}
	m := wp.r(slot)
	for l := 0; l < 32; l++ {
		if *exec>>l&1 != 0 {
			member |= uint32(m[l])
		}
	}
	missing := member &^ *exec &^ wp.exited & wp.valid
	if missing == 0 {
		return false
	}
	n := len(wp.stack)
	base := wp.frames[len(wp.frames)-1].stackBase
	top := &wp.stack[n-1]
	for i := n - 2; i >= base && missing != 0; i-- {
		e := &wp.stack[i]
		if e.parked && e.pc == int32(pc) && e.rpc == top.rpc && e.mask&missing != 0 {
			top.mask |= e.mask
			e.mask, e.parked = 0, false
			*exec = top.mask
			if in.Guard >= 0 {
				*exec = wp.guardMask(in, top.mask)
			}
			missing = member &^ *exec &^ wp.exited & wp.valid
		}
	}
	if missing == 0 {
		return false
	}
	// The nearest path holding missing lanes, with every entry up to it
	// independent of the top one (no join point that holds its lanes).
	j := -1
	for i := n - 2; i >= base; i-- {
		e := &wp.stack[i]
		if e.mask&top.mask != 0 {
			break
		}
		if e.mask&missing != 0 {
			j = i
			break
		}
	}
	if j < 0 {
		return false
	}
	p := *top
	p.pc, p.parked = int32(pc), true
	copy(wp.stack[j+1:n], wp.stack[j:n-1])
	wp.stack[j] = p
	return true
}

// indirectCall calls through a function pointer. Lanes whose pointers
// differ (or whose guard is off) are split into one entry per callee that
// re-executes the call; it reports false when it only split.
func (wp *warp) indirectCall(pc int, in *ir.Inst, cs *ir.CallSite, mask, exec uint32) bool {
	ptrs := wp.r(cs.Target)
	funcs := wp.w.l.mod.Prog.Funcs
	first := bits.TrailingZeros32(exec)
	same := exec == mask
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 && ptrs[l] != ptrs[first] {
			same = false
		}
	}
	if !same {
		top := &wp.stack[len(wp.stack)-1]
		top.pc = int32(pc + 1)
		rest := exec
		for rest != 0 {
			l := bits.TrailingZeros32(rest)
			var g uint32
			for k := 0; k < 32; k++ {
				if rest>>k&1 != 0 && ptrs[k] == ptrs[l] {
					g |= 1 << k
				}
			}
			rest &^= g
			wp.stack = append(wp.stack, entry{pc: int32(pc), rpc: int32(pc + 1), mask: g})
		}
		return false
	}
	p := ptrs[first]
	fi := (p - ir.FuncAddrBase) / 16
	if p < ir.FuncAddrBase || p%16 != 0 || fi >= uint64(len(funcs)) || funcs[fi].Code == nil || funcs[fi].Entry {
		wp.fault(FaultIllegal, pc, first, p, true, "indirect call through %#x, which is not a device function's address", p)
		return true
	}
	wp.callFunc(pc, cs, int(fi), exec)
	return true
}

// call enters a device function for lanes exec.
func (wp *warp) call(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	wp.callFunc(pc, cs, int(cs.Callee), exec)
}

func (wp *warp) callFunc(pc int, cs *ir.CallSite, fi int, exec uint32) {
	l := wp.w.l
	if why := l.mod.unsupported[fi]; why != "" {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call of %s, which cannot run: %s", l.mod.Prog.Funcs[fi].Name, why)
		return
	}
	callee := l.mod.Prog.Funcs[fi]
	cur := &wp.frames[len(wp.frames)-1]
	// stack.go: a direct call of a function on no call cycle places its
	// frame in its caller's, above the caller's own; another call's frame
	// goes below the stack in use, with callOverhead bytes above it.
	var base, sp uint32
	if !cs.Indirect && l.mod.inFrame[fi] {
		base = cur.base + uint32(alignInt(cur.fn.FrameBytes, 16))
		sp = cur.sp
	} else if need := l.stackTop - int(cur.sp) + l.mod.extent[fi] + callOverhead; need > l.stackMax {
		why := "cudaLimitStackSize"
		if l.stackMax == maxLocal {
			why = "warpsim's own bound on a thread's local memory"
		}
		wp.fault(FaultStackOverflow, pc, bits.TrailingZeros32(exec), 0, false,
			"the call of %s at depth %d needs %d bytes of stack per thread; the stack is %d bytes (%s)",
			callee.Name, len(wp.frames), need, l.stackMax, why)
		return
	} else {
		// callOverhead bytes at the frame's top, above its arrays, for
		// what the call saves (stack.go)
		base = cur.sp - uint32(l.mod.extent[fi]+callOverhead)
		sp = base
	}
	wp.ensureLocal(base, exec)
	pbase := cur.pbase + uint32(cur.fn.ScratchBytes)
	for i, a := range cs.Args {
		if i >= len(callee.Params) {
			break
		}
		src := uint64(cur.pbase) + uint64(a.Offset)
		dst := uint64(pbase) + uint64(callee.Params[i].Offset)
		size := uint64(min(a.Size, callee.Params[i].Size))
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				copy(wp.localBytes(l, dst, size), wp.localBytes(l, src, size))
			}
		}
	}
	stackBase := len(wp.stack)
	wp.stack = append(wp.stack, entry{pc: 0, rpc: -1, mask: exec})
	wp.pushFrame(callee, fi, base, sp, stackBase, cs, pc)
}

// barrier handles bar/barrier; it reports true when the warp must wait.
func (wp *warp) barrier(pc int, in *ir.Inst, exec uint32) bool {
	if wp.chk != nil && !wp.checkBarrier(pc, in, exec) {
		return true
	}
	lane := bits.TrailingZeros32(exec)
	// The H100 takes the id's low four bits: bar.sync 16, 64 ran as a
	// valid barrier (testdata/sanitize/probe4/barrier_id16).
	id := int(uint32(wp.r(in.A[0])[lane]) & (maxBarriers - 1))
	b := wp.blk
	br := &b.bars[id]
	if in.A[1] >= 0 {
		cnt := int(uint32(wp.r(in.A[1])[lane]))
		if cnt%32 != 0 {
			// probe4/count_odd: cudaErrorIllegalInstruction, under
			// compute-sanitizer too (with no report).
			wp.fault(FaultIllegal, pc, lane, 0, false, "barrier %d: thread count %d is not a multiple of the warp size", id, cnt)
			return true
		}
		if br.arrived > 0 && br.count != 0 && br.count != cnt && wp.chk == nil {
			// Warps waiting at one barrier with different thread counts:
			// an illegal instruction on the H100 (probe2/named_barrier,
			// probe4/count_interleaved). Under a checker synccheck
			// reports it (internal/sanitize/synccheck.go).
			wp.fault(FaultIllegal, pc, lane, 0, false, "barrier %d: warps wait for %d threads, this one for %d", id, br.count, cnt)
			return true
		}
		br.count = cnt
		br.need = (cnt + 31) / 32
	}
	br.arrived++
	b.armed |= 1 << id
	if in.Mode >= ir.BarRedPopc {
		p := wp.r(in.A[2])
		if !br.any {
			br.and, br.any = true, true
		}
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			v := p[l] != 0
			if in.Flags&ir.FlagNegB != 0 {
				v = !v
			}
			if v {
				br.popc++
				br.or = true
			} else {
				br.and = false
			}
		}
		wp.barRedDst = in.D[0]
		wp.barRedMode = in.Mode
		wp.barRedMask = exec
	}
	if in.Mode == ir.BarArrive {
		return false
	}
	wp.state = warpAtBarrier
	wp.barID = id
	wp.barPC = pc
	wp.barMask = exec
	br.waiting = append(br.waiting, wp)
	return true
}

// brx executes brx.idx: each lane jumps to the entry of the branch table
// its index selects. Lanes choosing different targets diverge, one stack
// entry per target, all joining at the instruction's post-dominator. It
// reports whether the warp diverged.
func (wp *warp) brx(pc int, in *ir.Inst, mask, exec uint32) bool {
	table := wp.fn.BranchTables[in.Imm]
	idx := wp.r(in.A[0])
	var targets [32]int32
	var groups [32]uint32
	n := 0
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		i := uint32(idx[l])
		if int(i) >= len(table) {
			wp.fault(FaultIllegal, pc, l, 0, false, "brx.idx index %d is outside its %d-entry branch table", i, len(table))
			return false
		}
		t := table[i]
		k := 0
		for k < n && targets[k] != t {
			k++
		}
		if k == n {
			targets[n] = t
			n++
		}
		groups[k] |= 1 << l
	}
	rest := mask &^ exec // guarded-off lanes fall through
	top := &wp.stack[len(wp.stack)-1]
	if n == 1 && rest == 0 {
		top.pc = targets[0]
		return false
	}
	rpc := in.Reconv
	if rpc < 0 || rpc == top.rpc {
		rpc = top.rpc
		wp.stack = wp.stack[:len(wp.stack)-1]
	} else {
		top.pc = rpc
	}
	if rest != 0 {
		wp.stack = append(wp.stack, entry{pc: int32(pc + 1), rpc: rpc, mask: rest})
	}
	for k := n - 1; k >= 0; k-- {
		wp.stack = append(wp.stack, entry{pc: targets[k], rpc: rpc, mask: groups[k]})
	}
	return true
}

// fast runs the specialized instruction forms (ir.Fast): straight 32-lane
// loops with no decoding left, unrolled by four.
func (wp *warp) fast(in *ir.Inst, exec uint32) {
	wp.fastRun(unsafe.Slice(in, 1), 0, -1, 1, exec)
}

// fastRun runs the fast form at code[pc] for lanes exec and, when exec is
// the whole warp, the unguarded fast forms that follow it, up to n in all
// and not past rpc; it returns how many it ran. One call, one loop and one
// switch for a run of them, instead of a call each. A whole-warp setp ends
// the run: it returns the predicate slot it set and its lanes as a mask
// (ps, pm), which the straight run hands to the next guard; ps is -1 when
// the run did not end so.
func (wp *warp) fastRun(code []ir.Inst, pc, rpc int32, n int, exec uint32) (k int, ps int32, pm uint32) {
	for {
		in := &code[pc]
		a := wp.ru(in.A[0])
		o := &wp.tmp
		if exec == fullMask {
			o = wp.ru(in.D[0])
		}
		if !wp.fastForm(in, o, a) { // (fastgo.go)
			switch in.Fast {
			case ir.FastSetp32, ir.FastSetp32Imm:
				var m uint32
				if in.Fast == ir.FastSetp32 {
					m, _ = setpMask32(in.Cmp, in.Type2 == ptxtype.S32, a, wp.ru(in.A[1]), o)
				} else {
					m = setpMask32Imm(in.Cmp, in.Type2 == ptxtype.S32, a, wp.ru(in.A[1])[0], o)
				}
				k++
				if exec != fullMask {
					wp.commit(in.D[0], exec)
					return k, -1, 0
				}
				return k, in.D[0], m
			case ir.FastFmaF32:
				fmaRnF32Lanes(o, a, wp.ru(in.A[1]), wp.ru(in.A[2]))
			default:
				panic(fmt.Sprintf("engine: fast form %d has no row in kernelgen's aluOps", in.Fast))
			}
		}
		k++
		if exec != fullMask {
			wp.commit(in.D[0], exec)
			return k, -1, 0
		}
		pc++
		if k == n || pc == rpc {
			return k, -1, 0
		}
		if next := &code[pc]; next.Fast == ir.FastNone || next.Guard >= 0 {
			return k, -1, 0
		}
	}
}

// straight marks the instructions exec runs that never touch the
// reconvergence stack, the frames or the warp's state except by faulting:
// warp.run runs them inside a straight run. Anything not listed (control
// flow, barriers, calls, printf, library and device-runtime calls, and any
// instruction added later) takes the general path.
var straight = func() (t [256]bool) {
	for op := ir.OpNop; op <= ir.OpRed; op++ {
		t[op] = true
	}
	// Not the warp-synchronous ones (shfl, vote, match, redux, bar.warp,
	// activemask): under independent thread scheduling they may wait for
	// lanes on another path (syncWait), which rearranges the stack.
	for _, op := range []ir.Op{ir.OpMembar, ir.OpPrefetch, ir.OpIsspacep} {
		t[op] = true
	}
	return t
}()
