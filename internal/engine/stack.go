package engine

import "github.com/warpsim/warpsim/internal/ir"

// The per-thread stack. A thread's call frames live in its local memory
// and grow down, as on the GPU: the kernel's frame (its .local variables)
// at the top of the stack, the launch's stackTop, with room above its own
// bytes for the frames of the functions it calls that never recurse
// (frameLayout), and each other callee's frame 16-byte aligned below the
// stack in use. (nvcc's kernels start with R1 = c[0x0][0x28], the stack
// top, and subtract their frame; on the H100 a kernel's array lay at
// 0xfffcb0 and each call of a recursive function put its array 0x60 lower,
// whatever cudaLimitStackSize said: testdata/sanitize/probe6/frames.) So a
// write past the end of a kernel's local array leaves the stack, where
// memcheck reports it (probe5/recursive_stack), unless a callee's frame
// lies above it (probe7/local_past), and one past a recursive callee's
// array lands in what its call saved (beyond/callee_overflow). The stack a
// thread uses is stackTop less the stack pointer (the lowest frame's
// base): a frame placed below its caller's takes callOverhead bytes more,
// at its top, above its arrays, for what the call saves: on the GPU its
// return address and the callee-saved registers the callee spills (ptxas
// reported 104 bytes of stack frame for a function whose PTX frame is 64
// bytes of locals and 8 of parameters,
// testdata/harden/h100/stack_probe.nvcc.txt; in probe6/frames 0x38 bytes
// lay above each recursive call's arrays, each call 0x60 lower); 16 bytes
// is the return address, rounded to the frame alignment, and leaves the
// spills, which only ptxas knows, out. A frame placed inside its caller's
// saves nothing (ptxas's leaf callee in probe7/local_past).
//
// A function's parameters, return values and the .param variables of the
// calls it makes take no stack: ptxas passes them in registers (in
// probe7's local_past the kernel's frame was its int k[4] and the callee's
// int a[4], 0x20 bytes, with no room for the callee's argument and return
// value). They live in the thread's parameter scratch, local addresses from
// paramScratchLo up, outside the 16 MiB window the stack is in, each call's
// above its caller's; an address of one taken with mov (which ptxas would
// spill to the stack) lands there too.
//
// The limit is cudaLimitStackSize (Config.StackBytes, 1024 bytes by
// default as on CUDA). As the CUDA runtime documents for
// cudaDeviceSetLimit, the driver raises the stack for a launch to what the
// kernel is known to need, so only what ptxas cannot size, recursion and
// calls through pointers, can overflow: a launch may use
// max(limit, the kernel's static need), where the static need follows
// every direct call once and counts a recursive call as none. A call past
// it faults with FaultStackOverflow, which a program sees as
// cudaErrorIllegalAddress, as the H100 answered
// (testdata/programs/stack_overflow.cu).
const (
	DefaultStackBytes = 1024
	callOverhead      = 16
	// localWindowTop is the end of a thread's local window (16 MiB, as
	// the H100's local addresses show); the launch's stack top lies
	// localGap bytes below it. The bytes between are mapped (on the H100
	// a write at the window's last word succeeded, one at 16 MiB was
	// cudaErrorIllegalAddress: testdata/sanitize/probe8), but memcheck
	// reports an access there.
	localWindowTop = 16 << 20
	// maxLocal caps each thread's stack whatever the limit says: the
	// simulator's own bound, reported as such.
	maxLocal = localWindowTop - maxLocalGap
	// paramScratchLo is where a thread's parameter scratch begins, and
	// paramScratchMax its most bytes (the simulator's bound).
	paramScratchLo  = 0x8000_0000
	paramScratchMax = 1 << 28
)

