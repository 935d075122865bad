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
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// ExternFunc is a native implementation of an extern device function
// (libdevice's __nv_*): raw argument bits in, raw result bits out.
type ExternFunc func(args []uint64) uint64

// Module is a lowered program loaded into a device memory: its .global
// and .const variables are allocated and initialized.
type Module struct {
	Prog    *ir.Program
	Mem     *Memory
	VarAddr []uint64       // device address of each module variable (global/const); 0 otherwise
	externs [][]ExternFunc // per function, per call site
}

// Load allocates and initializes the module's variables in mem and binds
// extern calls through resolve (nil results are load errors).
func Load(mem *Memory, prog *ir.Program, resolve func(name string) ExternFunc) (*Module, error) {
	m := &Module{Prog: prog, Mem: mem, VarAddr: make([]uint64, len(prog.Vars))}
	for i, v := range prog.Vars {
		if v.Space != ptx.SpaceGlobal && v.Space != ptx.SpaceConst {
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
			if r.Func < 0 && prog.Vars[r.Var].Space == ptx.SpaceShared {
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
	m.externs = make([][]ExternFunc, len(prog.Funcs))
	for i, f := range prog.Funcs {
		m.externs[i] = make([]ExternFunc, len(f.Calls))
		for j, c := range f.Calls {
			if _, devrt := ir.DevRTNames[c.Extern]; c.Extern == "" || c.Extern == "vprintf" || devrt {
				continue
			}
			var fn ExternFunc
			if resolve != nil {
				fn = resolve(c.Extern)
			}
			if fn == nil {
				return nil, fmt.Errorf("call to %s is not supported yet", c.Extern)
			}
			m.externs[i][j] = fn
		}
	}
	return m, nil
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
	Progress  func(done, total int)

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
	steps     atomic.Int64
	stop      atomic.Bool
	faultMu   sync.Mutex
	fault     *Fault
	shared    int // bytes of shared memory per block
	sharedOff []int32
	limit     int64
	printMu   *sync.Mutex
	allocs    []*Alloc
	depth     int // nesting depth of device-side launches (0 for the host's)

	childMu    sync.Mutex
	pending    map[uint64]childLaunch // parameter buffers handed out, by address
	children   []childLaunch          // device-side launches, in launch order
	progressMu sync.Mutex
}

func (l *launch) setFault(f *Fault) {
	l.faultMu.Lock()
	if l.fault == nil {
		l.fault = f
	}
	l.faultMu.Unlock()
	l.stop.Store(true)
}

// childLaunch is a device-side launch: it runs after its parent grid
// completes (a parent grid is complete only when its children are).
type childLaunch struct {
	fn        int
	grid      [3]uint32
	block     [3]uint32
	shmem     uint32
	params    uint64 // device address of the parameter buffer
	paramSize int
	launched  bool
}

// maxLaunchDepth bounds nested device-side launches.
const maxLaunchDepth = 64

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
	// (its children are simulated after it and timed on their own).
	Elapsed time.Duration
	// Timing is the timing driver's account of the grid; nil under the
	// functional driver.
	Timing *GridTiming
}

// Result is what a launch ran: Grids[0] is the host's grid, the rest the
// grids launched from the device, in the order they ran (a grid's children
// run after it completes, each child's own children before its next
// sibling).
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
func (m *Module) Launch(cfg *Config) (*Result, error) {
	r := &Result{}
	err := m.launch(cfg, r, -1, 0)
	return r, err
}

func (m *Module) launch(cfg *Config, r *Result, parent, depth int) error {
	start := time.Now()
	self := len(r.Grids)
	c, l, timing, err := m.launchGrid(cfg, depth, self)
	r.Grids = append(r.Grids, Grid{
		Kernel: cfg.Kernel, Grid: cfg.Grid, Block: cfg.Block, DynShared: cfg.DynShared,
		Parent: parent, Depth: depth, Counters: c, Elapsed: time.Since(start), Timing: timing,
	})
	if err != nil {
		return err
	}
	r.Grids[self].Counters.DeviceLaunches = uint64(len(l.children))
	for _, ch := range l.children {
		b, err := m.Mem.Bytes(ch.params, uint64(ch.paramSize))
		if err != nil {
			return err
		}
		params := append([]byte(nil), b...)
		m.Mem.Free(ch.params)
		child := *cfg
		child.Kernel, child.Grid, child.Block, child.DynShared, child.Params = ch.fn, ch.grid, ch.block, ch.shmem, params
		child.Progress = nil
		if err := m.launch(&child, r, self, depth+1); err != nil {
			return err
		}
	}
	for addr, ch := range l.pending {
		if !ch.launched {
			m.Mem.Free(addr) // a buffer obtained but never launched
		}
	}
	return nil
}

func (m *Module) launchGrid(cfg *Config, depth, index int) (Counters, *launch, *GridTiming, error) {
	var total Counters
	if cfg.Kernel < 0 || cfg.Kernel >= len(m.Prog.Funcs) || !m.Prog.Funcs[cfg.Kernel].Entry {
		return total, nil, nil, fmt.Errorf("function %d is not a kernel", cfg.Kernel)
	}
	l := &launch{mod: m, cfg: cfg, fn: m.Prog.Funcs[cfg.Kernel], depth: depth, pending: map[uint64]childLaunch{}}
	l.nblocks = int(cfg.Grid[0]) * int(cfg.Grid[1]) * int(cfg.Grid[2])
	l.sharedOff = m.Prog.SharedOffsets[cfg.Kernel]
	st := m.Prog.StaticShared[cfg.Kernel]
	l.shared = st
	if cfg.DynShared > 0 {
		l.shared = alignInt(st, m.Prog.DynSharedAlign[cfg.Kernel]) + int(cfg.DynShared)
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
	if cfg.Driver != nil {
		g := &GridRun{l: l, Depth: depth, Index: index}
		err := cfg.Driver.RunGrid(g)
		total.Add(&g.extra)
		for _, s := range g.slots {
			total.Add(&s.w.c)
			if s.w.fault != nil {
				l.setFault(s.w.fault)
			}
		}
		if l.fault != nil {
			return total, l, g.Timing, l.fault
		}
		return total, l, g.Timing, err
	}
	return m.runFunctional(l)
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
	if l.fault != nil {
		return total, l, nil, l.fault
	}
	return total, l, nil, nil
}

func alignInt(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}
