// Package engine executes lowered PTX (internal/ir) on the CPU, warp by
// warp, faithfully to the SIMT model: lane-major register files, a
// per-warp reconvergence stack that splits at divergent branches and joins
// at their immediate post-dominators, per-block shared memory and barriers,
// per-thread local memory and call frames, bounds-checked global memory
// with real atomics, and the profiler's counters. The functional driver
// (Launch) runs a grid's blocks in parallel across worker goroutines.
//
// # Counting rules (Counters), per PTX instruction
//
//   - inst_executed: one per warp-level issue of an instruction, whether or
//     not its guard predicate holds for any lane (the hardware issues
//     predicated-off instructions too).
//   - thread_inst_executed: the lanes active at the issue (the reconvergence
//     stack's mask), regardless of the guard predicate, as ncu's
//     smsp__thread_inst_executed counts (its _pred_on variant would not).
//     On the reduce lesson (block 512) the ratio to inst_executed is 23.7,
//     31.2 and 31.2 against the H100's SASS 28.1, 31.4 and 31.3: nvcc's
//     SASS predicates the short if-body that PTX branches around.
//   - branch: one per warp-level execution of bra or brx.idx, taken or not;
//     divergent_branch: those whose active lanes split between targets.
//     Reduce lesson branch efficiency: 71.4, 98.2, 98.2 against the H100's
//     68.75, 98.36, 98.36.
//   - gld/gst requests: global (or generic resolving to global) load/store
//     warp instructions with an active lane; transactions: distinct 32-byte
//     sectors of the request; bytes: the active lanes' access sizes. These
//     equal the H100's exactly on the reduce lesson.
//   - shared transactions: wavefronts, the largest number of distinct 4-byte
//     words one of the 32 banks must serve (broadcasts are free); bank
//     conflicts: wavefronts beyond the ideal ceil(distinct words / 32).
//   - warps and blocks launched: per launch.
package engine