// The gap the driver leaves above a kernel's stack, measured on an H200
// (testdata/sanitize/probe8, where the kernel's array lay and what ptxas
// said of its frame; the same driver and SM as probe6's and probe7's
// H100, which agree): 0x240 bytes whatever the kernel's frame
// (16 bytes to 4 KiB), its calls (none, __noinline__, recursive, through
// a pointer) or the stack limit, more when the kernel reaches a system
// call, whose stack the driver reserves there: printf's vprintf 0x100
// (probe6/frames and probe8/printf: 0x340), malloc and free 0x210
// (probe8/malloc: 0x450). Under compute-sanitizer's memcheck it was 0x550
// for every kernel, with printf, malloc or neither: 0x240 and both calls'
// reserves (the tool's own code makes them). Its other tools add their
// own (LocalReserver), measured on a kernel that calls printf: racecheck
// 0x40, initcheck 0x90, synccheck 0x30. Device-side calls the probe did
// not make (__assertfail, the device runtime's) reserve nothing here.
const (
	localGapBase  = 0x240
	gapVprintf    = 0x100
	gapHeap       = 0x210
	maxLocalGap   = localGapBase + gapVprintf + gapHeap + 0x100
	memcheckGap   = localGapBase + gapVprintf + gapHeap
	heapSyscall   = 1
	printfSyscall = 2
)

// LocalReserver is optionally implemented by a Checker: the bytes its tool
// adds above the kernel's stack, and whether its code makes every system
// call (so that their reserves are all taken: memcheck).
type LocalReserver interface {
	LocalReserve() (extra int, allSyscalls bool)
}

// localGap is the gap above kernel k's stack under checker chk (nil when no
// tool runs).
func (m *Module) localGap(k int, chk Checker) int {
	sys := m.sysCalls[k]
	extra := 0
	if r, ok := chk.(LocalReserver); ok {
		var all bool
		extra, all = r.LocalReserve()
		if all {
			sys = heapSyscall | printfSyscall
		}
	}
	gap := localGapBase + extra
	if sys&printfSyscall != 0 {
		gap += gapVprintf
	}
	if sys&heapSyscall != 0 {
		gap += gapHeap
	}
	return min(gap, maxLocalGap)
}

// syscalls is the system calls kernel k reaches through its calls (a call
// through a pointer may reach any function with a body).
func (m *Module) syscalls(k int) int {
	funcs := m.Prog.Funcs
	seen := make([]bool, len(funcs))
	stack := []int{k}
	seen[k] = true
	sys := 0
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range funcs[f].Calls {
			switch c.Extern {
			case "vprintf":
				sys |= printfSyscall
			case "malloc", "free":
				sys |= heapSyscall
			}
			var next []int
			switch {
			case c.Indirect:
				for g := range funcs {
					if !funcs[g].Entry && funcs[g].Code != nil {
						next = append(next, g)
					}
				}
			case c.Callee >= 0:
				next = []int{int(c.Callee)}
			}
			for _, g := range next {
				if !seen[g] {
					seen[g] = true
					stack = append(stack, g)
				}
			}
		}
	}
	return sys
}

// stackLow is the lowest local address the launch's stack may reach.
func (l *launch) stackLow() uint64 { return uint64(l.stackTop - l.stackMax) }

// A lane's local memory is addressed as the window's top bytes,
// [localWindowTop-reach, localWindowTop), reach (wp.localReach[l]) growing
// down as the stack does: at least 256 bytes below the launch's stack top
// at first and then by doubling. Its bytes are backed only where they are
// used: wp.local[l] backs [wp.localHi[l]-len, wp.localHi[l]), from the
// lowest address used (and a little below it) up to the stack top, and up
// to the window's top once the bytes above the stack are used (they rarely
// are). A lane's buffers outlive a launch (slotpool.go), and the stack top
// moves with the kernel (localGap), so what is backed only grows. Backing
// the whole reach in every lane cost a kernel that calls a function a page
// fault for every three lanes' first call (backprop of testdata/programs8:
// 90,000 of its 210,000 faults). Bytes never used read as zeros either
// way, so only where bytes lie changes: an address inside the reach and not
// backed yet is backed when it is named.

