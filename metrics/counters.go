// Package metrics turns the engine's raw event counts into the metrics that
// nvprof and Nsight Compute report, under nvprof's names with the ncu names
// as aliases, and formats them as tables, JSON and CSV. The counts
// themselves (Counters, InstCounts, FuncLines, Timing) are defined here, where
// a caller of the public API can name them; the engine fills them.
package metrics

// Counters are the raw counts of one launch, of PTX instructions. The engine
// fills them; each field's comment is the metric it feeds.
type Counters struct {
	InstExecuted uint64 // warp instructions issued (inst_executed)
	// ThreadInstExecuted is the active lanes summed over issued instructions,
	// whatever their guard predicate (thread_inst_executed, as ncu's
	// smsp__thread_inst_executed.sum: predicated-off lanes are active).
	ThreadInstExecuted uint64
	// Branch counts the bra instructions warps executed, taken or not
	// (branch); DivergentBranch those whose active lanes split between the
	// target and the fall-through (divergent_branch).
	Branch          uint64
	DivergentBranch uint64

	GldRequests     uint64 // global load warp instructions (gld_requests)
	GldTransactions uint64 // 32-byte sectors touched by them (gld_transactions)
	GldBytes        uint64 // bytes the active lanes asked for (gld_efficiency numerator)
	GstRequests     uint64
	GstTransactions uint64
	GstBytes        uint64

	SharedLoadRequests      uint64 // shared load warp instructions
	SharedStoreRequests     uint64
	SharedLoadTransactions  uint64 // wavefronts: 1 + bank conflicts per request
	SharedStoreTransactions uint64
	SharedLdBankConflict    uint64
	SharedStBankConflict    uint64

	AtomicRequests uint64 // atom/red warp instructions on any space
	// TensorInst are the tensor-core MMA warp instructions executed (mma,
	// mma.sp, wmma.mma, wgmma.mma_async), counted in PTX
	// (tensor_inst_executed); TensorMACs the multiply-adds they performed,
	// summed over the warp (or the warpgroup's share of a wgmma)
	// (flop_count_tensor is twice it).
	TensorInst uint64
	TensorMACs uint64
	// LocalLoadRequests and LocalStoreRequests are ld.local/st.local (and
	// generic resolving to local) warp instructions: spills and stack
	// arrays.
	LocalLoadRequests  uint64
	LocalStoreRequests uint64

	WarpsLaunched  uint64
	BlocksLaunched uint64
	DeviceLaunches uint64 // grids launched from device code (dynamic parallelism): by this grid, or summed over a launch
}

// Add accumulates o into c.
func (c *Counters) Add(o *Counters) {
	c.InstExecuted += o.InstExecuted
	c.ThreadInstExecuted += o.ThreadInstExecuted
	c.Branch += o.Branch
	c.DivergentBranch += o.DivergentBranch
	c.GldRequests += o.GldRequests
	c.GldTransactions += o.GldTransactions
	c.GldBytes += o.GldBytes
	c.GstRequests += o.GstRequests
	c.GstTransactions += o.GstTransactions
	c.GstBytes += o.GstBytes
	c.SharedLoadRequests += o.SharedLoadRequests
	c.SharedStoreRequests += o.SharedStoreRequests
	c.SharedLoadTransactions += o.SharedLoadTransactions
	c.SharedStoreTransactions += o.SharedStoreTransactions
	c.SharedLdBankConflict += o.SharedLdBankConflict
	c.SharedStBankConflict += o.SharedStBankConflict
	c.AtomicRequests += o.AtomicRequests
	c.TensorInst += o.TensorInst
	c.TensorMACs += o.TensorMACs
	c.LocalLoadRequests += o.LocalLoadRequests
	c.LocalStoreRequests += o.LocalStoreRequests
	c.WarpsLaunched += o.WarpsLaunched
	c.BlocksLaunched += o.BlocksLaunched
	c.DeviceLaunches += o.DeviceLaunches
}

// InstCounts are one instruction's (one pc's) counts over a grid, for the
// per-line report: the same counting rules as Counters, attributed to the
// instruction that caused them. Summed over every pc of every function a
// grid ran, each field equals the grid's Counters field it names.
type InstCounts struct {
	Inst       uint64 // warp-level issues (InstExecuted)
	ThreadInst uint64 // lanes active at the issues (ThreadInstExecuted)
	// PredOff are active lanes whose guard predicate was false (of
	// instructions other than branches, whose guard is their condition).
	PredOff         uint64
	Branch          uint64
	DivergentBranch uint64

	GldRequests, GldSectors, GldBytes uint64
	// GldIdealSectors is, summed over requests, the fewest 32-byte sectors
	// the request's bytes could fit in (ceil(bytes/32)).
	GldIdealSectors                   uint64
	GstRequests, GstSectors, GstBytes uint64
	GstIdealSectors                   uint64

	SharedLdRequests, SharedStRequests     uint64
	SharedLdWavefronts, SharedStWavefronts uint64
	SharedLdConflicts, SharedStConflicts   uint64

	Atomics                          uint64
	LocalLdRequests, LocalStRequests uint64
}

