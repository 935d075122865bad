package scalar

// VideoCmp is vset's comparison.
type VideoCmp uint8

// The comparisons of vset, vset2 and vset4.
const (
	VEq VideoCmp = iota
	VNe
	VLt
	VLe
	VGt
	VGe
)

// VideoForm is one PTX video instruction as lowering decodes it: the
// scalar vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vset and vmad with
// byte and half-word selectors and merges, and the SIMD forms (Lanes 2:
// vadd2, vsub2, vavrg2, vabsdiff2, vmin2, vmax2, vset2; Lanes 4: the …4
// forms). Pack carries it in an ir.Inst's Imm; Eval runs it on one lane.
type VideoForm struct {
	Op    VideoOp
	Lanes uint8 // 1 (scalar), 2 (half-words) or 4 (bytes)
	Op2   VideoOp2
	// ASigned, BSigned, DSigned: .s32 atype, btype, dtype.
	ASigned, BSigned, DSigned bool
	Sat                       bool
	Clamp                     bool // vshl/vshr .clamp (else .wrap)
	Cmp                       VideoCmp
	// vmad: the product negated (-a or -b), c negated, .po, .shr7/.shr15.
	NegAB, NegC, PO bool
	Scale           uint8 // 0, 7 or 15
	// ASel, BSel: which part each operand reads. Scalar: VideoWord,
	// VideoB0…VideoB3, VideoH0, VideoH1. SIMD: lane i reads part
	// (Sel >> (i*SelBits)) & (1<<SelBits-1) of the 64-bit pair b:a
	// (half-words 0-3 with Lanes 2, SelBits 2; bytes 0-7 with Lanes 4,
	// SelBits 3), so a's default is the identity and b's the upper half.
	ASel, BSel uint16
	// DSel: scalar: the part of c that d.dsel replaces (VideoWord: no
	// merge); SIMD: the mask of lanes written (bit i: lane i).
	DSel uint8
}

// The scalar part selectors (ASel, BSel, DSel of a scalar VideoForm).
const (
	VideoWord uint16 = iota
	VideoB0
	VideoB1
	VideoB2
	VideoB3
	VideoH0
	VideoH1
)

// SelBits is the width of one SIMD lane's selector in ASel and BSel.
func SelBits(lanes uint8) uint {
	if lanes == 2 {
		return 2
	}
	return 3
}

// VideoInsn is a VideoForm packed in 64 bits.
type VideoInsn uint64

const (
	vfOp     = 0  // 4 bits
	vfLanes  = 4  // 3 bits
	vfOp2    = 7  // 2 bits
	vfFlags  = 9  // 8 bits
	vfCmp    = 17 // 3 bits
	vfScale  = 20 // 4 bits
	vfASel   = 24 // 12 bits
	vfBSel   = 36 // 12 bits
	vfDSel   = 48 // 4 bits
	vfASign  = 1 << 0
	vfBSign  = 1 << 1
	vfDSign  = 1 << 2
	vfSat    = 1 << 3
	vfClamp  = 1 << 4
	vfNegAB  = 1 << 5
	vfNegC   = 1 << 6
	vfPO     = 1 << 7
	vf12Bits = 1<<12 - 1
)

// Pack packs f.
func (f VideoForm) Pack() VideoInsn {
	var fl uint64
	for i, b := range []bool{f.ASigned, f.BSigned, f.DSigned, f.Sat, f.Clamp, f.NegAB, f.NegC, f.PO} {
		if b {
			fl |= 1 << i
		}
	}
	return VideoInsn(uint64(f.Op)<<vfOp | uint64(f.Lanes)<<vfLanes | uint64(f.Op2)<<vfOp2 | fl<<vfFlags |
		uint64(f.Cmp)<<vfCmp | uint64(f.Scale)<<vfScale | uint64(f.ASel&vf12Bits)<<vfASel |
		uint64(f.BSel&vf12Bits)<<vfBSel | uint64(f.DSel&15)<<vfDSel)
}

