package engine

import (
	"math"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

func (wp *warp) addSub(in *ir.Inst, exec uint32) {
	a, b := wp.r(in.A[0]), wp.r(in.A[1])
	o := wp.out(in.D[0], exec)
	sub := in.Op == ir.OpSub
	t := in.Type
	if in.Flags&(ir.FlagCC|ir.FlagCarryIn) != 0 {
		cc := wp.r(in.A[4])
		ccOut := in.Flags&ir.FlagCC != 0
		w64 := ir.TypeSize(t) == 8
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			var cin uint64
			if in.Flags&ir.FlagCarryIn != 0 {
				cin = cc[l] & 1
			}
			var r, cout uint64
			if w64 {
				if sub {
					r, cout = scalar.SubCC64(a[l], b[l], cin)
				} else {
					r, cout = scalar.AddCC64(a[l], b[l], cin)
				}
			} else {
				var r32, c32 uint32
				if sub {
					r32, c32 = scalar.SubCC32(uint32(a[l]), uint32(b[l]), uint32(cin))
				} else {
					r32, c32 = scalar.AddCC32(uint32(a[l]), uint32(b[l]), uint32(cin))
				}
				r, cout = uint64(r32), uint64(c32)
			}
			wp.tmp[l] = r
			if ccOut {
				cc[l] = cout
			}
		}
		r := wp.r(in.D[0])
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				r[l] = wp.tmp[l]
			}
		}
		return
	}
	switch t {
	case ptxtype.U32, ptxtype.S32, ptxtype.B32:
		if in.Flags&ir.FlagSat != 0 && t == ptxtype.S32 {
			for l := range o {
				if sub {
					o[l] = uint64(scalar.SubSatS32(uint32(a[l]), uint32(b[l])))
				} else {
					o[l] = uint64(scalar.AddSatS32(uint32(a[l]), uint32(b[l])))
				}
			}
		} else if sub {
			for l := range o {
				o[l] = uint64(uint32(a[l]) - uint32(b[l]))
			}
		} else {
			for l := range o {
				o[l] = uint64(uint32(a[l]) + uint32(b[l]))
			}
		}
	case ptxtype.U64, ptxtype.S64, ptxtype.B64:
		if sub {
			for l := range o {
				o[l] = a[l] - b[l]
			}
		} else {
			for l := range o {
				o[l] = a[l] + b[l]
			}
		}
	case ptxtype.U16, ptxtype.S16, ptxtype.B16:
		for l := range o {
			if sub {
				o[l] = uint64(uint16(a[l]) - uint16(b[l]))
			} else {
				o[l] = uint64(uint16(a[l]) + uint16(b[l]))
			}
		}
	case ptxtype.U8, ptxtype.S8, ptxtype.B8:
		for l := range o {
			if sub {
				o[l] = uint64(uint8(a[l]) - uint8(b[l]))
			} else {
				o[l] = uint64(uint8(a[l]) + uint8(b[l]))
			}
		}
	case ptxtype.F32:
		r, ftz, sat := rounding(in.Rnd), in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
		if r == scalar.RN && !ftz && !sat {
			for l := range o {
				x, y := math.Float32frombits(uint32(a[l])), math.Float32frombits(uint32(b[l]))
				var z float32
				if sub {
					z = x - y
				} else {
					z = x + y
				}
				if z != z {
					o[l] = uint64(scalar.CanonicalNaNF32)
				} else {
					o[l] = uint64(math.Float32bits(z))
				}
			}
		} else {
			for l := range o {
				if sub {
					o[l] = uint64(scalar.SubF32(uint32(a[l]), uint32(b[l]), r, ftz, sat))
				} else {
					o[l] = uint64(scalar.AddF32(uint32(a[l]), uint32(b[l]), r, ftz, sat))
				}
			}
		}
	case ptxtype.F64:
		r := rounding(in.Rnd)
		for l := range o {
			if sub {
				o[l] = scalar.SubF64(a[l], b[l], r)
			} else {
				o[l] = scalar.AddF64(a[l], b[l], r)
			}
		}
	case ptxtype.F16, ptxtype.BF16, ptxtype.F16x2, ptxtype.BF16x2:
		r, ftz, sat := rounding(in.Rnd), in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
		for l := range o {
			x, y := a[l], b[l]
			switch {
			case t == ptxtype.F16 && !sub:
				o[l] = uint64(scalar.AddF16(uint16(x), uint16(y), r, ftz, sat))
			case t == ptxtype.F16:
				o[l] = uint64(scalar.SubF16(uint16(x), uint16(y), r, ftz, sat))
			case t == ptxtype.BF16 && !sub:
				o[l] = uint64(scalar.AddBF16(uint16(x), uint16(y), r, ftz, sat))
			case t == ptxtype.BF16:
				o[l] = uint64(scalar.SubBF16(uint16(x), uint16(y), r, ftz, sat))
			case t == ptxtype.F16x2 && !sub:
				o[l] = uint64(scalar.AddF16x2(uint32(x), uint32(y), r, ftz, sat))
			case t == ptxtype.F16x2:
				o[l] = uint64(scalar.SubF16x2(uint32(x), uint32(y), r, ftz, sat))
			case t == ptxtype.BF16x2 && !sub:
				o[l] = uint64(scalar.AddBF16x2(uint32(x), uint32(y), r, ftz, sat))
			default:
				o[l] = uint64(scalar.SubBF16x2(uint32(x), uint32(y), r, ftz, sat))
			}
		}
	}
	wp.commit(in.D[0], exec)
}

