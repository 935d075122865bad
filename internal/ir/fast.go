package ir

import "github.com/warpsim/warpsim/ptx"

// Fast is a specialization of the most frequent instruction forms, chosen
// once at lowering, so the engine runs them from its main switch with no
// further decoding. FastNone means "use Op".
type Fast uint8

const (
	FastNone Fast = iota
	FastAdd32
	FastAdd64
	FastSub32
	FastSub64
	FastMulLo32
	FastMadLo32
	FastMulWideU32
	FastMulWideS32
	FastShl32
	FastShrU32
	FastAnd32
	FastOr32
	FastXor32
	FastMov // full-width copy
	FastAddF32
	FastMulF32
	FastSetp32 // setp on 32-bit integers, one predicate, no boolean op
	FastFmaF32 // fma.rn.f32 without ftz, sat or relu

	// The forms below are those above whose second source A[1] is a
	// constant slot (an immediate, Func.Consts): every lane of it holds
	// the same value, so the engine reads it once, from lane 0.
	FastAdd32Imm
	FastAdd64Imm
	FastSub32Imm
	FastMulLo32Imm
	FastMulWideU32Imm
	FastMulWideS32Imm
	FastShl32Imm
	FastShrU32Imm
	FastAnd32Imm
	FastOr32Imm
	FastXor32Imm
	FastSetp32Imm
)

// immForm maps a fast form to its form with a constant second source.
var immForm = map[Fast]Fast{
	FastAdd32: FastAdd32Imm, FastAdd64: FastAdd64Imm, FastSub32: FastSub32Imm, FastMulLo32: FastMulLo32Imm,
	FastMulWideU32: FastMulWideU32Imm, FastMulWideS32: FastMulWideS32Imm, FastShl32: FastShl32Imm,
	FastShrU32: FastShrU32Imm, FastAnd32: FastAnd32Imm, FastOr32: FastOr32Imm, FastXor32: FastXor32Imm,
	FastSetp32: FastSetp32Imm,
}

// IsSetp32 reports whether f is a setp form (FastSetp32 or FastSetp32Imm).
func (f Fast) IsSetp32() bool { return f == FastSetp32 || f == FastSetp32Imm }

// specialize sets Inst.Fast where an instruction has a specialized form.
func specialize(f *Func) {
	isConst := make(map[int32]bool, len(f.Consts))
	for _, c := range f.Consts {
		isConst[c.Slot] = true
	}
	for i := range f.Code {
		in := &f.Code[i]
		in.Fast = fastForm(in)
		if imm, ok := immForm[in.Fast]; ok && isConst[in.A[1]] {
			in.Fast = imm
		}
		in.Class = ClassOf(in)
	}
}

func fastForm(in *Inst) Fast {
	size := TypeSize(in.Type)
	isInt := !IsFloat(in.Type) && in.Type != ptx.Pred
	plain := in.Flags == 0
	switch in.Op {
	case OpAdd, OpSub:
		if !plain {
			return FastNone
		}
		switch {
		case isInt && size == 4:
			if in.Op == OpAdd {
				return FastAdd32
			}
			return FastSub32
		case isInt && size == 8:
			if in.Op == OpAdd {
				return FastAdd64
			}
			return FastSub64
		case in.Type == ptx.F32 && in.Op == OpAdd && (in.Rnd == RndNone || in.Rnd == RndRN):
			return FastAddF32
		}
	case OpMul:
		if !plain {
			return FastNone
		}
		switch {
		case isInt && size == 4 && in.Mode == MulLo:
			return FastMulLo32
		case size == 4 && in.Mode == MulWide && (in.Type == ptx.U32 || in.Type == ptx.B32):
			return FastMulWideU32
		case size == 4 && in.Mode == MulWide && in.Type == ptx.S32:
			return FastMulWideS32
		case in.Type == ptx.F32 && (in.Rnd == RndNone || in.Rnd == RndRN):
			return FastMulF32
		}
	case OpMad:
		if plain && isInt && size == 4 && in.Mode == MulLo {
			return FastMadLo32
		}
	case OpShl:
		if isInt && size == 4 {
			return FastShl32
		}
	case OpShr:
		if size == 4 && (in.Type == ptx.U32 || in.Type == ptx.B32) {
			return FastShrU32
		}
	case OpAnd, OpOr, OpXor:
		if isInt && size == 4 {
			return map[Op]Fast{OpAnd: FastAnd32, OpOr: FastOr32, OpXor: FastXor32}[in.Op]
		}
	case OpMov:
		if size == 8 || in.Type == ptx.Pred {
			return FastMov
		}
	case OpSetp:
		t2 := in.Type2
		if in.BoolOp == BoolNone && in.Flags&FlagPair == 0 && (t2 == ptx.S32 || t2 == ptx.U32 || t2 == ptx.B32) {
			switch in.Cmp {
			case CmpEq, CmpNe, CmpLt, CmpLo, CmpLe, CmpLs, CmpGt, CmpHi, CmpGe, CmpHs:
				return FastSetp32
			}
		}
	case OpFma:
		if in.Type == ptx.F32 && plain && (in.Rnd == RndNone || in.Rnd == RndRN) {
			return FastFmaF32
		}
	case OpCvta:
		if in.Space == ptx.SpaceGlobal && size == 8 {
			return FastMov // global addresses are generic addresses
		}
	}
	return FastNone
}
