package sanitize

import (
	"fmt"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// synccheck follows, per named barrier of the running block, the thread
// counts warps give it. A warp's k-th arrival at a barrier with a count
// belongs to the barrier's k-th round (rounds are the warps' own order, so
// what is reported does not depend on which warps the schedule lets meet):
// warps of one round must give one count.
type synccheck struct {
	grid  any
	block int
	// arrivals counts each warp's arrivals at each barrier (with a count).
	arrivals [16][]int
	// rounds holds each barrier's rounds not yet complete, by number; a
	// round is forgotten once complete, or when it is keptRounds behind
	// the newest (warps of a subset of the block never complete one).
	rounds [16]map[int]*barRound
}

// keptRounds is how many rounds behind the newest synccheck remembers.
const keptRounds = 64

// barRound is one round of a barrier: the count its first warp gave, and
// once another warp gave a different one (ref), the warps that agree with
// the first are the ones reported.
type barRound struct {
	first, ref int
	warps      []roundWarp
	warned     bool
}

// roundWarp is one warp's arrival in a round, kept to report it later.
type roundWarp struct {
	count    int
	fn       *ir.Func
	pc       int
	line     ir.LineInfo
	tid      *[3][32]uint32
	block    [3]uint32
	exec     uint32
	reported bool
}

// divergentBlock is what compute-sanitizer says of warps that give one
// named barrier different thread counts (probe2/named_barrier,
// probe4/count_swap, count_interleaved).
const divergentBlock = "Barrier error detected. Divergent thread(s) in block."

// arrive records a warp's arrival at barrier id with a thread count and
// reports the round's warps that gave a count other than the one a later
// warp gave: on the H100 (probe2/named_barrier, probe4/count_swap,
// count_interleaved) compute-sanitizer named every thread of the warps
// that gave the count the others did not, as warps arriving in warp order
// would find it: the warps that agree with the round's first are reported
// once another count comes, and any later warp that does not give that
// other count. It reports false (stop the kernel) when a round with such
// a report is complete: every warp of the block arrived in it.
func (s *Sanitizer) arrive(site *engine.CheckSite, id, count int) bool {
	sc := &s.sync
	if site.Grid != sc.grid || site.BlockLinear != sc.block {
		sc.grid, sc.block = site.Grid, site.BlockLinear
		for i := range sc.arrivals {
			sc.arrivals[i] = sc.arrivals[i][:0]
			clear(sc.rounds[i])
		}
	}
	nw := int(site.BlockDim[0]*site.BlockDim[1]*site.BlockDim[2]+31) / 32
	a := &sc.arrivals[id]
	for len(*a) < nw {
		*a = append(*a, 0)
	}
	k := (*a)[site.Warp]
	(*a)[site.Warp]++
	if sc.rounds[id] == nil {
		sc.rounds[id] = map[int]*barRound{}
	}
	r := sc.rounds[id][k]
	if r == nil {
		r = &barRound{}
		sc.rounds[id][k] = r
		delete(sc.rounds[id], k-keptRounds)
	}
	w := roundWarp{count: count, fn: site.Func, pc: site.PC, line: site.Line, tid: site.Tid, block: site.Block, exec: site.Exec}
	if len(r.warps) == 0 {
		r.first = count
	}
	r.warps = append(r.warps, w)
	if count != r.first && !r.warned {
		r.warned, r.ref = true, count
	}
	if r.warned {
		for i := range r.warps {
			if rw := &r.warps[i]; !rw.reported && rw.count != r.ref {
				rw.reported = true
				for m := rw.exec; m != 0; m &= m - 1 {
					l := trailing(m)
					s.report(append([]string{divergentBlock, "    " + whereAt(rw.fn, rw.pc, rw.line, site.Prog.Filename), fmt.Sprintf("    by thread (%d,%d,%d) in block %s",
						rw.tid[0][l], rw.tid[1][l], rw.tid[2][l], dim(rw.block))}, deviceFrames(rw.fn, nil, rw.pc)...)...)
				}
			}
		}
	}
	if len(r.warps) < nw {
		return true
	}
	delete(sc.rounds[id], k)
	return !r.warned
}

// syncBarrier reports a bar.sync reached by part of a warp (the lanes that
// have not exited must all arrive together: the engine hands the barrier
// here when lanes of the warp skip it, testdata/sanitize/divergent_barrier)
// and warps of one barrier round giving different thread counts (arrive).
// A thread count that is not a multiple of the warp size is no report: the
// kernel fails with cudaErrorIllegalInstruction (probe4/count_odd), which
// the engine raises.
func (s *Sanitizer) syncBarrier(site *engine.CheckSite, id, count int) bool {
	if count == 0 {
		s.everyLane(site, "Barrier error detected. Invalid arguments.")
		return false
	}
	if site.Exec != site.Live {
		s.everyLane(site, "Barrier error detected. Divergent thread(s) in warp.")
		return false
	}
	if count > 0 {
		return s.arrive(site, id&15, count)
	}
	return true
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
		s.report(append([]string{msg, "    " + where(site), "    " + byThread(site, l)}, siteFrames(site)...)...)
	}
}
