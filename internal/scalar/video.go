package scalar

// VideoOp is the primary operation of a PTX video instruction: vadd,
// vsub, vabsdiff, vmin, vmax, vshl, vshr, vset, vmad and vavrg (the last
// only in the SIMD forms: vavrg2, vavrg4).
type VideoOp uint8

// The video operations.
const (
	VAdd VideoOp = iota
	VSub
	VAbsdiff
	VMin
	VMax
	VShl
	VShr
	VSet
	VMad
	VAvrg
)

// VideoOp2 is a scalar video instruction's optional secondary operation
// with its c operand (.add, .min, .max).
type VideoOp2 uint8

// The secondary operations; VNone2 when there is none.
const (
	VNone2 VideoOp2 = iota
	VAdd2
	VMin2
	VMax2
)

func videoExt(v uint32, signed bool) int64 {
	if signed {
		return int64(int32(v))
	}
	return int64(v)
}

// videoScalar is a scalar vadd, vsub, vabsdiff, vmin, vmax, vshl or vshr
// (ta, tb: the selected parts, extended by their types) as ptxas expands
// it for the H100, which has no video unit (testdata/video: its SASS and
// results; docs/ptx-support.md derives each step):
//
//   - the primary operation is exact in 64 bits: a shift amount is tb
//     (.u32) limited to 32 (.clamp) or taken modulo 32 (.wrap), and vshl
//     keeps every bit of ta << n;
//   - .sat on a shift clamps the shifted value's low 34 bits, read as a
//     signed number, to dtype's range; .sat on a merge (d.dsel) clamps the
//     64-bit value, read unsigned, to the part's maximum (so a negative
//     result saturates high); otherwise .sat clamps to s32's range for a
//     signed dtype, and only below (at 0) for an unsigned one: a result
//     above 2³²−1 keeps its low 32 bits;
//   - a merge writes the result's part into c (videoMerge);
//   - a secondary .add adds c to the low 32 bits; .min and .max compare c,
//     extended by dtype, with a 64-bit value, signed or unsigned as dtype
//     is: the whole result of vabsdiff, vmin, vmax and an unsaturated
//     shift, but the low 32 bits sign-extended of vadd, vsub and a
//     saturated shift.
func (f *VideoForm) videoScalar(ta, tb int64, c uint32) uint32 {
	var e int64
	shift := f.Op == VShl || f.Op == VShr
	switch f.Op {
	case VAdd:
		e = ta + tb
	case VSub:
		e = ta - tb
	case VAbsdiff:
		e = ta - tb
		if e < 0 {
			e = -e
		}
	case VMin:
		e = min(ta, tb)
	case VMax:
		e = max(ta, tb)
	case VShl, VShr:
		n := uint64(uint32(tb))
		if f.Clamp {
			n = min(n, 32)
		} else {
			n &= 31
		}
		if f.Op == VShl {
			e = int64(uint64(ta) << n)
		} else {
			e = ta >> n // arithmetic for a signed a, whose sign ta carries
		}
	}
	merge := f.DSel != uint8(VideoWord)
	t := e
	switch {
	case f.Sat && shift:
		t = videoClamp(e<<30>>30, 32, f.DSigned) // the low 34 bits, sign-extended
	case f.Sat && merge:
		hi := uint64(1)<<videoPartBits(uint16(f.DSel)) - 1
		if f.DSigned {
			hi >>= 1
		}
		t = int64(min(uint64(e), hi))
	case f.Sat && f.DSigned:
		t = videoClamp(e, 32, true)
	case f.Sat:
		t = max(e, 0)
	}
	if merge {
		return videoMerge(c, uint16(f.DSel), uint32(t))
	}
	if f.Op == VAdd || f.Op == VSub || f.Sat && shift {
		t = int64(int32(t))
	}
	switch f.Op2 {
	case VAdd2:
		return uint32(t) + c
	case VMin2, VMax2:
		tc := videoExt(c, f.DSigned)
		less := t < tc
		if !f.DSigned {
			less = uint64(t) < uint64(tc)
		}
		if less == (f.Op2 == VMax2) {
			return c
		}
	}
	return uint32(t)
}

// videoClamp clamps t to the range of a bits-wide signed or unsigned type.
func videoClamp(t int64, bits uint, signed bool) int64 {
	lo, hi := int64(0), int64(1)<<bits-1
	if signed {
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	}
	return max(lo, min(hi, t))
}
