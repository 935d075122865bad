// The grid: one grid's timing state and its cycle loop. SMs advance a
// quantum of cycles at a time (run, quantum.go), each SM issuing from its
// sub-partitions cycle by cycle (runSM); finish turns the counts into the
// grid's engine.GridTiming.

package timing

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/warpsim/warpsim/internal/engine"
)

// gridState is one grid being timed.
type gridState struct {
	d        *Driver
	g        *engine.GridRun
	p        *Params
	sms      []*smT
	nextBlk  int
	limitBlk int // blocks timed in detail
	perSM    int
	cl       *clusterPlan // nil: no cluster launch (cluster.go)
	wpb      int
	age      uint64
	nslots   int
	// hoistWords is the registers a thread of the kernel has for values
	// (its count less the two ptxas counts beyond them, and no fewer than
	// its PTX's order needs), which bound the loads a warp hoists
	// (registerGate); 0: unbounded (they all fit, or no liveness).
	hoistWords int
	// hoistMMA: the kernel's MMAs issue ahead of their fragments' loads
	// as its arithmetic does (hoistable): the loads ptxas puts above
	// them are the registers' to bound (the kernel's liveness is known).
	hoistMMA bool
	l1Bytes  int // each SM's L1 for this grid (0: none)
	// printfFree is the cycle the device's printf lock is next free at
	// (printf.go; a grid that calls vprintf runs its SMs in turns).
	printfFree uint64
	lastDone   uint64
	// retires are the cycles blocks finished at; lastDispatch is when the
	// last block timed in detail was handed out (sampling's extrapolation).
	retires      []uint64
	lastDispatch uint64
	// wave is the blocks of one full wave; maxLimit is the most blocks a
	// sampled grid times in detail (the window grows to it while the block
	// rate has not settled); short: a short grid sampled by its first
	// waves' block times (extrapolateSlots).
	wave, maxLimit int
	short          bool
	// The L2 side's counts, which the replay writes request by request
	// (l2Counts).
	l2Counts
	// lastLag is, per quantum modulo 3, the stores of the last replay up
	// to that quantum's that ran any, and their total wait from leaving
	// their SM until the L2 took them (storeGate, takenSoon).
	lastLag [3]storeLag
	spans   []engine.BlockSpan
	// gridReleased: a cooperative grid's barrier let warps go in this
	// quantum (releaseGrid), gridWaiters (reused).
	gridReleased bool
	gridWaiters  []*warpT
	// base is the grid's start on the device timeline.
	base uint64
	// launched are the tags of the grids this grid's blocks launched.
	launched []*engine.DevLaunch
	// pcs are the stalls by function and instruction (Options.PCStalls;
	// nil when off), every row allocated before the SMs run.
	pcs [][][numStalls]uint64
	// code places the grid's functions in code memory (fetch.go).
	code *codeMap
	// quantum is the cycles SMs advance between two exchanges with the
	// L2 side (quantumFor); workers the host threads the SMs of a quantum
	// are spread over (1 unless parallelSafe). active (the SMs with
	// blocks in the current quantum), order and retiredAll are reused.
	quantum uint64
	workers int
	active  []*smT
	order   []uint64
	at      []int
	// ans are the last replay's answers to its requests, an SM's from
	// ansOff on by request index (replayRequests).
	ans        []uint64
	ansOff     []int
	inline     bool // the replay answered the leaves itself (one thread: overlap)
	retiredAll []retired
	// safe: the grid's SMs are independent within a quantum
	// (parallelSafe); mayAhead: this quantum's SMs may run the next one
	// too (runAhead); replayed: the last quantum's replay is done
	// (overlap).
	safe, mayAhead bool
	replayed       atomic.Bool
	// crew is the grid's threads while it runs quanta in parallel
	// (overlap, crew.go); nil before the first such quantum.
	crew *crew
}

// l2Counts are what the replay adds up request by request (DRAM bytes,
// L2 hits and misses, the drain) while the SMs run the next quantum on
// other threads: a cache line of their own (the padding), so that the
// replay's writes do not take from the SMs' cores the line of the grid's
// state they read at every step (false sharing).
type l2Counts struct {
	_      [64]byte
	dramRd uint64
	dramWr uint64
	l2Hit  uint64
	l2Miss uint64
	// drain is when the grid's last store or atomic has reached the L2:
	// a grid is complete only then.
	drain uint64
	_     [64]byte
}

