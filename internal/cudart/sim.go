package cudart

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
			Backing: mem, BackingBase: base, Mode: set.Mode, Timeout: set.Timeout, Lines: set.ProfileLines, Replay: !set.NoReplay,
			Timing: warpsim.TimingOptions{PCStalls: set.ProfileLines, NoSampling: set.NoSampling, Similar: !set.NoSampling,
				ShortGrids: !set.NoSampling, Budget: ProgramBudget, Program: true}}
		return &simDevice{Device: warpsim.NewDevice(a, opt)}
	}
}

// ProgramBudget is the warp instructions a program's launches may time in
// detail before a configuration timed once is enough for its repeats and a
// shape's timed launch for its launches whose parameters differ only in
// words shown not to change the counts (warpsim.TimingOptions.Budget,
// internal/timing/repeat.go): about 5–10 CPU-seconds of the timing model on
// the project's 2-core machine, under a single launch of
// convolutionSeparable's kernels (11–13 M), whose second launches then
// repeat the first's account (docs/performance.md, "Similar launches
// and a budget of detail").
const ProgramBudget = 8_000_000

// simDevice and simModule give warpsim's Device and Module the runtime's
// interfaces, whose methods return interfaces so that tests can fake them
// (a *warpsim.Kernel is a Kernel as it is). The rest of simDevice's job is
// Launch's translation of the API's results and errors into what the
// server records and reports (docs/architecture.md, "One type per job").
type simDevice struct{ *warpsim.Device }

type simModule struct{ *warpsim.Module }

func (d *simDevice) LoadModule(filename string, ptx []byte) (Module, error) {
	m, err := d.Device.LoadModule(filename, ptx)
	if err != nil {
		return nil, err
	}
	return simModule{m}, nil
}

func (m simModule) Kernel(name string) (Kernel, error) {
	k, err := m.Module.Kernel(name)
	if err != nil {
		return nil, err
	}
	return k, nil
}

func (d *simDevice) Launch(k Kernel, cfg LaunchConfig, params []byte) (*Launched, error) {
	wk, ok := k.(*warpsim.Kernel)
	if !ok {
		return nil, errors.New("warpsim runtime: kernel from another device")
	}
	res, err := d.Device.Launch(wk, cfg, params)
	var f *warpsim.Fault
	var ce *warpsim.ConfigError
	var dse *warpsim.DevSideSyncError
	switch {
	case errors.As(err, &dse):
		// A module the arch cannot run (CDP1's device-side
		// cudaDeviceSynchronize on sm_90 and later): each launch fails as
		// on the H100 (testdata/cdp/h100/run_nested4_sm80.txt).
		return nil, &ConfigError{Kernel: dse.Kernel, Code: int(ErrorUnsupportedDevSideSync), Msg: dse.Error()}
	case err == nil:
		// The timing model's duration, when it ran (WARPSIM_MODE=timing),
		// is the launch's time on the streams' clock (timing.go).
		l := &Launched{Counters: res.Grids[0].Counters, Nanos: int64(res.DurationNS), GridNanos: int64(res.Grids[0].DurationNS()),
			Timing: res.Grids[0].Timing, Lines: res.Grids[0].Lines, Replayed: res.Grids[0].Replayed}
		for _, g := range res.Grids[1:] {
			c := g.Config
			l.Children = append(l.Children, ChildGrid{
				Kernel:    g.Kernel,
				Config:    LaunchConfig{Grid: c.Grid, Block: c.Block, SharedBytes: c.SharedBytes},
				Counters:  g.Counters,
				HostNanos: g.Elapsed.Nanoseconds(),
				Nanos:     int64(g.DurationNS()),
				Timing:    g.Timing,
			})
		}
		return l, nil
	case errors.As(err, &f):
		code := Error(f.Kind.CUDAError())
		if f.Kind == warpsim.FaultAssert && f.Output != "" {
			// The GPU's own lines, on stderr, as CUDA writes them.
			return nil, &Fault{Code: code, Report: f.Output}
		}
		return nil, &Fault{Code: code, Report: "warpsim: " + f.Error(), Interrupted: f.Kind == warpsim.FaultInterrupted}
	case errors.As(err, &ce):
		// The server checked the launch as the device does
		// (arch.CheckLaunch) before it queued it.
		return nil, &ConfigError{Kernel: ce.Kernel, Code: ce.Code, Msg: ce.Error()}
	}
	return nil, err
}