// Form unpacks v.
func (v VideoInsn) Form() VideoForm {
	fl := uint64(v) >> vfFlags & 255
	return VideoForm{
		Op: VideoOp(v >> vfOp & 15), Lanes: uint8(v >> vfLanes & 7), Op2: VideoOp2(v >> vfOp2 & 3),
		ASigned: fl&vfASign != 0, BSigned: fl&vfBSign != 0, DSigned: fl&vfDSign != 0, Sat: fl&vfSat != 0,
		Clamp: fl&vfClamp != 0, NegAB: fl&vfNegAB != 0, NegC: fl&vfNegC != 0, PO: fl&vfPO != 0,
		Cmp: VideoCmp(v >> vfCmp & 7), Scale: uint8(v >> vfScale & 15),
		ASel: uint16(v >> vfASel & vf12Bits), BSel: uint16(v >> vfBSel & vf12Bits), DSel: uint8(v >> vfDSel & 15),
	}
}

// Eval is the instruction on one lane: d from a, b and c.
func (v VideoInsn) Eval(a, b, c uint32) uint32 {
	f := v.Form()
	return f.Eval(a, b, c)
}

// Eval is the instruction on one lane: d from a, b and c, as the PTX ISA
// defines it, where the H100 agrees (testdata/video).
func (f *VideoForm) Eval(a, b, c uint32) uint32 {
	if f.Lanes > 1 {
		return f.simd(a, b, c)
	}
	ta, tb := videoPart(a, f.ASel, f.ASigned), videoPart(b, f.BSel, f.BSigned)
	switch f.Op {
	case VSet:
		t := uint32(0)
		if videoCompare(ta, tb, f.Cmp) {
			t = 1
		}
		if f.DSel != uint8(VideoWord) {
			return videoMerge(c, uint16(f.DSel), t)
		}
		// the ISA says the result, d and c are unsigned; the H100 compares
		// c signed in .min and .max when atype is signed (testdata/video)
		switch {
		case f.Op2 == VAdd2:
			return t + c
		case f.Op2 == VMin2 && f.ASigned:
			return uint32(min(int32(t), int32(c)))
		case f.Op2 == VMax2 && f.ASigned:
			return uint32(max(int32(t), int32(c)))
		case f.Op2 == VMin2:
			return min(t, c)
		case f.Op2 == VMax2:
			return max(t, c)
		}
		return t
	case VMad:
		return f.mad(ta, tb, c)
	}
	return f.videoScalar(ta, tb, c)
}

// videoPart is partSelectSignExtend: the word, byte or half-word sel of x,
// sign- or zero-extended.
func videoPart(x uint32, sel uint16, signed bool) int64 {
	switch {
	case sel >= VideoB0 && sel <= VideoB3:
		v := x >> (8 * (sel - VideoB0)) & 0xff
		if signed {
			return int64(int8(v))
		}
		return int64(v)
	case sel == VideoH0 || sel == VideoH1:
		v := x >> (16 * (sel - VideoH0)) & 0xffff
		if signed {
			return int64(int16(v))
		}
		return int64(v)
	}
	return videoExt(x, signed)
}

func videoPartBits(sel uint16) uint {
	switch {
	case sel >= VideoB0 && sel <= VideoB3:
		return 8
	case sel == VideoH0 || sel == VideoH1:
		return 16
	}
	return 32
}

// videoMerge is c with its part sel replaced by t's low bits, except that
// the H100 takes the upper half of t for .h1 (testdata/video: every .h1
// merge of the probe; the byte merges take t's low byte).
func videoMerge(c uint32, sel uint16, t uint32) uint32 {
	if sel == VideoH1 {
		return c&0xffff | t&0xffff0000
	}
	var shift, mask uint32
	switch {
	case sel >= VideoB0 && sel <= VideoB3:
		shift, mask = 8*uint32(sel-VideoB0), 0xff
	case sel == VideoH0 || sel == VideoH1:
		shift, mask = 16*uint32(sel-VideoH0), 0xffff
	default:
		return t
	}
	return c&^(mask<<shift) | (t&mask)<<shift
}

