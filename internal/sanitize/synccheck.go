package sanitize

import (
	"github.com/warpsim/warpsim/internal/engine"
)

// synccheck remembers, per barrier of the running block, the thread count
// the warps arriving in the current phase gave, so that a warp giving a
// different one is caught.
type synccheck struct {
	grid  any
	block int
	bars  [16]barPhase
}

type barPhase struct {
	count, arrived int
}

// arrive records a warp's arrival and reports whether its count differs
// from the phase's.
func (sc *synccheck) arrive(site *engine.CheckSite, id, count int) bool {
	if site.Grid != sc.grid || site.BlockLinear != sc.block {
		sc.grid, sc.block, sc.bars = site.Grid, site.BlockLinear, [16]barPhase{}
	}
	if id < 0 || id >= len(sc.bars) {
		return false
	}
	b := &sc.bars[id]
	if b.arrived > 0 && b.count != count {
		return true
	}
	b.count = count
	b.arrived++
	need := int(site.BlockDim[0]*site.BlockDim[1]*site.BlockDim[2]+31) / 32
	if count > 0 {
		need = (count + 31) / 32
	}
	if b.arrived >= need {
		*b = barPhase{}
	}
	return false
}

// syncBarrier reports a bar.sync reached by part of a warp (the lanes that
// have not exited must all arrive together), a thread count that is not a
// multiple of the warp size, and warps of one barrier phase giving
// different counts. Like compute-sanitizer it reports every arriving
// thread of the warp and stops the kernel.
func (s *Sanitizer) syncBarrier(site *engine.CheckSite, id, count int) bool {
	msg := ""
	switch {
	case count >= 0 && (count%32 != 0 || count == 0), s.sync.arrive(site, id, count):
		msg = "Barrier error detected. Invalid arguments."
	case site.Exec != site.Live:
		msg = "Barrier error detected. Divergent thread(s) in warp."
	default:
		return true
	}
	s.everyLane(site, msg)
	return false
}

// syncWarp reports a warp-level operation (__syncwarp, shfl.sync,
// vote.sync, match.sync, redux.sync) where an executing lane's member mask
// leaves the lane itself out; as on the H100 (syncwarp_mask.cu), every
// executing lane is reported. Lanes of different tiles pass different
// masks, each holding its own tile. A mask naming lanes that do not call
// is left alone: on the H100 compute-sanitizer reports nothing for it
// (testdata/sanitize/shfl_mask.cu), as independent thread scheduling lets
// those lanes arrive later.
func (s *Sanitizer) syncWarp(site *engine.CheckSite, member *[32]uint32) bool {
	bad := false
	for m := site.Exec; m != 0; m &= m - 1 {
		l := trailing(m)
		if member[l]>>l&1 == 0 {
			bad = true
		}
	}
	if !bad {
		return true
	}
	s.everyLane(site, "Barrier error detected. Invalid arguments.")
	return false
}

func (s *Sanitizer) everyLane(site *engine.CheckSite, msg string) {
	for m := site.Exec; m != 0; m &= m - 1 {
		l := trailing(m)
		s.report(msg, "    "+where(site), "    "+byThread(site, l))
	}
}
