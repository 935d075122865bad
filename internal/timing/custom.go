package timing

import (
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
)

// applyCustom applies a custom architecture's figures (an arch file or
// --set) to the parameters taken from its base preset. Where the arch
// changes a figure the timing model derived from the preset (its L2 size,
// its L1/shared storage, its DRAM bandwidth), the model's figure scales by
// the same ratio: the H100's effective L2 is 25 MiB of its 50 MiB, so an
// H100 with twice the L2 sees 50 MiB. Then the arch's explicit timing
// figures (arch.TimingKeys) replace the preset's.
func applyCustom(p *Params, a *arch.Arch) {
	if a.Base == "" {
		return
	}
	if b, err := arch.Lookup(a.Base); err == nil && b.Name == a.Base {
		if _, ok := measured[b.Name]; ok {
			scale := func(v int, from, to int) int {
				if from <= 0 || from == to {
					return v
				}
				return int(float64(v) * float64(to) / float64(from))
			}
			if measured[b.Name].L2Bytes != 0 {
				p.L2Bytes = scale(p.L2Bytes, b.L2Bytes, a.L2Bytes)
			}
			p.L1Bytes = scale(p.L1Bytes, b.L1SharedBytes, a.L1SharedBytes)
			if measured[b.Name].DRAMBytesPerNS != 0 && b.MemBandwidth() > 0 && a.MemBandwidth() != b.MemBandwidth() {
				p.DRAMBytesPerNS *= a.MemBandwidth() / b.MemBandwidth()
			}
		}
	}
	for k, v := range a.Timing {
		if f, ok := customFigures[k]; ok {
			f(p, v)
		}
	}
}