func videoCompare(a, b int64, cmp VideoCmp) bool {
	switch cmp {
	case VEq:
		return a == b
	case VNe:
		return a != b
	case VLt:
		return a < b
	case VLe:
		return a <= b
	case VGt:
		return a > b
	}
	return a >= b
}

// mad is vmad as ptxas expands it for the H100 (testdata/video's SASS): a
// signed 32×32→64-bit multiply of the parts, each extended by its type to
// 32 bits and then read as s32 (a whole .u32 word too), c sign-extended to
// 64 bits; the product (-a or -b) or c negated (~x + 1); .po adds 1; the
// 64-bit sum shifted right by the scale (arithmetic when the final type is
// signed, logical otherwise), then .sat clamps the 64-bit value to s32 or
// [0, 2³²−1]. The final type is signed if a source is or anything is
// negated (the PTX ISA's signedFinal). The product and c are never both
// negated: ptxas refuses it, and so does the lowering.
func (f *VideoForm) mad(ta, tb int64, c uint32) uint32 {
	signed := f.ASigned || f.BSigned || f.NegAB || f.NegC
	tmp := int64(int32(uint32(ta))) * int64(int32(uint32(tb)))
	c64 := int64(int32(c))
	switch {
	case f.PO:
		tmp++
	case f.NegAB:
		tmp = -tmp
	case f.NegC:
		c64 = -c64
	}
	tmp += c64
	if f.Scale > 0 {
		if signed {
			tmp >>= f.Scale
		} else {
			tmp = int64(uint64(tmp) >> f.Scale)
		}
	}
	if f.Sat {
		if signed {
			return uint32(max(-1<<31, min(1<<31-1, tmp)))
		}
		return uint32(max(0, min(1<<32-1, tmp)))
	}
	return uint32(tmp)
}

// simd runs a two- or four-way SIMD video instruction: each lane's parts
// selected from the pair b:a, the operation at full precision, .sat to the
// lane's range; then either the lanes in DSel's mask replace c's (merge) or,
// with .add, their results are summed into c.
func (f *VideoForm) simd(a, b, c uint32) uint32 {
	n := uint(f.Lanes)
	w := 32 / n
	sb := SelBits(f.Lanes)
	pair := uint64(b)<<32 | uint64(a)
	lane := func(sel uint16, i uint, signed bool) int64 {
		idx := uint(sel) >> (i * sb) & (1<<sb - 1)
		v := pair >> (idx * w) & (1<<w - 1)
		if signed && v>>(w-1) != 0 {
			return int64(v) - 1<<w
		}
		return int64(v)
	}
	var d uint32
	acc := int64(0)
	for i := range n {
		va, vb := lane(f.ASel, i, f.ASigned), lane(f.BSel, i, f.BSigned)
		var t int64
		switch f.Op {
		case VAdd:
			t = va + vb
		case VSub:
			t = va - vb
		case VAvrg:
			if s := va + vb; s >= 0 {
				t = (s + 1) >> 1
			} else {
				t = s >> 1
			}
		case VAbsdiff:
			t = va - vb
			if t < 0 {
				t = -t
			}
		case VMin:
			t = min(va, vb)
		case VMax:
			t = max(va, vb)
		case VSet:
			if videoCompare(va, vb, f.Cmp) {
				t = 1
			}
		}
		if f.Sat {
			lo, hi := int64(0), int64(1)<<w-1
			if f.DSigned {
				lo, hi = -1<<(w-1), 1<<(w-1)-1
			}
			t = max(lo, min(hi, t))
		}
		m := uint32(1)<<w - 1
		switch {
		case f.DSel>>i&1 == 0:
			if f.Op2 != VAdd2 {
				d |= c & (m << (i * w))
			}
		case f.Op2 == VAdd2:
			acc += t
		default:
			d |= (uint32(t) & m) << (i * w)
		}
	}
	if f.Op2 == VAdd2 {
		return c + uint32(acc)
	}
	return d
}