// storeLag sums the stores' waits for the L2 in one quantum's replay.
type storeLag struct {
	sum float64
	n   int64
}

// run is the cycle loop, a quantum at a time (quantum.go): every SM with
// blocks simulates the quantum on its own (runSM, on several threads when
// the grid allows), then their requests to the L2 side are replayed in
// (cycle, SM, sequence) order, the answers written where they are waited
// for, and the blocks retired in the quantum replaced.
func (s *gridState) run() error {
	defer s.stopCrew()
	// The first wave: each SM takes blocks up to its limit, SMs in turn
	// (clusters: each in a GPC with room for all its blocks).
	if s.cl != nil {
		s.launchClusters(0)
	}
	for r := 0; r < s.perSM && s.cl == nil; r++ {
		for _, sm := range s.sms {
			if s.nextBlk >= s.limitBlk {
				break
			}
			sm.now = 0
			s.startBlock(sm, 0)
		}
	}
	limit := s.g.StepLimit()
	quantum := s.quantum
	prev := uint64(0) // the last quantum's start
	// Quantum k starts at cycle t. The last quantum's requests are
	// replayed (replayLast) while the SMs run this one (runQuantum): made
	// once, not a closure for every quantum.
	var t uint64
	var k int
	replayLast := func() int {
		if k == 0 {
			return -1
		}
		s.replayRequests(k-1, prev)
		return (k - 1) % 3
	}
	runQuantum := func(sm *smT) {
		if sm.ahead {
			// It ran this quantum with the last one (runAhead).
			sm.ahead = false
			sm.retired = append(sm.retired[:0], sm.aheadRetired...)
			return
		}
		s.beginAt(sm, k, t)
		s.startPending(sm)
		sm.end = t + quantum
		sm.mayIssue = s.runSM(sm, t+quantum)
		if s.mayAhead {
			s.runAhead(sm, k, t)
		}
	}
	var steps int64 // every SM's steps up to the last quantum's end
	for ; ; t, k = t+quantum, k+1 {
		if s.g.Stopped() {
			return nil
		}
		s.gridReleased = false
		s.active = s.active[:0]
		for _, sm := range s.sms {
			if len(sm.blocks) > 0 || sm.ahead {
				s.active = append(s.active, sm)
			} else {
				s.begin(sm, k)
			}
		}
		live := len(s.active) > 0
		// With few threads an SM may run the next quantum as well, while
		// its state is in the host's caches (runAhead), unless the
		// watchdog could stop the grid after this one.
		s.mayAhead = s.safe && s.cl == nil && (s.workers <= aheadWorkers || len(s.active) <= 1) &&
			steps+int64(len(s.sms))*int64(quantum)*int64(s.p.SubPartitions) <= limit
		s.overlap(replayLast, runQuantum)
		prev = t
		waiting, faulted := false, false
		for _, sm := range s.active {
			if sm.ahead {
				// (Its quantum ended with no fault and a warp that can
				// issue: runAhead; what it did in the next one counts
				// after the next one.)
				waiting = true
				continue
			}
			faulted = faulted || sm.fault()
			waiting = waiting || sm.mayIssue
		}
		if faulted {
			s.reportFault()
			return nil
		}
		s.dispense(t + quantum)
		wake := uint64(math.MaxUint64)
		steps = 0
		for _, sm := range s.sms {
			if sm.ahead {
				steps += sm.aheadSteps
				wake = min(wake, sm.aheadWake)
				continue
			}
			steps += sm.steps
			if len(sm.blocks) > 0 {
				wake = min(wake, sm.wake)
			}
		}
		if live && waiting && wake != math.MaxUint64 && wake >= t+3*quantum {
			// No SM can issue for quanta to come (warps waiting for
			// device-launched grids): skip to the quantum of the first
			// that can. Not when the first waits for a future of this
			// quantum (wake t+2*quantum, readyAt): skipping a quantum
			// without counting it would write its answers a quantum late
			// (begin), and a lone warp waiting on an L2 round trip would
			// wait a quantum longer (testdata/timing/tensormap, kind 4:
			// 384 cycles a round for 292).
			t = wake/quantum*quantum - quantum
		}
		if !live {
			if s.nextBlk < s.limitBlk {
				// Every SM finished its blocks at once: give each one more.
				if s.cl != nil {
					for _, sm := range s.sms {
						sm.now = t + quantum
					}
					from := s.nextBlk
					s.launchClusters(t + quantum)
					if s.nextBlk == from {
						return fmt.Errorf("a cluster of %d blocks (%d per SM) does not fit in any GPC of %s (SMs by GPC: %v)",
							s.cl.n, s.perSM, s.d.arch.Name, s.d.arch.GPCs())
					}
					continue
				}
				for _, sm := range s.sms {
					if s.nextBlk < s.limitBlk {
						sm.now = t + quantum
						s.startBlock(sm, sm.now)
					}
				}
				continue
			}
			// (No SM ran this quantum: every request has been replayed.)
			break
		}
		if steps > limit {
			for _, sm := range s.sms {
				if len(sm.blocks) > 0 {
					s.startPending(sm)
					sm.blocks[0].slot.Watchdog()
					return nil
				}
			}
		}
		// A grid barrier that completed in this quantum readied warps on
		// SMs that had already found nothing to issue.
		if !waiting && s.g.Cooperative() && (s.gridReleased || s.releaseGrid(t+quantum)) {
			continue
		}
		if !waiting {
			// Nothing can ever issue: every live warp waits at a barrier
			// that cannot complete.
			for _, sm := range s.sms {
				for _, b := range sm.blocks {
					b.slot.Deadlocked()
					return nil
				}
			}
			break
		}
	}
	return nil
}

