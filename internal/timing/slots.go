package timing

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
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
//   - IEEE-rounded fp32 and fp64 division, reciprocal and square root:
//     ptxas's inline sequence, a MUFU seed refined by FMAs or DFMAs behind
//     a check of the operands and a branch around the slow path's call
//     (inlineSlots: 10–18), or a call of a subroutine for the directed
//     roundings (rounded.go's roundedSlots); div.full.f32, the seed and a
//     multiply with its operands scaled into range (fullDivSlots: 8);
//   - the libdevice math functions warpsim runs natively (sinf, expf, …:
//     whole SASS routines, 24 here; the preset's Libcall gives the measured
//     functions' own count and the cycles they hold the warp, execSlots,
//     seqHold) and printf (a call into the driver's formatting, hundreds);
//   - an atomic ptxas aggregates across the warp (ir.Agg*, recorded in
//     testdata/timing/atomagg): the elected lane's ATOM, a SHFL.IDX of its
//     result and an add (3; a RED alone, 1: the VOTEU.ANY, FLO, POPC and
//     ISETP that elect the lane depend only on the active mask, and ptxas
//     hoists them out of loops, as in every recorded kernel); a full
//     warp's scan: VOTE.ANY, ISETP, five SHFL.UP with their adds, the
//     ATOM, a SHFL.IDX and an add (15);
//   - a 16-bit floating-point atomic, a compare-and-swap loop (casLoop16:
//     17 for its first round);
//   - wmma.load and wmma.store: a load or store a block of eight (or
//     four) rows of the fragment's tile, and a MOVM a register of a
//     16-bit fragment stored the other way round from the MMA's
//     (ir.WmmaAccesses; testdata/programs3/wmmamem);
//   - the video instructions, which the H100 has no unit for but
//     VABSDIFF4 and VIMNMX: PRMT, IMAD, ISETP, SEL, LOP3 sequences
//     (videoSlots).
func issueSlots(in *ir.Inst) uint32 {
	switch in.Op {
	case ir.OpAtom, ir.OpRed:
		if casLoop16(in) {
			// LOP3, LDG, ISETP, SEL and moves, then one round of the loop:
			// HADD2, PRMT, the fence's three, the CAS, CCTL, ISETP, a move,
			// BRA (testdata/triton3/study, atomic_f16_bf16's SASS).
			return 17
		}
		switch in.Agg {
		case ir.AggElect:
			if in.Op == ir.OpAtom {
				return 3
			}
		case ir.AggFullWarp:
			return 15
		}
	case ir.OpDiv, ir.OpRem:
		if n := floatSeqSlots(in); n > 0 {
			return n
		}
		switch {
		case ir.IsFloat(in.Type):
			if in.Flags&ir.FlagApprox != 0 {
				return 2 // MUFU.RCP and a multiply
			}
			return fullDivSlots
		case ir.TypeSize(in.Type) == 8:
			return 70
		}
		return 19
	case ir.OpSqrt, ir.OpRcp:
		if n := floatSeqSlots(in); n > 0 {
			return n
		}
		return 1 // .approx: one MUFU
	case ir.OpVideo:
		return videoSlots(scalar.VideoInsn(in.Imm).Form())
	case ir.OpLibcall:
		if in.Mode == ir.LibcallFolded {
			return 1 // every argument a constant: the result's move (ir.LibcallFolded)
		}
		return 24
	case ir.OpVprintf:
		return 400
	case ir.OpTensor:
		if (in.Mode == ir.TensorWmmaLoad || in.Mode == ir.TensorWmmaStore) && in.Vec > 0 {
			// Its loads or stores, one a block of its tile, and the
			// MOVMs of a fragment stored the other way round
			// (ir.WmmaAccesses, lowering's Inst.Vec).
			return uint32(in.Vec)
		}
	}
	return 1
}

// floatSeqSlots is the SASS instructions a warp executes for an IEEE-rounded
// division, reciprocal or square root on operands its fast path serves:
// the directed roundings ptxas calls a subroutine for, or expands inline
// with more refinement, roundedSlots (rounded.go); the forms it inlines
// with a branch around its slow path, inlineSlots. 0 for the others
// (.approx, div.full, integers).
func floatSeqSlots(in *ir.Inst) uint32 {
	if k := roundedKind(in); k >= 0 {
		return roundedSlots[k]
	}
	if in.Rnd == ir.RndNone && in.Flags&(ir.FlagApprox|ir.FlagFull) == 0 && (in.Type == ptxtype.F32 || in.Type == ptxtype.F64) {
		// No rounding named (PTX before 1.4): the engine rounds to nearest.
		rn := *in
		rn.Rnd = ir.RndRN
		in = &rn
	}
	if k := ieeeKind(in); k >= 0 {
		return inlineSlots(ieeeSeqs[k])
	}
	return 0
}

