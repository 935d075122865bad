// The grid: one grid's timing state and its cycle loop. SMs advance a
// quantum of cycles at a time (run, quantum.go), each SM issuing from its
// sub-partitions cycle by cycle (runSM); finish turns the counts into the
// grid's engine.GridTiming.

package timing

import (
	"fmt"
	"math"

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
	dramRd   uint64
	dramWr   uint64
	l2Hit    uint64
	l2Miss   uint64
	nslots   int
	l1Bytes  int // each SM's L1 for this grid (0: none)
	lastDone uint64
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
	// drain is when the grid's last store or atomic has reached the L2:
	// a grid is complete only then.
	drain uint64
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
	quantum    uint64
	workers    int
	active     []*smT
	order      []uint64
	at         []int
	retiredAll []retired
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
	replayLast := func() {
		if k > 0 {
			s.replay(k-1, prev)
		}
	}
	runQuantum := func(sm *smT) {
		s.begin(sm, k)
		sm.startPending()
		sm.end = t + quantum
		sm.mayIssue = s.runSM(sm, t+quantum)
	}
	for ; ; t, k = t+quantum, k+1 {
		if s.g.Stopped() {
			return nil
		}
		s.gridReleased = false
		s.active = s.active[:0]
		for _, sm := range s.sms {
			if len(sm.blocks) > 0 {
				s.active = append(s.active, sm)
			} else {
				s.begin(sm, k)
			}
		}
		live := len(s.active) > 0
		s.overlap(replayLast, runQuantum)
		prev = t
		waiting := false
		for _, sm := range s.active {
			if sm.fault() {
				return nil
			}
			waiting = waiting || sm.mayIssue
		}
		s.dispense(t + quantum)
		wake := uint64(math.MaxUint64)
		var steps int64
		for _, sm := range s.sms {
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
					sm.startPending()
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
	scale, tscale := 1.0, 1.0 // work and time extrapolation factors
	sampled := s.limitBlk < nb
	var wr uint64      // a sampled grid's DRAM writes (sampledWrites)
	var errPct float64 // a sampled grid's error estimate
	if sampled && s.limitBlk > 0 {
		scale = float64(nb) / float64(s.limitBlk)
		if s.short {
			cycles, errPct = s.extrapolateSlots(nb, end)
		} else {
			cycles = s.extrapolate(nb, end)
			errPct = s.sampleErrorPct(nb, cycles)
		}
		wr = s.sampledWrites(scale)
		if floor := s.dramFloor(scale, wr); floor > cycles {
			moved := 100 * float64(floor-cycles) / float64(floor)
			if s.short {
				// The floor overrode the block times' estimate:
				// the grid is held to the DRAM's peak, which a
				// whole grid seldom sustains, so the move counts
				// twice (sampling.go, short grids).
				errPct += 2 * moved
			} else {
				errPct = max(errPct, moved)
			}
			cycles = floor
		}
		tscale = float64(cycles) / float64(max(end, 1))
	}
	launch := s.p.KernelLaunch
	if s.code != nil {
		launch += s.code.launchCycles(s.p)
	}
	tm := &engine.GridTiming{
		Cycles: cycles + uint64(launch), StartCycle: s.base,
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
