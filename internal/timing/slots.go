package timing

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// issueSlots is how many issue slots a PTX instruction takes: the SASS
// instructions ptxas makes of it. Most PTX instructions are one SASS
// instruction (or fold into a neighbour); the exceptions are operations the
// SM has no unit for, which ptxas expands into sequences:
//
//   - integer division and remainder (32-bit: a float reciprocal, a
//     multiply-high and corrections, 18.7 SASS instructions on average in
//     the reduce lesson's reduceNeighbored, where ncu counts 153.6 M SASS
//     against 70.2 M PTX instructions and 4.7 M rem.u32; 64-bit: a call of
//     a division routine, about 70);
//   - IEEE-rounded fp32 division, reciprocal and square root (a MUFU
//     approximation refined by FMAs, with a slow path not modelled: 8–10);
//   - fp64 division, reciprocal and square root (DFMA Newton iterations);
//   - the libdevice math functions warpsim runs natively (sinf, expf, …:
//     whole SASS routines, 24 taken as typical) and printf (a call into the
//     driver's formatting, hundreds).
func issueSlots(in *ir.Inst) uint32 {
	switch in.Op {
	case ir.OpDiv, ir.OpRem:
		switch {
		case in.Type == ptx.F64:
			return 24
		case ir.IsFloat(in.Type):
			if in.Flags&ir.FlagApprox != 0 {
				return 2 // MUFU.RCP and a multiply
			}
			if in.Flags&ir.FlagFull != 0 {
				return 4
			}
			return 10
		case ir.TypeSize(in.Type) == 8:
			return 70
		}
		return 19
	case ir.OpSqrt, ir.OpRcp:
		if in.Flags&ir.FlagApprox != 0 {
			return 1
		}
		if in.Type == ptx.F64 {
			return 20
		}
		return 8
	case ir.OpLibcall:
		return 24
	case ir.OpVprintf:
		return 400
	}
	return 1
}
