package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/libdevice"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
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
	case ir.ExtCvtPack:
		a, b, c := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
		o := wp.out(in.D[0], exec)
		w := uint(in.Cmp)
		lo, hi := int64(0), int64(1)<<w-1
		if ir.IsSigned(in.Type) {
			lo, hi = -(int64(1) << (w - 1)), int64(1)<<(w-1)-1
		}
		sat := func(v uint64) uint64 { return uint64(max(lo, min(hi, int64(int32(v))))) & (1<<w - 1) }
		for l := range o {
			o[l] = uint64(uint32(c[l]<<(2*w) | sat(a[l])<<w | sat(b[l])))
		}
		wp.commit(in.D[0], exec)
	case ir.ExtDivFullAdd:
		x, y, c := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
		o := wp.out(in.D[0], exec)
		ftz := in.Flags&ir.FlagFtz != 0
		for l := range o {
			o[l] = uint64(divFullAdd(uint32(x[l]), uint32(y[l]), uint32(c[l]), ftz, in.Cmp))
		}
		wp.commit(in.D[0], exec)
	case ir.ExtMulAdd:
		a, b, c := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
		o := wp.out(in.D[0], exec)
		ftz := in.Flags&ir.FlagFtz != 0
		for l := range o {
			o[l] = mulAdd(in.Type, a[l], b[l], c[l], ftz, in.Cmp)
		}
		wp.commit(in.D[0], exec)
	}
}

// divFullAdd is div.full.f32 x/y followed by an add.f32 or sub.f32 of c
// that ptxas contracted into one FFMA (internal/ir/contract.go): the
// reciprocal of y (scaled as div.full scales it) times x plus c, rounded
// once. mode 0: x/y + c; 1: c - x/y; 2: x/y - c.
func divFullAdd(x, y, c uint32, ftz bool, mode uint8) uint32 {
	const quarter, two24 = 0x3e800000, 0x4b800000
	ay := y & 0x7fffffff
	switch {
	case ay > 0x7f800000: // NaN: no scaling
	case ay > 0x7e800000: // |y| > 2^126
		y = scalar.MulF32(y, quarter, scalar.RN, ftz, false)
		x = scalar.MulF32(x, quarter, scalar.RN, ftz, false)
	case !ftz && ay < 0x00800000: // |y| < 2^-126
		y = scalar.MulF32(y, two24, scalar.RN, ftz, false)
		x = scalar.MulF32(x, two24, scalar.RN, ftz, false)
	}
	r := libdevice.RcpApproxFtzF32(y)
	switch mode {
	case 1:
		x ^= 0x80000000
	case 2:
		c ^= 0x80000000
	}
	return scalar.FmaF32(x, r, c, scalar.RN, ftz, false)
}

// mulAdd is a multiply and a sub of type t that ptxas contracted into one
// fused multiply-add (internal/ir/contract.go): a·b + c rounded once, with
// mode bit 0 negating the product (the sub was c - a·b) and bit 1 the
// addend (a·b - c). A negation flips the sign bit (of each half of an x2
// type), as the FFMA's operand negation does.
func mulAdd(t ptxtype.Type, a, b, c uint64, ftz bool, mode uint8) uint64 {
	var sign uint64
	switch t {
	case ptxtype.F32:
		sign = 1 << 31
	case ptxtype.F64:
		sign = 1 << 63
	case ptxtype.F16, ptxtype.BF16:
		sign = 1 << 15
	case ptxtype.F16x2, ptxtype.BF16x2:
		sign = 1<<31 | 1<<15
	}
	if mode&1 != 0 {
		a ^= sign
	}
	if mode&2 != 0 {
		c ^= sign
	}
	switch t {
	case ptxtype.F32:
		return uint64(scalar.FmaF32(uint32(a), uint32(b), uint32(c), scalar.RN, ftz, false))
	case ptxtype.F64:
		return scalar.FmaF64(a, b, c, scalar.RN)
	case ptxtype.F16:
		return uint64(scalar.FmaF16(uint16(a), uint16(b), uint16(c), scalar.RN, ftz, false))
	case ptxtype.BF16:
		return uint64(scalar.FmaBF16(uint16(a), uint16(b), uint16(c), scalar.RN, ftz, false))
	case ptxtype.F16x2:
		return uint64(scalar.FmaF16x2(uint32(a), uint32(b), uint32(c), scalar.RN, ftz, false))
	case ptxtype.BF16x2:
		return uint64(scalar.FmaBF16x2(uint32(a), uint32(b), uint32(c), scalar.RN, ftz, false))
	}
	return 0
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
			o[l] = uint64(scalar.CvtF32ToTF32(uint32(a[l]), r, relu, sat))
		}
	}
	wp.commit(in.D[0], exec)
}
