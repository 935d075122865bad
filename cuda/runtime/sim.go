package runtime

import (
	"errors"
	"io"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// NewSimDevice returns the simulator as a Device maker: a warpsim.Device
// whose printf output goes to printf, whose block completions go to
// progress (when not nil), and whose allocations live in mem from base.
// set's Workers, StepLimit and Timeout tune it.
func NewSimDevice(set Settings) func(a *arch.Arch, printf io.Writer, progress func(done, total int), mem Backing, base uint64) Device {
	return func(a *arch.Arch, printf io.Writer, progress func(done, total int), mem Backing, base uint64) Device {
		opt := warpsim.Options{Stdout: printf, Progress: progress, Workers: set.Workers, StepLimit: set.StepLimit,
			Backing: mem, BackingBase: base, Mode: set.Mode, Timeout: set.Timeout}
		return &simDevice{Device: warpsim.NewDevice(a, opt)}
	}
}

type simDevice struct{ *warpsim.Device }

func (d *simDevice) LoadModule(filename string, ptx []byte) (Module, error) {
	m, err := d.Device.LoadModule(filename, ptx)
	if err != nil {
		return nil, err
	}
	return simModule{m}, nil
}

type simModule struct{ *warpsim.Module }

func (m simModule) Kernel(name string) (Kernel, error) {
	k, err := m.Module.Kernel(name)
	if err != nil {
		return nil, err
	}
	return simKernel{k}, nil
}

type simKernel struct{ *warpsim.Kernel }

func (k simKernel) Params() []Param {
	var ps []Param
	for _, p := range k.Kernel.Params() {
		ps = append(ps, Param{Offset: p.Offset, Size: p.Size})
	}
	return ps
}

// faultCodes is the CUDA error each kind of kernel fault raises on a GPU.
var faultCodes = map[warpsim.FaultKind]Error{
	warpsim.FaultOutOfBounds:   ErrorIllegalAddress,
	warpsim.FaultMisaligned:    ErrorMisalignedAddress,
	warpsim.FaultTrap:          ErrorLaunchFailure,
	warpsim.FaultIllegal:       ErrorIllegalInstruction,
	warpsim.FaultStackOverflow: ErrorIllegalAddress, // testdata/programs/stack_overflow.h100.txt
	warpsim.FaultAssert:        ErrorAssert,
	warpsim.FaultHeap:          ErrorLaunchFailure, // a double free: testdata/harden/h100/badfree1.txt
	warpsim.FaultInterrupted:   ErrorLaunchFailure,
	warpsim.FaultTimeout:       ErrorLaunchTimeout,
	// A GPU hangs on these; the simulator stops the kernel instead and
	// reports the watchdog's code.
	warpsim.FaultWatchdog:        ErrorLaunchTimeout,
	warpsim.FaultBarrierDeadlock: ErrorLaunchTimeout,
}

func simConfig(cfg LaunchConfig) warpsim.LaunchConfig {
	return warpsim.LaunchConfig{
		Grid:        warpsim.Dim3{X: cfg.Grid.X, Y: cfg.Grid.Y, Z: cfg.Grid.Z},
		Block:       warpsim.Dim3{X: cfg.Block.X, Y: cfg.Block.Y, Z: cfg.Block.Z},
		SharedBytes: cfg.SharedBytes,
		Cooperative: cfg.Cooperative,
		Cluster:     warpsim.Dim3{X: cfg.Cluster.X, Y: cfg.Cluster.Y, Z: cfg.Cluster.Z},
	}
}

// CheckLaunch: the server has checked the shape, shared memory and
// parameter size already; what is left is a block the kernel's own bounds
// (.maxntid, .reqntid: __launch_bounds__) exclude. CUDA documents
// cudaErrorLaunchOutOfResources for a launch with too many threads for the
// kernel, but the H100 (CUDA 13, driver 580) returns
// cudaErrorInvalidValue: testdata/programs/error_config.h100.txt.
func (d *simDevice) CheckLaunch(k Kernel, cfg LaunchConfig, params []byte) error {
	sk, ok := k.(simKernel)
	if !ok {
		return errors.New("warpsim runtime: kernel from another device")
	}
	if err := d.Device.CheckLaunch(sk.Kernel, simConfig(cfg), params); err != nil {
		return &ConfigError{Code: ErrorInvalidValue, Msg: err.Error()}
	}
	return nil
}

func (d *simDevice) Launch(k Kernel, cfg LaunchConfig, params []byte) (*Launched, error) {
	sk, ok := k.(simKernel)
	if !ok {
		return nil, errors.New("warpsim runtime: kernel from another device")
	}
	res, err := d.Device.Launch(sk.Kernel, warpsim.LaunchConfig{
		Grid:        warpsim.Dim3{X: cfg.Grid.X, Y: cfg.Grid.Y, Z: cfg.Grid.Z},
		Block:       warpsim.Dim3{X: cfg.Block.X, Y: cfg.Block.Y, Z: cfg.Block.Z},
		SharedBytes: cfg.SharedBytes,
		Cooperative: cfg.Cooperative,
		Cluster:     warpsim.Dim3{X: cfg.Cluster.X, Y: cfg.Cluster.Y, Z: cfg.Cluster.Z},
	}, params)
	var f *warpsim.Fault
	var ce *warpsim.ConfigError
	var dse *warpsim.DevSideSyncError
	switch {
	case errors.As(err, &dse):
		// A module the arch cannot run (CDP1's device-side
		// cudaDeviceSynchronize on sm_90 and later): each launch fails as
		// on the H100 (testdata/cdp/h100/run_nested4_sm80.txt).
		return nil, &ConfigError{Code: ErrorUnsupportedDevSideSync, Msg: dse.Error()}
	case err == nil:
		// The timing model's duration, when it ran (WARPSIM_MODE=timing),
		// is the launch's time on the streams' clock (timing.go).
		l := &Launched{Counters: res.Grids[0].Counters, Nanos: int64(res.DurationNS), GridNanos: int64(res.Grids[0].DurationNS()),
			Timing: res.Grids[0].Timing}
		for _, g := range res.Grids[1:] {
			c := g.Config
			l.Children = append(l.Children, ChildGrid{
				Kernel: simKernel{g.Kernel},
				Config: LaunchConfig{
					Grid:        Dim3{c.Grid.X, c.Grid.Y, c.Grid.Z},
					Block:       Dim3{c.Block.X, c.Block.Y, c.Block.Z},
					SharedBytes: c.SharedBytes,
				},
				Counters:  g.Counters,
				HostNanos: g.Elapsed.Nanoseconds(),
				Nanos:     int64(g.DurationNS()),
				Timing:    g.Timing,
			})
		}
		return l, nil
	case errors.As(err, &f):
		code, ok := faultCodes[f.Kind]
		if !ok {
			code = ErrorLaunchFailure
		}
		if f.Kind == warpsim.FaultAssert && f.Output != "" {
			// The GPU's own lines, on stderr, as CUDA writes them.
			return nil, &Fault{Code: code, Report: f.Output}
		}
		return nil, &Fault{Code: code, Report: "warpsim: " + f.Error(), Interrupted: f.Kind == warpsim.FaultInterrupted}
	case errors.As(err, &ce):
		// The server has checked the shape, shared memory and parameter
		// size already; what is left is a block the kernel's own bounds
		// (.maxntid, .reqntid: __launch_bounds__) exclude. CUDA documents
		// cudaErrorLaunchOutOfResources for a launch with too many threads
		// for the kernel, but the H100 (CUDA 13, driver 580) returns
		// cudaErrorInvalidValue: testdata/programs/error_config.h100.txt.
		return nil, &ConfigError{Code: ErrorInvalidValue, Msg: ce.Error()}
	}
	return nil, err
}

// SetLimit and GetLimit are cudaDeviceSetLimit and cudaDeviceGetLimit of
// the stack (0) and malloc heap (2) sizes.
func (d *simDevice) SetLimit(limit uint32, v uint64) Error {
	if d.Device.SetLimit(warpsim.Limit(limit), v) != nil {
		return ErrorInvalidValue // the heap after a kernel used it: testdata/programs/device_malloc.h100.txt
	}
	return Success
}

func (d *simDevice) GetLimit(limit uint32) uint64 {
	v, _ := d.Device.GetLimit(warpsim.Limit(limit))
	return v
}

// Interrupt stops the launch running now (SIGINT).
func (d *simDevice) Interrupt(reason string) bool { return d.Device.Interrupt(reason) }
