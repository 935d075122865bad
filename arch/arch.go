// Package arch holds GPU architecture presets as data and the occupancy
// calculator that answers as the CUDA driver does.
//
// A preset (presets.go) is the figures of one real part: its compute
// capability's limits from the CUDA C Programming Guide's "Features and
// Technical Specifications" table, the allocation rules NVIDIA's occupancy
// calculator uses (cuda_occupancy.h, CUDA_Occupancy_Calculator.xls), and the
// board's clocks, memory and caches from its whitepaper or datasheet. The
// calculator (occupancy.go) turns a block size, registers per thread and
// shared memory into active blocks per SM, as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor does, and names the limit.
package arch

import "fmt"

// Arch is one GPU preset. Fields are figures of the real part; see presets.go
// for each figure's source.
type Arch struct {
	Name     string // preset key, lower case: "h100", "a100", "k40", "g80", …
	FullName string // what cudaGetDeviceProperties reports as name
	Major    int    // compute capability
	Minor    int

	SMs                int
	WarpSize           int
	MaxThreadsPerBlock int
	MaxBlockDim        [3]int
	MaxGridDim         [3]int
	MaxThreadsPerSM    int
	MaxWarpsPerSM      int
	MaxBlocksPerSM     int

	RegsPerSM     int
	RegsPerBlock  int
	RegsPerThread int // architectural maximum per thread

	SharedPerSM            int // bytes
	SharedPerBlock         int // default limit per block (48 KiB on modern parts)
	SharedPerBlockOptin    int // with cudaFuncAttributeMaxDynamicSharedMemorySize
	ReservedSharedPerBlock int

	ClockKHz       int
	MemClockKHz    int
	MemBusWidth    int // bits
	L2Bytes        int
	TotalGlobalMem uint64
	ConstMem       int

	// Family is the architecture's name: "Tesla", "Fermi", … "Hopper".
	Family string

	// Allocation rules of the occupancy calculator.

	// RegAllocUnit is the register allocation unit: registers are handed out
	// in multiples of it, per warp (RegAllocPerBlock false) or per block.
	RegAllocUnit int
	// RegAllocPerBlock is true on compute capability 1.x, which allocates
	// registers to a whole block rather than to each warp.
	RegAllocPerBlock bool
	// RegAllocUnitWide lists registers-per-thread counts for which the unit
	// is RegAllocUnitWideSize instead (Fermi's 21, 22, 29, 30, 37, 38, 45,
	// 46 registers are allocated in 128-register units).
	RegAllocUnitWide     []int
	RegAllocUnitWideSize int
	// WarpAllocGranularity rounds the warps of a block up for the warp and
	// register limits (2 on compute capability 1.x, 1 after).
	WarpAllocGranularity int
	// SubPartitions is the number of SM sub-partitions (warp schedulers, each
	// with its own slice of the register file). A warp's registers come from
	// one sub-partition, so the register limit is computed per sub-partition.
	SubPartitions int
	// RegCheckSubPartitions, when not zero, is a second sub-partition count
	// whose register limit must also allow a block: the driver refuses on
	// GP100 (2 sub-partitions) what GP10x (4) could not run.
	RegCheckSubPartitions int
	// SharedAllocUnit is the shared memory allocation unit in bytes.
	SharedAllocUnit int
	// SharedCarveoutsKiB are the shared memory capacities (KiB) an SM can be
	// configured to on compute capability 7.0 and later, ascending; the
	// driver picks one per launch. Nil where shared memory is fixed (or set
	// only by the cache-config preference, as on Fermi and Kepler).
	SharedCarveoutsKiB []int

	// Caches.

	// L1SharedBytes is the on-chip storage per SM that L1 cache and shared
	// memory share (unified from Volta on); on Maxwell and Pascal, which
	// have dedicated shared memory, it is the L1/texture cache alone; 0 on
	// compute capability 1.x, which has no L1 data cache.
	L1SharedBytes int

	// Device runtime (dynamic parallelism) limits; zero before sm_35.

	// DevRuntimeMaxDepth is the maximum nesting depth of device launches,
	// in levels of grids (the host's grid is the first): the launch from
	// depth DevRuntimeMaxDepth-1 fails with cudaErrorLaunchMaxDepthExceeded.
	// The engine enforces the three limits under CDP1 (DeviceSideSync);
	// under CDP2 the H100 ran 30 levels and 5000 pending launches without
	// an error (examples/lessons/h100/h100_seed_runs.txt), so none is.
	DevRuntimeMaxDepth int
	// DevRuntimeSyncDepth is cudaLimitDevRuntimeSyncDepth's default, in
	// levels of grids: cudaDeviceSynchronize in a grid at depth
	// DevRuntimeSyncDepth or deeper returns cudaErrorSyncDepthExceeded
	// (CDP1, before sm_90).
	DevRuntimeSyncDepth int
	// DevRuntimePendingLaunches is cudaLimitDevRuntimePendingLaunchCount's
	// default: grids launched from the device and not yet started; one
	// more fails with cudaErrorLaunchPendingCountExceeded.
	DevRuntimePendingLaunches int

	// Custom architectures (arch files, --set; file.go). Zero on a preset.

	// Base is the preset a custom architecture starts from ("h100"); the
	// timing model takes its measured figures from it.
	Base string
	// Scheduler is the timing model's warp scheduler policy when a command
	// does not choose one ("gto" or "lrr"; "" is gto).
	Scheduler string
	// Timing overrides timing-model figures by key (TimingKeys lists them:
	// "latency.fma", "bandwidth.dram", …), in the units the key's help
	// gives; absent keys keep the base preset's figures.
	Timing map[string]float64
}

// ComputeCapability is Major*10+Minor (90 for sm_90).
func (a *Arch) ComputeCapability() int { return a.Major*10 + a.Minor }

// IndependentThreadScheduling is true from Volta (sm_70) on.
func (a *Arch) IndependentThreadScheduling() bool { return a.Major >= 7 }

// SMName is the PTX target name, "sm_90".
func (a *Arch) SMName() string {
	return fmt.Sprintf("sm_%d%d", a.Major, a.Minor)
}

// DynamicParallelism reports whether device code may launch kernels
// (compute capability 3.5 and later).
func (a *Arch) DynamicParallelism() bool { return a.ComputeCapability() >= 35 }

// DeviceSideSync reports whether device code may call cudaDeviceSynchronize
// (CDP1). From sm_90 on a module that does fails to load.
func (a *Arch) DeviceSideSync() bool { return a.DynamicParallelism() && a.Major < 9 }

// MemBandwidth is the peak DRAM bandwidth in bytes per second, computed as
// cudaDeviceProp's figures are meant to be combined: two transfers per
// memory clock (memoryClockRate is already the effective rate for GDDR5/6)
// times the bus width in bytes.
func (a *Arch) MemBandwidth() float64 {
	return 2 * float64(a.MemClockKHz) * 1e3 * float64(a.MemBusWidth) / 8
}
