package engine

import (
	"math"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// alu executes the remaining ALU instructions lane by lane.
func (wp *warp) alu(pc int, in *ir.Inst, exec uint32) {
	var a, b, c *[32]uint64
	if in.A[0] >= 0 {
		a = wp.r(in.A[0])
	}
	if in.A[1] >= 0 {
		b = wp.r(in.A[1])
	}
	if in.A[2] >= 0 {
		c = wp.r(in.A[2])
	}
	o := wp.out(in.D[0], exec)
	t := in.Type
	// 32-bit integer division and signed shifts, whole-warp. (and, or, xor,
	// shl and unsigned shr on 32-bit integers never get here: ir gives them
	// fast forms, run by warp.fast.)
	if ir.TypeSize(t) == 4 && !ir.IsFloat(t) {
		switch {
		case in.Op == ir.OpDiv && !ir.IsSigned(t):
			for l := range o {
				o[l] = uint64(scalar.DivU32(uint32(a[l]), uint32(b[l])))
			}
			wp.commit(in.D[0], exec)
			return
		case in.Op == ir.OpRem && !ir.IsSigned(t):
			for l := range o {
				o[l] = uint64(scalar.RemU32(uint32(a[l]), uint32(b[l])))
			}
			wp.commit(in.D[0], exec)
			return
		case in.Op == ir.OpShr && ir.IsSigned(t):
			for l := range o {
				o[l] = uint64(scalar.ShrS32(uint32(a[l]), uint32(b[l])))
			}
			wp.commit(in.D[0], exec)
			return
		}
	}
	if in.Op == ir.OpBfi {
		d := wp.r(in.A[3])
		if ir.TypeSize(t) == 8 {
			for l := range o {
				o[l] = scalar.Bfi64(a[l], b[l], uint32(c[l]), uint32(d[l]))
			}
		} else {
			for l := range o {
				o[l] = uint64(scalar.Bfi32(uint32(a[l]), uint32(b[l]), uint32(c[l]), uint32(d[l])))
			}
		}
		wp.commit(in.D[0], exec)
		return
	}
	if wp.rec != nil && (in.Op == ir.OpDiv || in.Op == ir.OpSqrt) {
		wp.rec.SlowPaths = slowPaths(in, a, b, exec)
	}
	var x, y, z uint64
	for l := range o {
		if exec>>l&1 == 0 {
			continue
		}
		if a != nil {
			x = a[l]
		}
		if b != nil {
			y = b[l]
		}
		if c != nil {
			z = c[l]
		}
		o[l] = aluLane(in, x, y, z)
	}
	wp.commit(in.D[0], exec)
}

func f32(v uint64) float32 { return math.Float32frombits(uint32(v)) }

func aluLane(in *ir.Inst, a, b, c uint64) uint64 {
	t := in.Type
	size := ir.TypeSize(t)
	m := typeMask(t)
	signed := ir.IsSigned(t)
	ftz := in.Flags&ir.FlagFtz != 0
	switch in.Op {
	case ir.OpDiv:
		switch t {
		case ptxtype.F32:
			switch {
			case in.Flags&ir.FlagApprox != 0:
				return uint64(divApproxF32(uint32(a), uint32(b), ftz))
			case in.Flags&ir.FlagFull != 0:
				return uint64(divFullF32(uint32(a), uint32(b), ftz))
			}
			return uint64(scalar.DivF32(uint32(a), uint32(b), rounding(in.Rnd), ftz, false))
		case ptxtype.F64:
			return scalar.DivF64(a, b, rounding(in.Rnd))
		}
		return divRem(a, b, size, signed, false)
	case ir.OpRem:
		return divRem(a, b, size, signed, true)
	case ir.OpMin, ir.OpMax:
		isMax := in.Op == ir.OpMax
		nan := in.Flags&ir.FlagNaN != 0
		if in.Flags&ir.FlagXorSign != 0 {
			return minMaxXorSign(in, t, a, b)
		}
		switch t {
		case ptxtype.F32:
			var r uint32
			if isMax {
				r = scalar.MaxF32(uint32(a), uint32(b), ftz, nan)
			} else {
				r = scalar.MinF32(uint32(a), uint32(b), ftz, nan)
			}
			return uint64(r)
		case ptxtype.F64:
			if isMax {
				return scalar.MaxF64(a, b, nan)
			}
			return scalar.MinF64(a, b, nan)
		case ptxtype.F16:
			if isMax {
				return uint64(scalar.MaxF16(uint16(a), uint16(b), ftz, nan))
			}
			return uint64(scalar.MinF16(uint16(a), uint16(b), ftz, nan))
		case ptxtype.BF16:
			if isMax {
				return uint64(scalar.MaxBF16(uint16(a), uint16(b), nan))
			}
			return uint64(scalar.MinBF16(uint16(a), uint16(b), nan))
		case ptxtype.F16x2:
			if isMax {
				return uint64(scalar.MaxF16x2(uint32(a), uint32(b), ftz, nan))
			}
			return uint64(scalar.MinF16x2(uint32(a), uint32(b), ftz, nan))
		case ptxtype.BF16x2:
			if isMax {
				return uint64(scalar.MaxBF16x2(uint32(a), uint32(b), nan))
			}
			return uint64(scalar.MinBF16x2(uint32(a), uint32(b), nan))
		}
		r := minMaxInt(a, b, size, signed, isMax)
		if in.Flags&ir.FlagRelu != 0 && signed && int64(sext(r, size)) < 0 {
			r = 0 // .relu: a negative result becomes 0
		}
		return r
	case ir.OpAbs:
		switch t {
		case ptxtype.F32:
			return uint64(scalar.AbsF32(uint32(a), ftz))
		case ptxtype.F64:
			return scalar.AbsF64(a)
		case ptxtype.F16:
			return uint64(scalar.AbsF16(uint16(a), ftz))
		case ptxtype.BF16:
			return uint64(scalar.AbsBF16(uint16(a)))
		case ptxtype.F16x2:
			return uint64(scalar.AbsF16x2(uint32(a), ftz))
		case ptxtype.BF16x2:
			return uint64(scalar.AbsBF16x2(uint32(a)))
		}
		switch size {
		case 8:
			return scalar.AbsS64(a)
		case 4:
			return uint64(scalar.AbsS32(uint32(a)))
		}
		return uint64(scalar.AbsS16(widen16(a, size, true))) & m
	case ir.OpNeg:
		switch t {
		case ptxtype.F32:
			return uint64(scalar.NegF32(uint32(a), ftz))
		case ptxtype.F64:
			return scalar.NegF64(a)
		case ptxtype.F16:
			return uint64(scalar.NegF16(uint16(a), ftz))
		case ptxtype.BF16:
			return uint64(scalar.NegBF16(uint16(a)))
		case ptxtype.F16x2:
			return uint64(scalar.NegF16x2(uint32(a), ftz))
		case ptxtype.BF16x2:
			return uint64(scalar.NegBF16x2(uint32(a)))
		}
		return (-a) & m
	case ir.OpAnd:
		if t == ptxtype.Pred {
			return b2u(a != 0 && b != 0)
		}
		return a & b & m
	case ir.OpOr:
		if t == ptxtype.Pred {
			return b2u(a != 0 || b != 0)
		}
		return (a | b) & m
	case ir.OpXor:
		if t == ptxtype.Pred {
			return b2u((a != 0) != (b != 0))
		}
		return (a ^ b) & m
	case ir.OpNot:
		if t == ptxtype.Pred {
			return b2u(a == 0)
		}
		return ^a & m
	case ir.OpCnot:
		return b2u(a&m == 0)
	case ir.OpShl:
		switch size {
		case 8:
			return scalar.Shl64(a, uint32(b))
		case 4:
			return uint64(scalar.Shl32(uint32(a), uint32(b)))
		}
		return uint64(scalar.Shl16(widen16(a, size, false), uint32(b))) & m
	case ir.OpShr:
		return shr(a, uint32(b), size, signed)
	case ir.OpLop3:
		return uint64(scalar.Lop3(uint32(a), uint32(b), uint32(c), uint8(in.Imm)))
	case ir.OpPopc:
		if size == 8 {
			return uint64(scalar.Popc64(a))
		}
		return uint64(scalar.Popc32(uint32(a & m)))
	case ir.OpClz:
		if size == 8 {
			return uint64(scalar.Clz64(a))
		}
		return uint64(scalar.Clz32(uint32(a)))
	case ir.OpBrev:
		if size == 8 {
			return scalar.Brev64(a)
		}
		return uint64(scalar.Brev32(uint32(a)))
	case ir.OpBfind:
		if size == 8 {
			return uint64(scalar.Bfind64(a, signed, in.Flags&ir.FlagShiftAmt != 0))
		}
		return uint64(scalar.Bfind32(uint32(a), signed, in.Flags&ir.FlagShiftAmt != 0))
	case ir.OpFns:
		return uint64(scalar.Fns(uint32(a), uint32(b), int32(c)))
	case ir.OpBfe:
		if size == 8 {
			return scalar.Bfe64(a, uint32(b), uint32(c), signed)
		}
		return uint64(scalar.Bfe32(uint32(a), uint32(b), uint32(c), signed))
	case ir.OpPrmt:
		return uint64(scalar.Prmt(uint32(a), uint32(b), uint32(c), scalar.PrmtMode(in.Mode)))
	case ir.OpShf:
		return uint64(scalar.Shf(uint32(a), uint32(b), uint32(c), in.Mode&1 != 0, in.Mode&2 != 0))
	case ir.OpSad:
		switch size {
		case 8:
			return scalar.Sad64(a, b, c, signed)
		case 4:
			return uint64(scalar.Sad32(uint32(a), uint32(b), uint32(c), signed))
		}
		return uint64(scalar.Sad16(widen16(a, size, signed), widen16(b, size, signed), uint16(c), signed)) & m
	case ir.OpDp4a:
		return uint64(scalar.Dp4a(uint32(a), uint32(b), uint32(c), ir.IsSigned(in.Type), ir.IsSigned(in.Type2)))
	case ir.OpVideo:
		return uint64(scalar.VideoInsn(in.Imm).Eval(uint32(a), uint32(b), uint32(c)))
	case ir.OpDp2a:
		return uint64(scalar.Dp2a(uint32(a), uint32(b), uint32(c), ir.IsSigned(in.Type), ir.IsSigned(in.Type2), in.Mode == 1))
	case ir.OpRcp:
		switch t {
		case ptxtype.F32:
			if in.Flags&ir.FlagApprox != 0 {
				return uint64(rcpApproxF32(uint32(a), ftz))
			}
			return uint64(scalar.RcpF32(uint32(a), rounding(in.Rnd), ftz))
		case ptxtype.F64:
			if in.Flags&ir.FlagApprox != 0 {
				return libdevice.RcpApproxFtzF64(a)
			}
			return scalar.RcpF64(a, rounding(in.Rnd))
		}
	case ir.OpSqrt:
		switch t {
		case ptxtype.F32:
			if in.Flags&ir.FlagApprox != 0 {
				return uint64(sqrtApproxF32(uint32(a), ftz))
			}
			return uint64(scalar.SqrtF32(uint32(a), rounding(in.Rnd), ftz))
		case ptxtype.F64:
			return scalar.SqrtF64(a, rounding(in.Rnd))
		}
	case ir.OpRsqrt:
		switch t {
		case ptxtype.F32:
			return uint64(rsqrtApproxF32(uint32(a), ftz))
		case ptxtype.F64:
			return rsqrtApproxF64(a, ftz)
		}
	case ir.OpSin:
		return uint64(sinApproxF32(uint32(a)))
	case ir.OpCos:
		return uint64(cosApproxF32(uint32(a)))
	case ir.OpEx2:
		switch t {
		case ptxtype.F32:
			return uint64(ex2ApproxF32(uint32(a), ftz))
		case ptxtype.F16:
			return uint64(scalar.Ex2ApproxF16(uint16(a), ftz))
		case ptxtype.F16x2:
			return uint64(scalar.Ex2ApproxF16x2(uint32(a), ftz))
		case ptxtype.BF16:
			return uint64(scalar.Ex2ApproxBF16(uint16(a), ftz))
		case ptxtype.BF16x2:
			return uint64(scalar.Ex2ApproxBF16x2(uint32(a), ftz))
		}
	case ir.OpLg2:
		return uint64(lg2ApproxF32(uint32(a), ftz))
	case ir.OpTanh:
		switch t {
		case ptxtype.F32:
			return uint64(scalar.TanhApproxF32(uint32(a)))
		case ptxtype.F16:
			return uint64(tanhApproxF16(uint16(a)))
		case ptxtype.F16x2:
			return uint64(tanhApproxF16x2(uint32(a)))
		case ptxtype.BF16:
			return uint64(tanhApproxBF16(uint16(a)))
		case ptxtype.BF16x2:
			return uint64(tanhApproxBF16x2(uint32(a)))
		}
	case ir.OpTestp:
		return b2u(scalar.Testp(scalar.TestpOp(in.Mode), a, t))
	case ir.OpCopysign:
		if t == ptxtype.F64 {
			return scalar.CopysignF64(a, b)
		}
		return uint64(scalar.CopysignF32(uint32(a), uint32(b)))
	case ir.OpSlct:
		var neg bool
		if in.Type2 == ptxtype.F32 {
			if ftz {
				c = uint64(scalar.FlushF32(uint32(c)))
			}
			neg = !(f32(c) >= 0) // d = c >= 0 ? a : b, so NaN selects b
		} else {
			neg = int32(c) < 0
		}
		if neg {
			return b
		}
		return a
	}
	return 0
}

// The integer instructions below pick scalar's function for their type's
// width. PTX gives them no 8-bit form (ptxas rejects add.u8, shl.b8, ...);
// warpsim runs such an instruction with the 16-bit function on operands
// extended from 8 bits, keeping the low byte of the result.

// widen16 is the low size bytes of v (size 1 or 2), sign- or zero-extended
// to 16 bits.
func widen16(v uint64, size int, signed bool) uint16 {
	if size == 1 {
		if signed {
			return uint16(int8(v))
		}
		return uint16(uint8(v))
	}
	return uint16(v)
}

// divRem is div or rem on integers of size bytes (scalar: x/0 and x%0 are
// all ones).
func divRem(a, b uint64, size int, signed, rem bool) uint64 {
	switch {
	case size == 8 && signed && rem:
		return scalar.RemS64(a, b)
	case size == 8 && signed:
		return scalar.DivS64(a, b)
	case size == 8 && rem:
		return scalar.RemU64(a, b)
	case size == 8:
		return scalar.DivU64(a, b)
	case size == 4 && signed && rem:
		return uint64(scalar.RemS32(uint32(a), uint32(b)))
	case size == 4 && signed:
		return uint64(scalar.DivS32(uint32(a), uint32(b)))
	case size == 4 && rem:
		return uint64(scalar.RemU32(uint32(a), uint32(b)))
	case size == 4:
		return uint64(scalar.DivU32(uint32(a), uint32(b)))
	}
	m := uint64(1)<<(8*uint(size)) - 1
	x, y := widen16(a, size, signed), widen16(b, size, signed)
	switch {
	case signed && rem:
		return uint64(scalar.RemS16(x, y)) & m
	case signed:
		return uint64(scalar.DivS16(x, y)) & m
	case rem:
		return uint64(scalar.RemU16(x, y)) & m
	}
	return uint64(scalar.DivU16(x, y)) & m
}

// minMaxInt is min or max on integers of size bytes.
func minMaxInt(a, b uint64, size int, signed, isMax bool) uint64 {
	switch {
	case size == 8 && signed && isMax:
		return scalar.MaxS64(a, b)
	case size == 8 && signed:
		return scalar.MinS64(a, b)
	case size == 8 && isMax:
		return scalar.MaxU64(a, b)
	case size == 8:
		return scalar.MinU64(a, b)
	case size == 4 && signed && isMax:
		return uint64(scalar.MaxS32(uint32(a), uint32(b)))
	case size == 4 && signed:
		return uint64(scalar.MinS32(uint32(a), uint32(b)))
	case size == 4 && isMax:
		return uint64(scalar.MaxU32(uint32(a), uint32(b)))
	case size == 4:
		return uint64(scalar.MinU32(uint32(a), uint32(b)))
	}
	m := uint64(1)<<(8*uint(size)) - 1
	x, y := widen16(a, size, signed), widen16(b, size, signed)
	switch {
	case signed && isMax:
		return uint64(scalar.MaxS16(x, y)) & m
	case signed:
		return uint64(scalar.MinS16(x, y)) & m
	case isMax:
		return uint64(scalar.MaxU16(x, y)) & m
	}
	return uint64(scalar.MinU16(x, y)) & m
}

// shr is shr on integers of size bytes: arithmetic for signed types.
func shr(a uint64, n uint32, size int, signed bool) uint64 {
	switch {
	case size == 8 && signed:
		return scalar.ShrS64(a, n)
	case size == 8:
		return scalar.ShrU64(a, n)
	case size == 4 && signed:
		return uint64(scalar.ShrS32(uint32(a), n))
	case size == 4:
		return uint64(scalar.ShrU32(uint32(a), n))
	}
	m := uint64(1)<<(8*uint(size)) - 1
	x := widen16(a, size, signed)
	if signed {
		return uint64(scalar.ShrS16(x, n)) & m
	}
	return uint64(scalar.ShrU16(x, n)) & m
}

// minMaxXorSign is min/max.xorsign.abs (sm_86 and later): the minimum or
// maximum of |a| and |b| (as min/max with the same .ftz and .NaN), with the
// XOR of a's and b's signs (per half of f16x2 and bf16x2); a NaN result is
// the canonical NaN, unsigned. Recorded on the H100: testdata/isa (tests
// 1-10).
func minMaxXorSign(in *ir.Inst, t ptxtype.Type, a, b uint64) uint64 {
	cp := *in
	cp.Flags &^= ir.FlagXorSign
	var width, parts uint // bits of a part, parts in the word
	var inf uint64        // a part's exponent field: a larger magnitude is a NaN
	switch t {
	case ptxtype.F32:
		width, parts, inf = 32, 1, 0x7f800000
	case ptxtype.F16, ptxtype.F16x2:
		width, parts, inf = 16, 1, 0x7c00
	case ptxtype.BF16, ptxtype.BF16x2:
		width, parts, inf = 16, 1, 0x7f80
	default:
		return aluLane(&cp, a, b, 0)
	}
	if t == ptxtype.F16x2 || t == ptxtype.BF16x2 {
		parts = 2
	}
	var sign uint64
	for p := uint(0); p < parts; p++ {
		sign |= 1 << (width*p + width - 1)
	}
	r := aluLane(&cp, a&^sign, b&^sign, 0)
	for p := uint(0); p < parts; p++ {
		s := uint64(1) << (width*p + width - 1)
		if r>>(width*p)&(1<<(width-1)-1) > inf {
			continue // a NaN keeps its sign
		}
		r = r&^s | (a^b)&s
	}
	return r
}
