package metrics

import (
	"fmt"
	"strings"

	"github.com/warpsim/warpsim/arch"
)

// Kind says how a metric's value reads and prints.
type Kind uint8

const (
	Count       Kind = iota // an event count; printed as an integer
	Percent                 // 0–100; printed as 12.34%
	Ratio                   // a plain number; printed with six decimals
	Bytes                   // a byte count
	Throughput              // bytes per second; printed as GB/s
	Cycles                  // a cycle count
	Nanoseconds             // a duration
)

// Unit is the unit a kind's value is in, as ncu names it.
func (k Kind) Unit() string {
	switch k {
	case Percent:
		return "%"
	case Bytes:
		return "byte"
	case Throughput:
		return "byte/s"
	case Cycles:
		return "cycle"
	case Nanoseconds:
		return "ns"
	}
	return ""
}

// Def is one metric's definition: its nvprof name, the Nsight Compute
// metric that replaced it, and how it is computed from Counters.
type Def struct {
	Name        string // nvprof name
	NCU         string // Nsight Compute name ("" when ncu has none)
	Description string // nvprof's short description (the table's "Metric Description")
	Kind        Kind
	// Formula says how the value is derived, for documentation and --help.
	Formula string
	// Timing marks metrics only the timing driver can give.
	Timing bool

	value func(c *Counters, in *inputs) (float64, bool)
	// timed computes a Timing metric from the timing driver's account.
	timed func(c *Counters, t *Timing) float64
}

// inputs are what a metric may need besides the counters.
type inputs struct {
	arch   *arch.Arch
	launch *Launch
}

// Launch describes the launch the counters came from, for the metrics that
// need more than counts (theoretical occupancy).
type Launch struct {
	BlockThreads  int // threads per block
	RegsPerThread int // registers per thread the kernel was given
	StaticShared  int // bytes of .shared variables
	DynamicShared int // bytes of dynamic shared memory given at launch
	// Timing is the timing driver's account of the launch; nil when it ran
	// functionally (the timing metrics are then unavailable).
	Timing *Timing
}

// theoreticalOccupancy is what the arch's occupancy calculator (the one
// that answers as cudaOccupancyMaxActiveBlocksPerMultiprocessor) gives for
// the launch, in percent: active warps per SM ÷ the SM's maximum.
func theoreticalOccupancy(a *arch.Arch, l Launch) float64 {
	r := a.Occupancy(arch.OccupancyInput{
		BlockSize: l.BlockThreads, RegsPerThread: l.RegsPerThread,
		StaticShared: l.StaticShared, DynamicShared: l.DynamicShared,
	})
	return 100 * r.Occupancy
}

// errTiming is the reason given for the metrics of the timing driver.
const errTiming = "needs the timing driver (--mode timing)"

// seconds is a timed launch's duration.
func seconds(t *Timing) float64 {
	if t.ClockHz == 0 {
		return 0
	}
	return float64(t.Cycles) / t.ClockHz
}

func perSecond(n uint64, t *Timing) float64 {
	if s := seconds(t); s > 0 {
		return float64(n) / s
	}
	return 0
}