func (wp *warp) mulMad(in *ir.Inst, exec uint32) {
	a, b := wp.r(in.A[0]), wp.r(in.A[1])
	mad := in.Op == ir.OpMad || in.Op == ir.OpMad24
	var c *[32]uint64
	if mad {
		c = wp.r(in.A[2])
	}
	t := in.Type
	if ir.IsFloat(t) {
		if mad {
			wp.fma(in, exec)
			return
		}
		wp.fmul(in, exec)
		return
	}
	o := wp.out(in.D[0], exec)
	signed := ir.IsSigned(t)
	size := ir.TypeSize(t)
	if size == 4 && in.Flags&(ir.FlagCC|ir.FlagCarryIn|ir.FlagSat) == 0 && (in.Op == ir.OpMul || in.Op == ir.OpMad) {
		switch {
		case in.Mode == ir.MulLo && !mad:
			for l := range o {
				o[l] = uint64(uint32(a[l]) * uint32(b[l]))
			}
			wp.commit(in.D[0], exec)
			return
		case in.Mode == ir.MulLo:
			for l := range o {
				o[l] = uint64(uint32(a[l])*uint32(b[l]) + uint32(c[l]))
			}
			wp.commit(in.D[0], exec)
			return
		case in.Mode == ir.MulWide && !signed:
			for l := range o {
				p := scalar.MulWideU32(uint32(a[l]), uint32(b[l]))
				if mad {
					p += c[l]
				}
				o[l] = p
			}
			wp.commit(in.D[0], exec)
			return
		case in.Mode == ir.MulWide:
			for l := range o {
				p := scalar.MulWideS32(uint32(a[l]), uint32(b[l]))
				if mad {
					p += c[l]
				}
				o[l] = p
			}
			wp.commit(in.D[0], exec)
			return
		}
	}
	if in.Op == ir.OpMul24 || in.Op == ir.OpMad24 {
		hi := in.Mode == ir.MulHi
		for l := range o {
			x, y := uint32(a[l]), uint32(b[l])
			switch {
			case mad && hi && signed && in.Flags&ir.FlagSat != 0:
				o[l] = uint64(scalar.Mad24HiSatS32(x, y, uint32(c[l])))
			case mad:
				o[l] = uint64(scalar.Mad24(x, y, uint32(c[l]), hi, signed))
			default:
				o[l] = uint64(scalar.Mul24(x, y, hi, signed))
			}
		}
		wp.commit(in.D[0], exec)
		return
	}
	carry := in.Flags&(ir.FlagCC|ir.FlagCarryIn) != 0
	var cc *[32]uint64
	if carry {
		cc = wp.r(in.A[4])
	}
	sat := in.Flags&ir.FlagSat != 0 && t == ptxtype.S32 && in.Mode == ir.MulHi
	for l := range o {
		x, y := a[l], b[l]
		switch {
		case mad && carry:
			var cin uint64
			if in.Flags&ir.FlagCarryIn != 0 {
				cin = cc[l] & 1
			}
			var cout uint64
			var carries bool
			o[l], cout, carries = madCC(x, y, c[l], cin, size, in.Mode, signed)
			if carries && exec>>l&1 != 0 && in.Flags&ir.FlagCC != 0 {
				cc[l] = cout
			}
		case mad && sat:
			o[l] = uint64(scalar.MadHiSatS32(uint32(x), uint32(y), uint32(c[l])))
		case mad:
			p, rsize := mul(x, y, size, in.Mode, signed)
			o[l] = (p + c[l]) & sizeMask(rsize)
		default:
			p, _ := mul(x, y, size, in.Mode, signed)
			o[l] = p
		}
	}
	wp.commit(in.D[0], exec)
}

