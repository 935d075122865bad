package ir

import "github.com/warpsim/warpsim/ptx"

// ptxas expands div.full.f32 d, x, y into a reciprocal (MUFU.RCP) and a
// multiply, and contracts that multiply with an add.f32 or sub.f32 without
// a rounding modifier that is d's only reader into one FFMA: the H100's
// layer norm (Triton's var + eps, testdata/triton/layernorm_f32) rounds
// x·rcp(y) + eps once. contractDivFull finds such pairs and turns the add
// into OpExt/ExtDivFullAdd, which reads x and y itself, so the result is
// the fused one; the division stays as it is (its d is then dead).
//
// The pair qualifies only when nothing can tell the difference: both
// unguarded, no label between them, d written only by the division and read
// only by the add, x and y not written in between, and the add's own flags
// (.ftz, .sat, a rounding mode) absent or equal to the division's .ftz.

// Operand layout of ExtDivFullAdd: A0 = x, A1 = y, A2 = c; Cmp bit 0: the
// result is c - x/y (sub with the quotient second), bit 1: x/y - c.
const ExtDivFullAdd uint8 = 16

func contractDivFull(f *Func, labelPCs []int32) {
	hasDiv := false
	for i := range f.Code {
		in := &f.Code[i]
		if in.Op == OpDiv && in.Type == ptx.F32 && in.Flags&FlagFull != 0 {
			hasDiv = true
			break
		}
	}
	if !hasDiv {
		return
	}
	for i := range f.Code {
		switch f.Code[i].Op {
		case OpTex, OpSuld, OpSust, OpCall:
			return // operands outside Inst: keep it simple
		}
	}
	isLabel := make(map[int32]bool, len(labelPCs))
	for _, pc := range labelPCs {
		isLabel[pc] = true
	}
	// uses[s] counts every appearance of slot s as an operand or guard;
	// defs[s] the instructions writing it.
	uses := map[int32]int{}
	defs := map[int32]int{}
	for i := range f.Code {
		in := &f.Code[i]
		for _, a := range in.A {
			if a >= 0 {
				uses[a]++
			}
		}
		if in.Guard >= 0 {
			uses[in.Guard]++
		}
		for _, d := range in.D {
			if d >= 0 {
				defs[d]++
			}
		}
	}
	for i := range f.Code {
		dv := &f.Code[i]
		if dv.Op != OpDiv || dv.Type != ptx.F32 || dv.Flags&FlagFull == 0 || dv.Guard >= 0 {
			continue
		}
		d, x, y := dv.D[0], dv.A[0], dv.A[1]
		if d < 0 || uses[d] != 1 || defs[d] != 1 || d == x || d == y {
			continue
		}
		for j := i + 1; j < len(f.Code); j++ {
			if isLabel[int32(j)] {
				break
			}
			ad := &f.Code[j]
			reads := false
			for _, a := range ad.A {
				reads = reads || a == d
			}
			if reads {
				if (ad.Op == OpAdd || ad.Op == OpSub) && ad.Type == ptx.F32 && ad.Guard < 0 && ad.Rnd == RndNone &&
					ad.Flags&^FlagFtz == 0 && ad.Flags&FlagFtz == dv.Flags&FlagFtz && ad.A[0] != ad.A[1] {
					var c int32
					var mode uint8
					if ad.A[1] == d {
						c = ad.A[0]
						if ad.Op == OpSub {
							mode = 1
						}
					} else {
						c = ad.A[1]
						if ad.Op == OpSub {
							mode = 2
						}
					}
					ad.Op, ad.Mode, ad.Cmp = OpExt, ExtDivFullAdd, mode
					ad.A[0], ad.A[1], ad.A[2] = x, y, c
				}
				break
			}
			if writes(ad, x) || writes(ad, y) || isFlow(ad.Op) {
				break
			}
		}
	}
}

func writes(in *Inst, s int32) bool {
	for _, d := range in.D {
		if d == s {
			return true
		}
	}
	return false
}

func isFlow(op Op) bool {
	switch op {
	case OpBra, OpBrx, OpCall, OpRet, OpExit, OpTrap, OpBar:
		return true
	}
	return false
}
