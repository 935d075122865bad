package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
)

// ext runs the OpExt instructions (internal/ir/lower_sm90.go): bmsk,
// szext, elect.sync and the FP8 and tf32 conversions.
func (wp *warp) ext(in *ir.Inst, exec uint32) {
	switch in.Mode {
	case ir.ExtBmsk, ir.ExtSzext:
		a, b := wp.r(in.A[0]), wp.r(in.A[1])
		o := wp.out(in.D[0], exec)
		clamp, signed := in.Cmp&1 != 0, in.Cmp&2 != 0
		for l := range o {
			if in.Mode == ir.ExtBmsk {
				o[l] = uint64(scalar.Bmsk(uint32(a[l]), uint32(b[l]), clamp))
			} else {
				o[l] = uint64(scalar.Szext(uint32(a[l]), uint32(b[l]), clamp, signed))
			}
		}
		wp.commit(in.D[0], exec)
	case ir.ExtElect:
		// The leader is the lowest active lane of the member mask.
		m := wp.r(in.A[0])
		var leader uint64 = 0xffffffff
		if l0 := bits.TrailingZeros32(exec); l0 < 32 {
			if c := uint32(m[l0]) & exec; c != 0 {
				leader = uint64(bits.TrailingZeros32(c))
			}
		}
		d := wp.r(in.D[0])
		var p *[32]uint64
		if in.D[1] >= 0 {
			p = wp.r(in.D[1])
		}
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			d[l] = leader
			if p != nil {
				p[l] = b2u(uint64(l) == leader)
			}
		}
	case ir.ExtCvt:
		wp.cvtExt(in, exec)
	}
}

// cvtExt is ExtCvt: the FP8 (e4m3, e5m2) and tf32 conversions.
func (wp *warp) cvtExt(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	o := wp.out(in.D[0], exec)
	relu, sat := in.Flags&ir.FlagRelu != 0, in.Flags&ir.FlagSat != 0
	switch in.Cmp {
	case ir.CvtKF32ToE4M3x2, ir.CvtKF32ToE5M2x2:
		b := wp.r(in.A[1])
		for l := range o {
			if in.Cmp == ir.CvtKF32ToE4M3x2 {
				o[l] = uint64(scalar.F32x2ToE4M3x2(uint32(a[l]), uint32(b[l]), relu))
			} else {
				o[l] = uint64(scalar.F32x2ToE5M2x2(uint32(a[l]), uint32(b[l]), relu))
			}
		}
	case ir.CvtKF16x2ToE4M3x2:
		for l := range o {
			o[l] = uint64(scalar.F16x2ToE4M3x2(uint32(a[l]), relu))
		}
	case ir.CvtKF16x2ToE5M2x2:
		for l := range o {
			o[l] = uint64(scalar.F16x2ToE5M2x2(uint32(a[l]), relu))
		}
	case ir.CvtKE4M3x2ToF16x2:
		for l := range o {
			o[l] = uint64(scalar.E4M3x2ToF16x2(uint16(a[l]), relu))
		}
	case ir.CvtKE5M2x2ToF16x2:
		for l := range o {
			o[l] = uint64(scalar.E5M2x2ToF16x2(uint16(a[l]), relu))
		}
	case ir.CvtKF32ToTF32:
		r := rounding(in.Rnd)
		for l := range o {
			o[l] = uint64(scalar.F32ToTF32(uint32(a[l]), r, relu, sat))
		}
	}
	wp.commit(in.D[0], exec)
}