// sizeMask is the mask of an integer of size bytes.
func sizeMask(size int) uint64 {
	if size >= 8 {
		return math.MaxUint64
	}
	return uint64(1)<<(8*uint(size)) - 1
}

// mul is mul.{lo,hi,wide} on integers of size bytes, with the size of its
// result. The 8-bit forms, which PTX does not have, take the 16-bit
// functions on extended operands (see widen16).
func mul(x, y uint64, size int, mode uint8, signed bool) (uint64, int) {
	switch mode {
	case ir.MulWide:
		switch {
		case size == 4 && signed:
			return scalar.MulWideS32(uint32(x), uint32(y)), 8
		case size == 4:
			return scalar.MulWideU32(uint32(x), uint32(y)), 8
		case size <= 2 && signed:
			return uint64(scalar.MulWideS16(widen16(x, size, true), widen16(y, size, true))) & sizeMask(2*size), 2 * size
		case size <= 2:
			return uint64(scalar.MulWideU16(widen16(x, size, false), widen16(y, size, false))) & sizeMask(2*size), 2 * size
		}
		return x * y, 16 // mul.wide.{u,s}64 does not exist (no 128-bit register); the low 64 bits
	case ir.MulHi:
		switch {
		case size == 8 && signed:
			return scalar.MulHiS64(x, y), 8
		case size == 8:
			return scalar.MulHiU64(x, y), 8
		case size == 4 && signed:
			return uint64(scalar.MulHiS32(uint32(x), uint32(y))), 4
		case size == 4:
			return uint64(scalar.MulHiU32(uint32(x), uint32(y))), 4
		case size == 2 && signed:
			return uint64(scalar.MulHiS16(uint16(x), uint16(y))), 2
		case size == 2:
			return uint64(scalar.MulHiU16(uint16(x), uint16(y))), 2
		case signed:
			return uint64(scalar.MulWideS16(widen16(x, 1, true), widen16(y, 1, true))) >> 8 & 0xff, 1
		}
		return uint64(scalar.MulWideU16(widen16(x, 1, false), widen16(y, 1, false))) >> 8 & 0xff, 1
	}
	return x * y & sizeMask(size), size
}

// madCC is mad{c}{.cc} (.lo or .hi) with the carry in and the carry out;
// carries is false for a product narrower than 32 bits, which has no carry.
func madCC(x, y, z, cin uint64, size int, mode uint8, signed bool) (d, cout uint64, carries bool) {
	hi := mode == ir.MulHi
	switch {
	case size == 8 && mode != ir.MulWide:
		d, cout = scalar.MadCC64(x, y, z, cin, hi, signed)
		return d, cout, true
	case size == 4 && mode != ir.MulWide:
		d32, c32 := scalar.MadCC32(uint32(x), uint32(y), uint32(z), uint32(cin), hi, signed)
		return uint64(d32), uint64(c32), true
	}
	// madc has no .wide and no 16-bit form; warpsim adds with the carry at
	// the width of the product.
	p, rsize := mul(x, y, size, mode, signed)
	switch rsize {
	case 8:
		d, cout = scalar.AddCC64(p, z, cin)
		return d, cout, true
	case 4:
		d32, c32 := scalar.AddCC32(uint32(p), uint32(z), uint32(cin))
		return uint64(d32), uint64(c32), true
	}
	return (p + z) & sizeMask(rsize), 0, false
}

