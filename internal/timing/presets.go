package timing

import "github.com/warpsim/warpsim/internal/ir"

// measured are the generations whose figures come from measurements:
// the H100's from this project's own microbenchmarks
// (testdata/timing/DERIVATION.md), the others from published
// microbenchmark studies, cited per figure:
//
//	[JIA18] Z. Jia, M. Maggioni, B. Staiger, D. P. Scarpazza, "Dissecting
//	        the NVIDIA Volta GPU Architecture via Microbenchmarking",
//	        arXiv:1804.06826 (2018): latencies in its tables 3.1 (memory),
//	        4.1 (arithmetic), bandwidths in chapter 3.
//	[JIA19] Z. Jia, M. Maggioni, J. Smith, D. P. Scarpazza, "Dissecting the
//	        NVidia Turing T4 GPU via Microbenchmarking", arXiv:1903.07486
//	        (2019): the cross-generation latency table (Kepler, Maxwell,
//	        Pascal, Volta, Turing).
//	[MEI16] X. Mei, X. Chu, "Dissecting GPU Memory Hierarchy through
//	        Microbenchmarking", IEEE TPDS 28(1), 2016 (Kepler GK110).
//	[CIT21] Citadel's A100 figures as presented in "Dissecting the Ampere
//	        GPU Architecture through Microbenchmarking", GTC 2021 (S33322).
//	[PG]    CUDA C++ Programming Guide, "Arithmetic Instructions" throughput
//	        table (results per clock cycle per multiprocessor), from which
//	        Interval = 32 lanes / (per-SM rate / sub-partitions).
//	[H100]  testdata/timing: measured on an H100 80GB HBM3 by this project.
var measured = map[string]*Params{
	"h100": {
		// [H100] for latencies and bandwidths; [PG] for pipe rates (9.0:
		// 128 fp32, 64 fp64, 16 MUFU, 64 int32 multiply results per clock
		// per SM).
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 18, ir.ClassConv: 12, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 24, ir.ClassConst: 8, ir.ClassLocal: 36, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFP64: 2, ir.ClassSFU: 8, ir.ClassConv: 4, ir.ClassIMul: 2, ir.ClassWarp: 2,
		}),
		SharedLatency: 29, L1HitLatency: 33, L2HitLatency: 262, DRAMLatency: 560, AtomicLatency: 300,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerCycle: 2600, DRAMBytesPerCycle: 0,
		L1Bytes: 256 * 1024, MaxLoadsInFlight: 256,
		KernelLaunch: 3500, BlockLaunch: 150, LaunchGapNS: 2500,
		DeviceLaunch: 2000, ChildStart: 6000, DeviceSync: 20000,
		Source: "H100: this project's microbenchmarks (testdata/timing); pipe rates: CUDA Programming Guide",
	},
	"a100": {
		// [CIT21] L1 hit 33, shared 23-29, L2 hit ~200, DRAM ~ 290 ns ≈ 404
		// cycles at 1.41 GHz; pipe rates [PG] 8.0 (64 fp32 per SM per
		// clock on GA100 counts 64 FMA/clk: 2 cycles a warp per
		// sub-partition; 32 fp64; 16 MUFU).
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 18, ir.ClassConv: 12, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 24, ir.ClassConst: 8, ir.ClassLocal: 36, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFMA: 2, ir.ClassFP64: 4, ir.ClassSFU: 8, ir.ClassConv: 4, ir.ClassIMul: 2, ir.ClassWarp: 2,
		}),
		SharedLatency: 29, L1HitLatency: 33, L2HitLatency: 200, DRAMLatency: 404, AtomicLatency: 260,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerCycle: 1700,
		L1Bytes: 192 * 1024, MaxLoadsInFlight: 256,
		KernelLaunch: 3000, BlockLaunch: 150, LaunchGapNS: 3000,
		DeviceLaunch: 2000, ChildStart: 6000, DeviceSync: 20000,
		Source: "A100: Citadel's Ampere microbenchmarks (GTC 2021); pipe rates: CUDA Programming Guide",
	},
	"v100": {
		// [JIA18] table 3.1: L1 hit 28, shared 19, L2 hit 193, DRAM (TLB
		// hit) 375 cycles; table 4.1: FFMA 4, DFMA 8 cycles; chapter 3: L2
		// 2155 GB/s ≈ 1408 B/cycle at 1.53 GHz; DRAM 750 GB/s achieved
		// (taken from the preset's 898 GB/s × 0.9 below would give 808, so
		// it is set explicitly).
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 16, ir.ClassConv: 12, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 22, ir.ClassConst: 8, ir.ClassLocal: 30, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFMA: 2, ir.ClassFP64: 4, ir.ClassSFU: 8, ir.ClassConv: 4, ir.ClassIMul: 2, ir.ClassWarp: 2,
		}),
		SharedLatency: 19, L1HitLatency: 28, L2HitLatency: 193, DRAMLatency: 375, AtomicLatency: 250,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerCycle: 1408, DRAMBytesPerCycle: 750e9 / 1.53e9,
		L1Bytes: 128 * 1024, MaxLoadsInFlight: 256,
		KernelLaunch: 3000, BlockLaunch: 150, LaunchGapNS: 4000,
		DeviceLaunch: 2000, ChildStart: 6000, DeviceSync: 20000,
		Source: "V100: Jia et al. 2018 (arXiv:1804.06826); pipe rates: CUDA Programming Guide",
	},
	"k40": {
		// [JIA19] cross-generation table, Kepler column: L1 hit 35, shared
		// 26, L2 hit 175? taken as [MEI16]'s GK110 L2 hit ~ 200 cycles and
		// DRAM ~ 300 cycles (TLB hit); FFMA latency 9 cycles on Kepler
		// [JIA19]; pipe rates [PG] 3.5: 192 fp32, 64 fp64, 32 MUFU, 32
		// int32 multiply per clock per SM over 4 schedulers.
		Latency: classTable(9, map[ir.Class]uint32{
			ir.ClassFMA: 9, ir.ClassFP64: 10, ir.ClassSFU: 20, ir.ClassConv: 20, ir.ClassIMul: 9,
			ir.ClassBranch: 10, ir.ClassWarp: 30, ir.ClassConst: 10, ir.ClassLocal: 40, ir.ClassDevRT: 60,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFMA: 1, ir.ClassFP64: 2, ir.ClassSFU: 4, ir.ClassConv: 4, ir.ClassIMul: 4, ir.ClassWarp: 2,
		}),
		SharedLatency: 26, L1HitLatency: 35, L2HitLatency: 200, DRAMLatency: 300, AtomicLatency: 300,
		BarrierLatency: 24, L1BytesPerCycle: 64, L2BytesPerCycle: 512,
		L1Bytes: 16 * 1024, MaxLoadsInFlight: 128,
		KernelLaunch: 3700, BlockLaunch: 200, LaunchGapNS: 5000,
		DeviceLaunch: 7000, ChildStart: 8000, DeviceSync: 25000,
		Source: "K40: Jia et al. 2019 (arXiv:1903.07486), Mei & Chu 2016; pipe rates: CUDA Programming Guide",
	},
}
