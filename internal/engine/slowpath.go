package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Slow paths of ptxas's IEEE fp32 division and square root. ptxas inlines
// div.rn.f32 as a MUFU.RCP refined by FMAs and checks its operands with
// FCHK, sqrt.rn.f32 as a MUFU.RSQ refined by FMAs behind an integer range
// check of its operand; an operand the inline sequence cannot serve sends
// the warp, with the lanes that need it, to a subroutine after the kernel's
// EXIT (CALL.REL.NOINC … RET.REL.NODEC), whose branches take each kind of
// operand its own way. The kinds below are the ways Nsight Compute counted
// different instructions for on the H100 (testdata/triton3/study/slow:
// one warp, 16 calls, lane 0's operands of one kind; SASS in h100/).
const (
	SlowDivNaN       = iota // a NaN operand
	SlowDivInfNum           // an infinite dividend
	SlowDivInfDen           // an infinite divisor, a finite dividend
	SlowDivZeroDen          // a zero divisor, a finite nonzero dividend
	SlowDivZeroNum          // a zero dividend, a finite nonzero divisor
	SlowDivZeroZero         // 0/0
	SlowDivSubNum           // a subnormal dividend
	SlowDivSubDen           // a subnormal divisor
	SlowDivBigDen           // a normal divisor of 2^126 or more (its reciprocal subnormal)
	SlowDivOverflow         // normal operands, a quotient of 2^127 or more
	SlowDivSmall            // normal operands, a quotient's exponent -126 or -125
	SlowDivUnderflow        // normal operands, a quotient below 2^-126
	SlowSqrtZero            // sqrt of ±0
	SlowSqrtNeg             // of a negative number
	SlowSqrtNaN             // of a NaN
	SlowSqrtInf             // of +Inf
	SlowSqrtSub             // of a subnormal
	SlowSqrtTiny            // of a normal number below 2^-101
	SlowPaths               // how many kinds
	// SlowAllLanes, a bit of StepRecord.SlowPaths: every executing lane
	// went out of line, so the warp skipped the inline sequence's tail.
	SlowAllLanes = 31
)

// slowPaths is the set (bit k: kind k) of the slow paths the lanes of exec
// take for in, with SlowAllLanes when no executing lane stayed inline: 0
// for every instruction but a non-ftz IEEE f32 division and square root,
// and for those when every lane stays inline.
func slowPaths(in *ir.Inst, a, b *[32]uint64, exec uint32) uint32 {
	if in.Type != ptxtype.F32 || in.Flags&(ir.FlagApprox|ir.FlagFull|ir.FlagFtz) != 0 {
		return 0
	}
	var set uint32
	slow := uint32(0)
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		k := -1
		switch in.Op {
		case ir.OpDiv:
			k = divSlowPath(uint32(a[l]), uint32(b[l]))
		case ir.OpSqrt:
			k = sqrtSlowPath(uint32(a[l]))
		}
		if k >= 0 {
			set |= 1 << k
			slow |= 1 << l
		}
	}
	if set != 0 && slow == exec {
		set |= 1 << SlowAllLanes
	}
	return set
}

// sqrtSlowPath is the slow path of sqrt(x), -1 for none. ptxas's check
// (VIADD of 0xf3000000, ISETP.GT.U32 against 0x727fffff) sends negative,
// zero, subnormal, infinite and NaN operands and those below 2^-101 out of
// line (the H100: 2^-99 inline, 2^-103 not).
func sqrtSlowPath(x uint32) int {
	if x-0x0d000000 <= 0x727fffff {
		return -1
	}
	m := x & 0x7fffffff
	switch {
	case m > 0x7f800000:
		return SlowSqrtNaN
	case m == 0:
		return SlowSqrtZero
	case x>>31 != 0:
		return SlowSqrtNeg
	case m == 0x7f800000:
		return SlowSqrtInf
	case m < 0x00800000:
		return SlowSqrtSub
	}
	return SlowSqrtTiny
}

// divSlowPath is the slow path of a/b, -1 for none. For normal operands
// FCHK passes quotients from 2^-124 to 2^126 and divisors below 2^126 (the
// H100: 2^120 and 2^-120 inline; 2^130, 2^-130, 2^-125/1.5 and 1/2^127
// not); the bounds between are ptxas's sequence's own, not measured.
func divSlowPath(a, b uint32) int {
	ea, eb := int(a>>23&0xff), int(b>>23&0xff)
	ma, mb := a&0x7fffffff, b&0x7fffffff
	switch {
	case ma > 0x7f800000 || mb > 0x7f800000:
		return SlowDivNaN
	case ma == 0x7f800000:
		return SlowDivInfNum
	case mb == 0x7f800000:
		return SlowDivInfDen
	case ma == 0 && mb == 0:
		return SlowDivZeroZero
	case mb == 0:
		return SlowDivZeroDen
	case ma == 0:
		return SlowDivZeroNum
	case ea == 0:
		return SlowDivSubNum
	case eb == 0:
		return SlowDivSubDen
	case eb-127 >= 126:
		return SlowDivBigDen
	}
	switch q := ea - eb; {
	case q >= 127:
		return SlowDivOverflow
	case q < -126:
		return SlowDivUnderflow
	case q <= -125:
		return SlowDivSmall
	}
	return -1
}
