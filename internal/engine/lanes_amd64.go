//go:build amd64 && !race && !purego

package engine

//go:generate python3 gen_amd64.py

import (
	"golang.org/x/sys/cpu"

	"github.com/warpsim/warpsim/internal/ir"
)

// The whole-warp lane kernels with AVX2 (lanes_amd64.s): four lanes in
// one 256-bit register, where the Go forms (lanes.go, laneStepsGo) take an
// instruction or more per lane for each load, operation and store. They
// compute exactly what the Go forms compute (TestLaneKernels). Without
// AVX2, and under the race detector (which does not see accesses made in
// assembly) or the purego tag, the Go forms run (lanes_other.go).

// hasAVX2 is whether the lane kernels may use AVX2.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func laneStepsAVX2(r *[32]uint64, n uint64) (cons, uniform bool)

//go:noescape
func fill32AVX2(d *[32]uint64, v uint64)

//go:noescape
func widen32AVX2(d *[32]uint64, s *[32]uint32)

//go:noescape
func narrow32AVX2(s *[32]uint32, v *[32]uint64)

//go:noescape
func copy32AVX2(d, s *[32]uint64)

// laneSteps reports whether the 32 lanes of r step by n (consecutive: lane
// l holds r[0] + l*n, modulo 2^64) or all hold r[0] (uniform), in one pass.
func laneSteps(r *[32]uint64, n uint64) (cons, uniform bool) {
	if hasAVX2 {
		return laneStepsAVX2(r, n)
	}
	return laneStepsGo(r, n)
}

// fill32 sets every lane of d to v.
func fill32(d *[32]uint64, v uint64) {
	if hasAVX2 {
		fill32AVX2(d, v)
		return
	}
	fill32Go(d, v)
}

// widen32 sets lane l of d to word l of s, zero-extended.
func widen32(d *[32]uint64, s *[32]uint32) {
	if hasAVX2 {
		widen32AVX2(d, s)
		return
	}
	widen32Go(d, s)
}

// narrow32 sets word l of s to the low 32 bits of lane l of v.
func narrow32(s *[32]uint32, v *[32]uint64) {
	if hasAVX2 {
		narrow32AVX2(s, v)
		return
	}
	narrow32Go(s, v)
}

// loadWords32 is widen32 reading global memory, which other workers'
// blocks may update with atomics at the same moment: each aligned word is
// read whole (a vector load of aligned words reads each word at once, as
// a plain move does, on the CPUs that have AVX2).
func loadWords32(d *[32]uint64, s *[32]uint32) {
	if hasAVX2 {
		widen32AVX2(d, s)
		return
	}
	loadWords32Go(d, s)
}

// loadWords64 sets lane l of d to doubleword l of s, each read whole.
func loadWords64(d *[32]uint64, s *[32]uint64) {
	if hasAVX2 {
		copy32AVX2(d, s)
		return
	}
	loadWords64Go(d, s)
}

// fastAVX2 runs the fast forms that have an AVX2 kernel (alu_amd64.s) into
// o, a being the first source's lanes; it reports false for the others.
func (wp *warp) fastAVX2(in *ir.Inst, o, a *[32]uint64) bool {
	switch in.Fast {
	case ir.FastAdd32:
		aluAdd32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastAdd32Imm:
		aluAdd32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastAdd64:
		aluAdd64AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastAdd64Imm:
		aluAdd64ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastSub32:
		aluSub32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastSub32Imm:
		aluSub32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastSub64:
		aluSub64AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastMulLo32:
		aluMulLo32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastMulLo32Imm:
		aluMulLo32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastMulWideU32:
		aluMulWideU32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastMulWideU32Imm:
		aluMulWideU32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastMulWideS32:
		aluMulWideS32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastMulWideS32Imm:
		aluMulWideS32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastShl32:
		aluShl32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastShl32Imm:
		aluShl32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastShrU32:
		aluShrU32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastShrU32Imm:
		aluShrU32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastAnd32:
		aluAnd32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastAnd32Imm:
		aluAnd32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastOr32:
		aluOr32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastOr32Imm:
		aluOr32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastXor32:
		aluXor32AVX2(o, a, wp.ru(in.A[1]))
	case ir.FastXor32Imm:
		aluXor32ImmAVX2(o, a, wp.ru(in.A[1])[0])
	case ir.FastMadLo32:
		aluMadLo32AVX2(o, a, wp.ru(in.A[1]), wp.ru(in.A[2]))
	case ir.FastMov:
		copy32AVX2(o, a)
	default:
		return false
	}
	return true
}
