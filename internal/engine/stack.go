package engine

// The per-thread stack. A thread's call frames live in its local memory
// and grow down, as on the GPU: the kernel's frame (its .local variables
// and .param scratch) at the top of the stack, StackTop, with room above
// its own bytes for the frames of the functions it calls that never
// recurse (frameLayout), and each other callee's frame 16-byte aligned
// below the stack in use. (nvcc's kernels start with
// R1 = c[0x0][0x28], the stack top, and subtract their frame; on the H100
// a kernel's array lay at 0xfffcb0 and each call of a recursive function
// put its array 0x60 lower, whatever cudaLimitStackSize said:
// testdata/sanitize/probe6/frames.) So a write past the end of a kernel's
// local array leaves the stack, where memcheck reports it
// (probe5/recursive_stack), unless a callee's frame lies above it
// (probe7/local_past), and one past a recursive callee's array lands in
// its caller's frame (beyond/callee_overflow). The stack a thread uses is
// StackTop less the stack pointer (the lowest frame's base) plus callOverhead bytes for
// each call in progress: on the GPU a call also
// saves its return address and the callee-saved registers the callee
// spills (ptxas reported 104 bytes of stack frame for a function whose PTX
// frame is 64 bytes of locals and 8 of parameters,
// testdata/harden/h100/stack_probe.nvcc.txt); 16 bytes is the return
// address, rounded to the frame alignment, and leaves the spills, which
// only ptxas knows, out.
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
	// the H100's local addresses show), StackTop the top of its stack,
	// localAboveStack bytes below it: that memory is mapped (the H100
	// let recursive_stack's write past the kernel's frame through when
	// no sanitizer ran), but memcheck reports an access there. The gap
	// varied with the kernel on the H100 (0x550 bytes above
	// recursive_stack's frame, 0x340 above frames'); 1 KiB is the
	// simulator's choice.
	localWindowTop  = 16 << 20
	localAboveStack = 1024
	StackTop        = localWindowTop - localAboveStack
	// maxLocal caps each thread's stack whatever the limit says: the
	// simulator's own bound, reported as such.
	maxLocal = StackTop
)

// stackLow is the lowest local address the launch's stack may reach.
func (l *launch) stackLow() uint64 { return uint64(StackTop - l.stackMax) }

// A lane's local memory is addressed as the window's top bytes,
// [localWindowTop-reach, localWindowTop), reach (wp.localReach[l]) growing
// down as the stack does: at least 256 bytes below StackTop at first and
// then by doubling. Its bytes are backed only where they are used:
// wp.local[l] backs [wp.localHi[l]-len, wp.localHi[l]), from the lowest
// address used (and a little below it) up to StackTop, and up to the
// window's top once the bytes above the stack are used (they rarely are).
// Backing the whole reach in every lane cost a kernel that calls a
// function a page fault for every three lanes' first call (backprop of
// testdata/programs8: 90,000 of its 210,000 faults). Bytes never used read
// as zeros either way, so only where bytes lie changes: an address inside
// the reach and not backed yet is backed when it is named.

// localBytes returns lane l's n bytes of local memory at addr, or nil when
// they are not inside [stackLow, localWindowTop).
func (wp *warp) localBytes(l int, addr, n uint64) []byte {
	if addr+n > localWindowTop || addr+n < addr || addr < wp.w.l.stackLow() {
		return nil
	}
	hi := uint64(wp.localHi[l])
	lo := hi - uint64(len(wp.local[l]))
	if addr < lo || addr+n > hi || len(wp.local[l]) == 0 {
		wp.reachLocal(l, uint32(addr))
		wp.backLocal(l, uint32(addr), addr+n > StackTop)
		hi = uint64(wp.localHi[l])
		lo = hi - uint64(len(wp.local[l]))
	}
	off := addr - lo
	return wp.local[l][off : off+n : off+n]
}

// localTail returns lane l's local bytes from addr to the window's top
// (nil when addr is not inside the lane's reach).
func (wp *warp) localTail(l int, addr uint64) []byte {
	if addr < localWindowTop-uint64(wp.localReach[l]) || addr >= localWindowTop {
		return nil
	}
	wp.backLocal(l, uint32(addr), true)
	return wp.local[l][addr-(uint64(wp.localHi[l])-uint64(len(wp.local[l]))):]
}

// reachLocal extends lane l's reach down to low: by at least doubling it,
// and to at least 256 bytes below StackTop.
func (wp *warp) reachLocal(l int, low uint32) {
	if r := wp.localReach[l]; low < localWindowTop-r {
		n := max(localWindowTop-int(low), 2*int(r), localAboveStack+256)
		wp.localReach[l] = uint32(min(n, localWindowTop))
	}
}

// backLocal backs lane l's local memory from low (inside its reach) up to
// StackTop, or up to the window's top when top is set; below what it
// backed it grows by at least doubling, inside the reach.
func (wp *warp) backLocal(l int, low uint32, top bool) {
	old := wp.local[l]
	hi, lo := uint32(StackTop), uint32(StackTop)
	if len(old) > 0 {
		hi = wp.localHi[l]
		lo = hi - uint32(len(old))
	}
	newHi, newLo := hi, lo
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
// it. A recursive function, or one called through a pointer, gets a frame
// of its extent below the stack in use, as probe6/frames showed (each
// call's array 0x60 lower).
func (m *Module) frameLayout() {
	n := len(m.Prog.Funcs)
	m.inFrame = make([]bool, n)
	m.extent = make([]int, n)
	// cyclic: f reaches itself through direct calls; indirect: f
	// reaches a call through a pointer (whose callee may call f back).
	direct := func(f int, each func(g int)) {
		for _, c := range m.Prog.Funcs[f].Calls {
			if !c.Indirect && c.Callee >= 0 {
				each(int(c.Callee))
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
		m.inFrame[f] = !cyclic[f] && !indirect[f]
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