// customFigures sets one Params figure per arch timing key.
var customFigures = withClassFigures(map[string]func(p *Params, v float64){
	"latency.shared":                    func(p *Params, v float64) { p.SharedLatency = uint32(v) },
	"latency.shared_conflict":           func(p *Params, v float64) { p.SharedConflict = uint32(v) },
	"shared.warp_cycles":                func(p *Params, v float64) { p.SharedWarpCycles = uint32(v) },
	"latency.sreg":                      func(p *Params, v float64) { p.SregLatency = uint32(v) },
	"sched.starve":                      func(p *Params, v float64) { p.IssueStarveCycles = uint32(v) },
	"latency.l1_hit":                    func(p *Params, v float64) { p.L1HitLatency = uint32(v) },
	"latency.l2_hit_cycles":             func(p *Params, v float64) { p.L2HitCycles = uint32(v) },
	"latency.l2_hit_ns":                 func(p *Params, v float64) { p.L2HitNS = v },
	"latency.dram_cycles":               func(p *Params, v float64) { p.DRAMCycles = uint32(v) },
	"latency.dram_ns":                   func(p *Params, v float64) { p.DRAMNS = v },
	"latency.dram_far":                  func(p *Params, v float64) { p.DRAMFarNS = v },
	"latency.dram_write_drain":          func(p *Params, v float64) { p.DRAMWriteDrainNS = v },
	"dram.write_mode_share":             func(p *Params, v float64) { p.DRAMWriteModeShare = v },
	"dram.turnaround":                   func(p *Params, v float64) { p.DRAMTurnaround = v },
	"l2.dirty_ways":                     func(p *Params, v float64) { p.L2DirtyWays = int(v) },
	"l2.store_sector_bytes":             func(p *Params, v float64) { p.StoreSectorBytes = v },
	"bandwidth.l2_link":                 func(p *Params, v float64) { p.FarBytesPerNS = v },
	"tlb.region_bytes":                  func(p *Params, v float64) { p.TLBRegionBytes = uint64(v) },
	"tlb.walk_ns":                       func(p *Params, v float64) { p.TLBWalkNS = v },
	"tlb.miss_ns":                       func(p *Params, v float64) { p.TLBMissNS = v },
	"tlb.cold":                          func(p *Params, v float64) { p.TLBCold = v != 0 },
	"tlb.programs":                      func(p *Params, v float64) { p.TLBPrograms = v != 0 },
	"latency.barrier":                   func(p *Params, v float64) { p.BarrierLatency = uint32(v) },
	"latency.store_to_load":             func(p *Params, v float64) { p.StoreToLoad = uint32(v) },
	"latency.int_div":                   func(p *Params, v float64) { p.DivChain = uint32(v) },
	"latency.cluster_barrier":           func(p *Params, v float64) { p.ClusterBarrier = uint32(v) },
	"latency.cluster_barrier_per_block": func(p *Params, v float64) { p.ClusterBarrierPerBlock = uint32(v) },
	"latency.dsmem":                     func(p *Params, v float64) { p.DSMEMLatency = uint32(v) },
	"dsmem.atomic_lane":                 func(p *Params, v float64) { p.DSMEMAtomCycles = v },
	"dsmem.atomic_sector":               func(p *Params, v float64) { p.DSMEMAtomSectorCycles = v },
	"latency.fence_cta":                 func(p *Params, v float64) { p.FenceCTA = uint32(v) },
	"latency.fence_gpu":                 func(p *Params, v float64) { p.FenceGPU = uint32(v) },
	"latency.fence_sys":                 func(p *Params, v float64) { p.FenceSys = uint32(v) },
	"atomic.lane":                       func(p *Params, v float64) { p.AtomicLaneCycles = v },
	"latency.atomic_return":             func(p *Params, v float64) { p.AtomicReturnNS = v },
	"atomic.service":                    func(p *Params, v float64) { p.AtomicNS = v },
	"atomic.rate":                       func(p *Params, v float64) { p.AtomicOpsPerNS = v },
	"atomic.float_service":              func(p *Params, v float64) { p.AtomicFloatNS = v },
	"atomic.aggregated":                 func(p *Params, v float64) { p.AtomicInstCycles[0] = v },
	"atomic.aggregated_64":              func(p *Params, v float64) { p.AtomicInstCycles[1] = v },
	"atomic.aggregated_red":             func(p *Params, v float64) { p.AtomicInstCycles[2] = v },
	"atomic.red":                        func(p *Params, v float64) { p.RedInstCycles = v },
	"atomic.red_window":                 func(p *Params, v float64) { p.RedWindow = int(v) },
	"ptxas.loop_unroll":                 func(p *Params, v float64) { p.LoopUnroll = int(v) },
	"ptxas.unroll_free":                 func(p *Params, v float64) { p.UnrollFree = v != 0 },
	"ptxas.unroll_overhead":             func(p *Params, v float64) { p.UnrollOverhead = v != 0 },
	"ptxas.const_bank_live":             func(p *Params, v float64) { p.ConstBankLive = v != 0 },
	"ptxas.unrolled_hoist_bound":        func(p *Params, v float64) { p.UnrolledHoistBound = v != 0 },
	"ptxas.wmma_rounds":                 func(p *Params, v float64) { p.WmmaRounds = v != 0 },
	"ptxas.wmma_reuse":                  func(p *Params, v float64) { p.WmmaReuse = v != 0 },
	"ptxas.wmma_group_rounds":           func(p *Params, v float64) { p.WmmaGroupRounds = v != 0 },
	"ptxas.wmma_slice_groups":           func(p *Params, v float64) { p.WmmaSliceGroups = v != 0 },
	"latency.mma_chain_s8":              func(p *Params, v float64) { setChainLatency(p, v, tensor.S8, tensor.U8) },
	"latency.mma_chain_f16":             func(p *Params, v float64) { setChainLatency(p, v, tensor.F16, tensor.BF16) },
	"ptxas.wmma_rounds_loop_only":       func(p *Params, v float64) { p.WmmaRoundsLoopOnly = v != 0 },
	"ptxas.wmma_repeats":                func(p *Params, v float64) { p.WmmaRepeats = v != 0 },
	"ptxas.mov_fold":                    func(p *Params, v float64) { p.MovFold = v != 0 },
	"ptxas.hoist_shfl":                  func(p *Params, v float64) { p.HoistShfl = v != 0 },
	"const.block":                       func(p *Params, v float64) { p.ConstBlockBytes = int(v) },
	"const.param_line":                  func(p *Params, v float64) { p.ParamChunkBytes = int(v) },
	"const.param_miss":                  func(p *Params, v float64) { p.ParamMissCycles = uint32(v) },
	"const.symbol_first_miss":           func(p *Params, v float64) { p.SymFirstMissCycles = uint32(v) },
	"const.symbol_miss":                 func(p *Params, v float64) { p.SymMissCycles = uint32(v) },
	"copy.bandwidth":                    func(p *Params, v float64) { p.CopyBytesPerCycle = uint32(v) },
	"cp_async.min":                      func(p *Params, v float64) { p.CpAsyncCycles = v },
	"cp_async.line":                     func(p *Params, v float64) { p.CpAsyncLineCycles = v },
	"cp_async.wavefront":                func(p *Params, v float64) { p.CpAsyncWavefrontCycles = v },
	"cp_async.issue":                    func(p *Params, v float64) { p.CpAsyncIssueCycles = v },
	"cp_async.bytes":                    func(p *Params, v float64) { p.CpAsyncBytesPerCycle = v },
	"cp_async.warp":                     func(p *Params, v float64) { p.CpAsyncWarpCycles = v },
	"cp_async.queue":                    func(p *Params, v float64) { p.CpAsyncQueueCycles = v },
	"store.sector":                      func(p *Params, v float64) { p.StoreSectorCycles = v },
	"store.partial_sector":              func(p *Params, v float64) { p.StorePartialCycles = v },
	"store.partial_line":                func(p *Params, v float64) { p.StorePartialLineCycles = v },
	"store.queue":                       func(p *Params, v float64) { p.StoreQueueCycles = v },
	"store.merge_lines":                 func(p *Params, v float64) { p.StoreMergeLines = int(v) },
	"latency.tensormap_fetch":           func(p *Params, v float64) { p.TensorMapFetchNS = v },
	"latency.bulk_read":                 func(p *Params, v float64) { p.BulkReadCycles = uint32(v) },
	"latency.bulk_wait":                 func(p *Params, v float64) { p.BulkWaitCycles = uint32(v) },
	"tensormap.guard":                   func(p *Params, v float64) { p.TensormapGuardCycles = uint32(v) },
	"bandwidth.l1":                      func(p *Params, v float64) { p.L1BytesPerCycle = uint32(v) },
	"load.miss_bandwidth":               func(p *Params, v float64) { p.LoadMissBytesPerCycle = v },
	"load.miss_line":                    func(p *Params, v float64) { p.LoadMissLineCycles = v },
	"load.warp_line":                    func(p *Params, v float64) { p.LoadWarpCycles = v },
	"load.window":                       func(p *Params, v float64) { p.LoadWindow = int(v) },
	"bandwidth.l2":                      func(p *Params, v float64) { p.L2BytesPerNS = v },
	"bandwidth.dram":                    func(p *Params, v float64) { p.DRAMBytesPerNS = v },
	"memory.fetch":                      func(p *Params, v float64) { p.DRAMFetch = int(v) },
	"launch.kernel":                     func(p *Params, v float64) { p.KernelNS = v },
	"launch.block_rate_floor":           func(p *Params, v float64) { p.BlockRateFloor = v != 0 },
	"launch.block_dispatch":             func(p *Params, v float64) { p.BlockDispatchNS = v },
	"launch.block_start":                func(p *Params, v float64) { p.BlockLaunch = uint32(v) },
	"launch.gap":                        func(p *Params, v float64) { p.LaunchGapNS = v },
	"launch.device":                     func(p *Params, v float64) { p.DeviceLaunch = uint32(v) },
	"launch.child_start":                func(p *Params, v float64) { p.ChildStartNS = v },
	"launch.device_sync":                func(p *Params, v float64) { p.DeviceSyncNS = v },
	"launch.child_interval":             func(p *Params, v float64) { p.ChildLaunchNS = v },
	"launch.concurrent_kernels":         func(p *Params, v float64) { p.ConcurrentKernels = int(v) },
	"icache.line":                       func(p *Params, v float64) { p.FetchLineCycles = v },
	"latency.icache_miss":               func(p *Params, v float64) { p.FetchMiss = v },
	"icache.near":                       func(p *Params, v float64) { p.FetchNearBytes = int(v) },
	"icache.ahead":                      func(p *Params, v float64) { p.FetchAhead = int(v) },
	"icache.far_line":                   func(p *Params, v float64) { p.FetchFarLineCycles = v },
	"latency.icache_far_miss":           func(p *Params, v float64) { p.FetchFarMiss = v },
	"icache.size":                       func(p *Params, v float64) { p.IcacheBytes = int(v) },
	"icache.inst_bytes":                 func(p *Params, v float64) { p.InstBytes = v },
	"icache.mov_bytes":                  func(p *Params, v float64) { p.MovBytes = v },
	"icache.launch_bytes":               func(p *Params, v float64) { p.FetchLaunchBytes = int(v) },
	"icache.launch_line":                func(p *Params, v float64) { p.FetchLaunchLineNS = v },
	"printf.call":                       func(p *Params, v float64) { p.Printf.CallNS = v },
	"printf.format_byte":                func(p *Params, v float64) { p.Printf.FormatByteNS = v },
	"printf.string":                     func(p *Params, v float64) { p.Printf.StringNS = v },
	"printf.string_byte":                func(p *Params, v float64) { p.Printf.StringByteNS = v },
	"printf.lane":                       func(p *Params, v float64) { p.Printf.LaneNS = v },
	"printf.cold":                       func(p *Params, v float64) { p.Printf.ColdNS = v },
	"printf.handoff":                    func(p *Params, v float64) { p.Printf.HandoffNS = v },
	"printf.lock_lane":                  func(p *Params, v float64) { p.Printf.LockLaneNS = v },
})

