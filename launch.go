// Launches: LaunchConfig, the checks the GPU makes before a launch, Device.Launch and its results.

package warpsim

import (
	"errors"
	"fmt"
	"time"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/metrics"
)

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
