package ir

import "github.com/warpsim/warpsim/ptx"

// MovFolded is the Mode of a mov that ptxas leaves out of the SASS
// (markFoldedMovs): its readers read its source, or the constant, directly.
// The timing model gives it no issue slot and no latency (Params.MovFold).
const MovFolded uint8 = 1

// markFoldedMovs sets Mode MovFolded on the movs of f that ptxas removes.
// ptxas copy-propagates and coalesces register moves, reads a zero from
// RZ (PT for a predicate), and encodes a 32-bit constant in the one
// immediate operand its ALU, FMA and integer-multiply instructions take;
// it writes a constant into a register (MOV, HFMA2.MMA, IMAD.MOV) only for
// an instruction that cannot take it there. Measured on the SASS (ptxas
// 13, sm_90) of the third Triton batch's study half
// (testdata/triton3/study/h100/sass): reg.b32 moves 62 -> 5 IMAD.MOV in
// splitk_f16_atomic, the libdevice kernels' 4,043 constant movs ->
// 1,545 MOV and HFMA2.MMA (two constants in one FFMA of a polynomial:
// one goes to a register), 56 zeros -> 4 CS2R in atomic_minmax_f32
// (TestFoldedMovsAgainstSASS). A mov stays when it is guarded (a
// predicated MOV or SEL), when its register is written elsewhere too (a
// loop-carried value or a join: ptxas needs the register), when a
// tensor instruction reads the register through its operand lists (an
// accumulator starts as a register of zeros), and, for a constant other
// than zero, when a reader cannot encode it (a store's data, a shuffle's
// value, a conversion, a 64-bit constant) or already has its immediate.
func markFoldedMovs(f *Func) {
	uses, defs := slotCounts(f)
	targets := branchTargets(f)
	tensor := map[int32]bool{}
	for i := range f.TensorOps {
		t := &f.TensorOps[i]
		for _, l := range [][]int32{t.D, t.A, t.B, t.C} {
			for _, s := range l {
				tensor[s] = true
			}
		}
	}
	guardedDefs := map[int32]int{}
	for pc := range f.Code {
		if in := &f.Code[pc]; in.Guard >= 0 {
			for _, d := range in.D {
				if d >= 0 {
					guardedDefs[d]++
				}
			}
		}
	}
	konst := make(map[int32]uint64, len(f.Consts))
	for _, c := range f.Consts {
		konst[c.Slot] = c.Value
	}
	movConst := map[int32]int{} // register -> pc of its single constant mov
	for pc := range f.Code {
		in := &f.Code[pc]
		if candidateMov(in) {
			if _, ok := konst[in.A[0]]; ok && defs[in.D[0]] == 1 {
				movConst[in.D[0]] = pc
			}
		}
	}
	stays := map[int]bool{} // constant movs some reader needs in a register
	for pc := range f.Code {
		in := &f.Code[pc]
		// The reader's one immediate: a constant written in the
		// instruction itself takes it first.
		imm := false
		for k, a := range in.A {
			if v, ok := konst[a]; ok && a >= 0 && v != 0 && immOperand(in, k) {
				imm = true
			}
		}
		for k, a := range in.A {
			mpc, ok := movConst[a]
			if !ok || a < 0 || konst[f.Code[mpc].A[0]] == 0 {
				continue // not a constant mov's register, or RZ
			}
			if imm || !immOperand(in, k) || TypeSize(f.Code[mpc].Type) > 4 {
				stays[mpc] = true
				continue
			}
			imm = true
		}
	}
	for pc := range f.Code {
		in := &f.Code[pc]
		if !candidateMov(in) {
			continue
		}
		d, a := in.D[0], in.A[0]
		v, isConst := konst[a]
		switch {
		case tensor[d]:
		case uses[d] == 0 || overwritten(f, pc, targets):
			in.Mode = MovFolded // dead: ptxas removes it
		case !isConst:
			in.Mode = MovFolded // copy-propagated or coalesced
		case v == 0 && guardedDefs[d] == defs[d]-1:
			// A zero, or the other value of a masked load: ptxas
			// zeroes such registers in pairs at the kernel's start
			// (CS2R R, SRZ) or reads RZ.
			in.Mode = MovFolded
		case defs[d] != 1:
		case in.Type == ptx.Pred || !stays[pc]:
			in.Mode = MovFolded
		}
	}
}

// candidateMov says whether in is a plain unguarded mov of one register or
// constant into one register.
func candidateMov(in *Inst) bool {
	return in.Op == OpMov && in.Guard < 0 && in.D[0] >= 0 && in.D[1] < 0 && in.A[0] >= 0 && in.A[1] < 0
}

// immOperand says whether operand k of in can be a 32-bit immediate in
// ptxas's SASS: an operand of the 32-bit (or narrower) ALU, FMA and
// integer-multiply instructions, a shuffle's lane, clamp and mask, a
// barrier's id and count.
func immOperand(in *Inst, k int) bool {
	switch in.Op {
	case OpShfl:
		return k >= 1
	case OpBar:
		return true
	case OpAdd, OpSub, OpMul, OpMad, OpMul24, OpMad24, OpMin, OpMax, OpAnd, OpOr, OpXor, OpShl, OpShr,
		OpLop3, OpPrmt, OpShf, OpBfe, OpBfi, OpFma, OpSelp, OpSetp, OpSet, OpSlct, OpCopysign:
		return TypeSize(in.Type) <= 4 && (in.Type2 == ptx.TypeNone || TypeSize(in.Type2) <= 4) &&
			(in.Class == ClassALU || in.Class == ClassFMA || in.Class == ClassIMul)
	}
	return false
}

// overwritten says whether the register mov pc writes is written again,
// by an unguarded instruction, before anything reads it in the same basic
// block: Triton's inline-asm loads start with a mov of zero into each
// destination (reduce_custom_kernel: 16 such movs, none in its SASS).
func overwritten(f *Func, pc int, targets []int) bool {
	d := f.Code[pc].D[0]
	for q := pc + 1; q < len(f.Code) && targets[q] == 0; q++ {
		in := &f.Code[q]
		if reads(in, d) || in.Guard == d || in.Op == OpTensor || in.Op == OpAsync || in.Op == OpCall || isFlow(in.Op) {
			return false
		}
		if writes(in, d) {
			return in.Guard < 0
		}
	}
	return false
}