// withClassFigures adds each instruction class's latency and issue
// interval keys to m, and each libdevice call kind's (libcall.sinf,
// libcall.sinf.slots …).
func withClassFigures(m map[string]func(p *Params, v float64)) map[string]func(p *Params, v float64) {
	for c := ir.Class(0); c < ir.NumClasses; c++ {
		m["latency."+c.String()] = func(p *Params, v float64) { p.Latency[c] = uint32(v) }
		m["interval."+c.String()] = func(p *Params, v float64) { p.Interval[c] = uint32(max(v, 1)) }
	}
	for _, c := range []ir.Class{ir.ClassALU, ir.ClassFMA, ir.ClassFP64, ir.ClassIMul} {
		m["ptxas.hoist_fixed."+c.String()] = func(p *Params, v float64) { p.HoistFixed[c] = v != 0 }
	}
	libcall := func(name string, k uint8) {
		m["libcall."+name] = func(p *Params, v float64) { p.Libcall[k].Cycles = uint32(v) }
		m["libcall."+name+".slots"] = func(p *Params, v float64) { p.Libcall[k].Slots = uint32(v) }
	}
	for i, f := range arch.LibcallFuncs {
		libcall(f, ir.LibcallFirst+uint8(i))
	}
	libcall("math_f32", ir.LibcallMathF32)
	libcall("math_f64", ir.LibcallMathF64)
	return m
}

// setChainLatency sets TensorPipe.ChainLatency of the types given
// (latency.mma_chain_s8, latency.mma_chain_f16).
func setChainLatency(p *Params, v float64, elems ...tensor.Elem) {
	for _, e := range elems {
		p.Tensor.ChainLatency[e] = uint32(v)
	}
}