// Add accumulates o into e.
func (e *InstCounts) Add(o *InstCounts) {
	e.Inst += o.Inst
	e.ThreadInst += o.ThreadInst
	e.PredOff += o.PredOff
	e.Branch += o.Branch
	e.DivergentBranch += o.DivergentBranch
	e.GldRequests += o.GldRequests
	e.GldSectors += o.GldSectors
	e.GldBytes += o.GldBytes
	e.GldIdealSectors += o.GldIdealSectors
	e.GstRequests += o.GstRequests
	e.GstSectors += o.GstSectors
	e.GstBytes += o.GstBytes
	e.GstIdealSectors += o.GstIdealSectors
	e.SharedLdRequests += o.SharedLdRequests
	e.SharedStRequests += o.SharedStRequests
	e.SharedLdWavefronts += o.SharedLdWavefronts
	e.SharedStWavefronts += o.SharedStWavefronts
	e.SharedLdConflicts += o.SharedLdConflicts
	e.SharedStConflicts += o.SharedStConflicts
	e.Atomics += o.Atomics
	e.LocalLdRequests += o.LocalLdRequests
	e.LocalStRequests += o.LocalStRequests
}

// LineInfo is where one instruction is written: its PTX line and column and,
// from .loc, its source file and line (0 when it has none).
type LineInfo struct {
	PTXLine, PTXCol int
	SrcFile         string
	SrcLine         int
}

// FuncLines are the per-instruction counts of one function a grid ran,
// with where each instruction is written (Lines[pc]: the PTX line and, from
// .loc, the source file and line) and its text.
type FuncLines struct {
	Func   string
	Entry  bool
	Lines  []LineInfo
	Text   []string
	Counts []InstCounts
}

// Timing is a timing driver's account of one grid.
type Timing struct {
	Cycles         uint64 // SM cycles from the grid's start to its last block's end
	StartCycle     uint64 // on the device's timeline
	WarpCycles     uint64 // sum over SMs of resident warps × cycles (achieved occupancy numerator)
	ActiveSMCycles uint64 // sum over SMs of cycles with at least one resident warp
	IssueCycles    uint64 // warp instructions issued (= inst_executed)
	SchedCycles    uint64 // scheduler-cycles available while SMs were active
	// TensorPipeCycles is, summed over sub-partitions, the cycles their
	// tensor pipe was busy (tensor_precision_fu_utilization's numerator).
	TensorPipeCycles uint64
	DRAMReadBytes    uint64
	DRAMWriteBytes   uint64
	L2Hits, L2Miss   uint64
	// Stalls are warp-cycles by reason (ncu's warp states), indexed by the
	// timing package's stall enum; Names holds their ncu names.
	Stalls     []uint64
	StallNames []string
	Sampled    bool // part of the grid was extrapolated, not simulated
	// Sampling says how a sampled grid was timed: "waves" (its first waves
	// in detail, the rest extrapolated), "repeat" (it ran functionally
	// and took the account of an identical launch timed in detail) or
	// "similar" (it ran functionally and took the account, scaled by its
	// instructions, of a launch of the same kernel and configuration with
	// other parameters timed in detail) or "short" (a grid of 1.5 to 6
	// waves: its first wave(s) in detail, its other blocks placed at their
	// block times);
	// SampledBlocks are the blocks timed in detail ("waves", "short"), ErrorPct how
	// far, in percent, its time may be off by the sampling's own estimate
	// (docs/timing-model.md says how each is estimated).
	Sampling      string  `json:",omitempty"`
	SampledBlocks int     `json:",omitempty"`
	ErrorPct      float64 `json:",omitempty"`
	// Blocks are the blocks timed in detail: where and when each ran (for
	// timelines), in the order they finished.
	Blocks []BlockSpan
	// MaxWarpsPerSM is the arch's warp slots per SM (achieved occupancy's
	// denominator), SMs the SM count, ClockHz the SM clock.
	MaxWarpsPerSM, SMs int
	ClockHz            float64
	// PCStalls are Stalls split by instruction (the warp-cycles a warp
	// spent on each before issuing it, and barrier waits on the barrier),
	// filled only when the timing driver is asked for them; ordered by
	// Func, then PC, without instructions that have none. Summed over the
	// instructions they give Stalls, reason by reason.
	PCStalls []PCStall
}

// PCStall is one instruction's stalls.
type PCStall struct {
	Func   string   // the PTX function's name
	PC     int      // the instruction's index in the function's lowered code
	Stalls []uint64 // warp-cycles by reason, indexed like Timing.Stalls
}

// BlockSpan is one block's residence on an SM, in cycles from the grid's
// start.
type BlockSpan struct {
	Block      int // linear index
	SM         int
	Start, End uint64
}
