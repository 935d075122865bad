package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
)

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

// FuncLines are the per-instruction counts of one function a grid ran,
// with where each instruction is written (Lines[pc]: the PTX line and, from
// .loc, the source file and line) and its text.
type FuncLines struct {
	Func   string
	Entry  bool
	Lines  []ir.LineInfo
	Text   []string
	Counts []InstCounts
}

// lineTab is one worker's per-instruction counts for one launch. The
// general path of warp.run notes each issue (begin) and attributes the
// change of the worker's Counters to it when the next one starts (flush),
// so no counting site elsewhere needs to know about lines.
type lineTab struct {
	funcs []*ir.Func
	f     [][]InstCounts // per function, per pc; nil until the function runs

	// The issue being attributed.
	open           bool
	fi, pc         int32
	predOff        uint64
	inst0, thread0 uint64
	c0             Counters
}

// lines returns the worker's table for its launch, registering a new one
// with the launch the first time.
func (w *worker) lines() *lineTab {
	if w.lt == nil {
		l := w.l
		w.lt = &lineTab{funcs: l.mod.Prog.Funcs, f: make([][]InstCounts, len(l.mod.Prog.Funcs))}
		l.linesMu.Lock()
		l.lineTabs = append(l.lineTabs, w.lt)
		l.linesMu.Unlock()
	}
	return w.lt
}

// begin notes an issue of pc in function fi: predOff lanes predicated off,
// inst and thread the run's issue counts before it, c the counters.
func (t *lineTab) begin(fi, pc int32, predOff uint32, inst, thread uint64, c *Counters) {
	t.open, t.fi, t.pc = true, fi, pc
	t.predOff = uint64(bits.OnesCount32(predOff))
	t.inst0, t.thread0, t.c0 = inst, thread, *c
}

// flush attributes to the open issue what happened since begin (an issue
// the engine took back, to retry it later, counts nothing).
func (t *lineTab) flush(inst, thread uint64, c *Counters) {
	if !t.open {
		return
	}
	t.open = false
	f := t.f[t.fi]
	if f == nil {
		f = make([]InstCounts, len(t.funcs[t.fi].Code))
		t.f[t.fi] = f
	}
	e := &f[t.pc]
	b := &t.c0
	if d := inst - t.inst0; d > 0 {
		e.Inst += d
		if c.Branch == b.Branch {
			// A branch's guard is its condition, not a predicate that
			// idles lanes.
			e.PredOff += t.predOff
		}
	}
	e.ThreadInst += thread - t.thread0
	e.Branch += c.Branch - b.Branch
	e.DivergentBranch += c.DivergentBranch - b.DivergentBranch
	if d := c.GldRequests - b.GldRequests; d > 0 {
		bytes := c.GldBytes - b.GldBytes
		e.GldRequests += d
		e.GldBytes += bytes
		e.GldSectors += c.GldTransactions - b.GldTransactions
		e.GldIdealSectors += (bytes + 31) / 32
	}
	if d := c.GstRequests - b.GstRequests; d > 0 {
		bytes := c.GstBytes - b.GstBytes
		e.GstRequests += d
		e.GstBytes += bytes
		e.GstSectors += c.GstTransactions - b.GstTransactions
		e.GstIdealSectors += (bytes + 31) / 32
	}
	e.SharedLdRequests += c.SharedLoadRequests - b.SharedLoadRequests
	e.SharedStRequests += c.SharedStoreRequests - b.SharedStoreRequests
	e.SharedLdWavefronts += c.SharedLoadTransactions - b.SharedLoadTransactions
	e.SharedStWavefronts += c.SharedStoreTransactions - b.SharedStoreTransactions
	e.SharedLdConflicts += c.SharedLdBankConflict - b.SharedLdBankConflict
	e.SharedStConflicts += c.SharedStBankConflict - b.SharedStBankConflict
	e.Atomics += c.AtomicRequests - b.AtomicRequests
	e.LocalLdRequests += c.LocalLoadRequests - b.LocalLoadRequests
	e.LocalStRequests += c.LocalStoreRequests - b.LocalStoreRequests
}

// lineCounts sums the launch's workers' tables: per function that ran, in
// Prog.Funcs order (integer sums, so the result is the same for any number
// of workers).
func (l *launch) lineCounts() []FuncLines {
	l.linesMu.Lock()
	defer l.linesMu.Unlock()
	if len(l.lineTabs) == 0 {
		return nil
	}
	var out []FuncLines
	for fi, fn := range l.mod.Prog.Funcs {
		var sum []InstCounts
		for _, t := range l.lineTabs {
			f := t.f[fi]
			if f == nil {
				continue
			}
			if sum == nil {
				sum = make([]InstCounts, len(f))
			}
			for pc := range f {
				sum[pc].add(&f[pc])
			}
		}
		if sum != nil {
			out = append(out, FuncLines{Func: fn.Name, Entry: fn.Entry, Lines: fn.Lines, Text: fn.Text, Counts: sum})
		}
	}
	return out
}

func (e *InstCounts) add(o *InstCounts) {
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
