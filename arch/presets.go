package arch

// Sources of the figures below, cited by tag in each preset:
//
//	[PG]   CUDA C++ Programming Guide, "Features and Technical Specifications",
//	       table "Technical Specifications per Compute Capability" (CUDA 4.2
//	       for 1.x and 2.x, current for 3.5 on); its per-architecture sections
//	       for the shared memory capacities ("Compute Capability 7.x/8.x/9.0":
//	       the carveout sizes, and "the driver reserves 1 KB of shared memory
//	       per thread block" from 8.0 on); "Dynamic Parallelism" for the
//	       device-runtime limits (nesting depth 24, pending launch count 2048,
//	       synchronization depth 2).
//	[OCC]  NVIDIA's occupancy rules: cuda_occupancy.h (CUDA 7.0 for 1.x and
//	       2.x, CUDA 12 for 3.x on) and CUDA_Occupancy_Calculator.xls, for the
//	       register allocation unit and granularity, the warp allocation
//	       granularity, sub-partitions, the shared memory allocation unit and
//	       the carveout steps.
//	[WP]   the part's whitepaper or datasheet (SM count, clocks, memory bus,
//	       L2, L1/shared storage): G80 "GeForce 8800 Architecture Technical
//	       Brief", GT200 "NVIDIA GeForce GTX 200 GPU Technical Brief", "Fermi
//	       Compute Architecture Whitepaper" and Tesla C2050 board spec, "Kepler
//	       GK110" whitepaper and Tesla K40 board spec, "GeForce GTX 980"
//	       whitepaper, "Pascal P100", "Volta V100", "Turing" (T4), "Ampere
//	       A100", "Ampere GA102" (RTX 3090), "Ada Lovelace" (RTX 4090) and
//	       "Hopper H100" whitepapers.
//	[DQ]   cudaGetDeviceProperties on the part as deviceQuery prints it
//	       (clockRate, memoryClockRate, memoryBusWidth, l2CacheSize).
//	[GT]   a measurement: arch/testdata/h100_occupancy_driver.txt,
//	       recorded on an H100 80GB HBM3 with CUDA 13.0, driver 580 (its
//	       DEVICE and CLOCKS lines).
//	[GT200] a measurement on the H200 of this project's device machine:
//	       arch/testdata/h200_occupancy_driver.txt (its DEVICE and CLOCKS
//	       lines) and testdata/timing/h200/h200/props.txt, both written by
//	       testdata/timing/h200/devprops.cu (CUDA 13.0, driver 580).
//
// Memory clocks are cudaDeviceProp.memoryClockRate, which for GDDR5/GDDR6(X)
// is already the effective rate, so MemBandwidth = 2 × clock × bus/8 gives
// the advertised bandwidth in every case.

const (
	kib = 1024
	mib = 1024 * kib
	gib = 1024 * mib
)

// Device-runtime limits [PG "Dynamic Parallelism"]: the hardware limit on
// nesting depth, and the defaults of cudaLimitDevRuntimeSyncDepth and
// cudaLimitDevRuntimePendingLaunchCount.
const (
	devRuntimeMaxDepth        = 24
	devRuntimeSyncDepth       = 2
	devRuntimePendingLaunches = 2048
)

