// Arithmetic and logic, moves (128-bit and vector packs included), conversions and comparisons.

package ir

import "github.com/warpsim/warpsim/ptx"

func (fl *fnLowerer) lowerALU(src *ptx.Instr, m *mods, op Op) {
	ops := src.Operands
	if want := aluOperands[src.Op]; len(ops) != want {
		if (op == OpMin || op == OpMax) && len(ops) == 4 {
			fl.unsupportedf(src.Pos, "three-input %s is not supported yet", src.Op)
			return
		}
		fl.bad(src, "%s takes %d operands, found %d", src.Op, want, len(ops))
		return
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	in.Rnd = m.rnd
	if in.Flags&FlagXorSign != 0 && (op != OpMin && op != OpMax || !hasMod(src.Mods, "xorsign") || !hasMod(src.Mods, "abs")) {
		fl.unsupported(src) // .xorsign.abs belongs to min and max
		return
	}
	if src.Op == "addc" || src.Op == "subc" || src.Op == "madc" {
		in.Flags |= FlagCarryIn
	}
	if in.Flags&(FlagCC|FlagCarryIn) != 0 {
		in.D[1] = fl.ccSlot
		in.A[4] = fl.ccSlot
	}
	if !fl.needTypes(src, m, 1) {
		return
	}
	in.Type = m.typ(0)
	in.Type2 = m.typ(1)
	nsrc := len(ops) - 1
	switch op {
	case OpMul, OpMad:
		switch {
		case m.has("hi"):
			in.Mode = MulHi
		case m.has("wide"):
			in.Mode = MulWide
		}
		if IsFloat(in.Type) {
			in.Mode = MulLo
		}
	case OpMul24, OpMad24:
		if m.has("hi") {
			in.Mode = MulHi
		}
	case OpShf:
		if m.has("l") {
			in.Mode |= 1
		}
		if m.has("clamp") {
			in.Mode |= 2
		}
	case OpPrmt:
		modes := []string{"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}
		for i, s := range modes {
			if m.has(s) {
				in.Mode = uint8(i + 1)
			}
		}
	case OpDp2a:
		if m.has("hi") {
			in.Mode = 1
		}
	case OpLop3:
		if nsrc != 4 {
			fl.bad(src, "expected 5 operands")
			return
		}
		if ops[4].Kind != ptx.OpdInt {
			fl.bad(src, "lut must be an immediate")
			return
		}
		in.Imm = int64(ops[4].Bits & 0xff)
		nsrc = 3
	}
	if op == OpMin || op == OpMax {
		if m.has("relu") {
			in.Flags |= FlagRelu
		}
	}
	if op == OpFma && in.Rnd == RndNone && in.Type != ptx.TypeNone && IsFloat(in.Type) && in.Flags&FlagApprox == 0 {
		fl.bad(src, "fma requires a rounding modifier")
		return
	}
	if len(ops) < 2 {
		fl.bad(src, "missing operands")
		return
	}
	for _, r := range m.rest {
		switch r {
		case "lo", "hi", "wide", "l", "r", "clamp", "wrap", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "relu":
		default:
			fl.unsupportedf(src.Pos, "%s is not supported yet", opText(src))
			return
		}
	}
	if in.Type == ptx.B128 || in.Type == ptx.TF32 {
		fl.unsupported(src)
		return
	}
	in.D[0] = fl.reg(src, &ops[0])
	srcType := in.Type
	for i := 0; i < nsrc && i < 4; i++ {
		t := srcType
		if op == OpMul && in.Mode == MulWide || op == OpMad && in.Mode == MulWide && i == 2 {
			if op == OpMad && i == 2 {
				t = wideType(in.Type)
			}
		}
		if (op == OpShl || op == OpShr) && i == 1 {
			t = ptx.U32
		}
		if (op == OpBfe || op == OpBfi) && i >= 1 && !(op == OpBfi && i == 1) {
			t = ptx.U32
		}
		if op == OpDp4a || op == OpDp2a {
			switch i {
			case 1:
				t = in.Type2
			case 2:
				t = ptx.U32
			}
		}
		in.A[i] = fl.value(src, &ops[1+i], t)
	}
	fl.emit(in, src)
}

func wideType(t ptx.Type) ptx.Type {
	switch t {
	case ptx.U16:
		return ptx.U32
	case ptx.S16:
		return ptx.S32
	case ptx.U32:
		return ptx.U64
	case ptx.S32:
		return ptx.S64
	}
	return t
}

func (fl *fnLowerer) lowerMov(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) {
		return
	}
	t := m.typ(0)
	d, a := &ops[0], &ops[1]
	if t == ptx.B128 {
		fl.lowerMov128(src, d, a)
		return
	}
	switch {
	case d.Kind == ptx.OpdVector:
		in := fl.newInst(OpUnpack, src)
		in.Type = t
		in.Type2 = elemType(t, len(d.Elems))
		in.Vec = uint8(len(d.Elems))
		if len(d.Elems) > 4 || in.Type2 == ptx.TypeNone {
			fl.unsupported(src)
			return
		}
		for i := range d.Elems {
			in.D[i] = fl.reg(src, &d.Elems[i])
		}
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	case a.Kind == ptx.OpdVector:
		in := fl.newInst(OpPack, src)
		in.Type = t
		in.Type2 = elemType(t, len(a.Elems))
		in.Vec = uint8(len(a.Elems))
		if len(a.Elems) > 4 || in.Type2 == ptx.TypeNone {
			fl.unsupported(src)
			return
		}
		in.D[0] = fl.reg(src, d)
		for i := range a.Elems {
			in.A[i] = fl.value(src, &a.Elems[i], in.Type2)
		}
		fl.emit(in, src)
	case a.Kind == ptx.OpdReg:
		if sr, ok := sregNames[a.Name]; ok {
			in := fl.newInst(OpMovSreg, src)
			in.Type = t
			in.D[0] = fl.reg(src, d)
			in.Imm = int64(sr)
			fl.emit(in, src)
			return
		}
		if s, ok := fl.lookup(a.Name); ok && s.kind != symReg {
			fl.movAddr(src, t, d, a.Name, 0)
			return
		}
		in := fl.newInst(OpMov, src)
		in.Type = t
		in.D[0] = fl.reg(src, d)
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	case a.Kind == ptx.OpdSym && a.Name != "WARP_SZ" && !fl.namesRegister(a):
		fl.movAddr(src, t, d, a.Name, a.Offset)
	default:
		in := fl.newInst(OpMov, src)
		in.Type = t
		in.D[0] = fl.reg(src, d)
		in.A[0] = fl.value(src, a, t)
		fl.emit(in, src)
	}
}

// lowerMov128 lowers mov.b128: unpacking a .b128 register into two 64-bit
// halves ({lo, hi}), packing two halves into one, or copying one: one
// 64-bit move per half.
func (fl *fnLowerer) lowerMov128(src *ptx.Instr, d, a *ptx.Operand) {
	var dst, val [2]int32
	switch {
	case d.Kind == ptx.OpdVector && a.Kind != ptx.OpdVector:
		if len(d.Elems) != 2 {
			fl.bad(src, "expected {lo, hi}: two 64-bit halves")
			return
		}
		dst[0], dst[1] = fl.reg(src, &d.Elems[0]), fl.reg(src, &d.Elems[1])
		val[0], val[1] = fl.reg128(src, a)
		if dst[0] == val[1] {
			fl.unsupportedf(src.Pos, "%s: a low half written over the high half it unpacks is not supported yet", opText(src))
			return
		}
	case a.Kind == ptx.OpdVector && d.Kind != ptx.OpdVector:
		if len(a.Elems) != 2 {
			fl.bad(src, "expected {lo, hi}: two 64-bit halves")
			return
		}
		dst[0], dst[1] = fl.reg128(src, d)
		val[0], val[1] = fl.value(src, &a.Elems[0], ptx.B64), fl.value(src, &a.Elems[1], ptx.B64)
		if dst[0] == val[1] {
			fl.unsupportedf(src.Pos, "%s: a pack whose high half is its own low half is not supported yet", opText(src))
			return
		}
	case (a.Kind == ptx.OpdReg || a.Kind == ptx.OpdSym) && d.Kind != ptx.OpdVector:
		dst[0], dst[1] = fl.reg128(src, d)
		val[0], val[1] = fl.reg128(src, a)
	default:
		fl.unsupported(src)
		return
	}
	for k := range 2 {
		in := fl.newInst(OpMov, src)
		in.Type = ptx.B64
		in.D[0], in.A[0] = dst[k], val[k]
		fl.emit(in, src)
	}
}

func (fl *fnLowerer) movAddr(src *ptx.Instr, t ptx.Type, d *ptx.Operand, name string, off int64) {
	in := fl.newInst(OpMovAddr, src)
	in.Type = t
	in.D[0] = fl.reg(src, d)
	if fl.setSym(src, &in, name, off) {
		fl.emit(in, src)
	}
}

// elemType is the element type of a vector pack/unpack of t into n parts.
func elemType(t ptx.Type, n int) ptx.Type {
	if n == 0 {
		return ptx.TypeNone
	}
	switch TypeSize(t) / n {
	case 1:
		return ptx.B8
	case 2:
		return ptx.B16
	case 4:
		return ptx.B32
	case 8:
		return ptx.B64
	}
	return ptx.TypeNone
}

func (fl *fnLowerer) lowerCvt(src *ptx.Instr, m *mods) {
	if fl.lowerCvtExt(src, m) {
		return
	}
	ops := src.Operands
	if !fl.needTypes(src, m, 2) {
		return
	}
	in := fl.newInst(OpCvt, src)
	in.Type, in.Type2 = m.typ(0), m.typ(1)
	in.Rnd = m.rnd
	in.Flags = m.flags
	if len(m.rest) > 0 || in.Type == ptx.TF32 || in.Type2 == ptx.TF32 || in.Type == ptx.B128 {
		fl.unsupported(src)
		return
	}
	if in.Type == ptx.F16x2 || in.Type == ptx.BF16x2 {
		// cvt.rn.f16x2.f32 d, a, b: a goes to the upper half.
		if len(ops) != 3 {
			fl.bad(src, "expected 3 operands")
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type2)
		in.A[1] = fl.value(src, &ops[2], in.Type2)
		fl.emit(in, src)
		return
	}
	if !fl.need(src, 2) {
		return
	}
	in.D[0] = fl.reg(src, &ops[0])
	in.A[0] = fl.value(src, &ops[1], in.Type2)
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerSetp(src *ptx.Instr, m *mods) {
	ops := src.Operands
	op := OpSetp
	if src.Op == "set" {
		op = OpSet
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	cmpSet, boolSet := false, false
	for _, r := range m.rest {
		if c, ok := cmpNames[r]; ok && !cmpSet {
			in.Cmp = c
			cmpSet = true
			continue
		}
		switch r {
		case "and":
			in.BoolOp = BoolAnd
		case "or":
			in.BoolOp = BoolOr
		case "xor":
			in.BoolOp = BoolXor
		default:
			fl.unsupported(src)
			return
		}
		boolSet = true
	}
	if !cmpSet {
		fl.bad(src, "missing comparison")
		return
	}
	if op == OpSet {
		if !fl.needTypes(src, m, 2) {
			return
		}
		in.Type, in.Type2 = m.typ(0), m.typ(1)
	} else {
		if !fl.needTypes(src, m, 1) {
			return
		}
		in.Type2 = m.typ(0)
		in.Type = ptx.Pred
	}
	want := 3
	if boolSet {
		want = 4
	}
	if !fl.need(src, want) {
		return
	}
	fl.dstMaybePair(src, &in, &ops[0])
	if in.D[1] >= 0 {
		in.Flags |= FlagPair
	}
	in.A[0] = fl.value(src, &ops[1], in.Type2)
	in.A[1] = fl.value(src, &ops[2], in.Type2)
	if boolSet {
		c := ops[3]
		if c.Kind == ptx.OpdReg && c.Neg {
			in.Flags |= FlagNegB
			c.Neg = false
		}
		in.A[2] = fl.value(src, &c, ptx.Pred)
	}
	fl.emit(in, src)
}
