package cudart

import (
	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
)

// Device is what the runtime needs from the simulator: warpsim.Device, seen
// through a small adapter (sim.go), or a fake in tests. Its allocations
// live in the Backing it was made with (the window shared with the
// program), where the server reads and writes them itself.
type Device interface {
	Arch() *arch.Arch
	Malloc(size uint64) (uint64, error)
	Free(addr uint64) error
	LoadModule(filename string, ptx []byte) (Module, error)
	// Launch runs k to completion. A kernel fault is returned as a *Fault;
	// a launch the device refuses as a *ConfigError. The server has
	// checked the launch (arch.CheckLaunch) before it queued it.
	Launch(k Kernel, cfg LaunchConfig, params []byte) (*Launched, error)
}

// Backing holds a device's allocations.
type Backing = warpsim.Backing

// Module is a loaded PTX module.
type Module interface {
	Kernel(name string) (Kernel, error)
	Global(name string) (addr, size uint64, ok bool)
}

// Kernel is one entry function of a module.
type Kernel interface {
	Name() string
	DemangledName() string
	Params() []Param
	ParamBytes() int
	RegsPerThread() int
	// CompiledRegs is what cudaFuncAttributes.numRegs reports (ptxas's
	// count; a launch may be given more: RegsPerThread).
	CompiledRegs() int
	StaticSharedBytes() int
	LocalBytes() int
	// ConstBytes is the module's __constant__ bytes, what
	// cudaFuncAttributes.constSizeBytes reports.
	ConstBytes() int
	// BoundThreads is the kernel's own limit on threads per block
	// (__launch_bounds__), 0 when it has none.
	BoundThreads() int
	// LaunchLimits are what its launches are checked against
	// (arch.CheckLaunch), with the default dynamic shared memory limit.
	LaunchLimits() arch.KernelLimits
}

// Param, Dim3 and LaunchConfig are the API's: a parameter's place in the
// parameter buffer, a grid or block shape, a launch's shape.
type (
	Param        = warpsim.Param
	Dim3         = warpsim.Dim3
	LaunchConfig = warpsim.LaunchConfig
)

// Launched is what a completed launch reports.
type Launched struct {
	// Counters are the launched grid's own counts; those of the grids it
	// launched from the device are in Children.
	Counters metrics.Counters
	// Nanos is the launch's simulated duration, from its start to the end
	// of its last grid, children included; 0 when no timing model ran, and
	// the runtime then advances its clock by the host time the simulation
	// took (timing.go's kernelNanos).
	Nanos int64
	// GridNanos is the host-launched grid's own simulated duration (0
	// without the timing model).
	GridNanos int64
	// Replayed: the launch was replayed, not executed
	// (warpsim.Options.Replay).
	Replayed bool
	// Timing is the timing model's account of the host-launched grid (nil
	// without it): cycles, occupancy, stalls, blocks on SMs.
	Timing *metrics.Timing
	// Lines are the host-launched grid's per-instruction counts
	// (WARPSIM_PROFILE_LINES=1; nil otherwise).
	Lines []metrics.FuncLines
	// Children are the grids device code launched under this one (dynamic
	// parallelism, at any depth), in the order they ran.
	Children []ChildGrid
}

// ChildGrid is a grid launched from the device.
type ChildGrid struct {
	Kernel   Kernel
	Config   LaunchConfig
	Counters metrics.Counters // its own counts
	// HostNanos is the host time simulating it took: without the timing
	// model, its only duration.
	HostNanos int64
	// Nanos is its simulated duration (0 without the timing model).
	Nanos int64
	// Timing is the timing model's account of it (nil without it).
	Timing *metrics.Timing
}

// duration is the grid's simulated duration where there is one, else the
// host time its simulation took.
func (c ChildGrid) duration() int64 {
	if c.Nanos > 0 {
		return c.Nanos
	}
	return c.HostNanos
}

// Fault is a kernel fault: the CUDA error it raises and the report for the
// program's stderr.
type Fault struct {
	Code   Error
	Report string
	// Interrupted: the launch was stopped by an interrupt (SIGINT); the
	// server reports it at once and stops (ErrInterrupted).
	Interrupted bool
}

func (f *Fault) Error() string { return f.Report }

// ConfigError is a launch the device refuses before running it; its Code
// is the cudaError_t.
type ConfigError = warpsim.ConfigError
