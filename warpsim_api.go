package warpsim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ianlancetaylor/demangle"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/metrics"
	"github.com/warpsim/warpsim/ptx"
)

// Options configure a Device.
type Options struct {
	Stdout    io.Writer             // device printf output; os.Stdout when nil
	Workers   int                   // blocks run in parallel; GOMAXPROCS when 0
	StepLimit int64                 // watchdog: warp instructions per launch; 0 = a large default
	Progress  func(done, total int) // optional, called as blocks complete (not from the hot loop)
	// Timeout bounds each launch's wall-clock time (0: no bound); a launch
	// past it stops with a FaultTimeout report.
	Timeout time.Duration
	// StackBytes is the per-thread stack, cudaLimitStackSize (0: 1024, as
	// CUDA); HeapBytes the device malloc heap, cudaLimitMallocHeapSize (0:
	// 8 MiB). SetLimit changes them later.
	StackBytes int
	HeapBytes  uint64
	// Mode is ModeFunctional (the default: results and counts, fast) or
	// ModeTiming (also cycles, time, achieved occupancy and stall reasons
	// from the timing model).
	Mode Mode
	// Timing tunes the timing model (scheduler policy, sampling).
	Timing TimingOptions
	// Backing, when set, holds global memory's bytes (memory shared with a
	// program, for the CUDA runtime), and allocations start at BackingBase.
	Backing     Backing
	BackingBase uint64
	// Lines asks for per-instruction counts (GridResult.Lines) for reports
	// (warpsim report); off, launches run as fast as without it.
	Lines bool
	// Replay lets a launch that repeats an earlier one (same kernel,
	// configuration and parameters) on the same device memory, with a
	// kernel whose result depends on nothing else (no atomics, clock reads,
	// printf, malloc, device launches), take the recorded change to memory
	// and counters instead of executing (internal/engine/memo.go). Only
	// launches the functional driver would run are replayed (in timing
	// mode, those that reuse a timed launch's account); not with Lines or
	// a sanitizer. The CUDA runtime turns it on (WARPSIM_REPLAY=0: off).
	Replay bool
}

// Backing supplies the bytes of global-memory allocations.
type Backing interface {
	// Bytes returns size zeroed, 8-byte aligned bytes for the allocation at
	// base, or an error when the host cannot back them.
	Bytes(base, size uint64) ([]byte, error)
	// Release is told that the allocation at base is freed.
	Release(base, size uint64)
}

// Mode selects the driver that runs launches.
type Mode string

// Modes.
const (
	ModeFunctional Mode = "functional"
	ModeTiming     Mode = "timing"
)

// ParseMode reads "functional" or "timing" ("" is functional).
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case "", ModeFunctional:
		return ModeFunctional, nil
	case ModeTiming:
		return ModeTiming, nil
	}
	return "", fmt.Errorf("mode %q: want functional or timing", s)
}

// TimingOptions tune the timing model.
type TimingOptions struct {
	// Scheduler is the warp scheduler policy: "gto" (greedy-then-oldest,
	// the default) or "lrr" (loose round-robin).
	Scheduler string
	// NoSampling times every block of a large grid in detail instead of its
	// first waves (slower; sampling's error is stated in the README).
	NoSampling bool
	// ClockMHz runs the SMs at this clock instead of the preset's (0: the
	// preset's), e.g. the base clock Nsight Compute locks by default.
	ClockMHz float64
	// PCStalls splits each grid's stall reasons by instruction
	// (GridTiming.PCStalls), for per-instruction reports; off by default.
	PCStalls bool
	// Similar lets a launch of a kernel and configuration whose launches
	// with other parameters were timed in detail and agree run
	// functionally and take their account, scaled by its instructions
	// (Sampling "similar", internal/timing/repeat.go); not with
	// NoSampling. The CUDA runtime turns it on (WARPSIM_SAMPLING=0: off);
	// launch files and the Go API time such launches in detail unless
	// asked.
	Similar bool
	// ShortGrids samples grids of 1.5 to 6 waves too (not with
	// NoSampling): their first waves timed in detail, the other blocks
	// placed on the SMs' block slots at the times the window's blocks took
	// (Sampling "short", internal/timing/sampling.go). The CUDA runtime
	// turns it on with Similar; launch files and the Go API time such
	// grids in full unless asked.
	ShortGrids bool
	// Budget, when not 0 (and not with NoSampling), is the warp
	// instructions a device's launches may time in detail before a
	// configuration or a shape timed once is enough for its later launches
	// (internal/timing/repeat.go, "A budget of detail"). The CUDA runtime
	// sets it (ProgramBudget); launch files and the Go API have none
	// unless asked. With ShortGrids, a grid of under three waves is timed
	// in full while the budget is not used, and for its first wave once
	// it is (with no budget: always for its first wave).
	Budget uint64
	// Program says the device runs a whole program (the CUDA runtime sets
	// it): the device sees every launch of the process, so address
	// translation is timed by the program's own history where the preset
	// says so (internal/timing's TLBPrograms: the H100's and H200's).
	Program bool
}

// Dim3 is a grid or block shape.
type Dim3 struct{ X, Y, Z uint32 }

func (d Dim3) arr() [3]uint32 { return [3]uint32{d.X, d.Y, d.Z} }

// Threads is X·Y·Z.
func (d Dim3) Threads() uint64 { return uint64(d.X) * uint64(d.Y) * uint64(d.Z) }

func dim3(a [3]uint32) Dim3 { return Dim3{a[0], a[1], a[2]} }

