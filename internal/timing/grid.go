// The grid: one grid's timing state and its cycle loop. SMs take turns a
// quantum of cycles at a time (run), each SM issuing from its
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
	now      uint64
	nextBlk  int
	limitBlk int // blocks timed in detail
	perSM    int
	cl       *clusterPlan // nil: no cluster launch (cluster.go)
	wpb      int
	age      uint64
	rec      engine.StepRecord
	steps    int64
	stalls   [numStalls]uint64
	issued   uint64
	dramRd   uint64
	dramWr   uint64
	l2Hit    uint64
	l2Miss   uint64
	nslots   int
	lastDone uint64
	// retires are the cycles blocks finished at; lastDispatch is when the
	// last block timed in detail was handed out (sampling's extrapolation).
	retires      []uint64
	lastDispatch uint64
	// wave is the blocks of one full wave; maxLimit is the most blocks a
	// sampled grid times in detail (the window grows to it while the block
	// rate has not settled).
	wave, maxLimit int
	// drain is when the grid's last store or atomic has reached the L2:
	// a grid is complete only then.
	drain uint64
	spans []engine.BlockSpan
	// gridReleased: a cooperative grid's barrier let warps go in this
	// quantum (releaseGrid), gridWaiters (reused).
	gridReleased bool
	gridWaiters  []*warpT
	// base is the grid's start on the device timeline.
	base uint64
	// launched are the tags of the grids this grid's blocks launched.
	launched []*engine.DevLaunch
	// pcs are the stalls by function and instruction (Options.PCStalls;
	// nil when off), a function's row allocated when it first stalls.
	pcs [][][numStalls]uint64
}

// quantum is how many cycles one SM is simulated before the next SM takes
// its turn. SMs interact only through L2 and DRAM, whose bandwidth is
// accounted per time bucket (so the order SMs take their turns in does not
// matter within a quantum), and working on one SM at a time keeps its warps'
// state in the host's caches.
const quantum = 256

// run is the cycle loop: quanta of all SMs, SMs in index order, cycles in
// order within an SM.
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
			s.now = 0
			s.startBlock(sm, 0)
		}
	}
	limit := s.g.StepLimit()
	for t := uint64(0); ; t += quantum {
		if s.g.Stopped() {
			return nil
		}
		s.d.dram.advance(t)
		s.d.l2q.advance(t)
		s.d.atomQ.advance(t)
		live, waiting := false, false
		s.gridReleased = false
		wake := uint64(math.MaxUint64)
		for _, sm := range s.sms {
			if len(sm.blocks) == 0 {
				continue
			}
			live = true
			if s.runSM(sm, t+quantum) {
				waiting = true
			}
			if s.fault() {
				return nil
			}
			if len(sm.blocks) > 0 {
				wake = min(wake, sm.wake)
			}
		}
		if live && waiting && wake != math.MaxUint64 && wake >= t+2*quantum {
			// No SM can issue for quanta to come (warps waiting for
			// device-launched grids): skip to the quantum of the first
			// that can.
			t = wake/quantum*quantum - quantum
		}
		if !live {
			if s.nextBlk < s.limitBlk {
				// Every SM finished its blocks at once: give each one more.
				if s.cl != nil {
					s.now = t + quantum
					from := s.nextBlk
					s.launchClusters(s.now)
					if s.nextBlk == from {
						return fmt.Errorf("a cluster of %d blocks (%d per SM) does not fit in any GPC of %s (SMs by GPC: %v)",
							s.cl.n, s.perSM, s.d.arch.Name, s.d.arch.GPCs())
					}
					continue
				}
				for _, sm := range s.sms {
					if s.nextBlk < s.limitBlk {
						s.now = t + quantum
						sm.now = s.now
						s.startBlock(sm, s.now)
					}
				}
				continue
			}
			break
		}
		if s.steps > limit {
			for _, sm := range s.sms {
				if len(sm.blocks) > 0 {
					sm.blocks[0].slot.Watchdog()
					return nil
				}
			}
		}
		// A grid barrier that completed in this quantum readied warps on
		// SMs that had already found nothing to issue.
		if !waiting && s.g.Cooperative() && (s.gridReleased || s.releaseGrid()) {
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
// live warps none of which can ever issue (a barrier deadlock).
func (s *gridState) runSM(sm *smT, end uint64) bool {
	s.now = sm.now
	for s.now < end {
		issued := false
		next := uint64(math.MaxUint64)
		for i := range sm.sps {
			sp := &sm.sps[i]
			if sp.check > s.now {
				next = min(next, sp.check)
				continue
			}
			if s.issue(sm, sp) {
				issued = true
				sp.check = s.now + 1
			}
			if s.fault() {
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
			sm.wake = s.now
			s.now++
			continue
		}
		if next == math.MaxUint64 {
			sm.now = s.now
			return false
		}
		sm.wake = next
		s.now = max(s.now+1, min(next, end))
	}
	sm.now = max(s.now, end)
	return true
}

func (s *gridState) fault() bool {
	return s.rec.Event == engine.EventFault
}

func (s *gridState) nanos(cycles uint64) uint64 {
	return uint64(float64(s.base+cycles) * 1e9 / s.p.ClockHz)
}

// finish fills the grid's timing account, extrapolating a sampled grid.
func (s *gridState) finish(nb, wave int) {
	end := max(s.lastDone, s.drain)
	for _, sm := range s.sms {
		s.now = end
		s.touchSM(sm)
	}
	var warpCyc, active uint64
	for _, sm := range s.sms {
		warpCyc += sm.warpCyc
		active += sm.activeCy
	}
	cycles := end
	scale, tscale := 1.0, 1.0 // work and time extrapolation factors
	sampled := s.limitBlk < nb
	if sampled && s.limitBlk > 0 {
		scale = float64(nb) / float64(s.limitBlk)
		cycles = s.extrapolate(nb, end)
		tscale = float64(cycles) / float64(max(end, 1))
	}
	tm := &engine.GridTiming{
		Cycles: cycles + uint64(s.p.KernelLaunch), StartCycle: s.base,
		WarpCycles: uint64(float64(warpCyc) * tscale), ActiveSMCycles: uint64(float64(active) * tscale),
		IssueCycles: uint64(float64(s.issued) * scale), SchedCycles: uint64(float64(active)*tscale) * uint64(s.p.SubPartitions),
		DRAMReadBytes: uint64(float64(s.dramRd) * scale), DRAMWriteBytes: uint64(float64(s.dramWr) * scale),
		L2Hits: uint64(float64(s.l2Hit) * scale), L2Miss: uint64(float64(s.l2Miss) * scale),
		Stalls: make([]uint64, numStalls), StallNames: StallNames, Sampled: sampled, Blocks: s.spans,
		MaxWarpsPerSM: s.d.arch.MaxWarpsPerSM, SMs: len(s.sms), ClockHz: s.p.ClockHz,
	}
	for i, v := range s.stalls {
		tm.Stalls[i] = uint64(float64(v) * scale)
	}
	if s.pcs != nil {
		tm.PCStalls = s.pcStalls(scale, tm.Stalls)
	}
	if sampled {
		tm.DRAMWriteBytes = s.sampledWrites(scale)
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