func (wp *warp) fmul(in *ir.Inst, exec uint32) {
	a, b := wp.r(in.A[0]), wp.r(in.A[1])
	o := wp.out(in.D[0], exec)
	r, ftz, sat := rounding(in.Rnd), in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
	switch in.Type {
	case ptxtype.F32:
		if r == scalar.RN && !ftz && !sat {
			for l := range o {
				z := math.Float32frombits(uint32(a[l])) * math.Float32frombits(uint32(b[l]))
				if z != z {
					o[l] = uint64(scalar.CanonicalNaNF32)
				} else {
					o[l] = uint64(math.Float32bits(z))
				}
			}
		} else {
			for l := range o {
				o[l] = uint64(scalar.MulF32(uint32(a[l]), uint32(b[l]), r, ftz, sat))
			}
		}
	case ptxtype.F64:
		for l := range o {
			o[l] = scalar.MulF64(a[l], b[l], r)
		}
	case ptxtype.F16:
		for l := range o {
			o[l] = uint64(scalar.MulF16(uint16(a[l]), uint16(b[l]), r, ftz, sat))
		}
	case ptxtype.BF16:
		for l := range o {
			o[l] = uint64(scalar.MulBF16(uint16(a[l]), uint16(b[l]), r, ftz, sat))
		}
	case ptxtype.F16x2:
		for l := range o {
			o[l] = uint64(scalar.MulF16x2(uint32(a[l]), uint32(b[l]), r, ftz, sat))
		}
	case ptxtype.BF16x2:
		for l := range o {
			o[l] = uint64(scalar.MulBF16x2(uint32(a[l]), uint32(b[l]), r, ftz, sat))
		}
	}
	wp.commit(in.D[0], exec)
}

func (wp *warp) fma(in *ir.Inst, exec uint32) {
	a, b, c := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
	o := wp.out(in.D[0], exec)
	r, ftz, sat := rounding(in.Rnd), in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
	relu := in.Flags&ir.FlagRelu != 0
	switch in.Type {
	case ptxtype.F32:
		for l := range o {
			o[l] = uint64(scalar.FmaF32(uint32(a[l]), uint32(b[l]), uint32(c[l]), r, ftz, sat))
		}
	case ptxtype.F64:
		for l := range o {
			o[l] = scalar.FmaF64(a[l], b[l], c[l], r)
		}
	case ptxtype.F16:
		for l := range o {
			if relu {
				o[l] = uint64(scalar.FmaReluF16(uint16(a[l]), uint16(b[l]), uint16(c[l]), r, ftz))
			} else {
				o[l] = uint64(scalar.FmaF16(uint16(a[l]), uint16(b[l]), uint16(c[l]), r, ftz, sat))
			}
		}
	case ptxtype.BF16:
		for l := range o {
			if relu {
				o[l] = uint64(scalar.FmaReluBF16(uint16(a[l]), uint16(b[l]), uint16(c[l]), r, ftz))
			} else {
				o[l] = uint64(scalar.FmaBF16(uint16(a[l]), uint16(b[l]), uint16(c[l]), r, ftz, sat))
			}
		}
	case ptxtype.F16x2:
		for l := range o {
			if relu {
				o[l] = uint64(scalar.FmaReluF16x2(uint32(a[l]), uint32(b[l]), uint32(c[l]), r, ftz))
			} else {
				o[l] = uint64(scalar.FmaF16x2(uint32(a[l]), uint32(b[l]), uint32(c[l]), r, ftz, sat))
			}
		}
	case ptxtype.BF16x2:
		for l := range o {
			if relu {
				o[l] = uint64(scalar.FmaReluBF16x2(uint32(a[l]), uint32(b[l]), uint32(c[l]), r, ftz))
			} else {
				o[l] = uint64(scalar.FmaBF16x2(uint32(a[l]), uint32(b[l]), uint32(c[l]), r, ftz, sat))
			}
		}
	}
	wp.commit(in.D[0], exec)
}

