package engine

// The per-thread stack. A thread's call frames live in its local memory,
// one after another: the kernel's frame (its .local variables and .param
// scratch) at offset 0, each callee's frame 16-byte aligned after its
// caller's. The stack a thread uses is the end of its innermost frame plus
// callOverhead bytes for each call in progress: on the GPU a call also
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
	// maxLocal caps each thread's local memory whatever the limit says:
	// the simulator's own bound, reported as such.
	maxLocal = 16 << 20
)

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
