package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/metrics"
)

// The counts the engine fills are the public profile package's types, so a
// caller of the API names them there.
type (
	Counters   = metrics.Counters
	InstCounts = metrics.InstCounts
	FuncLines  = metrics.FuncLines
)

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
				sum[pc].Add(&f[pc])
			}
		}
		if sum != nil {
			out = append(out, FuncLines{Func: fn.Name, Entry: fn.Entry, Lines: fn.Lines, Text: fn.Text, Counts: sum})
		}
	}
	return out
}
