package timing

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/engine"
)

// slowPathCycles is what the out-of-line paths in set (a StepRecord's
// SlowPaths) add to their warp after the inline sequence: the costliest
// path's SlowPathCycles, and each further path's less what the paths share
// (SlowPathSharedDiv or SlowPathSharedSqrt: the CALL, the subroutine's
// first checks and the RET; the paths' own instructions run one after
// another, as divergent code does); SlowPathAllDiv or SlowPathAllSqrt less
// when no lane stayed inline. Lanes on one path cost it once.
func slowPathCycles(p *Params, set uint32) uint64 {
	paths := set &^ (1 << engine.SlowAllLanes)
	if paths == 0 {
		return 0
	}
	shared, all := uint64(p.SlowPathSharedDiv), uint64(p.SlowPathAllDiv)
	if paths>>engine.SlowSqrtZero != 0 {
		shared, all = uint64(p.SlowPathSharedSqrt), uint64(p.SlowPathAllSqrt)
	}
	var cyc uint64
	for m := paths; m != 0; m &= m - 1 {
		c := uint64(p.SlowPathCycles[bits.TrailingZeros32(m)])
		if cyc > 0 {
			// The further path's own part (in any order: the sum less
			// the shared part once a path).
			c -= min(c, shared)
		}
		cyc += c
	}
	if set>>engine.SlowAllLanes&1 != 0 {
		cyc -= min(cyc, all)
	}
	return cyc
}
