// Repeated launches: a program that launches the same kernel with the same
// configuration and parameters again and again (a benchmark loop, an
// iterative solver) has every host launch timed from cold caches (RunGrid),
// so with the same data each takes the same time. Once two such launches
// timed in detail agree (the same counts, cycles within repeatSettle), the
// later ones run on the functional driver (on every core, with no timing
// model) and take the last timed launch's account, checked against their
// own counts: a launch whose counts differ gets the account scaled by its
// instructions and the next launch is timed in detail again.

package timing

import (
	"encoding/binary"
	"math"

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
)

// Repeats remembers, per launch configuration, the last two launches timed
// in detail. The zero value is not ready; use NewRepeats. It is not safe
// for concurrent use (a device runs one launch at a time).
type Repeats struct {
	runs map[string]*repeatRuns
	// free caches, per function, whether it is free of what makes a launch
	// ineligible (eligibleFunc).
	free map[*ir.Func]bool
	// progs numbers the programs seen, so that a key holds no pointer.
	progs map[*ir.Program]int
}

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

// NewRepeats returns an empty record of repeated launches.
func NewRepeats() *Repeats {
	return &Repeats{runs: map[string]*repeatRuns{}, free: map[*ir.Func]bool{}, progs: map[*ir.Program]int{}}
}

// Key is a launch's configuration as a map key: the module's program and
// the kernel's index in it, the grid, block, dynamic shared memory,
// cluster shape, cooperative flag and the parameter bytes.
func (r *Repeats) Key(prog *ir.Program, kernel int, grid, block, cluster [3]uint32, shared uint32, coop bool, params []byte) string {
	b := make([]byte, 0, 8+4*11+1+len(params))
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
	return string(append(b, params...))
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
	if h == nil || h.n < 2 || h.stale || h.prev != h.last.c {
		return false
	}
	return spread(h.prevCycles, h.last.t.Cycles) <= repeatSettle
}

// spread is |a-b| relative to b.
func spread(a, b uint64) float64 {
	return math.Abs(float64(a)-float64(b)) / float64(max(b, 1))
}

// Timed records a launch of key timed in detail: its counts and account.
func (r *Repeats) Timed(key string, c metrics.Counters, t *metrics.Timing) {
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
	t.ErrorPct = max(src.ErrorPct, 100*spread(h.prevCycles, src.Cycles))
	if c != h.last.c {
		h.stale = true
		f := float64(c.InstExecuted) / float64(max(h.last.c.InstExecuted, 1))
		sc := func(v uint64) uint64 { return uint64(math.Round(float64(v) * f)) }
		t.Cycles, t.WarpCycles, t.ActiveSMCycles = sc(t.Cycles), sc(t.WarpCycles), sc(t.ActiveSMCycles)
		t.SchedCycles, t.TensorPipeCycles = sc(t.SchedCycles), sc(t.TensorPipeCycles)
		t.DRAMReadBytes, t.DRAMWriteBytes, t.L2Hits, t.L2Miss = sc(t.DRAMReadBytes), sc(t.DRAMWriteBytes), sc(t.L2Hits), sc(t.L2Miss)
		for i := range t.Stalls {
			t.Stalls[i] = sc(t.Stalls[i])
		}
		t.IssueCycles = c.InstExecuted
		t.PCStalls, t.Blocks = nil, nil
		t.ErrorPct = max(t.ErrorPct, 100*math.Abs(f-1))
	}
	return &t
}