// localBytes returns lane l's n bytes of local memory at addr, or nil when
// they are not inside [stackLow, localWindowTop) or the parameter scratch.
func (wp *warp) localBytes(l int, addr, n uint64) []byte {
	if addr >= paramScratchLo {
		return wp.scratchBytes(l, addr, n)
	}
	if addr+n > localWindowTop || addr+n < addr || addr < wp.w.l.stackLow() {
		return nil
	}
	hi := uint64(wp.localHi[l])
	lo := hi - uint64(len(wp.local[l]))
	if addr < lo || addr+n > hi || len(wp.local[l]) == 0 {
		wp.reachLocal(l, uint32(addr))
		wp.backLocal(l, uint32(addr), addr+n > uint64(wp.w.l.stackTop))
		hi = uint64(wp.localHi[l])
		lo = hi - uint64(len(wp.local[l]))
	}
	off := addr - lo
	return wp.local[l][off : off+n : off+n]
}

// scratchBytes returns lane l's n bytes of parameter scratch at local
// address addr (nil past its bound); wp.scratch[l] backs it from
// paramScratchLo up.
func (wp *warp) scratchBytes(l int, addr, n uint64) []byte {
	off := addr - paramScratchLo
	if off+n > paramScratchMax || off+n < off {
		return nil
	}
	if b := wp.scratch[l]; off+n > uint64(len(b)) {
		grow := make([]byte, max(off+n, 2*uint64(len(b)), 256))
		copy(grow, b)
		wp.scratch[l] = grow
	}
	return wp.scratch[l][off : off+n : off+n]
}

// localTail returns lane l's local bytes from addr to the window's top, or
// to the end of the parameter scratch (nil when addr is not inside the
// lane's reach, or not backed in the scratch).
func (wp *warp) localTail(l int, addr uint64) []byte {
	if addr >= paramScratchLo {
		if off := addr - paramScratchLo; off < uint64(len(wp.scratch[l])) {
			return wp.scratch[l][off:]
		}
		return nil
	}
	if addr < localWindowTop-uint64(wp.localReach[l]) || addr >= localWindowTop {
		return nil
	}
	wp.backLocal(l, uint32(addr), true)
	return wp.local[l][addr-(uint64(wp.localHi[l])-uint64(len(wp.local[l]))):]
}

// reachLocal extends lane l's reach down to low: by at least doubling it,
// and to at least 256 bytes below the launch's stack top.
func (wp *warp) reachLocal(l int, low uint32) {
	if r := wp.localReach[l]; low < localWindowTop-r {
		n := max(localWindowTop-int(low), 2*int(r), localWindowTop-wp.w.l.stackTop+256)
		wp.localReach[l] = uint32(min(n, localWindowTop))
	}
}

// backLocal backs lane l's local memory from low (inside its reach) up to
// the launch's stack top (or what was backed above it before), or up to
// the window's top when top is set; below what it backed it grows by at
// least doubling, inside the reach.
func (wp *warp) backLocal(l int, low uint32, top bool) {
	old := wp.local[l]
	st := uint32(wp.w.l.stackTop)
	hi, lo := st, st
	if len(old) > 0 {
		hi = wp.localHi[l]
		lo = hi - uint32(len(old))
	}
	newHi, newLo := max(hi, st), lo
	if top {
		newHi = localWindowTop
	}
	if low < lo {
		floor := uint32(localWindowTop) - wp.localReach[l]
		newLo = max(floor, min(low, hi-min(hi, 2*(hi-lo))))
	}
	if newHi == hi && newLo == lo && len(old) > 0 {
		return
	}
	grow := make([]byte, newHi-newLo)
	copy(grow[lo-newLo:], old)
	wp.local[l], wp.localHi[l] = grow, newHi
}

// stackLimit is the stack calls of kernel k may use under limit bytes.
func (m *Module) stackLimit(k, limit int) int {
	if limit <= 0 {
		limit = DefaultStackBytes
	}
	need := m.staticStack(k, map[int]bool{})
	return min(max(limit, need), maxLocal)
}

// staticStack is the stack function f needs through its direct calls, a
// recursive call counting as none.
func (m *Module) staticStack(f int, active map[int]bool) int {
	return m.extent[f] + m.belowStack(f, active)
}