func ratio(n, d uint64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// stallMetric is the metric of one stall reason: warp-cycles in that state
// per instruction issued, as ncu's smsp__average_warp_latency_issue_stalled_*.
func stallMetric(reason, nvprof, desc string) *Def {
	return &Def{Name: nvprof, NCU: "smsp__average_warp_latency_issue_stalled_" + reason, Description: desc, Kind: Ratio, Timing: true,
		Formula: "warp-cycles stalled on " + reason + " ÷ instructions issued",
		timed: func(_ *Counters, t *Timing) float64 {
			for i, n := range t.StallNames {
				if n == reason && i < len(t.Stalls) {
					return ratio(t.Stalls[i], t.IssueCycles)
				}
			}
			return 0
		}}
}

// pct is 100·num/den, or zero when den is zero.
func pct(num, den float64) float64 {
	if den == 0 {
		return 0
	}
	return 100 * num / den
}

func count(f func(c *Counters) uint64) func(*Counters, *inputs) (float64, bool) {
	return func(c *Counters, _ *inputs) (float64, bool) { return float64(f(c)), true }
}

// sectorBytes is the size of the memory transaction the transaction metrics
// count: a 32-byte sector (nvprof on Maxwell and later, and ncu).
const sectorBytes = 32

// defs is the metric table, in the order reports list them. Formulas follow
// the nvprof metrics reference (CUDA Profiler User's Guide, "Metrics
// Reference") and NVIDIA's nvprof→ncu metric comparison table.
var defs = []*Def{
	{Name: "inst_executed", NCU: "smsp__inst_executed.sum", Description: "Instructions Executed", Kind: Count,
		Formula: "warp instructions executed",
		value:   count(func(c *Counters) uint64 { return c.InstExecuted })},
	{Name: "thread_inst_executed", NCU: "smsp__thread_inst_executed.sum", Description: "Thread Instructions Executed", Kind: Count,
		Formula: "instructions executed, summed over the active, predicated-on threads",
		value:   count(func(c *Counters) uint64 { return c.ThreadInstExecuted })},
	{Name: "warp_execution_efficiency", NCU: "smsp__thread_inst_executed_per_inst_executed.ratio", Description: "Warp Execution Efficiency", Kind: Percent,
		Formula: "thread_inst_executed / (inst_executed × warp size) × 100 (ncu's ratio is this ÷ 100 × 32)",
		value: func(c *Counters, in *inputs) (float64, bool) {
			return pct(float64(c.ThreadInstExecuted), float64(c.InstExecuted)*float64(warpSize(in.arch))), true
		}},
	{Name: "inst_per_warp", NCU: "smsp__average_inst_executed_per_warp.ratio", Description: "Instructions per warp", Kind: Ratio,
		Formula: "inst_executed / warps_launched",
		value: func(c *Counters, _ *inputs) (float64, bool) {
			if c.WarpsLaunched == 0 {
				return 0, true
			}
			return float64(c.InstExecuted) / float64(c.WarpsLaunched), true
		}},
	{Name: "branch", NCU: "smsp__sass_branch_targets.sum", Description: "Branches", Kind: Count,
		Formula: "branch instructions executed by warps",
		value:   count(func(c *Counters) uint64 { return c.Branch })},
	{Name: "divergent_branch", NCU: "smsp__sass_branch_targets_threads_divergent.sum", Description: "Divergent Branches", Kind: Count,
		Formula: "branches whose active threads did not all go the same way",
		value:   count(func(c *Counters) uint64 { return c.DivergentBranch })},
	{Name: "branch_efficiency", NCU: "smsp__sass_average_branch_targets_threads_uniform.pct", Description: "Branch Efficiency", Kind: Percent,
		Formula: "(branch − divergent_branch) / branch × 100; 100 when no branch executed",
		value: func(c *Counters, _ *inputs) (float64, bool) {
			if c.Branch == 0 {
				return 100, true
			}
			return pct(float64(c.Branch-min(c.DivergentBranch, c.Branch)), float64(c.Branch)), true
		}},
	{Name: "gld_requests", NCU: "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Description: "Global Load Requests", Kind: Count,
		Formula: "global load warp instructions",
		value:   count(func(c *Counters) uint64 { return c.GldRequests })},
	{Name: "gld_transactions", NCU: "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Description: "Global Load Transactions", Kind: Count,
		Formula: "32-byte sectors the global loads touched",
		value:   count(func(c *Counters) uint64 { return c.GldTransactions })},
	{Name: "gld_efficiency", NCU: "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", Description: "Global Memory Load Efficiency", Kind: Percent,
		Formula: "bytes requested by global loads / (gld_transactions × 32) × 100",
		value: func(c *Counters, _ *inputs) (float64, bool) {
			return pct(float64(c.GldBytes), float64(c.GldTransactions)*sectorBytes), true
		}},
	{Name: "gst_requests", NCU: "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Description: "Global Store Requests", Kind: Count,
		Formula: "global store warp instructions",
		value:   count(func(c *Counters) uint64 { return c.GstRequests })},
	{Name: "gst_transactions", NCU: "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Description: "Global Store Transactions", Kind: Count,
		Formula: "32-byte sectors the global stores touched",
		value:   count(func(c *Counters) uint64 { return c.GstTransactions })},
	{Name: "gst_efficiency", NCU: "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", Description: "Global Memory Store Efficiency", Kind: Percent,
		Formula: "bytes written by global stores / (gst_transactions × 32) × 100",
		value: func(c *Counters, _ *inputs) (float64, bool) {
			return pct(float64(c.GstBytes), float64(c.GstTransactions)*sectorBytes), true
		}},
	{Name: "shared_load_transactions", NCU: "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", Description: "Shared Load Transactions", Kind: Count,
		Formula: "shared memory load wavefronts: one per request plus one per bank conflict",
		value:   count(func(c *Counters) uint64 { return c.SharedLoadTransactions })},
	{Name: "shared_store_transactions", NCU: "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", Description: "Shared Store Transactions", Kind: Count,
		Formula: "shared memory store wavefronts: one per request plus one per bank conflict",
		value:   count(func(c *Counters) uint64 { return c.SharedStoreTransactions })},
	{Name: "shared_ld_bank_conflict", NCU: "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", Description: "Shared Load Bank Conflicts", Kind: Count,
		Formula: "extra wavefronts shared loads needed because of bank conflicts",
		value:   count(func(c *Counters) uint64 { return c.SharedLdBankConflict })},
	{Name: "shared_st_bank_conflict", NCU: "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", Description: "Shared Store Bank Conflicts", Kind: Count,
		Formula: "extra wavefronts shared stores needed because of bank conflicts",
		value:   count(func(c *Counters) uint64 { return c.SharedStBankConflict })},
	{Name: "warps_launched", NCU: "smsp__warps_launched.sum", Description: "Warps Launched", Kind: Count,
		Formula: "warps launched",
		value:   count(func(c *Counters) uint64 { return c.WarpsLaunched })},
	{Name: "blocks_launched", NCU: "sm__ctas_launched.sum", Description: "Blocks Launched", Kind: Count,
		Formula: "thread blocks launched",
		value:   count(func(c *Counters) uint64 { return c.BlocksLaunched })},
	{Name: "device_launches", Description: "Device-Side Launches", Kind: Count,
		Formula: "kernel launches made from device code (dynamic parallelism)",
		value:   count(func(c *Counters) uint64 { return c.DeviceLaunches })},
	{Name: "tensor_inst_executed", NCU: "smsp__inst_executed_pipe_tensor.sum", Description: "Tensor Core Instructions Executed", Kind: Count,
		Formula: "warp-level MMA instructions executed (mma, mma.sp, wmma.mma, wgmma.mma_async, each warp of a warpgroup), counted in PTX: a wmma m16n16k16 is one (ncu counts its two HMMAs)",
		value:   count(func(c *Counters) uint64 { return c.TensorInst })},
	{Name: "flop_count_tensor", Description: "Tensor Core Operations", Kind: Count,
		Formula: "2 × the multiply-adds of the MMA instructions (M×N×K per warp, a quarter of a wgmma's per warp; a sparse MMA's: the dense MMA's of half its K), as ncu's sm__ops_path_tensor_* counters count them",
		value:   count(func(c *Counters) uint64 { return 2 * c.TensorMACs })},
	{Name: "theoretical_occupancy", NCU: "sm__maximum_warps_per_active_cycle_pct", Description: "Theoretical Occupancy", Kind: Percent,
		Formula: "active warps per SM the arch's limits allow for this block size, registers and shared memory ÷ max warps per SM × 100",
		value: func(_ *Counters, in *inputs) (float64, bool) {
			if in.arch == nil || in.launch == nil {
				return 0, false
			}
			return theoreticalOccupancy(in.arch, *in.launch), true
		}},
	{Name: "elapsed_cycles", NCU: "sm__cycles_elapsed.avg", Description: "Elapsed Cycles", Kind: Cycles, Timing: true,
		Formula: "cycles from launch to completion, per SM",
		timed:   func(_ *Counters, t *Timing) float64 { return float64(t.Cycles) }},
	{Name: "duration_ns", NCU: "gpu__time_duration.sum", Description: "Duration", Kind: Nanoseconds, Timing: true,
		Formula: "kernel duration: elapsed cycles ÷ SM clock",
		timed:   func(_ *Counters, t *Timing) float64 { return seconds(t) * 1e9 }},
	{Name: "achieved_occupancy", NCU: "sm__warps_active.avg.pct_of_peak_sustained_active", Description: "Achieved Occupancy", Kind: Percent, Timing: true,
		Formula: "average active warps per active cycle ÷ max warps per SM × 100",
		timed: func(_ *Counters, t *Timing) float64 {
			return pct(ratio(t.WarpCycles, t.ActiveSMCycles), float64(t.MaxWarpsPerSM))
		}},
	{Name: "tensor_precision_fu_utilization", NCU: "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", Description: "Tensor-Precision Function Unit Utilization", Kind: Percent, Timing: true,
		Formula: "cycles the sub-partitions' tensor pipes were busy ÷ sub-partition cycles while SMs were active × 100 (nvprof printed it on a 0–10 scale)",
		timed:   func(_ *Counters, t *Timing) float64 { return pct(float64(t.TensorPipeCycles), float64(t.SchedCycles)) }},
	{Name: "sm_efficiency", NCU: "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed", Description: "Multiprocessor Activity", Kind: Percent, Timing: true,
		Formula: "cycles an SM had at least one active warp ÷ elapsed cycles × 100",
		timed: func(_ *Counters, t *Timing) float64 {
			return pct(float64(t.ActiveSMCycles), float64(t.Cycles)*float64(t.SMs))
		}},
	{Name: "ipc", NCU: "sm__inst_executed.avg.per_cycle_active", Description: "Executed IPC", Kind: Ratio, Timing: true,
		Formula: "warp instructions executed per active cycle, per SM",
		timed:   func(_ *Counters, t *Timing) float64 { return ratio(t.IssueCycles, t.ActiveSMCycles) }},
	{Name: "gld_throughput", NCU: "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", Description: "Global Load Throughput", Kind: Throughput, Timing: true,
		Formula: "gld_transactions × 32 ÷ duration",
		timed:   func(c *Counters, t *Timing) float64 { return perSecond(c.GldTransactions*sectorBytes, t) }},
	{Name: "gst_throughput", NCU: "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second", Description: "Global Store Throughput", Kind: Throughput, Timing: true,
		Formula: "gst_transactions × 32 ÷ duration",
		timed:   func(c *Counters, t *Timing) float64 { return perSecond(c.GstTransactions*sectorBytes, t) }},
	{Name: "dram_read_bytes", NCU: "dram__bytes_read.sum", Description: "Device Memory Read Bytes", Kind: Bytes, Timing: true,
		Formula: "bytes read from DRAM",
		timed:   func(_ *Counters, t *Timing) float64 { return float64(t.DRAMReadBytes) }},
	{Name: "dram_write_bytes", NCU: "dram__bytes_write.sum", Description: "Device Memory Write Bytes", Kind: Bytes, Timing: true,
		Formula: "bytes written to DRAM",
		timed:   func(_ *Counters, t *Timing) float64 { return float64(t.DRAMWriteBytes) }},
	{Name: "dram_read_throughput", NCU: "dram__bytes_read.sum.per_second", Description: "Device Memory Read Throughput", Kind: Throughput, Timing: true,
		Formula: "dram_read_bytes ÷ duration",
		timed:   func(_ *Counters, t *Timing) float64 { return perSecond(t.DRAMReadBytes, t) }},
	{Name: "dram_write_throughput", NCU: "dram__bytes_write.sum.per_second", Description: "Device Memory Write Throughput", Kind: Throughput, Timing: true,
		Formula: "dram_write_bytes ÷ duration",
		timed:   func(_ *Counters, t *Timing) float64 { return perSecond(t.DRAMWriteBytes, t) }},
	{Name: "l2_hit_rate", NCU: "lts__t_sector_hit_rate.pct", Description: "L2 Hit Rate", Kind: Percent, Timing: true,
		Formula: "L2 sector hits ÷ sector lookups × 100",
		timed:   func(_ *Counters, t *Timing) float64 { return pct(float64(t.L2Hits), float64(t.L2Hits+t.L2Miss)) }},
	{Name: "issue_slot_utilization", NCU: "smsp__issue_active.avg.pct_of_peak_sustained_active", Description: "Issue Slot Utilization", Kind: Percent, Timing: true,
		Formula: "instructions issued ÷ scheduler issue slots while SMs were active × 100",
		timed:   func(_ *Counters, t *Timing) float64 { return pct(float64(t.IssueCycles), float64(t.SchedCycles)) }},
	stallMetric("long_scoreboard", "stall_memory_dependency", "Issue Stall Reasons (Data Request)"),
	stallMetric("short_scoreboard", "stall_short_scoreboard", "Issue Stall Reasons (Shared Memory and MIO)"),
	stallMetric("wait", "stall_exec_dependency", "Issue Stall Reasons (Execution Dependency)"),
	stallMetric("barrier", "stall_sync", "Issue Stall Reasons (Synchronization)"),
	stallMetric("not_selected", "stall_not_selected", "Issue Stall Reasons (Not Selected)"),
	stallMetric("selected", "stall_selected", "Issue Stall Reasons (Selected)"),
	stallMetric("math_pipe_throttle", "stall_pipe_busy", "Issue Stall Reasons (Pipe Busy)"),
	stallMetric("lg_throttle", "stall_memory_throttle", "Issue Stall Reasons (Memory Throttle)"),
	stallMetric("mio_throttle", "stall_mio_throttle", "Issue Stall Reasons (MIO Throttle)"),
	stallMetric("branch_resolving", "stall_branch_resolving", "Issue Stall Reasons (Branch Resolving)"),
	stallMetric("dispatch_stall", "stall_dispatch", "Issue Stall Reasons (Dispatch)"),
	stallMetric("sleeping", "stall_sleeping", "Issue Stall Reasons (Device Runtime)"),
	stallMetric("no_instruction", "stall_inst_fetch", "Issue Stall Reasons (Instructions Fetch)"),
}

// aliases are older names that also select a metric.
var aliases = map[string]string{
	"elapsed_cycles_sm": "elapsed_cycles",
	"gld_request":       "gld_requests",
	"gst_request":       "gst_requests",
}

var byName = func() map[string]*Def {
	m := make(map[string]*Def, 2*len(defs))
	for _, d := range defs {
		m[d.Name] = d
		if d.NCU != "" {
			m[d.NCU] = d
		}
	}
	for alias, name := range aliases {
		m[alias] = m[name]
	}
	return m
}()

// Defs returns every metric definition, in report order.
func Defs() []*Def { return append([]*Def(nil), defs...) }

// Lookup finds a metric by its nvprof name or its Nsight Compute name.
func Lookup(name string) (*Def, bool) {
	d, ok := byName[strings.TrimSpace(name)]
	return d, ok
}

// ParseList resolves a comma-separated list of metric names (nvprof or ncu)
// or "all". Duplicates are dropped; the order is the list's (the table's
// for "all"). An unknown name is an error that names it.
func ParseList(list string) ([]*Def, error) {
	if strings.TrimSpace(list) == "all" {
		return Defs(), nil
	}
	var out []*Def
	seen := map[*Def]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		d, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown metric %q (known: %s, or all)", name, strings.Join(names(), ", "))
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func names() []string {
	n := make([]string, len(defs))
	for i, d := range defs {
		n[i] = d.Name
	}
	return n
}

// Metric is one metric's value for one launch (or a sum of launches).
type Metric struct {
	*Def
	Value float64
	// Available is false when warpsim cannot compute the metric; Reason
	// says why. An unavailable metric is never shown as zero.
	Available bool
	Reason    string
}

// Compute evaluates every metric of the table for the counters of a
// launch on arch a. launch, when given, describes the launch for the
// metrics that need it (theoretical occupancy).
func Compute(c Counters, a *arch.Arch, launch ...Launch) []Metric {
	in := inputs{arch: a}
	if len(launch) > 0 {
		in.launch = &launch[0]
	}
	out := make([]Metric, len(defs))
	for i, d := range defs {
		m := Metric{Def: d}
		switch {
		case d.Timing && (in.launch == nil || in.launch.Timing == nil):
			m.Reason = errTiming
		case d.Timing:
			m.Value, m.Available = d.timed(&c, in.launch.Timing), true
		default:
			m.Value, m.Available = d.value(&c, &in)
			if !m.Available {
				m.Reason = "needs the arch and the launch's block size, registers and shared memory"
			}
		}
		out[i] = m
	}
	return out
}

// Select returns the metrics of ms that defs names, in defs's order.
func Select(ms []Metric, defs []*Def) []Metric {
	out := make([]Metric, 0, len(defs))
	for _, d := range defs {
		for _, m := range ms {
			if m.Def == d {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

func warpSize(a *arch.Arch) int {
	if a == nil || a.WarpSize == 0 {
		return 32
	}
	return a.WarpSize
}
