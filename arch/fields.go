package arch

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Field is one key an arch file or --set may give: a figure of the Arch
// (sms, l2.size, shared.carveouts, …) or a timing-model figure kept in
// Arch.Timing (latency.fma, bandwidth.dram, …).
type Field struct {
	Key  string // dotted key: "l2.size"
	Help string // what it is and its unit
	// Timing is true for the timing model's figures (Arch.Timing).
	Timing bool

	parse func(s string) (float64, error) // value → number in the field's unit
	get   func(a *Arch) string            // the arch's value as an arch file writes it ("" for an unset timing figure)
	set   func(a *Arch, v float64, raw string)
	min   float64
	list  bool // shared.carveouts
	text  bool // name, full_name, scheduler
	check func(s string) error
}

// archFields is every key, in the order arch files and diffs list them;
// archFieldByKey indexes them.
var archFields, archFieldByKey = fieldTable()

// fieldTable lists the keys an arch file may give, with how each is read,
// checked and written.
func fieldTable() ([]*Field, map[string]*Field) {
	var fields []*Field
	byKey := map[string]*Field{}
	add := func(f *Field) {
		if f.parse == nil && !f.text && !f.list {
			panic("arch: field without a parser: " + f.Key)
		}
		fields = append(fields, f)
		byKey[f.Key] = f
	}
	count := func(s string) (float64, error) {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || v < 0 || v > math.MaxInt32 {
			return 0, fmt.Errorf("must be a whole number")
		}
		return float64(v), nil
	}
	size := func(s string) (float64, error) {
		v, err := ParseSize(s)
		return float64(v), err
	}
	freq := func(s string) (float64, error) {
		v, err := ParseFreq(s)
		return float64(v), err
	}
	number := func(s string) (float64, error) {
		n, unit, ok := splitNumber(s)
		if !ok || unit != "" || n < 0 {
			return 0, fmt.Errorf("must be a number, not negative")
		}
		return n, nil
	}
	integer := func(key, help string, min float64, p func(*Arch) *int) {
		add(&Field{Key: key, Help: help, parse: count, min: min,
			get: func(a *Arch) string { return strconv.Itoa(*p(a)) },
			set: func(a *Arch, v float64, _ string) { *p(a) = int(v) }})
	}
	bytes := func(key, help string, min float64, p func(*Arch) *int) {
		add(&Field{Key: key, Help: help + " (a size: 48KiB, 50MiB, or bytes)", parse: size, min: min,
			get: func(a *Arch) string { return formatSize(int64(*p(a))) },
			set: func(a *Arch, v float64, _ string) { *p(a) = int(v) }})
	}
	clock := func(key, help string, p func(*Arch) *int) {
		add(&Field{Key: key, Help: help + " (1980MHz, 1.98GHz, or MHz)", parse: freq, min: 1,
			get: func(a *Arch) string { return formatFloat(float64(*p(a))/1000) + "MHz" },
			set: func(a *Arch, v float64, _ string) { *p(a) = int(v) }})
	}
	text := func(key, help string, p func(*Arch) *string, check func(string) error) {
		add(&Field{Key: key, Help: help, text: true, check: check,
			get: func(a *Arch) string { return *p(a) },
			set: func(a *Arch, _ float64, raw string) { *p(a) = raw }})
	}
	timing := func(key, help string, parse func(string) (float64, error), min float64, format func(float64) string) {
		add(&Field{Key: key, Help: help, Timing: true, parse: parse, min: min,
			get: func(a *Arch) string {
				if v, ok := a.Timing[key]; ok {
					return format(v)
				}
				return ""
			},
			set: func(a *Arch, v float64, _ string) {
				if a.Timing == nil {
					a.Timing = map[string]float64{}
				}
				a.Timing[key] = v
			}})
	}
	cycles := func(key, help string) { timing(key, help+" (cycles)", count, 0, formatFloat) }
	nanos := func(key, help string) {
		timing(key, help+" (a duration: 2.2us, 2200ns, or ns)", ParseNanos, 0, func(v float64) string { return formatFloat(v) + "ns" })
	}

	text("name", "the architecture's name in reports (default: the file's name)", func(a *Arch) *string { return &a.Name }, nil)
	text("full_name", "the device name cudaGetDeviceProperties reports", func(a *Arch) *string { return &a.FullName }, nil)
	integer("sms", "streaming multiprocessors", 1, func(a *Arch) *int { return &a.SMs })
	clock("clock", "the SM clock", func(a *Arch) *int { return &a.ClockKHz })
	integer("sub_partitions", "SM sub-partitions (warp schedulers) per SM", 1, func(a *Arch) *int { return &a.SubPartitions })
	text("scheduler", "the timing model's warp scheduler: gto or lrr", func(a *Arch) *string { return &a.Scheduler }, func(s string) error {
		if s != "gto" && s != "lrr" {
			return fmt.Errorf("must be gto (greedy-then-oldest) or lrr (loose round-robin)")
		}
		return nil
	})
	integer("limits.threads_per_block", "most threads in a block", 1, func(a *Arch) *int { return &a.MaxThreadsPerBlock })
	integer("limits.threads_per_sm", "most resident threads per SM", 1, func(a *Arch) *int { return &a.MaxThreadsPerSM })
	integer("limits.warps_per_sm", "most resident warps per SM", 1, func(a *Arch) *int { return &a.MaxWarpsPerSM })
	integer("limits.blocks_per_sm", "most resident blocks per SM", 1, func(a *Arch) *int { return &a.MaxBlocksPerSM })
	integer("registers.per_sm", "32-bit registers per SM", 1, func(a *Arch) *int { return &a.RegsPerSM })
	integer("registers.per_block", "most registers a block may use", 1, func(a *Arch) *int { return &a.RegsPerBlock })
	integer("registers.per_thread", "most registers a thread may use", 1, func(a *Arch) *int { return &a.RegsPerThread })
	integer("registers.alloc_unit", "registers are allocated in multiples of this, per warp", 1, func(a *Arch) *int { return &a.RegAllocUnit })
	bytes("shared.per_sm", "shared memory per SM", 1, func(a *Arch) *int { return &a.SharedPerSM })
	bytes("shared.per_block", "shared memory a block may use by default", 1, func(a *Arch) *int { return &a.SharedPerBlock })
	bytes("shared.per_block_optin", "shared memory a block may use with cudaFuncAttributeMaxDynamicSharedMemorySize", 1, func(a *Arch) *int { return &a.SharedPerBlockOptin })
	bytes("shared.reserved_per_block", "shared memory the driver reserves per block", 0, func(a *Arch) *int { return &a.ReservedSharedPerBlock })
	bytes("shared.alloc_unit", "shared memory is allocated in multiples of this", 1, func(a *Arch) *int { return &a.SharedAllocUnit })
	add(&Field{Key: "shared.carveouts", Help: "the shared-memory capacities an SM can be configured to, in KiB, ascending: [0, 8, 16, 32, 64, 100]", list: true,
		get: func(a *Arch) string {
			s := make([]string, len(a.SharedCarveoutsKiB))
			for i, k := range a.SharedCarveoutsKiB {
				s[i] = strconv.Itoa(k)
			}
			return "[" + strings.Join(s, ", ") + "]"
		},
		set: func(a *Arch, _ float64, raw string) { a.SharedCarveoutsKiB, _ = parseList(raw) }})
	bytes("l1.size", "on-chip storage per SM that L1 and shared memory share", 0, func(a *Arch) *int { return &a.L1SharedBytes })
	bytes("l2.size", "L2 cache (the timing model scales its effective L2 with it)", 1, func(a *Arch) *int { return &a.L2Bytes })
	clock("memory.clock", "the DRAM clock as cudaDeviceProp.memoryClockRate gives it (peak bandwidth is 2 × clock × bus width)", func(a *Arch) *int { return &a.MemClockKHz })
	integer("memory.bus_width", "the DRAM bus width in bits", 1, func(a *Arch) *int { return &a.MemBusWidth })
	add(&Field{Key: "memory.size", Help: "global memory (a size: 80GiB)", parse: size, min: 1,
		get: func(a *Arch) string { return formatSize(int64(a.TotalGlobalMem)) },
		set: func(a *Arch, v float64, _ string) { a.TotalGlobalMem = uint64(v) }})
	bytes("memory.const_size", "constant memory", 1, func(a *Arch) *int { return &a.ConstMem })
	integer("device_runtime.max_depth", "nesting depth of device launches, in levels of grids", 0, func(a *Arch) *int { return &a.DevRuntimeMaxDepth })
	integer("device_runtime.sync_depth", "cudaLimitDevRuntimeSyncDepth's default", 0, func(a *Arch) *int { return &a.DevRuntimeSyncDepth })
	integer("device_runtime.pending_launches", "cudaLimitDevRuntimePendingLaunchCount's default", 0, func(a *Arch) *int { return &a.DevRuntimePendingLaunches })

	for _, c := range []string{"alu", "fma", "fp64", "sfu", "conv", "imul", "branch", "warp", "const", "local", "devrt"} {
		cycles("latency."+c, "issue-to-use latency of "+c+" instructions")
	}
	for _, c := range []string{"alu", "fma", "fp64", "sfu", "conv", "imul", "warp"} {
		cycles("interval."+c, "cycles a sub-partition's pipe is busy per warp instruction of class "+c)
	}
	cycles("latency.shared", "shared-memory load to use")
	cycles("latency.shared_conflict", "extra latency per extra wavefront of a bank-conflicted access")
	cycles("shared.warp_cycles", "cycles apart a warp's shared access sends its wavefronts to the SM's pipe, its next access after its last wavefront (0: only the SM's pipe, one wavefront a cycle)")
	cycles("latency.sreg", "reading %tid, %clock, …")
	cycles("sched.starve", "greedy-then-oldest: a warp ready this long without issuing goes before the greedy and older warps (0: never; off in every preset, testdata/timing/warplaunch)")
	cycles("latency.l1_hit", "a global load hitting L1")
	cycles("latency.l2_hit_cycles", "a global load hitting L2, its SM-clock part")
	nanos("latency.l2_hit_ns", "a global load hitting L2, its part beyond the SM clock")
	cycles("latency.dram_cycles", "a global load missing L2 (unloaded), its SM-clock part")
	nanos("latency.dram_ns", "a global load missing L2 (unloaded), its part beyond the SM clock")
	nanos("latency.dram_write_drain", "a DRAM write drain: a read that meets one waits for its rest, uniform up to this (0: reads never wait for writes)")
	timing("dram.write_mode_share", "the share of the time the DRAM drains writes for each share of its bandwidth write-backs take (at least 1)", number, 0, formatFloat)
	timing("dram.turnaround", "a written-back byte takes the DRAM's bus 1 + this × the reads' share of its recent traffic times a read byte's time (0: one cost)", number, 0, formatFloat)
	timing("l2.store_sector_bytes", "bytes of the L2's bandwidth a store's whole sector takes (0: 32, as a read's)", number, 0, formatFloat)
	timing("l2.dirty_ways", "ways of an L2 set (of 16) the timing model keeps dirty lines in before it evicts one; below it a new line evicts a clean line (0: plain LRU)", count, 0, formatFloat)
	nanos("latency.dram_far", "what a miss on a line homed in the L2 partition far from the SM takes beyond a near one (the DRAM latency is their mean; 0: one partition)")
	cycles("latency.barrier", "from the last warp's arrival at a barrier to the first warp's issue")
	cycles("latency.store_to_load", "a stored sector is readable from L1 after this many cycles")
	cycles("latency.int_div", "a 32-bit integer division or remainder (ptxas's I2F, MUFU.RCP, F2I sequence) has its result this long after it starts (0: its class latencies' chain)")
	cycles("latency.mma_chain_s8", "a wmma.mma of s8/u8 forwards its accumulator to the next wmma.mma of its basic block this long after it starts (0: the tensor pipe's latency after its pipe time)")
	cycles("latency.mma_chain_f16", "a wmma.mma of f16/bf16 forwards its accumulator to the next wmma.mma of its basic block this long after it starts (0: the tensor pipe's latency after its pipe time)")
	cycles("latency.cluster_barrier", "from a cluster's last barrier.cluster.arrive to its waiting warps' issue, fixed part")
	cycles("latency.cluster_barrier_per_block", "the cluster barrier's latency per block of the cluster")
	cycles("latency.dsmem", "an access to another block's shared memory (shared::cluster) until its result is there")
	cycles("latency.fence_cta", "a fence (or an atomic's release) at .cta scope holds the warp this long")
	cycles("latency.fence_gpu", "a fence (or an atomic's release) at .cluster or .gpu scope holds the warp this long")
	cycles("latency.fence_sys", "a fence (or an atomic's release) at .sys scope holds the warp this long")
	timing("atomic.lane", "cycles an SM takes per address of a global atomic it sends to the L2", number, 0, formatFloat)
	nanos("latency.atomic_return", "what a global atomic's result takes beyond an L2 hit's round trip")
	timing("dsmem.atomic_lane", "cycles the SM's path to its cluster is busy per lane of a remote shared-memory atomic (with dsmem.atomic_sector: per lane on an address another lane named first)", number, 1, formatFloat)
	timing("dsmem.atomic_sector", "cycles the SM's path to its cluster is busy per distinct 32-byte sector of other blocks' shared memory a remote atomic names (0: dsmem.atomic_lane a lane)", number, 0, formatFloat)
	nanos("atomic.service", "a global atomic's service time at its L2 slice")
	nanos("atomic.float_service", "a floating-point atomic add's service time at its L2 slice (0: atomic.service)")
	timing("atomic.rate", "device-wide atomic updates per ns", number, 1e-9, formatFloat)
	timing("atomic.aggregated", "cycles a 32-bit global atom that ptxas aggregated across the warp holds the SM's atomics at least", number, 0, formatFloat)
	timing("atomic.aggregated_64", "cycles a 64-bit global atom that ptxas aggregated across the warp holds the SM's atomics at least", number, 0, formatFloat)
	timing("atomic.aggregated_red", "cycles a global red that ptxas aggregated across the warp holds the SM's atomics at least", number, 0, formatFloat)
	timing("atomic.red", "cycles a global red (not aggregated) holds the SM's atomics at least; each 128-byte line it updates takes atomic.lane", number, 0, formatFloat)
	timing("atomic.red_window", "a warp's global reds waiting for the L2 at most, its next waiting for the oldest (0: no limit; at most 64)", count, 0, formatFloat)
	timing("ptxas.loop_unroll", "the timing model ends a hoisting region at the back edge of a loop ptxas unrolls again only every this many times a warp takes it (0 or 1: every time; 4: ptxas's factor)", count, 0, formatFloat)
	timing("ptxas.unroll_free", "1: ptxas.loop_unroll takes the counted loops of register arithmetic with no global load that ptxas unrolls again too; 0: only loops with a global load", count, 0, formatFloat)
	timing("ptxas.unroll_overhead", "1: a loop ptxas unrolls again (ptxas.loop_unroll) pays its counter step, compare and back edge once per unrolled body, as ptxas's code does; 0: every PTX body pays them", count, 0, formatFloat)
	timing("ptxas.unrolled_hoist_bound", "1: a kernel whose registers cannot hold every load of ptxas's unrolled loop body (ptxas.loop_unroll PTX bodies) hoisted is held to the hoisting bound; 0: only the PTX's body decides", count, 0, formatFloat)
	timing("ptxas.const_bank_live", "1: the loads the timing model hoists are bounded by registers not counting the values ptxas reads from the constant bank (parameters) where it uses them; 0: the PTX's liveness", count, 0, formatFloat)
	timing("ptxas.wmma_rounds", "1: a wmma.load fragment whose loaded values ptxas consumes between the k step's loads (tf32 conversions a k-slice at a time, bytes packed before the other operand) reaches its MMA that many round trips later (an L2 hit each); 0: the PTX's order, one round trip", count, 0, formatFloat)
	timing("ptxas.wmma_reuse", "1: a wmma.load of an A or B fragment inside a loop issues after the warp's last wmma.mma starts (ptxas gives each k step's fragments the registers the step before's MMAs read); 0: only the hoisting bound holds it back", count, 0, formatFloat)
	timing("ptxas.wmma_group_rounds", "1: an 8-bit wmma.load fragment read a byte an element sends its loads in groups, the next group when the first group's data is back (one round trip a group, ptxas's LDG.E.U8 halves); 0: one round trip for the fragment", count, 0, formatFloat)
	timing("ptxas.wmma_slice_groups", "1: a converted tf32 A fragment's k-slices go through the memory system one after another, a round trip each (ptxas's HMMA.1684 k-slices); 0: the fragment's loads as one group", count, 0, formatFloat)
	timing("ptxas.wmma_rounds_loop_only", "1: ptxas.wmma_rounds holds only inside loops (in straight code ptxas sends every fragment load before the first consumer); 0: everywhere", count, 0, formatFloat)
	timing("ptxas.wmma_repeats", "1: a wmma.mma computing again the value an earlier one of its straight code computed (the same operands' values) is not issued, as ptxas computes it once; 0: every wmma.mma issues", count, 0, formatFloat)
	timing("ptxas.mov_fold", "1: the movs ptxas removes (copies, dead movs, constants its readers encode) take no issue slot and no latency; 0: every mov issues", count, 0, formatFloat)
	for _, c := range []string{"alu", "fma", "fp64", "imul"} {
		timing("ptxas.hoist_fixed."+c, "1: an "+c+" instruction whose operand another "+c+" instruction computes issues ahead of it within a basic block, as ptxas interleaves independent chains; 0: it waits in the warp", count, 0, formatFloat)
	}
	timing("ptxas.hoist_shfl", "1: a shuffle and its consumers issue ahead of the results they wait for within a basic block, as ptxas interleaves independent shuffle chains; 0: they wait in the warp", count, 0, formatFloat)
	timing("const.block", "bytes a constant-cache miss brings from the L2 (a size; 0: the sectors asked for)", size, 0, func(v float64) string { return formatSize(int64(v)) })
	timing("const.param_line", "bytes of a line of constant bank 0 (a kernel's parameters, %ntid, %nctaid), cold at each block's start (a size; 0: a parameter read takes its class latency)", size, 0, func(v float64) string { return formatSize(int64(v)) })
	cycles("const.param_miss", "a block's first read of a line of constant bank 0 waits this long")
	cycles("const.symbol_first_miss", "a first-wave block's first read of a global variable's address (the module's constant bank, from DRAM) waits this long")
	cycles("const.symbol_miss", "a later block's first read of a global variable's address (from the L2) waits this long")
	cycles("bandwidth.l1", "bytes per cycle per SM through the L1 data path")
	bw := func(key, help string) {
		timing(key, help+" (2.1TB/s, 900GB/s, or GB/s)", ParseBandwidth, 1e-9, func(v float64) string { return formatFloat(v) + "GB/s" })
	}
	bw("bandwidth.l2", "device-wide L2 bandwidth")
	bw("bandwidth.l2_link", "the link between the L2's partitions that far misses' lines take (0: not limited)")
	bw("bandwidth.dram", "achievable device-wide DRAM bandwidth (default: scaled with memory.clock and memory.bus_width)")
	timing("tlb.region_bytes", "address translation's region (a size; 0: no translation cost)", size, 0, func(v float64) string { return formatSize(int64(v)) })
	nanos("tlb.walk_ns", "a translation walk: with tlb.cold, a host launch's first request to a region the launch before did not touch waits this long more")
	for _, f := range LibcallFuncs {
		timing("libcall."+f, "cycles a call of libdevice's __nv_"+f+" (clang's code) holds the warp: ptxas's CALL of the routine, its path and its RET (0: the call's slots and class latency)", count, 0, formatFloat)
		timing("libcall."+f+".slots", "issue slots a call of libdevice's __nv_"+f+" takes: the SASS instructions of the call and of the routine's path (0: 24)", count, 0, formatFloat)
	}
	for _, f := range []string{"math_f32", "math_f64"} {
		timing("libcall."+f, "cycles a call of a libdevice math function ("+f[5:]+") not measured on its own holds the warp (0: the call's slots and class latency)", count, 0, formatFloat)
		timing("libcall."+f+".slots", "issue slots a call of a libdevice math function ("+f[5:]+") not measured on its own takes (0: 24)", count, 0, formatFloat)
	}
	timing("tlb.cold", "1: address translation timed as under Nsight Compute (an SM's first request to a region, and a walk for a region the launch before did not touch); 0: not timed", count, 0, formatFloat)
	timing("tlb.programs", "1: address translation timed as with tlb.cold in whole programs (warpsim cc), whose launches the device sees from the process's first; 0: only with tlb.cold", count, 0, formatFloat)
	nanos("tlb.miss_ns", "with tlb.cold, an SM's first request to a region in a grid waits this long more (the shared translation)")
	timing("memory.fetch", "bytes DRAM delivers per L2 miss (a size)", size, 1, func(v float64) string { return formatSize(int64(v)) })
	nanos("launch.kernel", "a kernel's fixed duration beyond its blocks' work")
	nanos("launch.block_dispatch", "the block scheduler hands out one block per this, GPU-wide")
	timing("launch.block_rate_floor", "1: the block scheduler takes retired blocks back one per launch.block_dispatch, and a grid ends when it has taken its last (the h100 and h200 presets); 0: a grid ends with its last block", count, 0, formatFloat)
	cycles("launch.block_start", "from a block's dispatch until its warps issue")
	nanos("launch.gap", "host-side cost of a launch, seen between back-to-back launches")
	cycles("launch.device", "cycles a device-side launch costs the launching warp")
	nanos("launch.child_start", "from a device-side launch to the child grid's start")
	nanos("launch.device_sync", "a device-side cudaDeviceSynchronize's cost beyond its children")
	nanos("launch.child_interval", "the grid management unit starts a device-launched grid at most once per this")
	timing("launch.concurrent_kernels", "most grids resident at once", count, 1, formatFloat)
	timing("copy.bandwidth", "bytes per cycle an SM's TMA and bulk-copy unit moves into shared memory", number, 0, formatFloat)
	timing("cp_async.min", "cycles a cp.async holds the SM's L1 data path at least", number, 0, formatFloat)
	timing("cp_async.line", "cycles a cp.async.ca holds the L1 data path per line it allocates", number, 0, formatFloat)
	timing("cp_async.wavefront", "cycles a cp.async holds the L1 data path per wavefront of its shared-memory writes", number, 0, formatFloat)
	timing("cp_async.issue", "cycles a cp.async holds the L1 data path beyond its wavefronts", number, 0, formatFloat)
	timing("cp_async.bytes", "bytes per cycle a cp.async.ca moves through the L1 data path", number, 0, formatFloat)
	timing("cp_async.warp", "cycles a warp waits after a cp.async, per wavefront of its shared-memory writes and one more, before its next one issues", number, 0, formatFloat)
	timing("cp_async.queue", "cycles of the L1 data path's queued work a cp.async may issue behind (0: no limit)", number, 0, formatFloat)
	timing("load.miss_bandwidth", "bytes per cycle at which a global load into registers takes the SM's L1 data path for its sectors that miss the L1 (0: as hits)", number, 0, formatFloat)
	timing("load.miss_line", "cycles of the SM's L1 data path each line a global load into registers misses in the L1 takes at least (0: its sectors' bytes alone)", number, 0, formatFloat)
	timing("load.warp_line", "cycles a warp waits after a global load, per line it touched and one more, before its next global load issues (0: none)", number, 0, formatFloat)
	timing("load.window", "a warp's global loads waiting for their data at most, its next waiting for the oldest (0: no limit; at most 64)", count, 0, formatFloat)
	timing("store.sector", "cycles a whole sector of a global store holds the port by which an SM's stores leave for the L2 (0: no port)", number, 0, formatFloat)
	timing("store.partial_sector", "cycles a partly written sector of a global store holds the SM's store port", number, 0, formatFloat)
	timing("store.partial_line", "cycles a line a global store writes in part holds the SM's store port at least, however few of its sectors it writes (0: no floor)", number, 0, formatFloat)
	timing("store.queue", "cycles of the store port's queued work a global store may issue behind (0: no limit)", number, 0, formatFloat)
	timing("store.merge_lines", "128-byte lines of an SM's last global stores, still queued at its store port, that a store's sectors merge into (at most 32; 0: no merging)", count, 0, formatFloat)
	nanos("latency.tensormap_fetch", "a TMA copy through a tensor map its SM has not used yet waits this long for the map")
	cycles("latency.bulk_read", "a bulk or tensor copy out of shared memory has read its source this long after its issue, plus its bytes")
	cycles("latency.bulk_wait", "a cp.async.bulk.wait_group holds its warp at least this long")
	cycles("tensormap.guard", "a tensormap.replace only some lanes execute holds its warp this much longer")
	sz := func(v float64) string { return formatSize(int64(v)) }
	timing("icache.line", "cycles an SM's instruction fetch takes per 128-byte code line, streaming (0: no instruction fetch modelled)", number, 0, formatFloat)
	timing("latency.icache_miss", "cycles from a jump to a code line the fetch stream has not brought until the line is there", number, 0, formatFloat)
	timing("icache.near", "the first bytes of a kernel's code fetched at icache.line; code beyond at icache.far_line (a size; 0: all)", size, 0, sz)
	timing("icache.far_line", "icache.line for code beyond icache.near", number, 0, formatFloat)
	timing("latency.icache_far_miss", "latency.icache_miss for code beyond icache.near", number, 0, formatFloat)
	timing("icache.size", "an SM's instruction cache (a size)", size, 0, sz)
	timing("icache.ahead", "128-byte code lines a sub-partition's fetch stream brings at most past the furthest line its warps asked for", count, 0, formatFloat)
	timing("icache.inst_bytes", "bytes of SASS one PTX instruction stands for", number, 0, formatFloat)
	timing("icache.mov_bytes", "bytes of SASS one PTX mov stands for (0: icache.inst_bytes, as every instruction); an instruction ptxas expands takes its issue slots' inst_bytes", number, 0, formatFloat)
	timing("icache.launch_bytes", "a kernel's launch fetches this much of its code first (a size)", size, 0, sz)
	nanos("icache.launch_line", "what a kernel's launch takes longer per 128-byte line of code it fetches first")
	nanos("printf.call", "a device printf call of one lane with an empty format, beyond its code's cold fetch (0: printf is its issue slots alone)")
	nanos("printf.format_byte", "a device printf call takes this much longer per byte of its format string")
	nanos("printf.string", "a device printf call takes this much longer per %s argument")
	nanos("printf.string_byte", "a device printf call takes this much longer per byte of its longest lane's %s strings")
	nanos("printf.lane", "a device printf call takes this much longer per lane past the first")
	nanos("printf.cold", "the first device printf call on an SM in a grid takes this much longer (vprintf's code fetched)")
	nanos("printf.handoff", "the device-wide printf lock's handoff: part of the time a call holds it")
	nanos("printf.lock_lane", "a device printf call holds the device-wide printf lock this much longer per lane")
	return fields, byKey
}

