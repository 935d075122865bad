package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// cvt converts between every pair of types with every rounding and
// saturation.
func (wp *warp) cvt(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	o := wp.out(in.D[0], exec)
	dt, st := in.Type, in.Type2
	r := rounding(in.Rnd)
	ftz, sat := in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
	relu := in.Flags&ir.FlagRelu != 0
	switch {
	case dt == ptxtype.F16x2 || dt == ptxtype.BF16x2:
		b := wp.r(in.A[1])
		for l := range o {
			if dt == ptxtype.F16x2 {
				o[l] = uint64(scalar.F32x2ToF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			} else {
				o[l] = uint64(scalar.F32x2ToBF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			}
		}
	case !ir.IsFloat(dt) && !ir.IsFloat(st):
		m := cvtIntMask(dt)
		if ssh, dsh, ok := cvtIntShifts(st, dt); ok && !sat {
			ss, ds := ir.IsSigned(st), ir.IsSigned(dt)
			for l := range o {
				o[l] = extendFrom(extendFrom(a[l], ssh, ss), dsh, ds) & m
			}
			break
		}
		for l := range o {
			o[l] = scalar.CvtIntToInt(a[l], st, dt, sat) & m
		}
	case ir.IsFloat(dt) && ir.IsFloat(st):
		if dt == st && in.Flags&ir.FlagIntRound == 0 && !ftz && !sat {
			for l := range o {
				o[l] = a[l] & typeMask(dt)
			}
			break
		}
		ir2 := in.Flags&ir.FlagIntRound != 0
		for l := range o {
			o[l] = scalar.CvtFloatToFloat(a[l]&typeMask(st), st, dt, r, ir2, ftz, sat)
		}
	case ir.IsFloat(st):
		if in.Rnd == ir.RndNone {
			r = scalar.RZ
		}
		for l := range o {
			o[l] = scalar.CvtFloatToInt(a[l]&typeMask(st), st, dt, r, true, ftz)
		}
	default:
		for l := range o {
			o[l] = scalar.CvtIntToFloat(a[l]&typeMask(st), st, dt, r)
		}
	}
	wp.commit(in.D[0], exec)
}

// cvtIntMask is the part of an integer conversion's result that the
// destination register keeps: the destination type's bits, except that a
// signed result narrower than 32 bits stays sign-extended to 32 bits.
func cvtIntMask(dt ptxtype.Type) uint64 {
	if ir.TypeSize(dt) < 4 && ir.IsSigned(dt) {
		return 0xffffffff
	}
	return typeMask(dt)
}

// cvtIntShifts gives, for cvt between integer types of 1, 2, 4 or 8 bytes,
// the shifts (64 less each width) that extendFrom takes: without .sat
// scalar.CvtIntToInt is the source value sign- or zero-extended from its
// width, then to the destination's.
func cvtIntShifts(st, dt ptxtype.Type) (ssh, dsh uint, ok bool) {
	ws, wd := ir.TypeSize(st), ir.TypeSize(dt)
	valid := func(w int) bool { return w == 1 || w == 2 || w == 4 || w == 8 }
	if !valid(ws) || !valid(wd) {
		return 0, 0, false
	}
	return uint(64 - 8*ws), uint(64 - 8*wd), true
}

// extendFrom sign- or zero-extends the low 64-sh bits of x.
func extendFrom(x uint64, sh uint, signed bool) uint64 {
	if signed {
		return uint64(int64(x<<sh) >> sh)
	}
	return x << sh >> sh
}