// aheadWorkers is the most threads on which an SM runs ahead (runAhead):
// on more, an SM could run ahead only after the replay, which then would
// no longer overlap the SMs (8 threads of the device machine took 21%
// longer on the reduce lesson's reduceInterleaved, 37% on a stream copy,
// when SMs waited for it: testdata/timing/timespeed).
const aheadWorkers = 2

// runAhead lets sm, which has just run quantum k (from cycle t), run
// quantum k+1 at once, while its state is still in the host's caches,
// when nothing that happens between the two quanta can change what it
// does in the next: the grid's SMs are independent within a quantum
// (parallelSafe: no global atomics, printf, device launches, no
// clusters or grid barriers), the requests of quantum k-1 have been
// replayed (overlap's replayed; an SM never waits for it), the SM retired
// no block in quantum k (dispense gives new blocks only to SMs that did),
// no warp faulted, and it has a warp that can issue within the next two
// quanta (so the grid skips no quantum after this one: run). The replay
// of quantum k (in the next one) reads only what quantum k left, so it
// may come after. The grid's checks after quantum k see the SM as it was
// at its end (ahead*); the blocks it retires in quantum k+1 are handed on
// after that quantum, in (cycle, SM) order with the others'. A fault in
// quantum k+1 is never reported while another SM faulted in quantum k
// (reportFault).
func (s *gridState) runAhead(sm *smT, k int, t uint64) {
	q := s.quantum
	if len(sm.retired) > 0 || sm.fault() || !sm.mayIssue || len(sm.blocks) == 0 || sm.wake >= t+3*q || !s.replayed.Load() {
		return
	}
	sm.ahead, sm.aheadWake, sm.aheadSteps = true, sm.wake, sm.steps
	s.beginAt(sm, k+1, t+q)
	s.startPending(sm)
	sm.end = t + 2*q
	sm.mayIssue = s.runSM(sm, t+2*q)
	sm.aheadRetired = append(sm.aheadRetired[:0], sm.retired...)
	sm.retired = sm.retired[:0]
}

// reportFault names the launch's fault when SMs faulted in the quantum
// that just ended: the earliest, by the cycle it happened at and then the
// SM's index (an SM stops at its first), whichever thread found it first
// and whether an SM ran ahead into the next quantum (runAhead) or not.
func (s *gridState) reportFault() {
	var first *smT
	for _, sm := range s.sms {
		if sm.fault() && (first == nil || sm.now < first.now) {
			first = sm
		}
	}
	if first == nil {
		return
	}
	for _, b := range first.blocks {
		if b.slot.Fault() != nil {
			b.slot.ReportFault()
			return
		}
	}
}