// ieeeSeq is ptxas's inline sequence for one IEEE form (sm_90 SASS of
// testdata/triton3/study/round's cases, nvcc 13): the instructions that
// check the operands are in the range the sequence serves, and the ones
// that seed (one MUFU) and refine the result.
type ieeeSeq struct {
	check, refine uint32
}

// ieeeSeqs are the inline sequences, by ieeeKind (rounded.go). On the fast
// path a warp executes BSSY, the check, the branch around the slow
// path's call (the MOV, CALL and moves it skips are not executed), the
// MUFU, the refinement and BSYNC: inlineSlots.
var ieeeSeqs = [IEEEKinds]ieeeSeq{
	// FCHK; FFMA ×5 (the reciprocal's two Newton steps, the quotient
	// and its correction)
	IEEEDivF32: {check: 1, refine: 5},
	// VIADD, LOP3, ISETP on the exponent; FFMA, FADD.FTZ, FFMA (ptxas
	// gives .rm, .rz and .rp this code too)
	IEEERcpF32: {check: 3, refine: 3},
	// IADD3, ISETP; FMUL.FTZ ×2, FFMA ×2 (MUFU.RSQ's seed)
	IEEESqrtF32: {check: 2, refine: 4},
	// FSETP, FFMA, FSETP; the constant's move, DFMA ×7, DMUL (MUFU.RCP64H)
	IEEEDivF64: {check: 3, refine: 9},
	// VIADD, FSETP; DFMA ×5
	IEEERcpF64: {check: 2, refine: 5},
	// VIADD, ISETP; two constants' moves, DFMA ×5, DMUL ×3, VIADD, a
	// move (MUFU.RSQ64H)
	IEEESqrtF64: {check: 2, refine: 12},
}

// inlineSlots is the fast path of an inline sequence with a branch
// around its slow path: BSSY, the check, the branch, the MUFU, the
// refinement, BSYNC.
func inlineSlots(s ieeeSeq) uint32 { return 1 + s.check + 1 + 1 + s.refine + 1 }

// fullDivSlots is div.full.f32's code (no slow path, no branch): FSETP
// twice (|b| above 2^126, below 2^-126), four predicated FMULs that scale
// both operands by 1/4 or 2^24, MUFU.RCP and the FMUL of the quotient
// (testdata/triton3/study/round, div_full_f32_ind's SASS).
const fullDivSlots = 8

// execSlots is the issue slots a warp instruction takes as the scheduler
// issues it: issueSlots, or for a call of a libdevice function the SASS
// instructions of the preset's measurement (Libcall: the call's moves,
// CALL, the routine's path and RET; the call site's code for the fetch
// stays issueSlots').
func execSlots(in *ir.Inst, p *Params) uint32 {
	if in.Op == ir.OpLibcall && in.Mode < ir.LibcallKinds {
		if n := p.Libcall[in.Mode].Slots; n > 0 {
			return n
		}
	}
	return issueSlots(in)
}

