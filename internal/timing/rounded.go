package timing

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// The directed rounding forms (.rz, .rm, .rp) of division, reciprocal and
// square root that ptxas does not inline as it does .rn (sm_90 SASS of
// testdata/triton3/study/round): div.f32, div.f64, rcp.f64 and sqrt.f64
// are a CALL of a subroutine of 43–57 instructions a call, whose result
// comes 255–291 cycles after the call; sqrt.f32 stays inline, 14
// instructions where .rn has 10, and slower. rcp.f32's forms are .rn's
// code (10 instructions, the same time).
const (
	RoundedDivF32  = iota // div.{rz,rm,rp}.f32: a call
	RoundedDivF64         // div.{rz,rm,rp}.f64: a call
	RoundedRcpF64         // rcp.{rz,rm,rp}.f64: a call
	RoundedSqrtF64        // sqrt.{rz,rm,rp}.f64: a call
	RoundedSqrtF32        // sqrt.{rz,rm,rp}.f32: inline
	RoundedKinds
)

// roundedKind is in's kind among the directed rounding forms ptxas expands
// differently from .rn, or -1.
func roundedKind(in *ir.Inst) int {
	if in.Flags&(ir.FlagApprox|ir.FlagFull) != 0 || (in.Rnd != ir.RndRZ && in.Rnd != ir.RndRM && in.Rnd != ir.RndRP) {
		return -1
	}
	f64 := in.Type == ptxtype.F64
	if !f64 && in.Type != ptxtype.F32 {
		return -1
	}
	switch in.Op {
	case ir.OpDiv:
		if f64 {
			return RoundedDivF64
		}
		return RoundedDivF32
	case ir.OpRcp:
		if f64 {
			return RoundedRcpF64
		}
	case ir.OpSqrt:
		if f64 {
			return RoundedSqrtF64
		}
		return RoundedSqrtF32
	}
	return -1
}

// roundedSlots are the SASS instructions a warp executes for each kind
// (Nsight Compute's smsp__inst_executed of the 16 independent operations
// less the case without them, over 16, less a division's load of its
// second operand, which the case without them does not make: 42–43,
// 55.8, 46.8–49.8, 48.8, 14.1). A call is its call site (BSSY, the
// argument and result moves, the return address's MOV, CALL, BSYNC: 8
// among 16 independent calls) and the subroutine's fast path (the
// operands' range check, the MUFU seed and its DFMA or FFMA refinement in
// the form's rounding, the exponent's fix-up, the result's moves, RET);
// sqrt.f32 is inline (inlineSlots of slots.go: its check, IADD3 and
// ISETP, and MUFU.RSQ refined by FMUL ×2, FADD ×2, FFMA ×3, FFMA.RM).
var roundedSlots = [RoundedKinds]uint32{43, 56, 48, 49, inlineSlots(ieeeSeq{check: 2, refine: 8})}

// roundedCall is whether the kind is ptxas's subroutine (sqrt.f32's is
// inline). Either way the warp runs it before its next instruction, so the
// operations never overlap (the 16 independent divisions take as long a
// call as 16 dependent ones; sqrt.{rm,rz}.f32 102 and 88 cycles each
// independent, 95 and 93 dependent: it branches around its slow path's
// call as the .rn forms do).
func roundedCall(kind int) bool { return kind >= 0 && kind != RoundedSqrtF32 }

// The IEEE round-to-nearest forms ptxas inlines with a check of the
// operands and a branch around its slow path's call (slowpath.go): on the
// H100 a warp's 16 independent ones take as long each as 16 dependent ones
// (testdata/triton3/study/round: div.rn.f32 64 cycles either way, sqrt.rn.f32
// 59 and 63, div.rn.f64 128 and 131), so the warp runs one at a time.
const (
	IEEEDivF32 = iota
	IEEERcpF32
	IEEESqrtF32
	IEEEDivF64
	IEEERcpF64
	IEEESqrtF64
	IEEEKinds
)

// ieeeKind is in's kind among the .rn forms of division, reciprocal and
// square root that ptxas inlines with a slow path, or -1. rcp.f32 is one
// in every rounding: ptxas gives .rm, .rz and .rp .rn's code (the same 10
// SASS instructions executed, 77–92 cycles each against .rn's 86–92).
func ieeeKind(in *ir.Inst) int {
	if in.Flags&(ir.FlagApprox|ir.FlagFull) != 0 {
		return -1
	}
	switch in.Rnd {
	case ir.RndRN:
	case ir.RndRZ, ir.RndRM, ir.RndRP:
		if in.Op != ir.OpRcp || in.Type != ptxtype.F32 {
			return -1
		}
	default:
		return -1
	}
	k := 0
	switch in.Type {
	case ptxtype.F32:
	case ptxtype.F64:
		k = IEEEDivF64
	default:
		return -1
	}
	switch in.Op {
	case ir.OpDiv:
		return k + IEEEDivF32
	case ir.OpRcp:
		return k + IEEERcpF32
	case ir.OpSqrt:
		return k + IEEESqrtF32
	}
	return -1
}

// seqHold is the cycles the warp spends in ptxas's sequence for in before
// it issues anything else (the preset's RoundedCycles for a call or
// sqrt.f32's inline directed rounding,
// IEEECycles for an inline .rn form, Libcall's Cycles for a call of a
// libdevice routine), 0 where the model lets the sequence overlap the
// warp's next instructions.
func seqHold(in *ir.Inst, p *Params) uint32 {
	switch in.Op {
	case ir.OpDiv, ir.OpRcp, ir.OpSqrt, ir.OpLibcall:
	default:
		return 0 // (no sequence: the common case, at once)
	}
	if k := roundedKind(in); k >= 0 {
		return p.RoundedCycles[k]
	}
	if k := ieeeKind(in); k >= 0 {
		return p.IEEECycles[k]
	}
	if in.Op == ir.OpLibcall && in.Mode < ir.LibcallKinds {
		return p.Libcall[in.Mode].Cycles
	}
	return 0
}