// runSM simulates sm's cycles up to end. It reports false when the SM has
// live warps none of which can ever issue (a barrier deadlock). It uses
// only the SM's own state: several SMs run it at once.
func (s *gridState) runSM(sm *smT, end uint64) bool {
	for sm.now < end {
		issued := false
		next := uint64(math.MaxUint64)
		for i := range sm.sps {
			sp := &sm.sps[i]
			if sp.check > sm.now {
				next = min(next, sp.check)
				continue
			}
			if s.issue(sm, sp) {
				issued = true
				sp.check = sm.now + 1
			}
			if sm.fault() {
				return true
			}
			next = min(next, sp.check)
		}
		if sm.retire {
			sm.retire = false
			s.retireBlocks(sm)
			if len(sm.blocks) == 0 {
				break
			}
			for i := range sm.sps {
				next = min(next, sm.sps[i].check)
			}
		}
		if issued {
			sm.wake = sm.now
			sm.now++
			continue
		}
		if next == math.MaxUint64 {
			return false
		}
		sm.wake = next
		sm.now = max(sm.now+1, min(next, end))
	}
	sm.now = max(sm.now, end)
	return true
}

func (sm *smT) fault() bool {
	return sm.rec.Event == engine.EventFault
}

func (s *gridState) nanos(cycles uint64) uint64 {
	return uint64(float64(s.base+cycles) * 1e9 / s.p.ClockHz)
}

// finish fills the grid's timing account, extrapolating a sampled grid.
func (s *gridState) finish(nb, wave int) {
	end := max(s.lastDone, s.drain)
	var warpCyc, active, issued, tensorBusy uint64
	var stalls [numStalls]uint64
	for _, sm := range s.sms {
		sm.now = end
		s.touchSM(sm)
		warpCyc += sm.warpCyc
		active += sm.activeCy
		issued += sm.issued
		tensorBusy += sm.tensorBusy
		for i, v := range sm.stalls {
			stalls[i] += v
		}
	}
	cycles := end
	launch := s.p.KernelLaunch
	if s.code != nil {
		launch += s.code.launchCycles(s.p)
	}
	scale, tscale := 1.0, 1.0 // work and time extrapolation factors
	sampled := s.limitBlk < nb
	var wr uint64          // a sampled grid's DRAM writes (sampledWrites)
	var errPct float64     // a sampled grid's error estimate
	var estRetire []uint64 // a short grid's untimed blocks' retirements (extrapolateSlots)
	if sampled && s.limitBlk > 0 {
		scale = float64(nb) / float64(s.limitBlk)
		if s.short {
			cycles, errPct, estRetire = s.extrapolateSlots(nb, end, uint64(launch))
		} else {
			cycles = s.extrapolate(nb, end)
			errPct = max(s.sampleErrorPct(nb, cycles), wavesMinPct)
		}
		wr = s.sampledWrites(scale)
		if floor := s.dramFloor(nb, end, scale, wr); floor > cycles {
			if s.short {
				// The floor overrode the block times' estimate:
				// the grid is held to the DRAM's peak, which a
				// whole grid seldom sustains, so the move counts
				// twice (sampling.go, short grids).
				errPct += 2 * 100 * float64(floor-cycles) / float64(floor)
			} else {
				errPct = max(errPct, dramFloorPct)
			}
			cycles = floor
		}
		tscale = float64(cycles) / float64(max(end, 1))
	}
	// BlockRateFloor: the block scheduler takes a retired block back at
	// one per DispatchCycles, device-wide, and the grid ends when it has
	// taken the last one (retirementDrain). The grid's SMs are idle
	// meanwhile; the grids it launched are not held back by it. A sampled
	// grid's estimate ends as its full timing would (drainTail).
	var tail uint64
	if s.p.BlockRateFloor {
		tail = s.drainTail(nb, end, cycles, sampled, estRetire)
	}
	tm := &engine.GridTiming{
		Cycles: cycles + tail + uint64(launch), StartCycle: s.base,
		WarpCycles: uint64(float64(warpCyc) * tscale), ActiveSMCycles: uint64(float64(active) * tscale),
		IssueCycles: uint64(float64(issued) * scale), SchedCycles: uint64(float64(active)*tscale) * uint64(s.p.SubPartitions),
		TensorPipeCycles: uint64(float64(tensorBusy) / TensorFrac * scale),
		DRAMReadBytes:    uint64(float64(s.dramRd) * scale), DRAMWriteBytes: uint64(float64(s.dramWr) * scale),
		L2Hits: uint64(float64(s.l2Hit) * scale), L2Miss: uint64(float64(s.l2Miss) * scale),
		Stalls: make([]uint64, numStalls), StallNames: StallNames, Sampled: sampled, Blocks: s.spans,
		MaxWarpsPerSM: s.d.arch.MaxWarpsPerSM, SMs: len(s.sms), ClockHz: s.p.ClockHz,
	}
	for i, v := range stalls {
		tm.Stalls[i] = uint64(float64(v) * scale)
	}
	if s.pcs != nil {
		tm.PCStalls = s.pcStalls(scale, tm.Stalls)
	}
	if sampled {
		tm.DRAMWriteBytes = wr
		tm.Sampling, tm.SampledBlocks, tm.ErrorPct = SampledWaves, s.limitBlk, errPct
		if s.short {
			tm.Sampling = SampledShort
		}
	}
	s.g.Timing = tm
	// The grids its blocks launched start, unless a synchronization ran
	// them already, once its last block has been dispatched (for a sampled
	// grid: as long before its extrapolated end as the timed window's last
	// dispatch was before the window's end).
	after := s.base + min(s.lastDispatch+cycles-end, cycles)
	for _, l := range s.launched {
		l.After = after
	}
}