// chainLatency is the cycles from the first issue of an instruction ptxas
// expands into a sequence until its result is ready: the sequence's
// dependent chain, at the preset's per-class latencies (0 for the
// instructions that are one SASS instruction, whose class latency holds).
// The 32-bit integer division and remainder (sm_90 SASS of the reduce
// lesson: I2F.U32.RP, MUFU.RCP, VIADD, F2I.FTZ.U32.TRUNC, then eleven
// dependent IMAD/IMAD.HI/ISETP/IADD/LOP3 steps) is the case that matters:
// its chain is several times its issue slots. fp32 IEEE division and
// square root are a MUFU approximation refined by dependent FMAs, fp64 ones
// DFMA Newton iterations.
func chainLatency(in *ir.Inst, p *Params) uint32 {
	alu, fma, sfu, conv, f64 := p.Latency[ir.ClassALU], p.Latency[ir.ClassFMA], p.Latency[ir.ClassSFU], p.Latency[ir.ClassConv], p.Latency[ir.ClassFP64]
	if k := roundedKind(in); k >= 0 && p.RoundedCycles[k] > 0 {
		return p.RoundedCycles[k] // a directed rounding form, measured (rounded.go)
	}
	if k := ieeeKind(in); k >= 0 && p.IEEECycles[k] > 0 {
		return p.IEEECycles[k] // an IEEE .rn form, measured (rounded.go)
	}
	switch in.Op {
	case ir.OpDiv, ir.OpRem:
		switch {
		case in.Type == ptxtype.F64:
			return sfu + 8*f64
		case ir.IsFloat(in.Type):
			if in.Flags&(ir.FlagApprox|ir.FlagFull) != 0 {
				return sfu + fma
			}
			return sfu + 4*fma
		case ir.TypeSize(in.Type) == 8:
			return fma + sfu + conv + 30*alu
		}
		if p.DivChain > 0 {
			return p.DivChain
		}
		return conv + sfu + alu + conv + 11*alu
	case ir.OpSqrt, ir.OpRcp:
		if in.Flags&ir.FlagApprox != 0 {
			return 0
		}
		if in.Type == ptxtype.F64 {
			return sfu + 8*f64
		}
		return sfu + 4*fma
	}
	return 0
}

// intDivXU is the cycles a 32-bit integer division or remainder holds its
// sub-partition's XU pipe with its sequence's I2F, MUFU.RCP and F2I (the
// pipe the conversions and MUFU share: two conversion intervals and a
// MUFU one), where the preset models it (DivXU); 0 for every other
// instruction. Measured on the H100 (testdata/timing/rncost): the reduce
// lesson's loop with nvcc's rem.u32 takes 122 cycles a step more than
// with clang's mask for one warp, 131 for two warps a sub-partition, 244
// for eight and 266 for sixteen (two blocks): the sequence's latency, and
// its XU operations queueing behind the other warps'.
func intDivXU(in *ir.Inst, p *Params) uint64 {
	if !p.DivXU || (in.Op != ir.OpDiv && in.Op != ir.OpRem) || ir.IsFloat(in.Type) || ir.TypeSize(in.Type) == 8 {
		return 0
	}
	return uint64(2*p.Interval[ir.ClassConv] + p.Interval[ir.ClassSFU])
}

// divTail is the part of a 32-bit division's chain after its last XU
// operation has left the XU: the chain less the I2F's, MUFU's and the
// VIADD's latencies before the F2I.
func divTail(in *ir.Inst, p *Params) uint64 {
	c := uint64(chainLatency(in, p))
	before := uint64(p.Latency[ir.ClassConv] + p.Latency[ir.ClassSFU] + p.Latency[ir.ClassALU])
	return c - min(c, before)
}

// videoSlots is the SASS length of a video instruction: the mean, per
// operation and lane count, of the 1512 forms of testdata/video's probe
// (nvcc 13, sm_90, each form a function of its own; the call's two moves
// left out), rounded. vabsdiff4.u32.u32.u32 alone is one VABSDIFF4.U8.
func videoSlots(f scalar.VideoForm) uint32 {
	type key struct {
		op    scalar.VideoOp
		lanes uint8
	}
	if f.Op == scalar.VAbsdiff && f.Lanes == 4 && !f.ASigned && !f.BSigned && !f.DSigned && !f.Sat && f.Op2 == scalar.VNone2 && f.DSel == 15 {
		return 1
	}
	n, ok := map[key]uint32{
		{scalar.VAdd, 1}: 7, {scalar.VSub, 1}: 9, {scalar.VAbsdiff, 1}: 13, {scalar.VMin, 1}: 10, {scalar.VMax, 1}: 11,
		{scalar.VShl, 1}: 13, {scalar.VShr, 1}: 11, {scalar.VSet, 1}: 11, {scalar.VMad, 1}: 10,
		{scalar.VAdd, 2}: 14, {scalar.VSub, 2}: 14, {scalar.VAvrg, 2}: 19, {scalar.VAbsdiff, 2}: 17, {scalar.VMin, 2}: 14,
		{scalar.VMax, 2}: 14, {scalar.VSet, 2}: 17,
		{scalar.VAdd, 4}: 22, {scalar.VSub, 4}: 23, {scalar.VAvrg, 4}: 37, {scalar.VAbsdiff, 4}: 29, {scalar.VMin, 4}: 27,
		{scalar.VMax, 4}: 27, {scalar.VSet, 4}: 30,
	}[key{f.Op, f.Lanes}]
	if !ok {
		return 1
	}
	return n
}