import (
	"fmt"
	"io"
	"math/bits"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// ExternFunc is a native implementation of an extern device function
// (libdevice's __nv_*): raw argument bits in, raw result bits out.
type ExternFunc func(args []uint64) uint64

// Extern is a native extern device function. A function with pointer
// out-parameters (frexp's exponent, sincos's results, modf, remquo) has Out,
// which gets the value arguments, returns the result and fills outs, one
// value per out-parameter of OutSizes[i] bytes; the engine stores each
// through the pointer argument that follows the value arguments, as the
// function would.
type Extern struct {
	Fn       ExternFunc
	Out      func(args, outs []uint64) uint64
	OutSizes []int
}

// Module is a lowered program loaded into a device memory: its .global
// and .const variables are allocated and initialized.
type Module struct {
	Prog    *ir.Program
	Mem     *Memory
	VarAddr []uint64    // device address of each module variable (global/const); 0 otherwise
	externs [][]*Extern // per function, per call site

	// slots are block slots a driver used, kept with their warps' register
	// files for the module's next grid (a timing driver holds hundreds).
	slotMu sync.Mutex
	slots  []*worker
	// builtins marks, per function and call site, the externs the engine
	// implements itself (libcall.go).
	builtins [][]uint8
	// unsupported is, per function, why it cannot run ("" when it can):
	// its own first unsupported construct or a callee's, transitively.
	unsupported []string
	// usesHeap marks functions that call malloc or free, transitively.
	usesHeap []bool
	// clusterBarrier marks functions that execute barrier.cluster (arrive
	// or wait), transitively: launched without clusters, each block is a
	// cluster of one whose barrier its threads share.
	clusterBarrier []bool
	// inFrame and extent are the frames' layout (stack.go, frameLayout);
	// sysCalls the system calls each function reaches (syscalls), whose
	// stacks the driver reserves above a kernel's (localGap).
	inFrame  []bool
	extent   []int
	sysCalls []int
	// replay is, per function, whether a launch of it may be replayed
	// (memo.go: memoYes, memoNo, memoSharedAtomics), transitively through
	// its calls; an indirect call may reach any function.
	replay []int8
}

// UnsupportedError is a launch of a kernel that needs something the engine
// cannot run yet; the module's other kernels run.
type UnsupportedError struct {
	Kernel string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("kernel %s cannot run: %s", e.Kernel, e.Reason)
}

// Load allocates and initializes the module's variables in mem and binds
// extern calls through resolve. A function that calls an extern resolve
// does not know, or that holds a construct lowering could not handle
// (ir.Func.Unsupported), makes every kernel that reaches it unlaunchable
// (UnsupportedError); the module's other kernels run. Unsupported lists
// them.
func Load(mem *Memory, prog *ir.Program, resolve func(name string) *Extern) (*Module, error) {
	m := &Module{Prog: prog, Mem: mem, VarAddr: make([]uint64, len(prog.Vars))}
	for i, v := range prog.Vars {
		if v.Space != ptxtype.SpaceGlobal && v.Space != ptxtype.SpaceConst {
			continue
		}
		addr, err := mem.Alloc(uint64(v.Size))
		if err != nil {
			return nil, fmt.Errorf("variable %s: %v", v.Name, err)
		}
		m.VarAddr[i] = addr
		if len(v.Init) > 0 {
			b, _ := mem.Bytes(addr, uint64(v.Size))
			copy(b, v.Init)
		}
	}
	for i, v := range prog.Vars {
		if m.VarAddr[i] == 0 {
			continue
		}
		b, _ := mem.Bytes(m.VarAddr[i], uint64(v.Size))
		for _, r := range v.Relocs {
			var a uint64
			switch {
			case r.Func >= 0:
				a = ir.FuncAddrBase + 16*uint64(r.Func)
			case r.Var >= 0:
				a = m.VarAddr[r.Var]
			default:
				continue
			}
			if r.Func < 0 && prog.Vars[r.Var].Space == ptxtype.SpaceShared {
				return nil, fmt.Errorf("variable %s: address of shared variable %s in an initializer is not supported yet", v.Name, prog.Vars[r.Var].Name)
			}
			a += uint64(r.Addend)
			if r.Mask != 0 {
				a = (a & r.Mask) >> bits.TrailingZeros64(r.Mask)
			}
			for k := 0; k < r.Size && r.Offset+k < len(b); k++ {
				b[r.Offset+k] = byte(a >> (8 * k))
			}
		}
	}
	n := len(prog.Funcs)
	m.externs = make([][]*Extern, n)
	m.builtins = make([][]uint8, n)
	m.unsupported = make([]string, n)
	m.usesHeap = make([]bool, n)
	m.clusterBarrier = make([]bool, n)
	m.frameLayout()
	for i, f := range prog.Funcs {
		m.clusterBarrier[i] = hasClusterBarrier(f)
		m.externs[i] = make([]*Extern, len(f.Calls))
		m.builtins[i] = make([]uint8, len(f.Calls))
		m.unsupported[i] = f.Unsupported
		if why := checkFastSlots(f); why != "" && m.unsupported[i] == "" {
			m.unsupported[i] = why
		}
		for j, c := range f.Calls {
			if _, devrt := ir.DevRTNames[c.Extern]; c.Extern == "" || c.Extern == "vprintf" || devrt {
				continue
			}
			if k, ok := builtinExterns[c.Extern]; ok {
				m.builtins[i][j] = k
				m.usesHeap[i] = m.usesHeap[i] || k == builtinMalloc || k == builtinFree
				continue
			}
			var fn *Extern
			if resolve != nil {
				fn = resolve(c.Extern)
			}
			if fn == nil && m.unsupported[i] == "" {
				m.unsupported[i] = fmt.Sprintf("call to %s is not supported yet", c.Extern)
			}
			m.externs[i][j] = fn
		}
	}
	m.replay = make([]int8, n)
	indirect := make([]bool, n)
	anyReplay := memoYes // what an indirect call may reach: any function's own verdict
	for i, f := range prog.Funcs {
		m.replay[i] = memoFunc(m, i)
		anyReplay = memoJoin(anyReplay, m.replay[i])
		for _, c := range f.Calls {
			indirect[i] = indirect[i] || c.Indirect
		}
	}
	// Propagate through direct calls to a fixed point (recursion allowed).
	for changed := true; changed; {
		changed = false
		for i, f := range prog.Funcs {
			for _, c := range f.Calls {
				if c.Indirect || c.Callee < 0 || int(c.Callee) == i {
					continue
				}
				callee := int(c.Callee)
				if m.unsupported[i] == "" && m.unsupported[callee] != "" {
					m.unsupported[i] = fmt.Sprintf("it calls %s: %s", prog.Funcs[callee].Name, m.unsupported[callee])
					changed = true
				}
				if !m.usesHeap[i] && m.usesHeap[callee] {
					m.usesHeap[i] = true
					changed = true
				}
				if !m.clusterBarrier[i] && m.clusterBarrier[callee] {
					m.clusterBarrier[i] = true
					changed = true
				}
				if v := memoJoin(m.replay[i], m.replay[callee]); v != m.replay[i] {
					m.replay[i] = v
					changed = true
				}
				if !indirect[i] && indirect[callee] {
					indirect[i] = true
					changed = true
				}
			}
		}
	}
	for i := range m.replay {
		if indirect[i] {
			m.replay[i] = memoJoin(m.replay[i], anyReplay)
		}
	}
	return m, nil
}

// Unsupported lists, for each kernel that cannot run, why: one line per
// kernel, "kernel NAME cannot run: REASON", in declaration order.
func (m *Module) Unsupported() []string {
	var out []string
	for i, f := range m.Prog.Funcs {
		if f.Entry && m.unsupported[i] != "" {
			out = append(out, (&UnsupportedError{Kernel: f.Name, Reason: m.unsupported[i]}).Error())
		}
	}
	return out
}

// KernelUnsupported is why function i cannot run, or "".
func (m *Module) KernelUnsupported(i int) string {
	if i < 0 || i >= len(m.unsupported) {
		return ""
	}
	return m.unsupported[i]
}

// Config is one launch.
type Config struct {
	Kernel    int // index in Prog.Funcs
	Grid      [3]uint32
	Block     [3]uint32
	DynShared uint32
	Params    []byte

	Stdout   io.Writer
	StdoutMu *sync.Mutex // serializes whole printf lines across launches and workers
	Workers  int
	// StepLimit bounds the warp instructions of the launch (watchdog).
	StepLimit int64
	// Timeout bounds the launch's wall-clock time (0: none); Control, when
	// set, can watch and interrupt it.
	Timeout  time.Duration
	Control  *Control
	Progress func(done, total int)
	// StackBytes is the per-thread stack limit, cudaLimitStackSize (0:
	// DefaultStackBytes); see stack.go.
	StackBytes int

	SMs           int  // for %smid/%nsmid
	MaxWarpsPerSM int  // for %nwarpid
	ITS           bool // independent thread scheduling (sm_70+): forward progress for spinning lanes
	GridID        uint64
	// ClockMHz converts cycles to %globaltimer nanoseconds under the
	// functional driver; TimeBaseNS is the device time the launch starts at.
	ClockMHz   int
	TimeBaseNS uint64
	// Driver runs the grid's blocks; nil is the functional driver.
	Driver Driver
	// Check, when not nil, is the sanitizer that sees every access and
	// synchronization (check.go).
	Check Checker
	// SharedUnit and SharedReserved are the GPU's shared memory allocation
	// unit and the bytes it reserves per block (arch.Arch): a block's
	// shared memory is mapped up to the end of its last unit, so an access
	// a little past the block's bytes (but inside that unit) succeeds, as
	// on the H100 (testdata/sanitize/probe5, cp_async_smem_oob; memcheck
	// still reports it). Zero: the block's bytes exactly.
	SharedUnit, SharedReserved int
	// CheckWave is how many blocks the GPU holds at once for this launch
	// (blocks per SM times SMs; 0: unknown). Once a checker has stopped
	// lanes and let the kernel go on (CheckAccess.Stop), the blocks of the
	// faulting block's wave still run, and no block after them starts, as
	// under compute-sanitizer.
	CheckWave int
	// DevRT are the device runtime's limits (dynamic parallelism).
	DevRT DevRTLimits
	// Cooperative is a cooperative launch (cudaLaunchCooperativeKernel):
	// its blocks may wait for each other at grid.sync() (gridsync.go).
	// Grids its kernel launches from the device are not cooperative.
	Cooperative bool
	// Lines asks for per-instruction counts (Grid.Lines), for reports; off,
	// the hot loop is unchanged.
	Lines bool
	// Cluster is the launch's cluster shape (cudaLaunchAttributeClusterDimension);
	// zero: the kernel's .reqnctapercluster, or no clusters (cluster.go).
	Cluster [3]uint32
	// Memo, when not nil, replays a launch that repeats a recorded one on
	// the same device memory instead of executing it (memo.go); not with
	// Check or Lines, and only under the functional driver.
	Memo *Memo

	tree *cdpTree // the host launch's device-launched grids
	node *cdpNode // this grid in the tree
}

// DefaultStepLimit is the watchdog budget when Config.StepLimit is 0.
const DefaultStepLimit = 1 << 36

// launch is the state shared by the workers of one launch.
type launch struct {
	mod       *Module
	cfg       *Config
	fn        *ir.Func
	nblocks   int
	next      atomic.Int64
	done      atomic.Int64
	started   atomic.Int64 // blocks a timing driver started (BlockSlot.Start)
	slotCount atomic.Int64 // its block slots
	steps     atomic.Int64
	stop      atomic.Bool
	faultMu   sync.Mutex
	// checked is the first error of a checker that let the kernel go on
	// (check.go): the launch's fault once it ends; checkCap the blocks
	// that may still start (0: all).
	checked   *Fault
	checkCap  atomic.Int64
	fault     *Fault
	shared    int // bytes of shared memory per block
	sharedMap int // of which, with the rest of its last allocation unit, mapped (Config.SharedUnit)
	sharedOff []int32
	limit     int64
	printMu   *sync.Mutex
	allocs    []*Alloc
	depth     int // nesting depth of device-side launches (0 for the host's)
	host      *hostLaunch
	stackMax  int // per-thread stack bytes calls may use (stack.go)
	stackTop  int // the local address the kernel's frame ends at (stack.go)
	// snaps are where the unfinished warps of blocks that were running
	// when the launch stopped were (watchdog, timeout, interrupt).
	snaps      []WarpState
	snapBlocks int

	tree       *cdpTree
	node       *cdpNode
	coop       *coopGrid      // a cooperative grid's barrier (gridsync.go); nil otherwise
	cl         *clusterLaunch // a cluster launch's clusters (cluster.go); nil otherwise
	childMu    sync.Mutex
	pending    map[uint64]childLaunch // parameter buffers handed out, by address
	launches   atomic.Int64           // device-side launches of this grid
	blocksMu   sync.Mutex
	blocks     []blockDone // what completed blocks left, in completion order
	progressMu sync.Mutex
	linesMu    sync.Mutex
	lineTabs   []*lineTab // the workers' per-instruction counts (Config.Lines)
}

func (l *launch) setFault(f *Fault) {
	l.faultMu.Lock()
	if l.fault == nil {
		l.fault = f
	}
	l.faultMu.Unlock()
	l.stop.Store(true)
}

// childLaunch is a parameter buffer handed out for a device-side launch.
type childLaunch struct {
	fn        int
	grid      [3]uint32
	block     [3]uint32
	shmem     uint32
	params    uint64 // device address of the parameter buffer
	paramSize int
	launched  bool
}

// Grid is one grid a launch ran: the host's, or one that device code
// launched (dynamic parallelism).
type Grid struct {
	Kernel    int // index in Prog.Funcs
	Grid      [3]uint32
	Block     [3]uint32
	DynShared uint32
	// Parent is the index in Result.Grids of the grid that launched this
	// one; -1 for the host's grid. Depth is the nesting depth (0 for the
	// host's grid).
	Parent, Depth int
	// Counters are this grid's own counts, not its children's;
	// DeviceLaunches counts the grids it launched.
	Counters Counters
	// Elapsed is the host time the simulation of this grid alone took
	// (less that of the grids a CDP1 cudaDeviceSynchronize ran inside it;
	// the others are simulated after it), each grid timed on its own.
	Elapsed time.Duration
	// Timing is the timing driver's account of the grid; nil under the
	// functional driver.
	Timing *GridTiming
	// Lines are the per-instruction counts of each function the grid ran
	// (Config.Lines; nil when off). Summed, they are Counters (less the
	// launch counts: warps, blocks and device launches).
	Lines []FuncLines
	// Replayed marks a launch replayed, not executed (Config.Memo): its
	// counters are those of the recorded launch, Elapsed the replay's.
	Replayed bool
}

// Result is what a launch ran: Grids[0] is the host's grid, the rest the
// grids launched from the device: generation by generation in launch order
// (breadth first, cdp.go), except that the grids a block's CDP1
// cudaDeviceSynchronize ran follow their parent grid directly.
type Result struct {
	Grids []Grid
}

// Total sums the grids' counters: the launch as the host sees it.
func (r *Result) Total() Counters {
	var t Counters
	for i := range r.Grids {
		t.Add(&r.Grids[i].Counters)
	}
	return t
}

// Launch runs one grid, and then the grids it launched from the device, to
// completion. On a *Fault (or another error) the result holds the grids
// run until then, the failing one included.
func (m *Module) Launch(cfg *Config) (r *Result, err error) {
	r = &Result{}
	if cfg.Kernel < 0 || cfg.Kernel >= len(m.Prog.Funcs) || !m.Prog.Funcs[cfg.Kernel].Entry {
		return r, fmt.Errorf("function %d is not a kernel", cfg.Kernel)
	}
	var rec *memoRecord
	if mm := cfg.Memo; mm != nil && cfg.Check == nil && !cfg.Lines {
		// Launch replay (memo.go): a repeated launch on the same memory.
		var replayed bool
		r, rec, replayed = mm.begin(m, cfg, cfg.Driver == nil)
		if replayed {
			return r, nil
		}
		if r == nil {
			r = &Result{}
		}
		defer func() { mm.end(m, cfg, rec, r, err) }()
	} else if mm != nil {
		mm.Touch() // (a launch the memo does not see)
	}
	h, end := m.beginHost(cfg)
	defer end()
	root := &cdpNode{fn: cfg.Kernel, grid: cfg.Grid, block: cfg.Block, shmem: cfg.DynShared, params: cfg.Params}
	mu := cfg.StdoutMu
	if mu == nil {
		mu = new(sync.Mutex)
	}
	sink := func(b []byte) {
		if cfg.Stdout != nil {
			mu.Lock()
			cfg.Stdout.Write(b)
			mu.Unlock()
		}
	}
	t := newTree(cfg.DevRT)
	t.host = h
	_, err = m.runTree(cfg, t, r, []*cdpNode{root}, sink)
	return r, err
}

func (m *Module) launchGrid(cfg *Config, depth, index int, h *hostLaunch) (Counters, *launch, *GridTiming, error) {
	var total Counters
	if cfg.Kernel < 0 || cfg.Kernel >= len(m.Prog.Funcs) || !m.Prog.Funcs[cfg.Kernel].Entry {
		return total, nil, nil, fmt.Errorf("function %d is not a kernel", cfg.Kernel)
	}
	if why := m.unsupported[cfg.Kernel]; why != "" {
		return total, nil, nil, &UnsupportedError{Kernel: m.Prog.Funcs[cfg.Kernel].Name, Reason: why}
	}
	if m.usesHeap[cfg.Kernel] {
		m.Mem.heap.freeze()
	}
	l := &launch{mod: m, cfg: cfg, fn: m.Prog.Funcs[cfg.Kernel], depth: depth, pending: map[uint64]childLaunch{}, tree: cfg.tree, node: cfg.node}
	if l.tree == nil {
		l.tree = newTree(cfg.DevRT)
	}
	l.nblocks = int(cfg.Grid[0]) * int(cfg.Grid[1]) * int(cfg.Grid[2])
	l.sharedOff = m.Prog.SharedOffsets[cfg.Kernel]
	st := m.Prog.StaticShared[cfg.Kernel]
	l.shared = st
	if cfg.DynShared > 0 {
		l.shared = alignInt(st, m.Prog.DynSharedAlign[cfg.Kernel]) + int(cfg.DynShared)
	}
	l.sharedMap = l.shared
	if u := cfg.SharedUnit; u > 0 && l.shared > 0 {
		l.sharedMap = (l.shared+cfg.SharedReserved+u-1)/u*u - cfg.SharedReserved
	}
	if cfg.Cooperative && depth == 0 {
		if err := l.beginCooperative(); err != nil {
			return total, nil, nil, err
		}
	}
	cd, explicit := clusterDims(cfg, l.fn)
	if !explicit && m.clusterBarrier[cfg.Kernel] && !cfg.Cooperative {
		// No clusters asked for: every block is a cluster of one, and
		// barrier.cluster waits for all of the block's threads.
		cd = [3]uint32{1, 1, 1}
	}
	if cd != ([3]uint32{}) && depth == 0 {
		cl, err := newClusterLaunch(cfg, cd, explicit)
		if err != nil {
			return total, nil, nil, err
		}
		l.cl = cl
	}
	l.allocs = m.Mem.snapshot()
	l.limit = cfg.StepLimit
	if l.limit <= 0 {
		l.limit = DefaultStepLimit
	}
	l.printMu = cfg.StdoutMu
	if l.printMu == nil {
		l.printMu = new(sync.Mutex)
	}
	l.stackMax = m.stackLimit(cfg.Kernel, cfg.StackBytes)
	l.stackTop = localWindowTop - m.localGap(cfg.Kernel, cfg.Check)
	if h != nil {
		h.bind(l)
	}
	if cfg.Driver != nil {
		g := &GridRun{l: l, Depth: depth, Index: index}
		crashed, err := runDriver(cfg.Driver, g)
		total.Add(&g.extra)
		running := 0
		for _, s := range g.slots {
			s.w.endBlock()
			total.Add(&s.w.c)
			l.steps.Add(int64(s.w.c.InstExecuted))
			if s.w.fault != nil {
				l.setFault(s.w.fault)
			}
			if s.w.blk.live > 0 {
				running++
			}
		}
		l.done.Add(max(l.started.Swap(0)-int64(running), 0))
		for _, s := range g.slots {
			// A stopped grid: where the warps of every resident block were
			// (a slot whose block faulted or hit the watchdog has its own).
			if l.stop.Load() && s.w.fault == nil && s.w.blk.live > 0 {
				s.w.snapshot()
			}
		}
		f := l.stopFault()
		if !crashed {
			// (The slots of a driver that panicked may hold any state:
			// they are not reused.)
			ws := make([]*worker, len(g.slots))
			for i, s := range g.slots {
				ws[i] = s.w
			}
			m.keepSlots(ws)
		}
		if f != nil {
			return total, l, g.Timing, f
		}
		return total, l, g.Timing, err
	}
	if l.coop != nil {
		return m.runCooperative(l)
	}
	if l.cl != nil {
		return m.runClusters(l)
	}
	return m.runFunctional(l)
}

// runDriver runs grid g under driver d. A panic there (a bug in the
// driver or in the engine it steps) is recovered, once for the grid, and
// becomes the launch's fault, an internal error naming the kernel, the
// block and warp being stepped and its PTX line; the launch then ends as
// a faulting one does, every block's output flushed.
func runDriver(d Driver, g *GridRun) (crashed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			var w *worker
			warp := -1
			for _, s := range g.slots {
				if s.stepping > 0 {
					w, warp = s.w, s.stepping-1
				}
			}
			g.l.setFault(g.l.internalFault(w, warp, r))
			crashed, err = true, nil
		}
	}()
	return false, d.RunGrid(g)
}

