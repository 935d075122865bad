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

// Video is a 32-bit PTX scalar video instruction without byte or half
// selectors: vop.dtype.atype.btype{.sat}{.mode}{.op2} d, a, b{, c}, as
// the PTX ISA defines it. a and b are sign- or zero-extended by their
// types and the primary operation runs at full precision (a shift amount
// b is unsigned: .clamp limits it to 32, .wrap keeps its low five bits;
// vshr of a signed a shifts in its sign, and vshl keeps 34 bits, as the
// H100 does); .sat then clamps the result to
// dtype's range, and the secondary operation combines it with c (c read
// as dtype: .add wraps modulo 2^32, .min and .max compare signed when
// dtype is). Without .sat the result keeps its low 32 bits.
func Video(op VideoOp, op2 VideoOp2, a, b, c uint32, aSigned, bSigned, dSigned, sat, clamp bool) uint32 {
	ta, tb := videoExt(a, aSigned), videoExt(b, bSigned)
	t, wide := videoPrimary(op, op2, ta, tb, b, sat, clamp)
	if sat {
		t = videoSat(t, op, aSigned, bSigned, dSigned, 32)
	}
	tc := videoExt(c, dSigned)
	switch op2 {
	case VAdd2:
		t += tc
	case VMin2, VMax2:
		// after vadd, vsub and vabsdiff tmp is compared as dtype: its low
		// 32 bits (the H100 agrees on the probe's overflowing sums)
		if !wide {
			t = videoExt(uint32(t), dSigned)
		}
		if op2 == VMin2 {
			t = min(t, tc)
		} else {
			t = max(t, tc)
		}
	}
	return uint32(t)
}

func videoExt(v uint32, signed bool) int64 {
	if signed {
		return int64(int32(v))
	}
	return int64(v)
}

// videoPrimary is a scalar video instruction's primary operation at full
// precision; wide says a secondary .min or .max compares all of it.
func videoPrimary(op VideoOp, op2 VideoOp2, ta, tb int64, b uint32, sat, clamp bool) (t int64, wide bool) {
	switch op {
	case VAdd:
		t = ta + tb
	case VSub:
		t = ta - tb
	case VAbsdiff:
		t = ta - tb
		if t < 0 {
			t = -t
		}
	case VMin:
		t = min(ta, tb)
	case VMax:
		t = max(ta, tb)
	case VShl, VShr:
		n := uint64(b) // the shift amount is .u32
		if clamp {
			n = min(n, 32)
		} else {
			n &= 31
		}
		if op == VShl {
			// the H100 keeps a shifted value in 34 bits, two's
			// complement, before .sat clamps it (1<<32 saturates,
			// 2<<32 is 0, 5<<31 is negative: testdata/programs6/
			// video_insns), but compares the whole value with c in a
			// secondary .min or .max (5<<31 is above 0x10000 there)
			t = ta << n
			if wide = !sat && (op2 == VMin2 || op2 == VMax2); !wide {
				t = t << 30 >> 30
			}
		} else {
			t = ta >> n // arithmetic for a signed a, whose sign ta carries
		}
	}
	return t, wide
}

// videoSat clamps t to the range of a bits-wide dtype.
func videoSat(t int64, op VideoOp, aSigned, bSigned, dSigned bool, bits uint) int64 {
	if bits == 32 && op == VAdd && !aSigned && !dSigned {
		// vadd.u32.u32.{s32,u32}.sat on the H100 clamps a negative sum to 0
		// but lets one above 2^32-1 wrap (testdata/programs6/video_insns,
		// testdata/video)
		return max(t, 0) & (1<<32 - 1)
	}
	lo, hi := int64(0), int64(1)<<bits-1
	if dSigned {
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	}
	return max(lo, min(hi, t))
}
