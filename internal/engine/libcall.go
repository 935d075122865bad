package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
)

// libcall runs a native extern (libdevice) for each active lane.
func (wp *warp) libcall(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	fn := wp.w.l.mod.externs[wp.fi][in.Imm]
	if fn == nil {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call to %s is not supported yet", cs.Extern)
		return
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		wp.args = wp.args[:0]
		for _, a := range cs.Args {
			wp.args = append(wp.args, wp.frameWord(a.Offset, min(a.Size, 8), l))
		}
		v := fn(wp.args)
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), l, v)
		}
	}
}