func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// Device is a simulated GPU: an architecture, a global memory and the
// modules loaded into it. Its methods are safe for concurrent use, though
// launches run one at a time.
type Device struct {
	arch     *arch.Arch
	opt      Options
	mem      *engine.Memory
	printMu  sync.Mutex
	launchMu sync.Mutex
	gridID   atomic.Uint64
	ctl      engine.Control
	stack    atomic.Int64
	timer    *timing.Driver // nil in functional mode
	// repeats are the launches timed in detail, so that an identical
	// launch may run functionally and reuse their account (timing mode
	// with sampling; nil otherwise).
	repeats *timing.Repeats
	// memo replays repeated launches on unchanged memory (Options.Replay;
	// nil when off).
	memo *engine.Memo
	// devRT overrides the arch's device runtime limits (SetLimit).
	devRTMu sync.Mutex
	devRT   map[Limit]int
	frees   atomic.Int64
	// check is the engine's check hook: san's (Device.Sanitize), or one
	// that warpsim's own packages install through internal/devhook.
	check engine.Checker
	san   atomic.Pointer[Sanitizer]
}

// NewDevice creates a device of architecture a.
func NewDevice(a *arch.Arch, opt Options) *Device {
	installCheckHook()
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	mem := engine.NewMemory()
	if opt.Backing != nil {
		mem = engine.NewBackedMemory(opt.BackingBase, opt.Backing)
	}
	d := &Device{arch: a, opt: opt, mem: mem}
	if opt.Replay && !opt.Lines {
		d.memo = engine.NewMemo()
	}
	d.stack.Store(int64(opt.StackBytes))
	if opt.StackBytes <= 0 {
		d.stack.Store(engine.DefaultStackBytes)
	}
	if opt.HeapBytes > 0 {
		d.mem.Heap().SetLimit(opt.HeapBytes)
	}
	if opt.Mode == ModeTiming {
		if !opt.Timing.NoSampling {
			d.repeats = timing.NewRepeats()
			d.repeats.SetBudget(opt.Timing.Budget)
		}
		d.timer = timing.New(a, timing.Options{Scheduler: opt.Timing.Scheduler, Sample: !opt.Timing.NoSampling, ClockMHz: opt.Timing.ClockMHz,
			PCStalls: opt.Timing.PCStalls, ShortGrids: opt.Timing.ShortGrids, Program: opt.Timing.Program,
			// A grid of under three waves is timed in full while the
			// budget of detail is not used (it costs little), else for
			// its first wave (internal/timing/sampling.go, shortWindow).
			ShortOneWave: func() bool { return d.repeats == nil || !d.repeats.UnderBudget() },
			// The block scheduler counts the registers the launch check and
			// the metrics count (Kernel.RegsPerThread: the estimate capped by
			// .maxnreg, the GPU's limit and __launch_bounds__), not the bare
			// estimate.
			RegsPerThread: func(fn *ir.Func) int { return regsPerThread(fn, a) }})
	}
	return d
}

// MemoryWritten tells the device that its memory may have been written by
// something other than a launch (a copy, a memset, a program's own write):
// with Options.Replay, the next launch hashes the memory again instead of
// taking the last launch's record of it. Code that writes device memory
// behind the device's back (Memory bytes, a Backing's) calls it.
func (d *Device) MemoryWritten() {
	if d.memo != nil {
		d.memo.Touch()
	}
}

// Limit is a device limit, as cudaDeviceSetLimit names them.
type Limit int

const (
	LimitStackSize      Limit = 0 // cudaLimitStackSize: bytes of stack per thread
	LimitMallocHeapSize Limit = 2 // cudaLimitMallocHeapSize: bytes of device malloc heap
	// cudaLimitDevRuntimeSyncDepth and cudaLimitDevRuntimePendingLaunchCount:
	// the device runtime's limits, enforced under CDP1 (sm_35 to sm_8x).
	LimitDevRuntimeSyncDepth          Limit = 3
	LimitDevRuntimePendingLaunchCount Limit = 4
)

// ErrLimitFixed is SetLimit of the heap size after a kernel that uses
// malloc or free was launched (CUDA's cudaErrorInvalidValue).
var ErrLimitFixed = errors.New("the malloc heap size cannot change after a kernel that uses malloc or free was launched")

// ErrLimitUnsupported is cudaLimitDevRuntimeSyncDepth on a device without
// device-side synchronization (sm_90 on, or before sm_35): CUDA 13 refuses
// it there with cudaErrorUnsupportedLimit, whatever the program was built
// for (testdata/programs7/diag: sm_90, compute_80 and -rdc=true builds on
// the H100 alike).
var ErrLimitUnsupported = errors.New("the device has no device-side synchronization (CDP1): its sync depth limit is not supported")

// SetLimit sets a device limit for the launches that follow.
func (d *Device) SetLimit(l Limit, v uint64) error {
	switch l {
	case LimitStackSize:
		if v > 1<<31 {
			return fmt.Errorf("stack size %d is too large", v)
		}
		d.stack.Store(int64(v))
	case LimitMallocHeapSize:
		if !d.mem.Heap().SetLimit(v) {
			return ErrLimitFixed
		}
	case LimitDevRuntimeSyncDepth, LimitDevRuntimePendingLaunchCount:
		if l == LimitDevRuntimeSyncDepth && !d.arch.DeviceSideSync() {
			return ErrLimitUnsupported
		}
		return d.setDevRuntimeLimit(l, v)
	default:
		return fmt.Errorf("limit %d is not supported", l)
	}
	return nil
}