// presets is every preset in ascending compute capability; Lookup and All
// read it.
var presets = []*Arch{
	{
		// GeForce 8800 GTX, the first CUDA GPU.
		Name: "g80", FullName: "GeForce 8800 GTX", Family: "Tesla", Major: 1, Minor: 0,
		SMs:      16, // [WP] 8 TPCs × 2 SMs
		WarpSize: 32, MaxThreadsPerBlock: 512, MaxBlockDim: [3]int{512, 512, 64},
		MaxGridDim:      [3]int{65535, 65535, 1},                   // [PG]
		MaxThreadsPerSM: 768, MaxWarpsPerSM: 24, MaxBlocksPerSM: 8, // [PG]
		RegsPerSM: 8192, RegsPerBlock: 8192, RegsPerThread: 124, // [PG]; per thread: [OCC] the xls 1.x column
		SharedPerSM: 16 * kib, SharedPerBlock: 16 * kib, SharedPerBlockOptin: 16 * kib, // [PG]
		RegAllocUnit: 256, RegAllocPerBlock: true, WarpAllocGranularity: 2, SubPartitions: 1, // [OCC]
		SharedAllocUnit: 512,                                            // [OCC]
		ClockKHz:        1350000, MemClockKHz: 900000, MemBusWidth: 384, // [WP] shader clock, GDDR3 1800 MT/s
		L2Bytes: 0, L1SharedBytes: 0, TotalGlobalMem: 768 * mib, ConstMem: 64 * kib, // [WP] [PG]
	},
	{
		// GeForce GTX 280.
		Name: "gt200", FullName: "GeForce GTX 280", Family: "Tesla", Major: 1, Minor: 3,
		SMs:      30, // [WP] 10 TPCs × 3 SMs
		WarpSize: 32, MaxThreadsPerBlock: 512, MaxBlockDim: [3]int{512, 512, 64},
		MaxGridDim:      [3]int{65535, 65535, 1},                    // [PG]
		MaxThreadsPerSM: 1024, MaxWarpsPerSM: 32, MaxBlocksPerSM: 8, // [PG]
		RegsPerSM: 16384, RegsPerBlock: 16384, RegsPerThread: 124, // [PG]; per thread: [OCC] the xls 1.x column
		SharedPerSM: 16 * kib, SharedPerBlock: 16 * kib, SharedPerBlockOptin: 16 * kib, // [PG]
		RegAllocUnit: 512, RegAllocPerBlock: true, WarpAllocGranularity: 2, SubPartitions: 1, // [OCC]
		SharedAllocUnit: 512,                                             // [OCC]
		ClockKHz:        1296000, MemClockKHz: 1107000, MemBusWidth: 512, // [WP] 141.7 GB/s
		L2Bytes: 0, L1SharedBytes: 0, TotalGlobalMem: 1 * gib, ConstMem: 64 * kib,
	},
	{
		// Tesla C2050 (GF100, 14 of 16 SMs enabled).
		Name: "c2050", FullName: "Tesla C2050", Family: "Fermi", Major: 2, Minor: 0,
		SMs:      14, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{65535, 65535, 65535},                // [PG]
		MaxThreadsPerSM: 1536, MaxWarpsPerSM: 48, MaxBlocksPerSM: 8, // [PG]
		RegsPerSM: 32768, RegsPerBlock: 32768, RegsPerThread: 63, // [PG]
		// 48 KiB shared + 16 KiB L1 (cudaFuncCachePreferShared, the default
		// as the occupancy calculator takes it) or 16 + 48.
		SharedPerSM: 48 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 48 * kib, // [PG]
		RegAllocUnit: 64, WarpAllocGranularity: 1, SubPartitions: 2, // [OCC]
		RegAllocUnitWide: []int{21, 22, 29, 30, 37, 38, 45, 46}, RegAllocUnitWideSize: 128, // [OCC] CUDA 7.0
		SharedAllocUnit: 128,                                             // [OCC]
		ClockKHz:        1150000, MemClockKHz: 1500000, MemBusWidth: 384, // [WP] [DQ] 144 GB/s
		L2Bytes: 768 * kib, L1SharedBytes: 64 * kib, TotalGlobalMem: 3 * gib, ConstMem: 64 * kib,
	},
	{
		// Tesla K40 (GK110B).
		Name: "k40", FullName: "Tesla K40c", Family: "Kepler", Major: 3, Minor: 5,
		SMs:      15, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 16, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		// 64 KiB split 48/16 (default, PreferShared), 32/32 or 16/48.
		SharedPerSM: 48 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 48 * kib, // [PG]
		RegAllocUnit: 256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit: 256,                                            // [OCC]
		ClockKHz:        745000, MemClockKHz: 3004000, MemBusWidth: 384, // [DQ] base clock; 288 GB/s
		L2Bytes: 1536 * kib, L1SharedBytes: 64 * kib, TotalGlobalMem: 12 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// GeForce GTX 980 (GM204); the Tesla M40 is the same SM with 24 SMs.
		Name: "gtx980", FullName: "GeForce GTX 980", Family: "Maxwell", Major: 5, Minor: 2,
		SMs:      16, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 96 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 48 * kib, // [PG]
		RegAllocUnit: 256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit: 256,                                             // [OCC]
		ClockKHz:        1216000, MemClockKHz: 3505000, MemBusWidth: 256, // [DQ] 224 GB/s
		L2Bytes: 2 * mib, L1SharedBytes: 48 * kib, TotalGlobalMem: 4 * gib, ConstMem: 64 * kib, // [WP] 2 × 24 KiB L1/tex
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// Tesla P100 SXM2 (GP100).
		Name: "p100", FullName: "Tesla P100-SXM2-16GB", Family: "Pascal", Major: 6, Minor: 0,
		SMs:      56, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 64 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 48 * kib, // [PG]
		// GP100 has 2 sub-partitions; the driver also requires that a block
		// fit GP10x's 4 [OCC].
		RegAllocUnit: 256, WarpAllocGranularity: 1, SubPartitions: 2, RegCheckSubPartitions: 4,
		SharedAllocUnit: 256,                                             // [OCC]
		ClockKHz:        1480000, MemClockKHz: 715000, MemBusWidth: 4096, // [WP] [DQ] HBM2, 732 GB/s
		L2Bytes: 4 * mib, L1SharedBytes: 24 * kib, TotalGlobalMem: 16 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// Tesla V100 SXM2 (GV100).
		Name: "v100", FullName: "Tesla V100-SXM2-16GB", Family: "Volta", Major: 7, Minor: 0,
		SMs:      80, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 96 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 96 * kib, // [PG]
		RegAllocUnit: 256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    256,                                             // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 96},                     // [PG 7.x] [OCC]
		ClockKHz:           1530000, MemClockKHz: 877000, MemBusWidth: 4096, // [WP] [DQ] HBM2, 898 GB/s
		L2Bytes: 6 * mib, L1SharedBytes: 128 * kib, TotalGlobalMem: 16 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// Tesla T4 (TU104).
		Name: "t4", FullName: "Tesla T4", Family: "Turing", Major: 7, Minor: 5,
		SMs:      40, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 1024, MaxWarpsPerSM: 32, MaxBlocksPerSM: 16, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 64 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 64 * kib, // [PG]
		RegAllocUnit: 256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    256,                                             // [OCC]
		SharedCarveoutsKiB: []int{32, 64},                                   // [PG 7.x] [OCC]
		ClockKHz:           1590000, MemClockKHz: 5001000, MemBusWidth: 256, // [WP] [DQ] GDDR6, 320 GB/s
		L2Bytes: 4 * mib, L1SharedBytes: 96 * kib, TotalGlobalMem: 16 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// A100 SXM4 40GB (GA100).
		Name: "a100", FullName: "NVIDIA A100-SXM4-40GB", Family: "Ampere", Major: 8, Minor: 0,
		SMs:      108, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 164 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 163 * kib, // [PG]
		ReservedSharedPerBlock: 1 * kib,                                        // [PG 8.x]
		RegAllocUnit:           256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    128,                                              // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 100, 132, 164},           // [PG 8.x] [OCC]
		ClockKHz:           1410000, MemClockKHz: 1215000, MemBusWidth: 5120, // [WP] [DQ] HBM2, 1555 GB/s
		L2Bytes: 40 * mib, L1SharedBytes: 192 * kib, TotalGlobalMem: 40 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// GeForce RTX 3090 (GA102).
		Name: "rtx3090", FullName: "NVIDIA GeForce RTX 3090", Family: "Ampere", Major: 8, Minor: 6,
		SMs:      82, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 1536, MaxWarpsPerSM: 48, MaxBlocksPerSM: 16, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 100 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 99 * kib, // [PG]
		ReservedSharedPerBlock: 1 * kib,                                        // [PG 8.x]
		RegAllocUnit:           256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    128,                                             // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 100},                    // [PG 8.x] [OCC]
		ClockKHz:           1695000, MemClockKHz: 9751000, MemBusWidth: 384, // [WP] [DQ] GDDR6X, 936 GB/s
		L2Bytes: 6 * mib, L1SharedBytes: 128 * kib, TotalGlobalMem: 24 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// GeForce RTX 4090 (AD102); the L40 is the same SM with 142 SMs.
		Name: "rtx4090", FullName: "NVIDIA GeForce RTX 4090", Family: "Ada", Major: 8, Minor: 9,
		SMs:      128, // [WP]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64},
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 1536, MaxWarpsPerSM: 48, MaxBlocksPerSM: 24, // [PG]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [PG]
		SharedPerSM: 100 * kib, SharedPerBlock: 48 * kib, SharedPerBlockOptin: 99 * kib, // [PG]
		ReservedSharedPerBlock: 1 * kib,                                        // [PG 8.x]
		RegAllocUnit:           256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    128,                                              // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 100},                     // [PG 8.x] [OCC]
		ClockKHz:           2520000, MemClockKHz: 10501000, MemBusWidth: 384, // [WP] [DQ] GDDR6X, 1008 GB/s
		L2Bytes: 72 * mib, L1SharedBytes: 128 * kib, TotalGlobalMem: 24 * gib, ConstMem: 64 * kib, // [WP]
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// H100 SXM5 80GB (GH100): the part the ground truth was recorded on.
		Name: "h100", FullName: "NVIDIA H100 80GB HBM3", Family: "Hopper", Major: 9, Minor: 0, // [GT]
		SMs:      132,                                                               // [GT]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64}, // [GT] [PG]
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [PG]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [GT]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [GT] [PG]
		SharedPerSM: 233472, SharedPerBlock: 49152, SharedPerBlockOptin: 232448, // [GT] 228, 48, 227 KiB
		ReservedSharedPerBlock: 1024,                                           // [GT]
		RegAllocUnit:           256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC]
		SharedAllocUnit:    128,                                              // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, // [PG 9.0] [OCC]
		ClockKHz:           1980000, MemClockKHz: 2619000, MemBusWidth: 5120, // [GT] CLOCKS line; HBM3, 3352 GB/s
		L2Bytes: 52428800, L1SharedBytes: 256 * kib, TotalGlobalMem: 81079 * mib, ConstMem: 64 * kib, // [GT] l2; memory: cuDeviceTotalMem, testdata/programs7/driver_api
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
	{
		// H200 SXM 141GB: the H100's GH100 chip (the same SM, limits and
		// clocks, as the driver reports them) with HBM3e: a wider bus at a
		// faster clock (4814 GB/s) and 60 MiB of L2 enabled.
		Name: "h200", FullName: "NVIDIA H200", Family: "Hopper", Major: 9, Minor: 0, // [GT200]
		SMs:      132,                                                               // [GT200]
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64}, // [GT200]
		MaxGridDim:      [3]int{1<<31 - 1, 65535, 65535},             // [GT200]
		MaxThreadsPerSM: 2048, MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, // [GT200]
		RegsPerSM: 65536, RegsPerBlock: 65536, RegsPerThread: 255, // [GT200] [PG]
		SharedPerSM: 233472, SharedPerBlock: 49152, SharedPerBlockOptin: 232448, // [GT200] 228, 48, 227 KiB
		ReservedSharedPerBlock: 1024,                                           // [GT200]
		RegAllocUnit:           256, WarpAllocGranularity: 1, SubPartitions: 4, // [OCC] as the H100
		SharedAllocUnit:    128,                                              // [OCC]
		SharedCarveoutsKiB: []int{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, // [PG 9.0] [OCC]
		ClockKHz:           1980000, MemClockKHz: 3201000, MemBusWidth: 6016, // [GT200] CLOCKS line; HBM3e, 4814 GB/s
		L2Bytes: 62914560, L1SharedBytes: 256 * kib, TotalGlobalMem: 150109880320, ConstMem: 64 * kib, // [GT200] l2, totalGlobalMem, totalConstMem
		DevRuntimeMaxDepth: devRuntimeMaxDepth, DevRuntimeSyncDepth: devRuntimeSyncDepth,
		DevRuntimePendingLaunches: devRuntimePendingLaunches,
	},
}
