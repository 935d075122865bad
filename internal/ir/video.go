package ir

import (
	"strings"

	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx"
)

// videoOp is a video instruction's operation and lane count.
type videoOp struct {
	op    scalar.VideoOp
	lanes uint8
}

var videoOps = map[string]videoOp{
	"vadd": {scalar.VAdd, 1}, "vsub": {scalar.VSub, 1}, "vabsdiff": {scalar.VAbsdiff, 1}, "vmin": {scalar.VMin, 1},
	"vmax": {scalar.VMax, 1}, "vshl": {scalar.VShl, 1}, "vshr": {scalar.VShr, 1}, "vset": {scalar.VSet, 1},
	"vmad":  {scalar.VMad, 1},
	"vadd2": {scalar.VAdd, 2}, "vsub2": {scalar.VSub, 2}, "vavrg2": {scalar.VAvrg, 2}, "vabsdiff2": {scalar.VAbsdiff, 2},
	"vmin2": {scalar.VMin, 2}, "vmax2": {scalar.VMax, 2}, "vset2": {scalar.VSet, 2},
	"vadd4": {scalar.VAdd, 4}, "vsub4": {scalar.VSub, 4}, "vavrg4": {scalar.VAvrg, 4}, "vabsdiff4": {scalar.VAbsdiff, 4},
	"vmin4": {scalar.VMin, 4}, "vmax4": {scalar.VMax, 4}, "vset4": {scalar.VSet, 4},
}

var videoCmps = map[string]scalar.VideoCmp{"eq": scalar.VEq, "ne": scalar.VNe, "lt": scalar.VLt, "le": scalar.VLe,
	"gt": scalar.VGt, "ge": scalar.VGe}

// lowerVideo lowers the PTX video instructions into one OpVideo whose Imm
// is the packed scalar.VideoForm: the scalar vop.dtype.atype.btype{.sat}
// {.mode}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c} (vshl/vshr with .clamp or
// .wrap; CUB's SHR_ADD and SHL_ADD are vshr/vshl.u32.u32.u32.clamp.add),
// vset.atype.btype.cmp, vmad with its negations, .po and .shr7/.shr15, and
// the SIMD vop2/vop4 d{.mask}, a{.asel}, b{.bsel}, c with .sat or .add.
// Malformed forms are errors (ptxas's among them: vmad negating both the
// product and c); every well-formed form runs as the H100 runs it
// (scalar.VideoForm.Eval, checked on testdata/video's two probes).
func (fl *fnLowerer) lowerVideo(src *ptx.Instr, vo videoOp) {
	f := scalar.VideoForm{Op: vo.op, Lanes: vo.lanes}
	var types []ptx.Type
	mode, cmp, op2 := "", "", ""
	for _, s := range src.Mods {
		c, isCmp := videoCmps[s]
		switch {
		case s == "u32":
			types = append(types, ptx.U32)
		case s == "s32":
			types = append(types, ptx.S32)
		case s == "sat":
			f.Sat = true
		case s == "clamp" || s == "wrap":
			mode = s
		case s == "add" || s == "min" || s == "max":
			op2 = s
		case isCmp && vo.op == scalar.VSet:
			cmp, f.Cmp = s, c
		case vo.op == scalar.VMad && s == "po":
			f.PO = true
		case vo.op == scalar.VMad && (s == "shr7" || s == "shr15"):
			f.Scale = map[string]uint8{"shr7": 7, "shr15": 15}[s]
		default:
			fl.unsupported(src)
			return
		}
	}
	shift := vo.op == scalar.VShl || vo.op == scalar.VShr
	ntypes := 3
	if vo.op == scalar.VSet {
		ntypes = 2
	}
	switch {
	case len(types) != ntypes:
		fl.bad(src, "%s needs %d types (each .u32 or .s32)", src.Op, ntypes)
		return
	case shift != (mode != ""):
		fl.bad(src, "vshl and vshr (and only they) take .clamp or .wrap")
		return
	case shift && types[2] != ptx.U32:
		fl.bad(src, "%s needs a .u32 btype", src.Op)
		return
	case vo.op == scalar.VSet && cmp == "":
		fl.bad(src, "%s needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)", src.Op)
		return
	case vo.op == scalar.VSet && f.Sat, vo.op == scalar.VMad && op2 != "":
		fl.bad(src, "%s takes no %s", src.Op, map[bool]string{true: ".sat", false: "secondary operation"}[f.Sat])
		return
	case vo.lanes > 1 && (op2 == "min" || op2 == "max"):
		fl.bad(src, "%s takes .add as its only secondary operation", src.Op)
		return
	case vo.lanes > 1 && f.Sat && op2 != "":
		fl.bad(src, "%s cannot saturate with a secondary accumulate", src.Op)
		return
	}
	if vo.op == scalar.VSet {
		types = []ptx.Type{ptx.U32, types[0], types[1]}
	}
	f.DSigned, f.ASigned, f.BSigned = types[0] == ptx.S32, types[1] == ptx.S32, types[2] == ptx.S32
	f.Clamp = mode == "clamp"
	f.Op2 = map[string]scalar.VideoOp2{"": scalar.VNone2, "add": scalar.VAdd2, "min": scalar.VMin2, "max": scalar.VMax2}[op2]

	ops := src.Operands
	want := 3
	if op2 != "" || vo.lanes > 1 || vo.op == scalar.VMad {
		want = 4
	}
	// d.dsel merges into c: a fourth operand without a secondary operation
	if len(ops) == 4 && want == 3 {
		want = 4
	}
	if len(ops) != want {
		fl.bad(src, "%s takes %d operands, found %d", opText(src), want, len(ops))
		return
	}
	var names [4]ptx.Operand
	var sels [4]string
	for i := range ops {
		o := scalarOperand(&ops[i])
		names[i] = *o
		if o.Kind == ptx.OpdReg {
			if base, sel, ok := strings.Cut(o.Name, "."); ok {
				names[i].Name, sels[i] = base, sel
			}
		}
		if o.Minus {
			if vo.op != scalar.VMad || i == 0 || f.PO {
				fl.bad(src, "a negated operand (-%s) is only allowed in vmad without .po", names[i].Name)
				return
			}
			names[i].Minus = false
			if i == 3 {
				f.NegC = true
			} else {
				f.NegAB = !f.NegAB
			}
		}
	}
	if sels[3] != "" {
		fl.bad(src, "c takes no selector")
		return
	}
	var ok bool
	if f.ASel, ok = videoSel(sels[1], vo.lanes, false); !ok {
		fl.bad(src, "bad selector .%s on a", sels[1])
		return
	}
	if f.BSel, ok = videoSel(sels[2], vo.lanes, true); !ok || shift && vo.lanes > 1 {
		fl.bad(src, "bad selector .%s on b", sels[2])
		return
	}
	var dsel uint16
	if dsel, ok = videoMask(sels[0], vo.lanes); !ok {
		fl.bad(src, "bad selector .%s on d", sels[0])
		return
	}
	f.DSel = uint8(dsel)
	if vo.lanes == 1 {
		merge := f.DSel != uint8(scalar.VideoWord)
		switch {
		case merge && vo.op == scalar.VMad:
			fl.bad(src, "vmad takes no d.dsel")
			return
		case f.NegAB && f.NegC:
			fl.bad(src, "the product (-a xor -b) or c may be negated, not both "+
				"(ptxas: Operand negation limited to either (source A xor source B) or source C)")
			return
		case merge && op2 != "":
			fl.bad(src, "a merge into c (d.dsel) takes no secondary operation")
			return
		case len(ops) == 4 && op2 == "" && !merge && vo.op != scalar.VMad:
			fl.bad(src, "a fourth operand c needs a secondary operation or a merge (d.dsel)")
			return
		}
	}
	in := fl.newInst(OpVideo, src)
	in.Type = types[0]
	in.Imm = int64(f.Pack())
	in.D[0] = fl.reg(src, &names[0])
	for i := 1; i < len(ops); i++ {
		t := types[0]
		if i <= 2 {
			t = types[i]
		}
		in.A[i-1] = fl.value(src, &names[i], t)
	}
	fl.emit(in, src)
}