// GetLimit reads a device limit.
func (d *Device) GetLimit(l Limit) (uint64, error) {
	switch l {
	case LimitStackSize:
		return uint64(d.stack.Load()), nil
	case LimitMallocHeapSize:
		return d.mem.Heap().Limit(), nil
	case LimitDevRuntimeSyncDepth, LimitDevRuntimePendingLaunchCount:
		if l == LimitDevRuntimeSyncDepth && !d.arch.DeviceSideSync() {
			return 0, ErrLimitUnsupported
		}
		d.devRTMu.Lock()
		v, ok := d.devRT[l]
		d.devRTMu.Unlock()
		switch {
		case ok:
		case l == LimitDevRuntimeSyncDepth:
			v = d.arch.DevRuntimeSyncDepth
		default:
			v = d.arch.DevRuntimePendingLaunches
		}
		return uint64(v), nil
	}
	return 0, fmt.Errorf("limit %d is not supported", l)
}

// Interrupt stops the launch running now, if any: it ends with a
// FaultInterrupted report saying where its warps were. It reports whether a
// launch was running. Safe to call from a signal handler's goroutine.
func (d *Device) Interrupt(reason string) bool { return d.ctl.Interrupt(reason) }

// LaunchProgress is how far the launch running now has got.
type LaunchProgress struct {
	Kernel             string
	BlocksDone, Blocks int   // of the grid running now
	WarpInstructions   int64 // so far, in that grid (updated every 2^16 per block)
	Elapsed            time.Duration
	FromDevice         bool // the grid running now was launched from the device
}

// Progress reports the launch running now; ok is false when none is.
func (d *Device) Progress() (p LaunchProgress, ok bool) {
	ep, ok := d.ctl.Progress()
	if !ok {
		return p, false
	}
	name := ep.Kernel
	if s, err := demangle.ToString(name); err == nil {
		name = bareName(s)
	}
	return LaunchProgress{Kernel: name, BlocksDone: ep.BlocksDone, Blocks: ep.Blocks,
		WarpInstructions: ep.Steps, Elapsed: ep.Elapsed, FromDevice: ep.DeviceGrids}, true
}

// Mode is the driver the device's launches run under.
func (d *Device) Mode() Mode {
	if d.timer != nil {
		return ModeTiming
	}
	return ModeFunctional
}

// ClockHz is the SM clock the timing model counts cycles in (0 in
// functional mode).
func (d *Device) ClockHz() float64 {
	if d.timer == nil {
		return 0
	}
	return d.timer.Params().ClockHz
}

// Arch is the device's architecture.
func (d *Device) Arch() *arch.Arch { return d.arch }

// Malloc allocates size bytes of zeroed global memory. The address is
// 256-byte aligned and never 0.
func (d *Device) Malloc(size uint64) (uint64, error) {
	addr, err := d.mem.Alloc(size)
	if s := d.sanitizer(); s != nil && err == nil {
		s.hostAlloc(addr, size)
	}
	return addr, err
}

// sanitizer is the device's public sanitizer, or nil.
func (d *Device) sanitizer() *Sanitizer { return d.san.Load() }

// Alias makes the device addresses [addr, addr+size) reach the bytes of the
// allocation at [dev, dev+size) too: the CUDA runtime's host shadow of a
// __managed__ variable, so a kernel given the host's &x reaches the
// variable. The range must not overlap an allocation.
func (d *Device) Alias(addr, dev, size uint64) error { return d.mem.Alias(addr, dev, size) }

// Unalias removes the alias made at addr: a later access there is an
// access to freed memory. The allocation it aliased stays.
func (d *Device) Unalias(addr uint64) error { return d.mem.FreeAs(addr, "cudaHostUnregister") }

// Free releases an allocation made by Malloc. A later access to it is
// reported as a use after free naming this call ("cudaFree #N").
func (d *Device) Free(addr uint64) error {
	err := d.mem.FreeAs(addr, fmt.Sprintf("cudaFree #%d", d.frees.Load()+1))
	if err == nil {
		d.frees.Add(1)
		if s := d.sanitizer(); s != nil {
			s.hostFree(addr)
		}
	}
	return err
}

// Write copies src to device memory at addr.
func (d *Device) Write(addr uint64, src []byte) error {
	b, err := d.mem.Bytes(addr, uint64(len(src)))
	if err != nil {
		return fmt.Errorf("write of %d bytes: %w", len(src), err)
	}
	copy(b, src)
	if s := d.sanitizer(); s != nil {
		s.hostWrite(d.mem, addr, uint64(len(src)))
	}
	return nil
}

// Read copies device memory at addr into dst.
func (d *Device) Read(addr uint64, dst []byte) error {
	b, err := d.mem.Bytes(addr, uint64(len(dst)))
	if err != nil {
		return fmt.Errorf("read of %d bytes: %w", len(dst), err)
	}
	copy(dst, b)
	return nil
}

// Memset fills n bytes at addr with v.
func (d *Device) Memset(addr uint64, v byte, n uint64) error {
	b, err := d.mem.Bytes(addr, n)
	if err != nil {
		return fmt.Errorf("memset of %d bytes: %w", n, err)
	}
	for i := range b {
		b[i] = v
	}
	if s := d.sanitizer(); s != nil {
		s.hostWrite(d.mem, addr, n)
	}
	return nil
}

// Module is a loaded PTX module.
type Module struct {
	dev     *Device
	name    string
	mod     *engine.Module
	kernels []*Kernel
}

