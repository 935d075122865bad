package engine

// The per-thread stack. A thread's call frames live in its local memory
// and grow down, as on the GPU: the kernel's frame (its .local variables
// and .param scratch) at the top of the stack, StackTop, each callee's
// frame 16-byte aligned below its caller's. (nvcc's kernels start with
// R1 = c[0x0][0x28], the stack top, and subtract their frame; on the H100
// a kernel's array lay at 0xfffcb0 and each call of a recursive function
// put its array 0x60 lower, whatever cudaLimitStackSize said:
// testdata/sanitize/probe6/frames.) So a write past the end of a kernel's
// local array leaves the stack, where memcheck reports it
// (probe5/recursive_stack), and one past a callee's array lands in its
// caller's frame (beyond/callee_overflow). The stack a thread uses is
// StackTop less its innermost frame's base plus callOverhead bytes for
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

// localBytes returns lane l's n bytes of local memory at addr, or nil when
// they are not inside [stackLow, localWindowTop). wp.local[l] backs the
// top of the window, [localWindowTop-len, localWindowTop), and grows down
// as the thread reaches lower.
func (wp *warp) localBytes(l int, addr, n uint64) []byte {
	if addr+n > localWindowTop || addr+n < addr || addr < wp.w.l.stackLow() {
		return nil
	}
	lo := uint64(localWindowTop - len(wp.local[l]))
	if addr < lo {
		wp.growLocal(l, uint32(addr))
		lo = uint64(localWindowTop - len(wp.local[l]))
	}
	off := addr - lo
	return wp.local[l][off : off+n : off+n]
}

// localTail returns lane l's local bytes from addr to the window's top
// (nil when addr is not backed).
func (wp *warp) localTail(l int, addr uint64) []byte {
	lo := uint64(localWindowTop - len(wp.local[l]))
	if addr < lo || addr >= localWindowTop {
		return nil
	}
	return wp.local[l][addr-lo:]
}

// growLocal backs lane l's local memory from low up.
func (wp *warp) growLocal(l int, low uint32) {
	old := wp.local[l]
	n := max(localWindowTop-int(low), 2*len(old), localAboveStack+256)
	n = min(n, localWindowTop)
	if n <= len(old) {
		return
	}
	grow := make([]byte, n)
	copy(grow[n-len(old):], old)
	wp.local[l] = grow
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
	fn := m.Prog.Funcs[f]
	active[f] = true
	deepest := 0
	for _, c := range fn.Calls {
		if c.Indirect || c.Callee < 0 || active[int(c.Callee)] {
			continue
		}
		deepest = max(deepest, callOverhead+m.staticStack(int(c.Callee), active))
	}
	delete(active, f)
	return alignInt(fn.FrameBytes, 16) + deepest
}