// internalFault is the fault a panic under a launch becomes: warpsim's
// own error, not the kernel's, reported with the kernel, the block w
// holds and, when known (warp >= 0), the warp, its first thread and the
// PTX instruction it was executing, where in warpsim it happened, and a
// request to report it.
func (l *launch) internalFault(w *worker, warp int, r any) *Fault {
	f := &Fault{Kind: FaultIllegal, Func: l.fn.Name}
	where := ""
	if w != nil {
		f.Block = w.blk.idx
		if warp >= 0 && warp < len(w.blk.warps) {
			wp := w.blk.warps[warp]
			where = fmt.Sprintf(" in warp %d", warp)
			if len(wp.stack) > 0 && wp.fn != nil {
				st := wp.where()
				f.Func, f.PC, f.Line, f.Text, f.Thread = st.Func, st.PC, st.Line, st.Text, st.First
			}
		}
	}
	f.Detail = fmt.Sprintf("warpsim internal error%s: %v (at %s)\n  This is a bug in warpsim, not in the kernel: please report it, "+
		"with this message, the warpsim version and the PTX or program and command that ran it.", where, r, panicSite())
	return f
}

// panicSite is the Go function and line a recovered panic came from: the
// first frame below runtime.gopanic outside the runtime (called from the
// deferred function that recovered it).
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		fr, more := frames.Next()
		switch {
		case fr.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(fr.Function, "runtime."):
			return fmt.Sprintf("%s, %s:%d", fr.Function, filepath.Base(fr.File), fr.Line)
		}
		if !more {
			return "unknown"
		}
	}
}