// Kernel is one .entry function of a module.
type Kernel struct {
	m         *Module
	idx       int
	fn        *ir.Func
	demangled string
	// refused says why the device cannot run the kernel (its module calls
	// CDP1's device-side cudaDeviceSynchronize on sm_90 or later); nil when
	// it can.
	refused error
}

// Param is one kernel parameter's place in the parameter buffer.
type Param struct {
	Name                string
	Offset, Size, Align int
	// Type is the PTX type without its dot: "u32", "f32", "u64"; "b8" for a
	// byte array (a struct passed by value).
	Type string
}

func resolveExtern(name string) *engine.Extern {
	f, ok := libdevice.Lookup(name)
	if !ok || f.Impl == nil {
		return nil
	}
	e := &engine.Extern{Fn: f.Impl}
	if len(f.Outs) > 0 {
		e.Out = f.ImplOut
		for _, t := range f.Outs {
			e.OutSizes = append(e.OutSizes, ir.TypeSize(t))
		}
	}
	return e
}

func knownExtern(name string) bool {
	if engine.BuiltinExtern(name) {
		return true
	}
	f, ok := libdevice.Lookup(name)
	return ok && f.Impl != nil
}

// LoadModule parses and lowers PTX source and allocates its module-scope
// variables. Errors print as "file:line:col: message" lines. A construct
// the engine cannot run yet inside a function does not fail the load: the
// kernels that reach it cannot be launched (Launch returns an
// *UnsupportedError naming it; Module.Unsupported lists them), the others
// run.
func (d *Device) LoadModule(filename string, src []byte) (*Module, error) {
	pm, err := ptx.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(pm, d.arch); err != nil {
		return nil, err
	}
	prog, err := ir.Lower(pm, knownExtern)
	if el, ok := err.(ptx.ErrorList); err != nil && (!ok || len(el) != len(prog.Unsupported)) {
		return nil, err
	}
	em, err := engine.Load(d.mem, prog, resolveExtern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	m := &Module{dev: d, name: filename, mod: em}
	refused := d.refuseDeviceSync(filename, prog)
	for _, i := range prog.Kernels() {
		f := prog.Funcs[i]
		k := &Kernel{m: m, idx: i, fn: f, demangled: f.Name, refused: refused}
		if s, err := demangle.ToString(f.Name); err == nil {
			k.demangled = s
		}
		m.kernels = append(m.kernels, k)
	}
	return m, nil
}

// refuseDeviceSync is the error every kernel of a module that calls CDP1's
// device-side cudaDeviceSynchronize gets on sm_90 and later, where the
// driver does not load such a module: an H100 ran nvcc 13's sm_80 build of
// examples/lessons/nested4.cu and every launch, of whichever kernel, failed with
// cudaErrorUnsupportedDevSideSync (testdata/cdp/h100/run_nested4_sm80.txt).
func (d *Device) refuseDeviceSync(filename string, prog *ir.Program) error {
	if d.arch.DeviceSideSync() {
		return nil
	}
	syncs := deviceSyncCallers(prog)
	for i, f := range prog.Funcs {
		if syncs[i] && f.CallsDeviceSync() {
			return &DevSideSyncError{Kernel: f.Name, Msg: fmt.Sprintf(
				"%s: %s calls cudaDeviceSynchronize from device code (CDP1), which %s (sm_%d) cannot run: sm_90 and later GPUs refuse the whole module "+
					"(cudaErrorUnsupportedDevSideSync), and CUDA 12 compiles it only for sm_80 and older with -DCUDA_FORCE_CDP1_IF_SUPPORTED; "+
					"simulate a GPU that has it (--arch k40 or --arch a100, WARPSIM_ARCH=k40), or rewrite it for CDP2 (no device-side synchronization: "+
					"launch the work that waits for the children into cudaStreamTailLaunch)",
				filename, demangleName(f.Name), d.arch.Name, d.arch.ComputeCapability())}
		}
	}
	return nil
}

func demangleName(s string) string {
	if d, err := demangle.ToString(s); err == nil {
		return d
	}
	return s
}

// deviceSyncCallers marks the functions that call cudaDeviceSynchronize
// from the device, directly or through the functions they call.
func deviceSyncCallers(p *ir.Program) []bool {
	marks := make([]bool, len(p.Funcs))
	for i, f := range p.Funcs {
		marks[i] = f.CallsDeviceSync()
	}
	for changed := true; changed; {
		changed = false
		for i, f := range p.Funcs {
			for _, c := range f.Calls {
				if !marks[i] && c.Callee >= 0 && int(c.Callee) < len(marks) && marks[c.Callee] {
					marks[i], changed = true, true
				}
			}
		}
	}
	return marks
}

// DevSideSyncError is the launch of a kernel of a module that calls CDP1's
// device-side cudaDeviceSynchronize on sm_90 or later, which refuses the
// whole module (cudaErrorUnsupportedDevSideSync). CUDA loads modules
// lazily, so it comes with each launch.
type DevSideSyncError struct {
	Kernel string
	Msg    string
}

func (e *DevSideSyncError) Error() string { return e.Msg }

// minPendingLaunches is the least cudaLimitDevRuntimePendingLaunchCount.
const minPendingLaunches = 32

// setDevRuntimeLimit is SetLimit of the device runtime's limits: later
// launches enforce v instead of the arch's default.
func (d *Device) setDevRuntimeLimit(l Limit, v uint64) error {
	if !d.arch.DynamicParallelism() || v > 1<<31 {
		return fmt.Errorf("limit %d = %d is not valid on %s", l, v, d.arch.Name)
	}
	if l == LimitDevRuntimePendingLaunchCount {
		// The H100 raises 0, 1 and 2 to 32 (they read back as 32:
		// testdata/hostile/h100.txt, cdp_pending); 0 is no "unlimited".
		v = max(v, minPendingLaunches)
	}
	d.devRTMu.Lock()
	defer d.devRTMu.Unlock()
	if d.devRT == nil {
		d.devRT = map[Limit]int{}
	}
	d.devRT[l] = int(v)
	return nil
}

// devRuntimeLimits are the device runtime limits launches enforce: the
// arch's CDP1 figures (or what SetLimit set) on sm_35 to sm_8x. Under CDP2
// (sm_90 on) none is enforced: the H100 ran a chain of 30 nested grids and
// 5000 children of one thread without an error
// (examples/lessons/h100/h100_seed_runs.txt).
func (d *Device) devRuntimeLimits() engine.DevRTLimits {
	a := d.arch
	if !a.DeviceSideSync() {
		return engine.DevRTLimits{MaxThreadsPerBlock: a.MaxThreadsPerBlock, MaxSharedPerBlock: a.SharedPerBlock}
	}
	lim := engine.DevRTLimits{MaxDepth: a.DevRuntimeMaxDepth, SyncDepth: a.DevRuntimeSyncDepth, PendingLaunches: a.DevRuntimePendingLaunches,
		MaxThreadsPerBlock: a.MaxThreadsPerBlock, MaxSharedPerBlock: a.SharedPerBlock}
	d.devRTMu.Lock()
	defer d.devRTMu.Unlock()
	if v, ok := d.devRT[LimitDevRuntimeSyncDepth]; ok {
		lim.SyncDepth = v
	}
	if v, ok := d.devRT[LimitDevRuntimePendingLaunchCount]; ok {
		lim.PendingLaunches = v
	}
	return lim
}

// checkTarget rejects modules built for a newer architecture than the
// device's, as the CUDA driver does.
func checkTarget(m *ptx.Module, a *arch.Arch) error {
	for _, t := range m.Target {
		var sm int
		if _, err := fmt.Sscanf(t, "sm_%d", &sm); err == nil {
			if sm > a.ComputeCapability() {
				return fmt.Errorf("%s: module targets %s, which %s (sm_%d) cannot run", m.File.Name(), t, a.Name, a.ComputeCapability())
			}
		}
	}
	return nil
}

// Kernel finds a kernel by its PTX name, its full demangled name
// ("void add<int>(int*, int)") or its bare demangled name ("add<int>" or "add").
func (m *Module) Kernel(name string) (*Kernel, error) {
	for _, k := range m.kernels {
		if k.fn.Name == name || k.demangled == name {
			return k, nil
		}
	}
	var matches []*Kernel
	for _, k := range m.kernels {
		if bareName(k.demangled) == name || baseName(k.demangled) == name {
			matches = append(matches, k)
		}
	}
	if len(matches) == 1 {
		return matches[0], nil
	}
	var names []string
	for _, k := range m.kernels {
		names = append(names, k.fn.Name)
	}
	if len(matches) > 1 {
		var ms []string
		for _, k := range matches {
			ms = append(ms, k.demangled)
		}
		return nil, fmt.Errorf("kernel name %q is ambiguous in %s: %s", name, m.name, strings.Join(ms, "; "))
	}
	return nil, fmt.Errorf("no kernel %q in %s (kernels: %s)", name, m.name, strings.Join(names, ", "))
}

// bareName strips the return type and parameter list from a demangled
// name: "void add<int>(int*, int)" → "add<int>".
func bareName(s string) string {
	depth := 0
	end := len(s)
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				end = i
				i = -1
			}
		}
	}
	s = s[:end]
	depth = 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '>':
			depth++
		case '<':
			depth--
		case ' ':
			if depth == 0 {
				return s[i+1:]
			}
		}
	}
	return s
}