// retirementDrain is the cycle the block scheduler has taken back the
// grid's last retired block, taking them in the order they retired at one
// per DispatchCycles (testdata/timing/blocks, shortocc, h200launch;
// testdata/timing/shortocc/JOURNAL.md, "The block scheduler's retirement rate"): blocks that
// retire together, as a wave of short blocks does, wait their turn, so a
// one-wave grid of n blocks ends n × DispatchCycles after its blocks do,
// while blocks that retire no faster than the rate add one turn.
func (s *gridState) retirementDrain(more []uint64) uint64 {
	at := s.retires
	if len(more) > 0 {
		at = slices.Concat(at, more)
		slices.Sort(at)
	} else if !slices.IsSorted(at) {
		at = slices.Sorted(slices.Values(at))
	}
	var done float64
	for _, r := range at {
		done = max(done, float64(r)) + s.p.DispatchCycles
	}
	return uint64(done)
}

// drainTail is the cycles the retirement drain adds after a grid's cycles
// (its blocks' and stores' end, or a sampled grid's estimate of it; end:
// the timed blocks' end). A sampled grid's estimate adds what its full
// timing would, from the same rule: a short grid's (extrapolateSlots)
// over the window's retirements and the cycles its untimed blocks retire
// at in the estimate (estRetire), the partial last wave's blocks in their
// bunches, as the full timing's; a grid sampled by waves, whose untimed
// blocks the estimate does not place, the drain its window's last wave
// left after the window's end (the grid's last wave ends the same way:
// extrapolate), and never less than its blocks at the rate. Until
// 2026-11-29 both took the window's drain or the blocks at the rate,
// whichever ended later, which a grid's estimate passes long before: a
// short grid's sampled time lost the drain of its last wave (the
// occupancy lesson's FMA kernel at 4 waves -1.85% off its full timing
// against a stated ±1.04%, TestLongShortSamplingError).
func (s *gridState) drainTail(nb int, end, cycles uint64, sampled bool, estRetire []uint64) uint64 {
	var floor uint64
	switch {
	case !sampled:
		floor = s.retirementDrain(nil)
	case s.short && estRetire != nil:
		floor = s.retirementDrain(estRetire)
	default:
		drained := s.retirementDrain(nil)
		floor = max(cycles+drained-min(drained, end), uint64(float64(nb)*s.p.DispatchCycles))
	}
	return floor - min(floor, cycles)
}
