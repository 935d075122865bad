package timing

import (
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
)

// Params are one GPU's timing figures: latencies and throughputs in SM
// cycles, sizes in bytes. Each preset cites where its figures come from;
// figures no source gives are derived from the arch preset and marked so.
type Params struct {
	ClockHz float64 // the SM clock the cycles are counted in

	// Latency is the cycles from issue until a dependent instruction can
	// issue, per class (fixed-latency pipes; memory classes use the memory
	// figures below instead).
	Latency [ir.NumClasses]uint32
	// Interval is the cycles a sub-partition's pipe is busy per warp
	// instruction of the class: 32 lanes / the pipe's lanes per cycle.
	Interval [ir.NumClasses]uint32

	SharedLatency     uint32 // shared-memory load to use
	L1HitLatency      uint32 // global load hitting L1
	L2HitLatency      uint32 // global load hitting L2
	DRAMLatency       uint32 // global load missing L2 (unloaded)
	AtomicLatency     uint32 // global atomic at L2 (returning its old value)
	BarrierLatency    uint32 // from the last warp's arrival to the first warp's issue
	L1BytesPerCycle   uint32 // per SM: the L1/shared data path
	L2BytesPerCycle   float64
	DRAMBytesPerCycle float64 // achievable device-wide DRAM bandwidth, per SM cycle
	L1Bytes           int     // L1 data cache per SM available to global loads (before the shared carveout)
	L2Bytes           int
	MaxLoadsInFlight  int // per SM: outstanding global load requests before LG throttle

	// Launch overheads: KernelLaunch is the cycles from the start of a
	// kernel as the profiler times it until its first block issues plus the
	// cycles after its last block retires; BlockLaunch the cycles an SM
	// needs to start a new block; LaunchGapNS the host-side gap between
	// back-to-back launches (event timing).
	KernelLaunch  uint32
	BlockLaunch   uint32
	LaunchGapNS   float64
	DeviceLaunch  uint32 // cycles a device-side launch costs the launching warp
	ChildStart    uint32 // cycles from a parent grid's end to its first child's start
	DeviceSync    uint32 // cycles a device-side cudaDeviceSynchronize costs beyond its children
	Source        string // where the figures come from
	SubPartitions int
}

// ForArch returns the timing parameters of a preset: measured figures for
// the presets the table has, and for the others figures scaled from the
// nearest measured generation with the preset's own clock, SM count, cache
// sizes and DRAM bandwidth.
func ForArch(a *arch.Arch) *Params {
	base, ok := measured[a.Name]
	if !ok {
		base = nearest(a)
	}
	p := *base
	p.ClockHz = float64(a.ClockKHz) * 1000
	if p.ClockHz == 0 {
		p.ClockHz = 1e9
	}
	if v, ok := clockOverride[a.Name]; ok {
		p.ClockHz = v
	}
	p.SubPartitions = max(a.SubPartitions, 1)
	if p.L2Bytes == 0 {
		p.L2Bytes = a.L2Bytes
	}
	if p.DRAMBytesPerCycle == 0 {
		// 90% of the theoretical bandwidth is what streaming kernels reach.
		p.DRAMBytesPerCycle = 0.9 * a.MemBandwidth() / p.ClockHz
	}
	return &p
}

// clockOverride is the SM clock kernels run at where it differs from the
// preset's nominal clock (the preset holds the driver's reported figure).
var clockOverride = map[string]float64{}

func nearest(a *arch.Arch) *Params {
	switch {
	case a.Major >= 9:
		return measured["h100"]
	case a.Major == 8:
		return measured["a100"]
	case a.Major == 7:
		return measured["v100"]
	}
	return measured["k40"]
}

// classTable builds a per-class table from a map of the classes that
// differ from def.
func classTable(def uint32, m map[ir.Class]uint32) (t [ir.NumClasses]uint32) {
	for i := range t {
		t[i] = def
	}
	for c, v := range m {
		t[c] = v
	}
	return t
}