// baseName also strips template arguments: "add<int>" → "add".
func baseName(s string) string {
	b := bareName(s)
	if i := strings.IndexByte(b, '<'); i > 0 {
		return b[:i]
	}
	return b
}

// kernelByIndex is the kernel of function index i (device-side launches
// name kernels by index).
func (m *Module) kernelByIndex(i int) *Kernel {
	for _, k := range m.kernels {
		if k.idx == i {
			return k
		}
	}
	return nil
}

// Unsupported lists the module's kernels that cannot run, one line each:
// "kernel NAME cannot run: REASON" (the reason with its file:line:col).
func (m *Module) Unsupported() []string { return m.mod.Unsupported() }

// Unsupported is why the kernel cannot run, or "" when it can.
func (k *Kernel) Unsupported() string { return k.m.mod.KernelUnsupported(k.idx) }

// UnsupportedError is a launch of a kernel that needs something warpsim
// cannot run yet.
type UnsupportedError struct {
	Kernel string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("kernel %s cannot run: %s", e.Kernel, e.Reason)
}

func (m *Module) kernelByName(name string) *Kernel {
	for _, k := range m.kernels {
		if k.fn.Name == name {
			return k
		}
	}
	return nil
}

// Kernels lists the module's kernels in declaration order.
func (m *Module) Kernels() []*Kernel { return m.kernels }

// Global returns the device address and size of a module-scope .global or
// .const variable.
func (m *Module) Global(name string) (addr, size uint64, ok bool) {
	i, found := m.mod.Prog.VarByName[name]
	if !found || m.mod.VarAddr[i] == 0 {
		return 0, 0, false
	}
	return m.mod.VarAddr[i], uint64(m.mod.Prog.Vars[i].Size), true
}

