// Repeated launches: a program that launches the same kernel with the same
// configuration and parameters again and again (a benchmark loop, an
// iterative solver) has every host launch timed from cold caches (RunGrid),
// so with the same data each takes the same time. Once two such launches
// timed in detail agree (the same counts, cycles within repeatSettle), the
// later ones run on the functional driver (on every core, with no timing
// model) and take the last timed launch's account, checked against their
// own counts: a launch whose counts differ gets the account scaled by its
// instructions and the next launch is timed in detail again.
//
// Similar launches: a program that launches the same kernel with the same
// configuration but other parameters (a sort's passes over the same
// arrays with another stride, a kernel run on each of several buffers)
// gets, per launch shape (the key without the parameters), the same
// treatment once two launches of the shape with different parameters,
// timed in detail, agree: counts and cycles per instruction within
// shapeSettle of each other, DRAM bytes within shapeDRAM. A later launch of the
// shape runs functionally and takes the last timed launch's account scaled
// by its instructions, with an error estimate that includes how far its
// counts are from the timed launch's; counts further than shapeSettle make
// the next launch of the shape timed in detail, and every shapeCheck-th
// launch is timed in detail regardless, to check the reuse.
//
// A budget of detail (Repeats.SetBudget, set by the CUDA runtime): once a
// program has timed its budget of warp instructions in detail (the part of
// each launch the timing model simulated: all of it, or the blocks of a
// sampled grid's window), a configuration timed once is enough for its
// repeats, and a shape's last launch timed in detail for its launches with
// other parameters, without the agreement of two timed launches in cycles
// or the periodic check, where their parameters differ from the timed
// launch's only in words shown not to change the counts (two timed
// launches that differed in them had counts within shapeSettle: a sort's
// stride, not a scan's size). Their accounts are the same reuse,
// and the error estimate is the same formula: the timed account's own, the
// count spread, the scaling, and the shape's last two timed launches'
// difference in cycles per instruction times the reuses since the last
// timed one, and at least budgetShapePct where the rule for similar
// launches would have timed the launch. A
// launch whose counts differ beyond shapeSettle still has the next launch
// of its shape timed in detail.

package timing

import (
	"encoding/binary"
	"math"
	"reflect"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/metrics"
)

// repeatSettle is how close, relatively, the cycles of the two timed
// launches of a configuration must be for later ones to reuse them.
const repeatSettle = 0.01

// repeatKeys bounds the configurations remembered (each keeps one timing
// account, with its stalls by instruction when prof --report asks for
// them): a program whose every launch differs (a pointer or an offset in
// its parameters) forgets them all and starts again rather than growing
// without end.
const repeatKeys = 64

// Sampling kinds (metrics.Timing.Sampling).
const (
	SampledWaves  = "waves"  // the grid's first waves timed in detail, the rest extrapolated
	SampledRepeat = "repeat" // an identical launch's account reused
	// SampledSimilar: the account of a launch of the same kernel and
	// configuration with other parameters reused, scaled by instructions.
	SampledSimilar = "similar"
	// SampledShort: a short grid (sampling.go's shortWindow) timed for
	// its first waves, its other blocks placed on the SMs' block slots at
	// the block times the window measured (extrapolateSlots).
	SampledShort = "short"
)

// Repeats remembers, per launch configuration, the last two launches timed
// in detail. The zero value is not ready; use NewRepeats. It is not safe
// for concurrent use (a device runs one launch at a time).
type Repeats struct {
	runs map[string]*repeatRuns
	// shapes are the same per launch shape (the key without the
	// parameters).
	shapes map[string]*shapeRuns
	// free caches, per function, whether it is free of what makes a launch
	// ineligible (eligibleFunc).
	free map[*ir.Func]bool
	// progs numbers the programs seen, so that a key holds no pointer.
	progs map[*ir.Program]int
	// budget is the warp instructions the launches may time in detail
	// before the looser reuse applies (0: no budget); timed counts them.
	budget, timed uint64
}

// budgetShapePct is the error a launch states that takes, over the budget,
// an account the similar-launch rule would not have let it take: measured
// on NVIDIA's mergeSort, whose merge passes' cycles per instruction follow a
// trend, such launches came out 6.0% and 7.8% off timing them (against
// estimates of ±5% and ±6.4% with a floor of 5%: docs/cuda-samples.md),
// rounded up.
const budgetShapePct = 10

// SetBudget sets the warp instructions the launches may time in detail
// before a configuration or a shape timed once is enough (0: no budget,
// the default).
func (r *Repeats) SetBudget(warpInst uint64) { r.budget = warpInst }

