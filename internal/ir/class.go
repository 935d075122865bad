package ir

import "github.com/warpsim/warpsim/ptx"

// Class is the hardware pipe an instruction issues to, for the timing
// model: it picks the latency and the throughput that apply. Every
// instruction gets one, from ClassOf's table, at lowering.
type Class uint8

// Instruction classes. The names follow the SM's functional units: the
// integer and fp32 ALUs, the fp32 FMA pipe, the fp64 unit, the special
// function unit (MUFU), conversions, integer multiply, the load/store unit
// by state space, the atomics path, and the control and synchronization
// instructions.
const (
	ClassALU      Class = iota // integer and logic ops, moves, compares, selects
	ClassFMA                   // fp32/fp16 add, mul, fma, min/max
	ClassFP64                  // fp64 arithmetic
	ClassSFU                   // MUFU: rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh (.approx)
	ClassConv                  // cvt between float and integer types or float widths
	ClassIMul                  // integer multiply, multiply-add, div/rem (a multiply sequence on the GPU)
	ClassLdGlobal              // loads from global (and generic) addresses
	ClassStGlobal              // stores to global (and generic) addresses
	ClassShared                // shared-memory loads and stores
	ClassLocal                 // local-memory loads and stores
	ClassConst                 // constant and parameter loads
	ClassAtomic                // atom and red on any space
	ClassBranch                // bra, brx, call, ret, exit
	ClassBarrier               // bar, barrier, membar, fence
	ClassWarp                  // shfl, vote, match, redux, activemask, bar.warp.sync
	ClassDevRT                 // device runtime calls, printf, native library calls
	ClassTensor                // tensor-core MMAs: mma.sync, wmma.mma, wgmma.mma_async (per shape and type: TensorWork)
	NumClasses
)

var classNames = [NumClasses]string{"alu", "fma", "fp64", "sfu", "conv", "imul", "ld.global", "st.global",
	"shared", "local", "const", "atomic", "branch", "barrier", "warp", "devrt"}

func (c Class) String() string {
	if c < NumClasses {
		return classNames[c]
	}
	return "class?"
}

// opClass is the class of each op whose class does not depend on its types
// or state space.
var opClass = [NumOps]Class{
	OpMul: ClassIMul, OpMad: ClassIMul, OpMul24: ClassIMul, OpMad24: ClassIMul, OpDiv: ClassIMul, OpRem: ClassIMul,
	OpSad: ClassIMul, OpDp4a: ClassIMul, OpDp2a: ClassIMul, OpVideo: ClassIMul, OpPopc: ClassALU, OpBrev: ClassALU,
	OpRcp: ClassSFU, OpSqrt: ClassSFU, OpRsqrt: ClassSFU, OpSin: ClassSFU, OpCos: ClassSFU,
	OpEx2: ClassSFU, OpLg2: ClassSFU, OpTanh: ClassSFU,
	OpCvt:  ClassConv,
	OpAtom: ClassAtomic, OpRed: ClassAtomic,
	OpBra: ClassBranch, OpBrx: ClassBranch, OpCall: ClassBranch, OpRet: ClassBranch, OpExit: ClassBranch,
	OpTrap: ClassBranch, OpBrkpt: ClassBranch,
	OpBar: ClassBarrier, OpMembar: ClassBarrier,
	OpBarWarp: ClassWarp, OpShfl: ClassWarp, OpVote: ClassWarp, OpMatch: ClassWarp, OpRedux: ClassWarp, OpActivemask: ClassWarp,
	OpTex: ClassLdGlobal, OpSuld: ClassLdGlobal, OpSust: ClassStGlobal,
	OpVprintf: ClassDevRT, OpLibcall: ClassDevRT, OpDevRT: ClassDevRT,
}

// ClassOf is the class of an instruction.
func ClassOf(in *Inst) Class {
	switch in.Op {
	case OpLibcall:
		if in.Mode == LibcallFolded {
			return ClassALU // the constant's move
		}
	case OpLd, OpSt:
		switch in.Space {
		case ptx.SpaceShared:
			return ClassShared
		case ptx.SpaceLocal:
			return ClassLocal
		case ptx.SpaceConst, ptx.SpaceParam:
			return ClassConst
		}
		if in.Op == OpSt {
			return ClassStGlobal
		}
		return ClassLdGlobal
	case OpMul, OpMad, OpFma, OpAdd, OpSub, OpMin, OpMax, OpAbs, OpNeg, OpDiv:
		switch {
		case in.Type == ptx.F64:
			return ClassFP64
		case IsFloat(in.Type):
			if in.Op == OpDiv {
				return ClassSFU // div.approx/div.full: MUFU.RCP and a multiply
			}
			return ClassFMA
		}
	case OpCvt:
		switch {
		case in.Type == ptx.F64 || in.Type2 == ptx.F64:
			return ClassFP64
		case IsFloat(in.Type) && !IsFloat(in.Type2) && in.Type2 != ptx.Pred:
			return ClassFMA // I2FP runs on the fp32 pipe (sm_90); F2I on the conversion unit
		case !IsFloat(in.Type) && !IsFloat(in.Type2):
			return ClassALU // integer widening and narrowing
		}
	case OpSetp, OpSet, OpSelp, OpTestp, OpCopysign:
		if in.Type == ptx.F64 || in.Type2 == ptx.F64 {
			return ClassFP64
		}
	case OpExt:
		return extClass(in)
	case OpTensor:
		switch in.Mode {
		case TensorMMA, TensorWmmaMMA, TensorWgmma:
			return ClassTensor
		case TensorMovmatrix:
			return ClassWarp // a shuffle-like exchange between lanes
		case TensorWgmmaSync:
			return ClassBarrier
		}
		return ClassShared
	case OpAsync:
		switch in.Mode {
		case AsyncCopy:
			return ClassShared
		case AsyncTensorG2S: // TMA: the box's global traffic (tma.go)
			return ClassLdGlobal
		case AsyncTensorS2G, AsyncTensorRed:
			return ClassStGlobal
		}
		return ClassBarrier
	case OpRcp, OpSqrt, OpRsqrt:
		if in.Type == ptx.F64 && in.Flags&FlagApprox == 0 {
			return ClassFP64 // the f64 forms are DFMA iterations around MUFU.RSQ64H
		}
	}
	if in.Op < NumOps {
		return opClass[in.Op]
	}
	return ClassALU
}