// Name is the kernel's PTX name.
func (k *Kernel) Name() string { return k.fn.Name }

// DemangledName is the C++ name, or the PTX name when it is not mangled.
func (k *Kernel) DemangledName() string { return k.demangled }

// Params lists the parameters' places in the parameter buffer.
func (k *Kernel) Params() []Param {
	ps := make([]Param, len(k.fn.Params))
	for i, p := range k.fn.Params {
		ps[i] = Param{Name: p.Name, Offset: p.Offset, Size: p.Size, Align: p.Align, Type: strings.TrimPrefix(p.Type.String(), ".")}
	}
	return ps
}

// ParamBytes is the size of the packed parameter buffer.
func (k *Kernel) ParamBytes() int { return k.fn.ParamBytes }

// RegsPerThread is the registers per thread the kernel is taken to use, for
// occupancy and the launch check: the lowering's estimate from the PTX,
// capped as ptxas caps its allocation — by .maxnreg, by the device's most
// registers per thread (ptxas spills rather than exceed it), and by the
// kernel's own bound on threads per block (.maxntid or .reqntid, from
// __launch_bounds__: ptxas allocates so that a block of that size fits).
func (k *Kernel) RegsPerThread() int { return regsPerThread(k.fn, k.m.dev.arch) }

// CompiledRegs is the registers per thread ptxas is taken to have
// allocated, what cudaFuncAttributes.numRegs reports: RegsPerThread
// without the least a launch is given on sm_90 (an empty kernel reports 8
// there, and Nsight Compute's registers per thread 16 for its launch:
// testdata/clusters/cluster_launch.h100.txt).
func (k *Kernel) CompiledRegs() int { return capRegs(k.fn, k.fn.RegEstimate, k.m.dev.arch) }

// regsPerThread is Kernel.RegsPerThread of function fn on a GPU a.
func regsPerThread(fn *ir.Func, a *arch.Arch) int {
	r := fn.RegEstimate
	if a.ComputeCapability() >= 90 && r < hopperMinRegs {
		r = hopperMinRegs
	}
	return capRegs(fn, r, a)
}

// capRegs caps r registers per thread of function fn as ptxas caps its
// allocation on a GPU a (see Kernel.RegsPerThread).
func capRegs(fn *ir.Func, r int, a *arch.Arch) int {
	if fn.MaxNReg > 0 && r > fn.MaxNReg {
		r = fn.MaxNReg
	}
	if a.RegsPerThread > 0 && r > a.RegsPerThread {
		r = a.RegsPerThread
	}
	if bound := boundThreads(fn); bound > 0 {
		for r > 1 && a.MaxThreadsPerBlockFor(r) < bound {
			r--
		}
	}
	return r
}

// hopperMinRegs is the fewest registers a kernel's launch is given on
// sm_90: every kernel of the recordings whose PTX needs fewer (an empty
// kernel, an element-wise add, Triton's fused element-wise kernels: ten
// kernels of testdata/occupancy/ptxas/recorded.tsv) has 16 registers per
// thread under Nsight Compute on the H100, none fewer (its
// cudaFuncAttributes.numRegs, ptxas's count, may be fewer: CompiledRegs).
const hopperMinRegs = 16

// RegsPerThreadOn is the registers per thread the kernel named kernel (its
// PTX name) of the PTX module src takes on a GPU a, as Kernel.RegsPerThread
// says once the module is loaded: for the occupancy calculator, which
// answers for any GPU, one the module's target is too new for included.
func RegsPerThreadOn(a *arch.Arch, filename string, src []byte, kernel string) (int, error) {
	pm, err := ptx.Parse(filename, src)
	if err != nil {
		return 0, err
	}
	prog, err := ir.Lower(pm, knownExtern)
	if el, ok := err.(ptx.ErrorList); err != nil && (!ok || len(el) != len(prog.Unsupported)) {
		return 0, err
	}
	for _, fn := range prog.Funcs {
		if fn.Name == kernel {
			return regsPerThread(fn, a), nil
		}
	}
	return 0, fmt.Errorf("%s: no kernel %q", filename, kernel)
}

// BoundThreads is the most threads per block the kernel's own bounds
// allow (.maxntid or .reqntid, from __launch_bounds__), 0 when it has none.
func (k *Kernel) BoundThreads() int { return boundThreads(k.fn) }

func boundThreads(fn *ir.Func) int {
	for _, b := range [][3]int{fn.MaxNTID, fn.ReqNTID} {
		if b[0] > 0 {
			return b[0] * max(b[1], 1) * max(b[2], 1)
		}
	}
	return 0
}

// StaticSharedBytes is the kernel's static shared memory per block.
func (k *Kernel) StaticSharedBytes() int { return k.m.mod.Prog.StaticShared[k.idx] }

// LocalBytes is the kernel's local memory per thread (its .local variables).
func (k *Kernel) LocalBytes() int { return k.fn.LocalBytes }

// ConstBytes is the module's __constant__ data, what
// cudaFuncAttributes.constSizeBytes reports for every kernel of the module:
// the .const variables laid out one after another at their alignments.
func (k *Kernel) ConstBytes() int {
	n := 0
	for _, v := range k.m.mod.Prog.Vars {
		if v.Space != ptx.SpaceConst || v.Extern {
			continue
		}
		if a := max(v.Align, 1); n%a != 0 {
			n += a - n%a
		}
		n += v.Size
	}
	return n
}

// Module is the module the kernel belongs to.
func (k *Kernel) Module() *Module { return k.m }