// OverBudget reports whether the launches timed in detail have used the
// budget.
func (r *Repeats) OverBudget() bool { return r.budget > 0 && r.timed >= r.budget }

// UnderBudget reports whether the launches have a budget of detail and
// have not used it yet: timing in detail still costs little.
func (r *Repeats) UnderBudget() bool { return r.budget > 0 && r.timed < r.budget }

// TimedInst is the warp instructions the launches recorded by Timed were
// timed in detail for.
func (r *Repeats) TimedInst() uint64 { return r.timed }

type repeatRuns struct {
	last repeatRun
	// prev are the counts and cycles of the launch timed before last.
	prev       metrics.Counters
	prevCycles uint64
	n          int  // launches timed in detail (up to 2 kept)
	stale      bool // a reused launch's counts differed: time the next one
}

type repeatRun struct {
	c metrics.Counters
	t *metrics.Timing
}

// shapeRuns are the last two launches of a shape timed in detail, the
// keys (parameters) they had, and whether they agree.
type shapeRuns struct {
	last, prev       repeatRun
	lastKey, prevKey string
	agree            bool // last and prev: other parameters, similar counts and cycles
	stale            bool // a reused launch's counts differed: time the next one
	reused           int  // launches reused since the last timed one
	// loose: ReuseShape let the next launch reuse the account only
	// because the launches were over the budget.
	loose bool
	// free are the 4-byte words of the parameters shown not to matter:
	// two launches timed in detail that differed in them agreed (and no
	// two that differed in them have disagreed since). A launch whose
	// parameters differ from the last timed one's in another word is
	// timed in detail.
	free []bool
	// sameCounts are the words shown not to change the counts: two
	// launches timed in detail that differed in them had counts within
	// shapeSettle (and no two that differed in them had not, since).
	sameCounts []bool
}

// cpiSpread is the relative difference in cycles per instruction of the
// shape's last two launches timed in detail.
func (h *shapeRuns) cpiSpread() float64 {
	if h.prev.t == nil || h.last.t == nil {
		return 0
	}
	ip := float64(max(h.prev.c.InstExecuted, 1))
	il := float64(max(h.last.c.InstExecuted, 1))
	cl := float64(h.last.t.Cycles) / il
	return math.Abs(float64(h.prev.t.Cycles)/ip-cl) / max(cl, 1e-9)
}

// reuses is how many launches may reuse the shape's account before one is
// timed in detail again: shapeCheck, fewer when the two timed launches'
// cycles per instruction differ (a trend followed for k launches moves
// them by about k times the difference: at most shapeSettle in all).
func (h *shapeRuns) reuses() int {
	if s := h.cpiSpread(); s > 0 {
		return max(1, min(shapeCheck, int(shapeSettle/s)))
	}
	return shapeCheck
}

// paramWords calls f with the index of every 4-byte word in which the
// parameters of keys a and b (of one shape) differ.
func paramWords(a, b string, f func(w int)) {
	pa, pb := a[min(shapeLen, len(a)):], b[min(shapeLen, len(b)):]
	for i := 0; i < max(len(pa), len(pb)); i += 4 {
		if i+4 > len(pa) || i+4 > len(pb) || pa[i:i+4] != pb[i:i+4] {
			f(i / 4)
		}
	}
}

// shapeSettle is how close, relatively, every count (countSpread) and the
// cycles per instruction of two launches of a shape must be for one's
// account to stand for the other.
const shapeSettle = 0.02

// shapeDRAM is how close the DRAM bytes of two such launches must be: a
// coarse guard (the DRAM writes of a grid sampled by waves are
// extrapolated, mergeSort's merge passes' by 11% apart with cycles within
// 1%) against launches whose data no longer fit the L2 alike.
const shapeDRAM = 0.2

// shapeCheck is how many launches of a shape may reuse an account before
// one is timed in detail again.
const shapeCheck = 16

// NewRepeats returns an empty record of repeated launches.
func NewRepeats() *Repeats {
	return &Repeats{runs: map[string]*repeatRuns{}, shapes: map[string]*shapeRuns{}, free: map[*ir.Func]bool{}, progs: map[*ir.Program]int{}}
}

// shapeLen is the length of a Key's prefix before the parameter bytes (its
// launch shape): the program's id (8 bytes), the kernel's index, the grid,
// block and cluster (4 bytes each), the shared memory (4), the cooperative
// flag (1) and the parameters' length (4).
const shapeLen = 8 + 4 + 3*3*4 + 4 + 1 + 4