// compare evaluates setp's comparison of a and b as type t.
func compare(cmp uint8, t ptxtype.Type, a, b uint64) bool {
	if ir.IsFloat(t) {
		var x, y float64
		switch t {
		case ptxtype.F32:
			x, y = float64(math.Float32frombits(uint32(a))), float64(math.Float32frombits(uint32(b)))
		case ptxtype.F64:
			x, y = math.Float64frombits(a), math.Float64frombits(b)
		case ptxtype.F16:
			x, y = scalar.F16ToF64(uint16(a)), scalar.F16ToF64(uint16(b))
		case ptxtype.BF16:
			x, y = scalar.BF16ToF64(uint16(a)), scalar.BF16ToF64(uint16(b))
		}
		nan := x != x || y != y
		switch cmp {
		case ir.CmpEq:
			return !nan && x == y
		case ir.CmpNe:
			return !nan && x != y
		case ir.CmpLt:
			return !nan && x < y
		case ir.CmpLe:
			return !nan && x <= y
		case ir.CmpGt:
			return !nan && x > y
		case ir.CmpGe:
			return !nan && x >= y
		case ir.CmpEqu:
			return nan || x == y
		case ir.CmpNeu:
			return nan || x != y
		case ir.CmpLtu:
			return nan || x < y
		case ir.CmpLeu:
			return nan || x <= y
		case ir.CmpGtu:
			return nan || x > y
		case ir.CmpGeu:
			return nan || x >= y
		case ir.CmpNum:
			return !nan
		case ir.CmpNan:
			return nan
		}
		return false
	}
	size := ir.TypeSize(t)
	if t == ptxtype.Pred {
		a, b = b2u(a != 0), b2u(b != 0)
		size = 8
	}
	if ir.IsSigned(t) {
		x, y := int64(sext(a, size)), int64(sext(b, size))
		switch cmp {
		case ir.CmpEq:
			return x == y
		case ir.CmpNe:
			return x != y
		case ir.CmpLt, ir.CmpLo:
			return x < y
		case ir.CmpLe, ir.CmpLs:
			return x <= y
		case ir.CmpGt, ir.CmpHi:
			return x > y
		case ir.CmpGe, ir.CmpHs:
			return x >= y
		}
		return false
	}
	m := uint64(math.MaxUint64)
	if size < 8 {
		m = uint64(1)<<(8*uint(size)) - 1
	}
	x, y := a&m, b&m
	switch cmp {
	case ir.CmpEq:
		return x == y
	case ir.CmpNe:
		return x != y
	case ir.CmpLt, ir.CmpLo:
		return x < y
	case ir.CmpLe, ir.CmpLs:
		return x <= y
	case ir.CmpGt, ir.CmpHi:
		return x > y
	case ir.CmpGe, ir.CmpHs:
		return x >= y
	}
	return false
}

func (wp *warp) setp(in *ir.Inst, exec uint32) {
	a, b := wp.r(in.A[0]), wp.r(in.A[1])
	var c *[32]uint64
	if in.BoolOp != ir.BoolNone {
		c = wp.r(in.A[2])
	}
	d0 := wp.r(in.D[0])
	var d1 *[32]uint64
	if in.Flags&ir.FlagPair != 0 {
		d1 = wp.r(in.D[1])
	}
	// setp on 32-bit integers with one predicate and no boolean operation
	// never gets here: ir gives it a fast form (warp.fastRun, setpMask32).
	t2 := in.Type2
	if t2 == ptxtype.F16x2 || t2 == ptxtype.BF16x2 {
		wp.setpPacked(in, exec, a, b, c, d0, d1)
		return
	}
	ftz := in.Flags&ir.FlagFtz != 0
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x, y := a[l], b[l]
		if ftz {
			switch t2 {
			case ptxtype.F32:
				x, y = uint64(scalar.FlushF32(uint32(x))), uint64(scalar.FlushF32(uint32(y)))
			case ptxtype.F16:
				x, y = uint64(scalar.FlushF16(uint16(x))), uint64(scalar.FlushF16(uint16(y)))
			}
		}
		p := compare(in.Cmp, t2, x, y)
		q := !p
		if c != nil {
			cv := c[l] != 0
			if in.Flags&ir.FlagNegB != 0 {
				cv = !cv
			}
			switch in.BoolOp {
			case ir.BoolAnd:
				p, q = p && cv, q && cv
			case ir.BoolOr:
				p, q = p || cv, q || cv
			case ir.BoolXor:
				p, q = p != cv, q != cv
			}
		}
		if in.Op == ir.OpSet {
			d0[l] = setResult(in.Type, p)
			continue
		}
		d0[l] = b2u(p)
		if d1 != nil {
			d1[l] = b2u(q)
		}
	}
}

func setResult(t ptxtype.Type, p bool) uint64 {
	if t == ptxtype.F32 {
		if p {
			return 0x3f800000
		}
		return 0
	}
	if p {
		return typeMask(t)
	}
	return 0
}