// LaunchConfig is a launch's shape.
type LaunchConfig struct {
	Grid, Block Dim3
	SharedBytes uint32
	// Cooperative is a cooperative launch (cudaLaunchCooperativeKernel):
	// every block is resident at once, so the grid may synchronize
	// (cooperative_groups::grid_group::sync()); a grid larger than the
	// occupancy calculator's blocks per SM times the SM count is refused.
	Cooperative bool
	// Cluster is the thread-block cluster shape (cudaLaunchAttributeClusterDimension):
	// zero for none, or the kernel's __cluster_dims__ (.reqnctapercluster).
	// The grid must be a whole number of clusters of at most 16 blocks
	// (docs/clusters.md).
	Cluster Dim3
}

// LaunchResult is what a launch produced besides memory contents.
type LaunchResult struct {
	Kernel *Kernel
	Config LaunchConfig
	// Counters are the launch as the host sees it: its grid and every grid
	// launched from the device under it, summed (the sum of Grids'
	// counters).
	Counters metrics.Counters
	// Duration is the launch's simulated time on the GPU in nanoseconds,
	// from its start to the end of its last grid (timing mode; 0 in
	// functional mode).
	DurationNS float64
	// Grids are the grids the launch ran, each with its own counters:
	// Grids[0] is the host-launched grid, the rest were launched by device
	// code (dynamic parallelism), in the order they ran.
	Grids []GridResult
}

// GridResult is one grid of a launch.
type GridResult struct {
	Kernel *Kernel
	Config LaunchConfig
	// FromDevice marks a grid launched by device code; Parent is the index
	// in LaunchResult.Grids of the grid that launched it (-1 for the
	// host's), Depth its nesting depth (0 for the host's).
	FromDevice    bool
	Parent, Depth int
	// Counters are this grid's own counts, not its children's;
	// DeviceLaunches counts the grids it launched.
	Counters metrics.Counters
	// Elapsed is the host time simulating this grid alone took (children
	// run after their parent and are timed apart).
	Elapsed time.Duration
	// Timing is the timing model's account of this grid (cycles, active
	// warps, stalls, DRAM traffic); nil in functional mode.
	Timing *metrics.Timing
	// Lines are the per-instruction counts of each function the grid ran
	// (Options.Lines; nil when off).
	Lines []metrics.FuncLines
	// Replayed marks a grid that was not executed: the launch repeated a
	// recorded one on the same memory and took its change to memory and
	// its counters (Options.Replay).
	Replayed bool
}

// DurationNS is the grid's simulated duration in nanoseconds (0 without
// timing).
func (g *GridResult) DurationNS() float64 {
	if g.Timing == nil || g.Timing.ClockHz == 0 {
		return 0
	}
	return float64(g.Timing.Cycles) * 1e9 / g.Timing.ClockHz
}

// ConfigError is an invalid launch configuration, reported before any
// thread runs (arch.CheckLaunch).
type ConfigError struct {
	Kernel string
	Msg    string
	// Code is the cudaError_t the CUDA driver returns for it
	// (arch.ErrInvalidValue, ...).
	Code int
}

func (e *ConfigError) Error() string { return fmt.Sprintf("launch of %s: %s", e.Kernel, e.Msg) }

