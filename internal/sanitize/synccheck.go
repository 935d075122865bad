package sanitize

import (
	"github.com/warpsim/warpsim/internal/engine"
)

// synccheck has no state: each barrier and warp-level operation is judged
// on its own.
type synccheck struct{}

// syncBarrier reports a bar.sync reached by part of a warp (the lanes that
// have not exited must all arrive together) and a thread count that is not
// a multiple of the warp size. Like compute-sanitizer it reports every
// arriving thread of the warp and stops the kernel.
func (s *Sanitizer) syncBarrier(site *engine.CheckSite, id, count int) bool {
	msg := ""
	switch {
	case count >= 0 && (count%32 != 0 || count == 0):
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
// vote.sync, match.sync, redux.sync) whose member mask leaves out a lane
// that executes it. A mask naming lanes that do not call is left alone: on
// the H100 compute-sanitizer reports nothing for it
// (testdata/sanitize/shfl_mask.cu), as independent thread scheduling lets
// those lanes arrive later.
func (s *Sanitizer) syncWarp(site *engine.CheckSite, member uint32) bool {
	if site.Exec&^member == 0 {
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
