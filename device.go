// Device: its options, the drivers (Mode, TimingOptions), creation and the questions a running device answers.

package warpsim

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ianlancetaylor/demangle"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/devmem"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/timing"
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

// Backing supplies the bytes of global-memory allocations (Bytes: size
// zeroed, 8-byte aligned bytes for the allocation at base, or an error when
// the host cannot back them; Release: the allocation at base is freed). It
// is declared once, in the leaf package devmem, which the engine uses too.
type Backing = devmem.Backing

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