// Key is a launch's configuration as a map key: the module's program and
// the kernel's index in it, the grid, block, dynamic shared memory,
// cluster shape, cooperative flag and the parameter bytes.
func (r *Repeats) Key(prog *ir.Program, kernel int, grid, block, cluster [3]uint32, shared uint32, coop bool, params []byte) string {
	b := make([]byte, 0, shapeLen+len(params))
	id, ok := r.progs[prog]
	if !ok {
		id = len(r.progs) + 1
		r.progs[prog] = id
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(id))
	b = binary.LittleEndian.AppendUint32(b, uint32(kernel))
	for _, d := range [][3]uint32{grid, block, cluster} {
		for _, v := range d {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, shared)
	if coop {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(params)))
	return string(append(b, params...))
}

// shapeOf is a key's launch shape: the key without its parameter bytes
// (the whole key when it is not one of Key's).
func shapeOf(key string) string {
	if len(key) < shapeLen {
		return key
	}
	return key[:shapeLen]
}

// Eligible reports whether launches of funcs[kernel] may reuse a timed
// launch's account: neither it nor any function it may call may read the
// clock (%clock, %clock64, %globaltimer: the functional driver's clock is
// not the model's) or use the device runtime (device-launched grids are
// placed on the timeline by the timing driver).
func (r *Repeats) Eligible(funcs []*ir.Func, kernel int) bool {
	if kernel < 0 || kernel >= len(funcs) {
		return false
	}
	seen := make([]bool, len(funcs))
	stack := []int{kernel}
	seen[kernel] = true
	for len(stack) > 0 {
		f := funcs[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		ok, known := r.free[f]
		if !known {
			ok = eligibleFunc(f)
			r.free[f] = ok
		}
		if !ok {
			return false
		}
		for _, c := range f.Calls {
			switch {
			case c.Indirect:
				for i := range funcs { // any function may be the target
					if !seen[i] {
						seen[i] = true
						stack = append(stack, i)
					}
				}
			case c.Callee >= 0 && !seen[c.Callee]:
				seen[c.Callee] = true
				stack = append(stack, int(c.Callee))
			}
		}
	}
	return true
}

func eligibleFunc(f *ir.Func) bool {
	for i := range f.Code {
		in := &f.Code[i]
		switch in.Op {
		case ir.OpDevRT:
			return false
		case ir.OpMovSreg:
			switch ir.Sreg(in.Imm) {
			case ir.SregClock, ir.SregClock64, ir.SregGlobaltimer, ir.SregGlobaltimerLo, ir.SregGlobaltimerHi:
				return false
			}
		}
	}
	return true
}

// Reuse reports whether the next launch of key may run functionally and
// reuse an earlier account: two launches of it were timed in detail, with
// the same counts and cycles within repeatSettle, and no reused launch has
// differed in its counts since.
func (r *Repeats) Reuse(key string) bool {
	h := r.runs[key]
	if h != nil && h.n >= 1 && !h.stale && r.OverBudget() {
		return true
	}
	if h == nil || h.n < 2 || h.stale || h.prev != h.last.c {
		return false
	}
	return spread(h.prevCycles, h.last.t.Cycles) <= repeatSettle
}

// ReuseShape reports whether the next launch of key, which Reuse refused,
// may run functionally and reuse the account of a launch of the same shape
// with other parameters: the shape's last two launches timed in detail had
// different parameters and agreed (shapeAgree), key's parameters differ
// from the last timed launch's only in words shown not to matter (free),
// no reused launch's counts have differed since, and fewer than reuses()
// launches have reused it since the last timed one.
func (r *Repeats) ReuseShape(key string) bool {
	sh := shapeOf(key)
	if sh == key {
		return false
	}
	h := r.shapes[sh]
	if h == nil || h.last.t == nil || h.stale {
		return false
	}
	ok := h.agree && h.reused < h.reuses()
	paramWords(h.lastKey, key, func(w int) { ok = ok && w < len(h.free) && h.free[w] })
	if ok || !r.OverBudget() {
		return ok
	}
	// Over the budget the agreement in cycles and the periodic check are
	// waived, not the counts: the parameters may differ from the timed
	// launch's only in words shown not to change the counts (a stride,
	// not a size). The reused account then states at least
	// budgetShapePct (ReusedShape).
	h.loose = true
	paramWords(h.lastKey, key, func(w int) { h.loose = h.loose && w < len(h.sameCounts) && h.sameCounts[w] })
	return h.loose
}

// shapeAgree reports whether two launches of a shape timed in detail stand
// for each other: other parameters, every count and the cycles per
// instruction within shapeSettle (the reused launches' error estimate
// carries the difference in cycles per instruction), the DRAM bytes within
// shapeDRAM.
func shapeAgree(a, b repeatRun, ka, kb string) bool {
	if ka == kb || a.t == nil || b.t == nil || countSpread(a.c, b.c) > shapeSettle {
		return false
	}
	ia, ib := float64(max(a.c.InstExecuted, 1)), float64(max(b.c.InstExecuted, 1))
	ca, cb := float64(a.t.Cycles)/ia, float64(b.t.Cycles)/ib
	if math.Abs(ca-cb) > shapeSettle*max(cb, 1e-9) {
		return false
	}
	da, db := a.t.DRAMReadBytes+a.t.DRAMWriteBytes, b.t.DRAMReadBytes+b.t.DRAMWriteBytes
	return spread(da, db) <= shapeDRAM || max(da, db)-min(da, db) <= 32*1024
}

// countSpread is how far two launches' counts are apart: the largest,
// over the counters, of their difference relative to the larger of the two
// values and a twentieth of the instructions (a counter small beside the
// instructions moves the time little: mergeSort's merge passes' shared
// bank conflicts, 1.5% of their instructions, differ by 4.6% from pass to
// pass); branches, divergent or not, count relative to the instructions
// (their cost is the instructions around them, counted themselves).
func countSpread(a, b metrics.Counters) float64 {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	inst := float64(max(a.InstExecuted, b.InstExecuted, 1))
	worst := 0.0
	for i := range va.NumField() {
		fa, fb := va.Field(i), vb.Field(i)
		if fa.Kind() != reflect.Uint64 {
			continue
		}
		floor := inst / 20
		switch va.Type().Field(i).Name {
		case "Branch", "DivergentBranch":
			floor = inst
		}
		x, y := float64(fa.Uint()), float64(fb.Uint())
		if d := math.Abs(x - y); d > 0 {
			worst = max(worst, d/max(x, y, floor))
		}
	}
	return worst
}

// similarAddressPct is the least error a similar launch states: a launch on
// other buffers is not the timed one's time even with the same counts, since
// the DRAM's service order and the L2's partitions follow the addresses (up
// to 0.15% apart in TestBudgetLaunches' launches, whose two timed ones came
// out the same to the cycle).
const similarAddressPct = 0.25

// ReusedShape is the account of a launch of key that ran functionally
// (ReuseShape said it might), with counts c, starting at cycle start: the
// shape's last timed account scaled by the ratio of instructions, its
// Sampling "similar" and its ErrorPct the largest of the timed account's own
// estimate, the two timed launches' difference in cycles per instruction
// times the reuses since the last timed launch plus one, this launch's
// count spread (countSpread) from the timed one and the
// scaling's distance from 1. Counts
// further than shapeSettle make the next launch of the shape timed in
// detail.
func (r *Repeats) ReusedShape(key string, c metrics.Counters, start uint64) *metrics.Timing {
	h := r.shapes[shapeOf(key)]
	h.reused++
	src := h.last.t
	t := *src
	t.StartCycle = start
	t.Stalls = append([]uint64(nil), src.Stalls...)
	t.Sampled, t.Sampling = true, SampledSimilar
	// The timed launches' cycles per instruction may follow a trend (the
	// merge passes of a sort, slower as the stride grows): the k-th reuse
	// since the last timed launch may be off by k+1 times their
	// difference.
	cpi := 100 * float64(h.reused+1) * h.cpiSpread()
	d := countSpread(c, h.last.c)
	t.ErrorPct = max(src.ErrorPct, cpi, 100*d, similarAddressPct)
	if h.loose {
		// Over the budget (ReuseShape), where the rule for similar
		// launches would have timed this one: at least budgetShapePct,
		// and the shape's two timed launches' count spread.
		t.ErrorPct = max(t.ErrorPct, budgetShapePct)
		if h.prev.t != nil {
			t.ErrorPct = max(t.ErrorPct, 100*countSpread(h.prev.c, h.last.c))
		}
		h.loose = false
	}
	if d > shapeSettle {
		h.stale = true
	}
	if c != h.last.c {
		f := scaleTiming(&t, c, h.last.c)
		t.ErrorPct = max(t.ErrorPct, 100*math.Abs(f-1))
	}
	return &t
}

// scaleTiming scales a reused account by the ratio of the instructions of
// the launch that reuses it (c) to the timed launch's (timed); the
// per-instruction and per-block details, which do not scale, are dropped.
func scaleTiming(t *metrics.Timing, c, timed metrics.Counters) float64 {
	f := float64(c.InstExecuted) / float64(max(timed.InstExecuted, 1))
	sc := func(v uint64) uint64 { return uint64(math.Round(float64(v) * f)) }
	t.Cycles, t.WarpCycles, t.ActiveSMCycles = sc(t.Cycles), sc(t.WarpCycles), sc(t.ActiveSMCycles)
	t.SchedCycles, t.TensorPipeCycles = sc(t.SchedCycles), sc(t.TensorPipeCycles)
	t.DRAMReadBytes, t.DRAMWriteBytes, t.L2Hits, t.L2Miss = sc(t.DRAMReadBytes), sc(t.DRAMWriteBytes), sc(t.L2Hits), sc(t.L2Miss)
	for i := range t.Stalls {
		t.Stalls[i] = sc(t.Stalls[i])
	}
	t.IssueCycles = c.InstExecuted
	t.PCStalls, t.Blocks = nil, nil
	return f
}

// spread is |a-b| relative to b.
func spread(a, b uint64) float64 {
	return math.Abs(float64(a)-float64(b)) / float64(max(b, 1))
}

// Timed records a launch of key timed in detail: its counts and account.
func (r *Repeats) Timed(key string, c metrics.Counters, t *metrics.Timing) {
	detail := c.InstExecuted
	if t.Sampled && t.SampledBlocks > 0 && c.BlocksLaunched > 0 {
		detail = uint64(float64(c.InstExecuted) * min(1, float64(t.SampledBlocks)/float64(c.BlocksLaunched)))
	}
	r.timed += detail
	h := r.runs[key]
	if h == nil {
		if len(r.runs) >= repeatKeys {
			clear(r.runs)
		}
		h = &repeatRuns{}
		r.runs[key] = h
	}
	if h.last.t != nil {
		h.prev, h.prevCycles = h.last.c, h.last.t.Cycles
	}
	h.last = repeatRun{c: c, t: t}
	h.n = min(h.n+1, 2)
	h.stale = false

	sh := shapeOf(key)
	if sh == key {
		return
	}
	s := r.shapes[sh]
	if s == nil {
		if len(r.shapes) >= repeatKeys {
			clear(r.shapes)
		}
		s = &shapeRuns{}
		r.shapes[sh] = s
	}
	s.prev, s.prevKey = s.last, s.lastKey
	s.last, s.lastKey = repeatRun{c: c, t: t}, key
	s.agree = shapeAgree(s.prev, s.last, s.prevKey, s.lastKey)
	s.stale, s.reused = false, 0
	if s.prev.t != nil && s.prevKey != key {
		// The words these two launches differ in are shown not to matter
		// when they agree, and to matter (at least at times) when not.
		same := countSpread(s.prev.c, s.last.c) <= shapeSettle
		paramWords(s.prevKey, key, func(w int) {
			for len(s.free) <= w {
				s.free = append(s.free, false)
				s.sameCounts = append(s.sameCounts, false)
			}
			s.free[w] = s.agree
			s.sameCounts[w] = same
		})
	}
}

// Reused is the account of a launch of key that ran functionally (Reuse
// said it might), with counts c, starting at cycle start of the device
// timeline: the last timed launch's account, its Sampling "repeat" and
// its ErrorPct the larger of the timed launches' spread and the timed
// account's own estimate (a grid itself sampled by waves). When c differs
// from the timed launch's counts, the account is scaled by the ratio of
// instructions issued, its ErrorPct is at least that ratio's distance from
// 1, and the next launch of key is timed in detail.
func (r *Repeats) Reused(key string, c metrics.Counters, start uint64) *metrics.Timing {
	h := r.runs[key]
	src := h.last.t
	t := *src
	t.StartCycle = start
	t.Stalls = append([]uint64(nil), src.Stalls...)
	t.Sampled, t.Sampling = true, SampledRepeat
	t.ErrorPct = src.ErrorPct
	if h.n >= 2 {
		// (Over the budget a configuration timed once is reused.)
		t.ErrorPct = max(t.ErrorPct, 100*spread(h.prevCycles, src.Cycles))
	}
	if c != h.last.c {
		h.stale = true
		f := scaleTiming(&t, c, h.last.c)
		t.ErrorPct = max(t.ErrorPct, 100*math.Abs(f-1))
	}
	return &t
}