// Fields returns every key an arch file may give, in order.
func Fields() []*Field { return append([]*Field(nil), archFields...) }

// TimingKeys returns the keys of the timing model's figures (Arch.Timing).
func TimingKeys() []string {
	var keys []string
	for _, f := range archFields {
		if f.Timing {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// Get returns the arch's value of a field as an arch file writes it; ""
// for a timing figure the arch does not override.
func (f *Field) Get(a *Arch) string { return f.get(a) }

// apply parses raw and sets the field on a; the error names no key (the
// caller adds it).
func (f *Field) apply(a *Arch, raw string) error {
	raw = strings.TrimSpace(raw)
	switch {
	case f.text:
		if f.check != nil {
			if err := f.check(raw); err != nil {
				return err
			}
		}
		if raw == "" {
			return fmt.Errorf("must not be empty")
		}
		f.set(a, 0, raw)
		return nil
	case f.list:
		if _, err := parseList(raw); err != nil {
			return err
		}
		f.set(a, 0, raw)
		return nil
	}
	v, err := f.parse(raw)
	if err != nil {
		return err
	}
	if v < f.min {
		if f.min == 1 {
			return fmt.Errorf("must be at least 1")
		}
		return fmt.Errorf("must be positive")
	}
	f.set(a, v, raw)
	return nil
}

// parseList reads carveouts: "[0, 8, 16]", "0,8,16" or "0 8 16", KiB,
// ascending, not negative.
func parseList(raw string) ([]int, error) {
	s := strings.TrimSpace(raw)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(parts) == 0 {
		return nil, fmt.Errorf("must be a list of KiB like [0, 8, 16, 32, 64, 100]")
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(p), "kib"))
		if err != nil || n < 0 || n > 1<<20 {
			return nil, fmt.Errorf("must be a list of KiB like [0, 8, 16, 32, 64, 100]; %q is not a whole number of KiB", p)
		}
		if i > 0 && n <= out[i-1] {
			return nil, fmt.Errorf("must be ascending (%d after %d)", n, out[i-1])
		}
		out[i] = n
	}
	return out, nil
}

// suggest names the known key closest to an unknown one, or "".
func suggest(key string) string {
	var ties []string
	bestD := 4
	for _, f := range archFields {
		switch d := editDistance(key, f.Key); {
		case d < bestD:
			ties, bestD = []string{f.Key}, d
		case d == bestD && ties != nil:
			ties = append(ties, f.Key)
		}
	}
	best := ""
	if len(ties) > 0 && len(ties) <= 3 {
		best = strings.Join(ties, " or ")
	}
	if best == "" {
		// "size" under the wrong section: l3.size → l2.size, …
		last := key[strings.LastIndexByte(key, '.')+1:]
		var cands []string
		for _, f := range archFields {
			if strings.HasSuffix(f.Key, "."+last) || f.Key == last {
				cands = append(cands, f.Key)
			}
		}
		sort.Strings(cands)
		if len(cands) > 0 && len(cands) <= 3 {
			return strings.Join(cands, " or ")
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// LibcallFuncs are the libdevice functions (less their __nv_ prefix) whose
// call in clang's code the timing model costs from its own measurement on
// an H200 (testdata/libm20: the call's SASS instructions and its latency):
// each has the timing keys libcall.<name> and libcall.<name>.slots. The
// timing model's kind of a call (ir.LibcallKind) is its index here plus
// ir.LibcallFirst. The rest of libdevice's math functions take the rule
// for functions not measured (libcall.math_f32, libcall.math_f64).
var LibcallFuncs = [...]string{
	"sinf", "cosf", "sqrtf", "expf", "exp2f", "logf", "log2f", "log10f", "log1pf", "powf", "tanf", "asinf",
	"acosf", "atan2f", "sinhf", "erfcf", "fmodf", "sinpif", "normcdff", "rsqrtf",
	"log", "sin", "cos", "pow", "erf", "log1p", "sqrt",
}
