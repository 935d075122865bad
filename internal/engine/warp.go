// A warp's state and its interpreter loop: the reconvergence stack's entries, guards, results, faults, and run.

package engine

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
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