// setpMask32 is setp on 32-bit integers for a full warp, one loop per
// comparison so the lane loop holds no switch; it returns the lanes whose
// predicate it set, as a mask, and reports false for a comparison it does
// not handle. Each comparison is a sign or a zero test of a 64-bit
// difference of the operands widened from 32 bits (zero-extended, or
// sign-extended when signed), which cannot overflow: a < b is the sign of
// a-b, a > b that of b-a, a >= b and a <= b their negations, a == b the
// sign of (a^b)-1. Lanes are taken from the top down, four at a time, each
// of four accumulators shifting by four (constant shifts): the loops, and
// the AVX2 kernels they call where they may, are written by gen_kernels.go
// from kernelgen's setpKernels (fastgo.go).
func setpMask32(cmp uint8, signed bool, a, b, d *[32]uint64) (uint32, bool) {
	var inv uint64
	switch cmp {
	case ir.CmpGe, ir.CmpHs, ir.CmpLe, ir.CmpLs, ir.CmpNe:
		inv = 1
	}
	switch cmp {
	case ir.CmpEq, ir.CmpNe:
		return setpEq32(a, b, d, inv), true
	case ir.CmpLt, ir.CmpLo, ir.CmpGe, ir.CmpHs:
	case ir.CmpGt, ir.CmpHi, ir.CmpLe, ir.CmpLs:
		a, b = b, a
	default:
		return 0, false
	}
	if signed {
		return setpSubS32(a, b, d, inv), true
	}
	return setpSubU32(a, b, d, inv), true
}

// setpMask32Imm is setpMask32 with a constant second operand c (an
// immediate, ir.FastSetp32Imm): lane l compares a[l] with c. Every
// comparison is one sign test with nothing to invert after it, the
// operands widened from 32 bits as in setpMask32: a < c is the sign of
// a - c, a <= c that of a - (c + 1), a > c that of c - a = ^a + (c + 1),
// a >= c that of c - 1 - a = ^a + c; a == c is the sign of (a ^ c) - 1 and
// a != c that of -(a ^ c).
func setpMask32Imm(cmp uint8, signed bool, a *[32]uint64, c uint64, d *[32]uint64) uint32 {
	switch cmp {
	case ir.CmpEq:
		return setpEq32Imm(a, uint32(c), d)
	case ir.CmpNe:
		return setpNe32Imm(a, uint32(c), d)
	}
	cw := uint64(uint32(c))
	if signed {
		cw = uint64(int64(int32(c)))
	}
	var k uint64
	flip := false
	switch cmp {
	case ir.CmpLt, ir.CmpLo:
		k = -cw
	case ir.CmpLe, ir.CmpLs:
		k = -(cw + 1)
	case ir.CmpGt, ir.CmpHi:
		k, flip = cw+1, true
	default: // ge, hs
		k, flip = cw, true
	}
	if signed {
		if flip {
			return setpSignS32Flip(a, k, d)
		}
		return setpSignS32(a, k, d)
	}
	if flip {
		return setpSignU32Flip(a, k, d)
	}
	return setpSignU32(a, k, d)
}

// setpPacked is setp/set on f16x2 or bf16x2: each half compares on its
// own; setp writes the low half's result to the first predicate and the
// high half's to the second, set writes each half's result in its half.
func (wp *warp) setpPacked(in *ir.Inst, exec uint32, a, b, c, d0, d1 *[32]uint64) {
	et := ptxtype.F16
	if in.Type2 == ptxtype.BF16x2 {
		et = ptxtype.BF16
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var r [2]bool
		for h := 0; h < 2; h++ {
			sh := uint(16 * h)
			r[h] = compare(in.Cmp, et, a[l]>>sh&0xffff, b[l]>>sh&0xffff)
			if c != nil {
				cv := c[l] != 0
				if in.Flags&ir.FlagNegB != 0 {
					cv = !cv
				}
				switch in.BoolOp {
				case ir.BoolAnd:
					r[h] = r[h] && cv
				case ir.BoolOr:
					r[h] = r[h] || cv
				case ir.BoolXor:
					r[h] = r[h] != cv
				}
			}
		}
		if in.Op == ir.OpSetp {
			d0[l] = b2u(r[0])
			if d1 != nil {
				d1[l] = b2u(r[1])
			}
			continue
		}
		var v uint64
		for h := 0; h < 2; h++ {
			if !r[h] {
				continue
			}
			switch in.Type {
			case ptxtype.F16x2:
				v |= 0x3c00 << (16 * h)
			case ptxtype.BF16x2:
				v |= 0x3f80 << (16 * h)
			default:
				v |= 0xffff << (16 * h)
			}
		}
		d0[l] = v
	}
}