// belowStack is the stack f's calls need below its frame: the frames of
// the calls that are not placed in it (frameLayout), and what the calls
// placed in it need below it in turn.
func (m *Module) belowStack(f int, active map[int]bool) int {
	fn := m.Prog.Funcs[f]
	active[f] = true
	deepest := 0
	for _, c := range fn.Calls {
		if c.Indirect || c.Callee < 0 || active[int(c.Callee)] {
			continue
		}
		if m.inFrame[c.Callee] {
			deepest = max(deepest, m.belowStack(int(c.Callee), active))
		} else {
			deepest = max(deepest, callOverhead+m.staticStack(int(c.Callee), active))
		}
	}
	delete(active, f)
	return deepest
}

// frameLayout places the frames as ptxas does. A function that is on no
// cycle of calls, and calls nothing through a pointer, has its frame
// inside its caller's when called directly, above the caller's own bytes,
// and moves no stack pointer: in nvcc's SASS of probe6's local_below, the
// kernel took 0x20 bytes of stack, its int k[4] at [R1] and the
// __noinline__ callee's int a[4] at [R1+0x10], the callee never touching
// R1 (testdata/sanitize/probe7, recorded/sass.txt), so the kernel's k[4]
// lands in the callee's array, inside the stack, and memcheck did not
// report it, where k[8] was (probe7/local_past). A function's extent is
// its frame plus room for the largest extent of the functions placed in
// it. A recursive function, or one whose address is taken, or that calls
// through a pointer, gets a frame of its extent below the stack in use, as probe6/frames showed (each
// call's array 0x60 lower).
func (m *Module) frameLayout() {
	n := len(m.Prog.Funcs)
	m.inFrame = make([]bool, n)
	m.extent = make([]int, n)
	m.sysCalls = make([]int, n)
	for f := range n {
		if m.Prog.Funcs[f].Entry {
			m.sysCalls[f] = m.syscalls(f)
		}
	}
	// cyclic: f reaches itself through direct calls; indirect: f
	// reaches a call through a pointer (whose callee may call f back).
	direct := func(f int, each func(g int)) {
		for _, c := range m.Prog.Funcs[f].Calls {
			if !c.Indirect && c.Callee >= 0 {
				each(int(c.Callee))
			}
		}
	}
	// addrTaken: f's address is taken (it may be called through a
	// pointer, from anywhere): ptxas gave such a function a frame of its
	// own even where it was called directly (testdata/sanitize/probe8,
	// noinline: the kernel's frame 16 bytes, the callee's 24 below it).
	addrTaken := make([]bool, n)
	for _, fn := range m.Prog.Funcs {
		for _, in := range fn.Code {
			if in.SymKind == ir.SymFunc && int(in.Sym) < n {
				addrTaken[in.Sym] = true
			}
		}
	}
	for _, v := range m.Prog.Vars {
		for _, r := range v.Relocs {
			if r.Func >= 0 && int(r.Func) < n {
				addrTaken[r.Func] = true
			}
		}
	}
	cyclic := make([]bool, n)
	indirect := make([]bool, n)
	seen := make([]bool, n)
	for f := range n {
		clear(seen)
		stack := []int{f}
		for len(stack) > 0 && !cyclic[f] {
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range m.Prog.Funcs[g].Calls {
				indirect[f] = indirect[f] || c.Indirect
			}
			direct(g, func(h int) {
				if h == f {
					cyclic[f] = true
				}
				if !seen[h] {
					seen[h] = true
					stack = append(stack, h)
				}
			})
		}
		m.inFrame[f] = !cyclic[f] && !indirect[f] && !addrTaken[f]
	}
	done := make([]bool, n)
	var extent func(f int) int
	extent = func(f int) int {
		if done[f] {
			return m.extent[f]
		}
		done[f] = true // a cycle's members take no extent from each other
		inner := 0
		for _, c := range m.Prog.Funcs[f].Calls {
			if !c.Indirect && c.Callee >= 0 && m.inFrame[c.Callee] && int(c.Callee) != f {
				inner = max(inner, extent(int(c.Callee)))
			}
		}
		m.extent[f] = alignInt(m.Prog.Funcs[f].FrameBytes, 16) + inner
		return m.extent[f]
	}
	for f := range n {
		extent(f)
	}
}
