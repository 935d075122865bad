package engine

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
	c.WarpsLaunched += o.WarpsLaunched
	c.BlocksLaunched += o.BlocksLaunched
	c.DeviceLaunches += o.DeviceLaunches
}
