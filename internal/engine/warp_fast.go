// The fast forms (ir.Fast) run back to back, and the instructions a straight run of warp.run may execute.

package engine

import (
	"fmt"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// fast runs the specialized instruction forms (ir.Fast): straight 32-lane
// loops with no decoding left, unrolled by four.
func (wp *warp) fast(in *ir.Inst, exec uint32) {
	wp.fastRun(unsafe.Slice(in, 1), 0, -1, 1, exec)
}

// fastRun runs the fast form at code[pc] for lanes exec and, when exec is
// the whole warp, the unguarded fast forms that follow it, up to n in all
// and not past rpc; it returns how many it ran. One call, one loop and one
// switch for a run of them, instead of a call each. A whole-warp setp ends
// the run: it returns the predicate slot it set and its lanes as a mask
// (ps, pm), which the straight run hands to the next guard; ps is -1 when
// the run did not end so.
func (wp *warp) fastRun(code []ir.Inst, pc, rpc int32, n int, exec uint32) (k int, ps int32, pm uint32) {
	for {
		in := &code[pc]
		a := wp.ru(in.A[0])
		o := &wp.tmp
		if exec == fullMask {
			o = wp.ru(in.D[0])
		}
		if !wp.fastForm(in, o, a) { // (fastgo.go)
			switch in.Fast {
			case ir.FastSetp32, ir.FastSetp32Imm:
				var m uint32
				if in.Fast == ir.FastSetp32 {
					m, _ = setpMask32(in.Cmp, in.Type2 == ptxtype.S32, a, wp.ru(in.A[1]), o)
				} else {
					m = setpMask32Imm(in.Cmp, in.Type2 == ptxtype.S32, a, wp.ru(in.A[1])[0], o)
				}
				k++
				if exec != fullMask {
					wp.commit(in.D[0], exec)
					return k, -1, 0
				}
				return k, in.D[0], m
			case ir.FastFmaF32:
				fmaRnF32Lanes(o, a, wp.ru(in.A[1]), wp.ru(in.A[2]))
			default:
				panic(fmt.Sprintf("engine: fast form %d has no row in kernelgen's aluOps", in.Fast))
			}
		}
		k++
		if exec != fullMask {
			wp.commit(in.D[0], exec)
			return k, -1, 0
		}
		pc++
		if k == n || pc == rpc {
			return k, -1, 0
		}
		if next := &code[pc]; next.Fast == ir.FastNone || next.Guard >= 0 {
			return k, -1, 0
		}
	}
}

// straight marks the instructions exec runs that never touch the
// reconvergence stack, the frames or the warp's state except by faulting:
// warp.run runs them inside a straight run. Anything not listed (control
// flow, barriers, calls, printf, library and device-runtime calls, and any
// instruction added later) takes the general path.
var straight = func() (t [256]bool) {
	for op := ir.OpNop; op <= ir.OpRed; op++ {
		t[op] = true
	}
	// Not the warp-synchronous ones (shfl, vote, match, redux, bar.warp,
	// activemask): under independent thread scheduling they may wait for
	// lanes on another path (syncWait), which rearranges the stack.
	for _, op := range []ir.Op{ir.OpMembar, ir.OpPrefetch, ir.OpIsspacep} {
		t[op] = true
	}
	return t
}()
