package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx"
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
	case dt == ptx.F16x2 || dt == ptx.BF16x2:
		b := wp.r(in.A[1])
		for l := range o {
			if dt == ptx.F16x2 {
				o[l] = uint64(scalar.F32x2ToF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			} else {
				o[l] = uint64(scalar.F32x2ToBF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			}
		}
	case !ir.IsFloat(dt) && !ir.IsFloat(st):
		ds, ss := ir.TypeSize(dt), ir.TypeSize(st)
		dm := typeMask(dt)
		for l := range o {
			v := a[l] & typeMask(st)
			if ir.IsSigned(st) {
				v = sext(v, ss)
			}
			if sat {
				v = satInt(v, st, dt)
			}
			v &= dm
			if ds < 4 && ir.IsSigned(dt) {
				v = sext(v, ds) & 0xffffffff // sub-word signed results are sign-extended in the register
			}
			o[l] = v
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

// satInt clamps sign-extended v of type st to dt's range.
func satInt(v uint64, st, dt ptx.Type) uint64 {
	ds := ir.TypeSize(dt)
	if ir.IsSigned(st) {
		x := int64(v)
		if ir.IsSigned(dt) {
			lo, hi := -int64(1)<<(8*ds-1), int64(1)<<(8*ds-1)-1
			if ds == 8 {
				return uint64(x)
			}
			return uint64(min(max(x, lo), hi))
		}
		if x < 0 {
			return 0
		}
		if ds < 8 && uint64(x) > typeMask(dt) {
			return typeMask(dt)
		}
		return uint64(x)
	}
	if ir.IsSigned(dt) {
		hi := uint64(1)<<(8*ds-1) - 1
		return min(v, hi)
	}
	return min(v, typeMask(dt))
}