// videoSel decodes an a or b selector: scalar .b0-.b3, .h0, .h1; SIMD
// .hxy (x, y in 0-3) or .bxyzw (0-7), the first digit the top lane. None
// is the word (scalar), or a's own parts (a) and b's (b) in the SIMD forms.
func videoSel(s string, lanes uint8, isB bool) (uint16, bool) {
	if lanes == 1 {
		sel, ok := map[string]uint16{"": scalar.VideoWord, "b0": scalar.VideoB0, "b1": scalar.VideoB1, "b2": scalar.VideoB2,
			"b3": scalar.VideoB3, "h0": scalar.VideoH0, "h1": scalar.VideoH1}[s]
		return sel, ok
	}
	sb := scalar.SelBits(lanes)
	if s == "" {
		var sel uint16
		for i := range uint(lanes) {
			idx := i
			if isB {
				idx += uint(lanes)
			}
			sel |= uint16(idx) << (i * sb)
		}
		return sel, true
	}
	letter := "h"
	if lanes == 4 {
		letter = "b"
	}
	digits, ok := strings.CutPrefix(s, letter)
	if !ok || len(digits) != int(lanes) {
		return 0, false
	}
	var sel uint16
	for i := range uint(lanes) {
		d := digits[uint(lanes)-1-i]
		if d < '0' || d >= '0'+2*lanes {
			return 0, false
		}
		sel |= uint16(d-'0') << (i * sb)
	}
	return sel, true
}

// videoMask decodes d's selector: a scalar merge's part (none: no merge),
// or a SIMD mask .h0, .h1, .h10 / .b0 … .b3210 (none: every lane).
func videoMask(s string, lanes uint8) (uint16, bool) {
	if lanes == 1 {
		if s == "" {
			return scalar.VideoWord, true
		}
		return videoSel(s, 1, false)
	}
	if s == "" {
		return 1<<lanes - 1, true
	}
	letter := "h"
	if lanes == 4 {
		letter = "b"
	}
	digits, ok := strings.CutPrefix(s, letter)
	if !ok || digits == "" {
		return 0, false
	}
	var m uint16
	last := byte('9')
	for i := range len(digits) {
		d := digits[i]
		if d < '0' || d >= '0'+lanes || d >= last { // digits descend: .h10, .b320
			return 0, false
		}
		last = d
		m |= 1 << (d - '0')
	}
	return m, true
}