// runFunctional is the functional driver: blocks run to completion, in
// parallel on worker goroutines, each worker taking the next block.
func (m *Module) runFunctional(l *launch) (Counters, *launch, *GridTiming, error) {
	var total Counters
	cfg := l.cfg
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > l.nblocks {
		workers = l.nblocks
	}
	if workers < 1 {
		workers = 1
	}
	counters := make([]Counters, workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w := newWorker(l)
			w.loop()
			counters[i] = w.c
		}(i)
	}
	wg.Wait()
	for i := range counters {
		total.Add(&counters[i])
	}
	if f := l.stopFault(); f != nil {
		return total, l, nil, f
	}
	return total, l, nil, nil
}

// checkFastSlots checks that every register slot a fast form reads or
// writes lies in f's register file: warp.fast and the straight run read
// them without bounds checks (warp.ru). It returns why not, or "".
func checkFastSlots(f *ir.Func) string {
	for pc := range f.Code {
		in := &f.Code[pc]
		if in.Fast == ir.FastNone {
			continue
		}
		need := [4]bool{true, true, in.Fast != ir.FastMov, in.Fast == ir.FastMadLo32 || in.Fast == ir.FastFmaF32}
		for k, s := range [4]int32{in.D[0], in.A[0], in.A[1], in.A[2]} {
			if s >= int32(f.NumSlots) || need[k] && s < 0 {
				return fmt.Sprintf("internal error: instruction %d's fast form names register slot %d of %d", pc, s, f.NumSlots)
			}
		}
	}
	return ""
}

func alignInt(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}