// Launch runs kernel k to completion. params is the packed parameter
// buffer. The error is a *Fault when the kernel faulted (the counters up to
// the fault are in the result) or a *ConfigError.
func (d *Device) Launch(k *Kernel, cfg LaunchConfig, params []byte) (*LaunchResult, error) {
	if err := d.checkConfig(k, cfg, params); err != nil {
		return nil, err
	}
	if k.refused != nil {
		return nil, k.refused
	}
	d.launchMu.Lock()
	defer d.launchMu.Unlock()
	ec := &engine.Config{
		Kernel:         k.idx,
		Grid:           cfg.Grid.arr(),
		Block:          cfg.Block.arr(),
		DynShared:      cfg.SharedBytes,
		Params:         params,
		Stdout:         d.opt.Stdout,
		StdoutMu:       &d.printMu,
		Workers:        d.opt.Workers,
		StepLimit:      d.opt.StepLimit,
		Progress:       d.opt.Progress,
		Timeout:        d.opt.Timeout,
		Control:        &d.ctl,
		StackBytes:     int(d.stack.Load()),
		SMs:            d.arch.SMs,
		MaxWarpsPerSM:  d.arch.MaxWarpsPerSM,
		ITS:            d.arch.IndependentThreadScheduling(),
		GridID:         d.gridID.Add(1),
		ClockMHz:       d.arch.ClockKHz / 1000,
		SharedUnit:     d.arch.SharedAllocUnit,
		SharedReserved: d.arch.ReservedSharedPerBlock,
		DevRT:          d.devRuntimeLimits(),
		Check:          d.check,
		Cooperative:    cfg.Cooperative,
		Lines:          d.opt.Lines,
		Cluster:        cfg.Cluster.arr(),
		Memo:           d.memo,
	}
	key, reuse, shape := "", false, false
	switch {
	case d.check != nil:
		// A sanitizer runs the functional driver, one block at a time.
		ec.Workers = 1
		_, ec.CheckWave = d.CooperativeLimit(k, cfg.Block, cfg.SharedBytes)
	case d.timer != nil:
		if d.repeats != nil && d.repeats.Eligible(k.m.mod.Prog.Funcs, k.idx) {
			key = d.repeats.Key(k.m.mod.Prog, k.idx, ec.Grid, ec.Block, ec.Cluster, cfg.SharedBytes, cfg.Cooperative, params)
			reuse = d.repeats.Reuse(key)
			if !reuse && d.opt.Timing.Similar && d.repeats.ReuseShape(key) {
				reuse, shape = true, true
			}
		}
		if !reuse {
			// (A reused launch runs on the functional driver.)
			ec.Driver = d.timer
			ec.TimeBaseNS = uint64(float64(d.timer.Now) * 1e9 / d.timer.Params().ClockHz)
		}
	}
	er, err := k.m.mod.Launch(ec)
	if s := d.san.Load(); s != nil {
		s.endLaunch()
	}
	res := &LaunchResult{Kernel: k, Config: cfg, Counters: er.Total(), Grids: make([]GridResult, len(er.Grids))}
	for i, g := range er.Grids {
		gk := k.m.kernelByIndex(g.Kernel)
		res.Grids[i] = GridResult{
			Kernel:     gk,
			Config:     LaunchConfig{Grid: dim3(g.Grid), Block: dim3(g.Block), SharedBytes: g.DynShared},
			FromDevice: g.Parent >= 0, Parent: g.Parent, Depth: g.Depth,
			Counters: g.Counters, Elapsed: g.Elapsed, Timing: g.Timing,
			Lines: g.Lines, Replayed: g.Replayed,
		}
	}
	if key != "" && err == nil && len(res.Grids) == 1 {
		if reuse {
			if shape {
				res.Grids[0].Timing = d.repeats.ReusedShape(key, res.Grids[0].Counters, d.timer.Now)
			} else {
				res.Grids[0].Timing = d.repeats.Reused(key, res.Grids[0].Counters, d.timer.Now)
			}
			d.timer.Now += res.Grids[0].Timing.Cycles
		} else if res.Grids[0].Timing != nil {
			d.repeats.Timed(key, res.Grids[0].Counters, res.Grids[0].Timing)
		}
	}
	if d.timer != nil && len(er.Grids) > 0 {
		var first, last uint64 = ^uint64(0), 0
		for _, g := range res.Grids {
			if g.Timing != nil {
				first = min(first, g.Timing.StartCycle)
				last = max(last, g.Timing.StartCycle+g.Timing.Cycles)
			}
		}
		if last > first {
			res.DurationNS = float64(last-first) * 1e9 / d.timer.Params().ClockHz
		}
	}
	if err != nil {
		var ef *engine.Fault
		if errors.As(err, &ef) {
			return res, newFault(k, ef)
		}
		var ue *engine.UnsupportedError
		if errors.As(err, &ue) {
			name := ue.Kernel
			if gk := k.m.kernelByName(name); gk != nil {
				name = gk.demangled
			}
			return res, &UnsupportedError{Kernel: name, Reason: ue.Reason}
		}
		return res, err
	}
	return res, nil
}

// CheckLaunch answers whether Launch would accept the configuration,
// without running anything: nil, or the *ConfigError Launch would return.
func (d *Device) CheckLaunch(k *Kernel, cfg LaunchConfig, params []byte) error {
	return d.checkConfig(k, cfg, params)
}

func (d *Device) checkConfig(k *Kernel, cfg LaunchConfig, params []byte) error {
	if e := d.arch.CheckLaunch(k.limits(), arch.LaunchShape{Grid: cfg.Grid.arr(), Block: cfg.Block.arr(),
		DynamicShared: int(cfg.SharedBytes), ParamBytes: len(params), Cooperative: cfg.Cooperative}); e != nil {
		return &ConfigError{Kernel: k.fn.Name, Msg: e.Msg, Code: e.Code}
	}
	if msg := checkCluster(k, cfg); msg != "" {
		return &ConfigError{Kernel: k.fn.Name, Msg: msg, Code: arch.ErrInvalidClusterSize}
	}
	return nil
}

// limits are the kernel's facts the launch checks use. A launch through
// this API (and so a launch file) may use as much dynamic shared memory as
// the device allows a block, as if the program had raised the kernel's
// cudaFuncAttributeMaxDynamicSharedMemorySize to the maximum; the CUDA
// runtime server passes the attribute the program set.
func (k *Kernel) limits() arch.KernelLimits {
	a := k.m.dev.arch
	return arch.KernelLimits{Name: k.fn.Name, RegsPerThread: k.RegsPerThread(), StaticShared: k.StaticSharedBytes(),
		ParamBytes: k.fn.ParamBytes, ReqNTID: k.fn.ReqNTID, MaxNTID: k.fn.MaxNTID,
		MaxDynamicShared: max(a.SharedPerBlockOptin, a.SharedPerBlock) - k.StaticSharedBytes()}
}

// LaunchLimits are the kernel's facts a launch is checked against
// (arch.CheckLaunch), with the default dynamic shared memory limit
// (MaxDynamicShared < 0) that a CUDA program has until it calls
// cudaFuncSetAttribute.
func (k *Kernel) LaunchLimits() arch.KernelLimits {
	l := k.limits()
	l.MaxDynamicShared = -1
	return l
}

// CooperativeLimit is the largest grid a cooperative launch of k with this
// block and dynamic shared memory may have, as the driver computes it: the
// occupancy calculator's blocks per SM (per) times the SM count.
func (d *Device) CooperativeLimit(k *Kernel, block Dim3, dynShared uint32) (per, most int) {
	occ := d.arch.Occupancy(arch.OccupancyInput{BlockSize: int(block.Threads()), RegsPerThread: k.RegsPerThread(),
		StaticShared: k.StaticSharedBytes(), DynamicShared: int(dynShared)})
	return occ.BlocksPerSM, occ.BlocksPerSM * d.arch.SMs
}
