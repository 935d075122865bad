package engine

import (
	"math"
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx"
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
		switch in.Op {
		case ir.OpRem, ir.OpDiv:
			if ir.IsSigned(t) {
				break
			}
			ok := true
			for l := range o {
				if exec>>l&1 != 0 && uint32(b[l]) == 0 {
					ok = false
				}
			}
			if !ok {
				break
			}
			if in.Op == ir.OpRem {
				for l := range o {
					if y := uint32(b[l]); y != 0 {
						o[l] = uint64(uint32(a[l]) % y)
					}
				}
			} else {
				for l := range o {
					if y := uint32(b[l]); y != 0 {
						o[l] = uint64(uint32(a[l]) / y)
					}
				}
			}
			wp.commit(in.D[0], exec)
			return
		case ir.OpShr:
			if !ir.IsSigned(t) {
				break
			}
			for l := range o {
				o[l] = uint64(uint32(int32(a[l]) >> min(uint32(b[l]), 31)))
			}
			wp.commit(in.D[0], exec)
			return
		}
	}
	if in.Op == ir.OpBfi {
		d := wp.r(in.A[3])
		for l := range o {
			if ir.TypeSize(t) == 8 {
				o[l] = scalar.Bfi64(a[l], b[l], uint32(c[l]), uint32(d[l]))
			} else {
				o[l] = uint64(scalar.Bfi32(uint32(a[l]), uint32(b[l]), uint32(c[l]), uint32(d[l])))
			}
		}
		wp.commit(in.D[0], exec)
		return
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
		case ptx.F32:
			switch {
			case in.Flags&ir.FlagApprox != 0:
				return uint64(divApproxF32(uint32(a), uint32(b), ftz))
			case in.Flags&ir.FlagFull != 0:
				return uint64(divFullF32(uint32(a), uint32(b), ftz))
			}
			return uint64(scalar.DivF32(uint32(a), uint32(b), rounding(in.Rnd), ftz, false))
		case ptx.F64:
			return scalar.DivF64(a, b, rounding(in.Rnd))
		}
		return intDiv(a, b, size, signed, false)
	case ir.OpRem:
		return intDiv(a, b, size, signed, true)
	case ir.OpMin, ir.OpMax:
		isMax := in.Op == ir.OpMax
		nan := in.Flags&ir.FlagNaN != 0
		switch t {
		case ptx.F32:
			var r uint32
			if isMax {
				r = scalar.MaxF32(uint32(a), uint32(b), ftz, nan)
			} else {
				r = scalar.MinF32(uint32(a), uint32(b), ftz, nan)
			}
			return uint64(r)
		case ptx.F64:
			if isMax {
				return scalar.MaxF64(a, b, nan)
			}
			return scalar.MinF64(a, b, nan)
		case ptx.F16:
			if isMax {
				return uint64(scalar.MaxF16(uint16(a), uint16(b), ftz, nan))
			}
			return uint64(scalar.MinF16(uint16(a), uint16(b), ftz, nan))
		case ptx.BF16:
			if isMax {
				return uint64(scalar.MaxBF16(uint16(a), uint16(b), nan))
			}
			return uint64(scalar.MinBF16(uint16(a), uint16(b), nan))
		case ptx.F16x2:
			if isMax {
				return uint64(scalar.MaxF16x2(uint32(a), uint32(b), ftz, nan))
			}
			return uint64(scalar.MinF16x2(uint32(a), uint32(b), ftz, nan))
		case ptx.BF16x2:
			if isMax {
				return uint64(scalar.MaxBF16x2(uint32(a), uint32(b), nan))
			}
			return uint64(scalar.MinBF16x2(uint32(a), uint32(b), nan))
		}
		var less bool
		if signed {
			less = int64(sext(a, size)) < int64(sext(b, size))
		} else {
			less = a&m < b&m
		}
		r := b
		if less != isMax {
			r = a
		}
		r &= m
		if in.Flags&ir.FlagRelu != 0 && signed && int64(sext(r, size)) < 0 {
			r = 0
		}
		return r
	case ir.OpAbs:
		switch t {
		case ptx.F32:
			return uint64(scalar.AbsF32(uint32(a), ftz))
		case ptx.F64:
			return scalar.AbsF64(a)
		case ptx.F16:
			return uint64(scalar.AbsF16(uint16(a), ftz))
		case ptx.BF16:
			return uint64(scalar.AbsBF16(uint16(a)))
		case ptx.F16x2:
			return uint64(scalar.AbsF16(uint16(a), ftz)) | uint64(scalar.AbsF16(uint16(a>>16), ftz))<<16
		case ptx.BF16x2:
			return uint64(scalar.AbsBF16(uint16(a))) | uint64(scalar.AbsBF16(uint16(a>>16)))<<16
		}
		v := int64(sext(a, size))
		if v < 0 {
			v = -v
		}
		return uint64(v) & m
	case ir.OpNeg:
		switch t {
		case ptx.F32:
			return uint64(scalar.NegF32(uint32(a), ftz))
		case ptx.F64:
			return scalar.NegF64(a)
		case ptx.F16:
			return uint64(scalar.NegF16(uint16(a), ftz))
		case ptx.BF16:
			return uint64(scalar.NegBF16(uint16(a)))
		case ptx.F16x2:
			return uint64(scalar.NegF16(uint16(a), ftz)) | uint64(scalar.NegF16(uint16(a>>16), ftz))<<16
		case ptx.BF16x2:
			return uint64(scalar.NegBF16(uint16(a))) | uint64(scalar.NegBF16(uint16(a>>16)))<<16
		}
		return (-a) & m
	case ir.OpAnd:
		if t == ptx.Pred {
			return b2u(a != 0 && b != 0)
		}
		return a & b & m
	case ir.OpOr:
		if t == ptx.Pred {
			return b2u(a != 0 || b != 0)
		}
		return (a | b) & m
	case ir.OpXor:
		if t == ptx.Pred {
			return b2u((a != 0) != (b != 0))
		}
		return (a ^ b) & m
	case ir.OpNot:
		if t == ptx.Pred {
			return b2u(a == 0)
		}
		return ^a & m
	case ir.OpCnot:
		return b2u(a&m == 0)
	case ir.OpShl:
		s := uint32(b)
		if s >= uint32(size*8) {
			return 0
		}
		return (a << s) & m
	case ir.OpShr:
		s := uint32(b)
		if s > uint32(size*8-1) {
			s = uint32(size*8 - 1)
			if !signed {
				return 0
			}
		}
		if signed {
			return uint64(int64(sext(a, size))>>s) & m
		}
		return (a & m) >> s
	case ir.OpLop3:
		lut := uint64(in.Imm)
		var r uint64
		for i := 0; i < 8; i++ {
			if lut>>i&1 == 0 {
				continue
			}
			ta, tb, tc := a, b, c
			if i&4 == 0 {
				ta = ^a
			}
			if i&2 == 0 {
				tb = ^b
			}
			if i&1 == 0 {
				tc = ^c
			}
			r |= ta & tb & tc
		}
		return r & 0xffffffff
	case ir.OpPopc:
		return uint64(bits.OnesCount64(a & m))
	case ir.OpClz:
		if size == 8 {
			return uint64(bits.LeadingZeros64(a))
		}
		return uint64(bits.LeadingZeros32(uint32(a)))
	case ir.OpBrev:
		if size == 8 {
			return bits.Reverse64(a)
		}
		return uint64(bits.Reverse32(uint32(a)))
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
		var d uint64
		if signed {
			x, y := int64(sext(a, size)), int64(sext(b, size))
			if x > y {
				d = uint64(x - y)
			} else {
				d = uint64(y - x)
			}
		} else {
			x, y := a&m, b&m
			if x > y {
				d = x - y
			} else {
				d = y - x
			}
		}
		return (d + c) & m
	case ir.OpDp4a:
		return uint64(scalar.Dp4a(uint32(a), uint32(b), uint32(c), ir.IsSigned(in.Type), ir.IsSigned(in.Type2)))
	case ir.OpDp2a:
		return uint64(scalar.Dp2a(uint32(a), uint32(b), uint32(c), ir.IsSigned(in.Type), ir.IsSigned(in.Type2), in.Mode == 1))
	case ir.OpRcp:
		switch t {
		case ptx.F32:
			if in.Flags&ir.FlagApprox != 0 {
				return uint64(rcpApproxF32(uint32(a), ftz))
			}
			return uint64(scalar.RcpF32(uint32(a), rounding(in.Rnd), ftz))
		case ptx.F64:
			if in.Flags&ir.FlagApprox != 0 {
				return libdevice.RcpApproxFtzF64(a)
			}
			return scalar.RcpF64(a, rounding(in.Rnd))
		}
	case ir.OpSqrt:
		switch t {
		case ptx.F32:
			if in.Flags&ir.FlagApprox != 0 {
				return uint64(sqrtApproxF32(uint32(a), ftz))
			}
			return uint64(scalar.SqrtF32(uint32(a), rounding(in.Rnd), ftz))
		case ptx.F64:
			return scalar.SqrtF64(a, rounding(in.Rnd))
		}
	case ir.OpRsqrt:
		switch t {
		case ptx.F32:
			return uint64(rsqrtApproxF32(uint32(a), ftz))
		case ptx.F64:
			return rsqrtApproxF64(a, ftz)
		}
	case ir.OpSin:
		return uint64(sinApproxF32(uint32(a)))
	case ir.OpCos:
		return uint64(cosApproxF32(uint32(a)))
	case ir.OpEx2:
		switch t {
		case ptx.F32:
			return uint64(ex2ApproxF32(uint32(a), ftz))
		case ptx.F16:
			return uint64(scalar.Ex2ApproxF16(uint16(a), ftz))
		case ptx.F16x2:
			return uint64(scalar.Ex2ApproxF16x2(uint32(a), ftz))
		case ptx.BF16:
			return uint64(scalar.Ex2ApproxBF16(uint16(a), ftz))
		case ptx.BF16x2:
			return uint64(scalar.Ex2ApproxBF16x2(uint32(a), ftz))
		}
	case ir.OpLg2:
		return uint64(lg2ApproxF32(uint32(a), ftz))
	case ir.OpTanh:
		switch t {
		case ptx.F32:
			return uint64(scalar.TanhApproxF32(uint32(a)))
		case ptx.F16:
			return uint64(tanhApproxF16(uint16(a)))
		case ptx.F16x2:
			return uint64(tanhApproxF16x2(uint32(a)))
		case ptx.BF16:
			return uint64(tanhApproxBF16(uint16(a)))
		case ptx.BF16x2:
			return uint64(tanhApproxBF16x2(uint32(a)))
		}
	case ir.OpTestp:
		return b2u(scalar.Testp(scalar.TestpOp(in.Mode), a, t))
	case ir.OpCopysign:
		if t == ptx.F64 {
			return scalar.CopysignF64(a, b)
		}
		return uint64(scalar.CopysignF32(uint32(a), uint32(b)))
	case ir.OpSlct:
		var neg bool
		if in.Type2 == ptx.F32 {
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

// intDiv is div/rem with the hardware's results for division by zero:
// all ones for quotient and remainder alike.
func intDiv(a, b uint64, size int, signed, rem bool) uint64 {
	m := typeMask(ptx.B64)
	if size < 8 {
		m = uint64(1)<<(8*uint(size)) - 1
	}
	if b&m == 0 {
		return m // the H100 writes all ones for both quotient and remainder (testdata/conformance/int_arith)
	}
	if signed {
		x, y := int64(sext(a, size)), int64(sext(b, size))
		if y == -1 {
			if rem {
				return 0
			}
			return uint64(-x) & m
		}
		if rem {
			return uint64(x%y) & m
		}
		return uint64(x/y) & m
	}
	x, y := a&m, b&m
	if rem {
		return x % y
	}
	return x / y
}
