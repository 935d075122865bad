// The instruction dispatch: one case per PTX opcode, the small instructions lowered in place.

package ir

import (
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

var aluOps = map[string]Op{
	"add": OpAdd, "sub": OpSub, "mul": OpMul, "mad": OpMad, "mul24": OpMul24, "mad24": OpMad24,
	"div": OpDiv, "rem": OpRem, "min": OpMin, "max": OpMax, "abs": OpAbs, "neg": OpNeg,
	"and": OpAnd, "or": OpOr, "xor": OpXor, "not": OpNot, "cnot": OpCnot, "shl": OpShl, "shr": OpShr,
	"lop3": OpLop3, "popc": OpPopc, "clz": OpClz, "brev": OpBrev, "bfind": OpBfind, "fns": OpFns,
	"bfe": OpBfe, "bfi": OpBfi, "prmt": OpPrmt, "shf": OpShf, "sad": OpSad, "dp4a": OpDp4a, "dp2a": OpDp2a,
	"fma": OpFma, "rcp": OpRcp, "sqrt": OpSqrt, "rsqrt": OpRsqrt, "sin": OpSin, "cos": OpCos,
	"ex2": OpEx2, "lg2": OpLg2, "tanh": OpTanh, "copysign": OpCopysign,
	"addc": OpAdd, "subc": OpSub, "madc": OpMad,
}

// aluOperands is how many operands, the destination included, each ALU
// instruction takes.
var aluOperands = map[string]int{
	"add": 3, "sub": 3, "mul": 3, "div": 3, "rem": 3, "min": 3, "max": 3, "and": 3, "or": 3, "xor": 3,
	"shl": 3, "shr": 3, "mul24": 3, "copysign": 3, "addc": 3, "subc": 3,
	"mad": 4, "mad24": 4, "fma": 4, "madc": 4, "bfe": 4, "prmt": 4, "shf": 4, "sad": 4, "dp4a": 4, "dp2a": 4,
	"fns": 4, "bfi": 5, "lop3": 5,
	"abs": 2, "neg": 2, "not": 2, "cnot": 2, "popc": 2, "clz": 2, "brev": 2, "bfind": 2, "rcp": 2, "sqrt": 2,
	"rsqrt": 2, "sin": 2, "cos": 2, "ex2": 2, "lg2": 2, "tanh": 2,
}

func (fl *fnLowerer) lowerInstr(src *ptx.Instr) {
	if (src.Op == "st" || src.Op == "red") && hasMod(src.Mods, "async") && fl.lowerAsyncExt(src) { // asyncext.go
		return
	}
	if fl.lowerCluster(src) { // cluster.go
		return
	}
	src = withoutCachePolicy(src) // cachehint.go
	m := parseMods(src.Mods)
	ops := src.Operands
	switch src.Op {
	case "mov":
		fl.lowerMov(src, &m)
	case "ld", "ldu":
		fl.lowerLd(src, &m)
	case "st":
		fl.lowerSt(src, &m)
	case "cvt":
		fl.lowerCvt(src, &m)
	case "cvta":
		if !fl.need(src, 2) || !fl.needTypes(src, &m, 1) {
			return
		}
		in := fl.newInst(OpCvta, src)
		in.Type = m.typ(0)
		in.Space = m.space
		if m.to {
			in.Mode = 1
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		fl.emit(in, src)
	case "isspacep":
		if !fl.need(src, 2) {
			return
		}
		in := fl.newInst(OpIsspacep, src)
		in.Space = m.space
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.U64)
		fl.emit(in, src)
	case "setp", "set":
		fl.lowerSetp(src, &m)
	case "selp":
		if !fl.need(src, 4) || !fl.needTypes(src, &m, 1) {
			return
		}
		in := fl.newInst(OpSelp, src)
		in.Type = m.typ(0)
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], in.Type)
		in.A[2] = fl.value(src, &ops[3], ptx.Pred)
		fl.emit(in, src)
	case "slct":
		if !fl.need(src, 4) || !fl.needTypes(src, &m, 2) {
			return
		}
		in := fl.newInst(OpSlct, src)
		in.Type, in.Type2 = m.typ(0), m.typ(1)
		in.Flags = m.flags
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], in.Type)
		in.A[2] = fl.value(src, &ops[3], in.Type2)
		fl.emit(in, src)
	case "testp":
		if !fl.need(src, 2) || !fl.needTypes(src, &m, 1) || len(m.rest) != 1 {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpTestp, src)
		in.Type = m.typ(0)
		switch m.rest[0] {
		case "finite":
			in.Mode = TestFinite
		case "infinite":
			in.Mode = TestInfinite
		case "number":
			in.Mode = TestNumber
		case "notanumber":
			in.Mode = TestNotANumber
		case "normal":
			in.Mode = TestNormal
		case "subnormal":
			in.Mode = TestSubnormal
		default:
			fl.unsupported(src)
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		fl.emit(in, src)
	case "brx":
		if !m.has("idx") || len(ops) != 2 || ops[1].Kind != ptx.OpdSym {
			fl.unsupported(src)
			return
		}
		id, ok := fl.lookupLabel(ops[1].Name)
		if !ok || fl.labelTable[id] < 0 {
			fl.bad(src, "undefined .branchtargets list %s", ops[1].Name)
			return
		}
		in := fl.newInst(OpBrx, src)
		in.Imm = int64(fl.labelTable[id])
		in.A[0] = fl.value(src, &ops[0], ptx.U32)
		fl.emit(in, src)
	case "bra":
		if !fl.need(src, 1) {
			return
		}
		in := fl.newInst(OpBra, src)
		in.Flags = m.flags
		id := fl.findLabel(ops[0].Name, src.Pos)
		pc := fl.emit(in, src)
		if id >= 0 {
			fl.fixups = append(fl.fixups, fixup{pc: pc, label: id})
		}
	case "call":
		fl.lowerCall(src, &m)
	case "ret":
		in := fl.newInst(OpRet, src)
		if fl.f.Entry {
			in.Op = OpExit
		}
		fl.emit(in, src)
	case "exit":
		fl.emit(fl.newInst(OpExit, src), src)
	case "trap":
		fl.emit(fl.newInst(OpTrap, src), src)
	case "brkpt":
		fl.emit(fl.newInst(OpBrkpt, src), src)
	case "membar", "fence":
		in := fl.newInst(OpMembar, src)
		if src.Op == "fence" && (m.has("proxy") || len(m.rest) > 0 && strings.HasPrefix(m.rest[0], "proxy")) {
			if hasMod(src.Mods, "tensormap::generic") && hasMod(src.Mods, "acquire") {
				in.Mode = MembarTensormapAcquire
			}
			fl.emit(in, src)
			return
		}
		if msg := fenceModsError(src.Op, src.Mods); msg != "" {
			fl.bad(src, "%s", msg)
			return
		}
		in.Order = fenceOrder(src.Mods)
		fl.emit(in, src)
	case "prefetch", "prefetchu":
		fl.emit(fl.newInst(OpPrefetch, src), src)
	case "bar", "barrier":
		fl.lowerBar(src, &m)
	case "atom", "red":
		fl.lowerAtom(src, &m)
	case "shfl":
		fl.lowerShfl(src, &m)
	case "vote":
		fl.lowerVote(src, &m)
	case "match":
		if len(ops) != 3 || !fl.needTypes(src, &m, 1) {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpMatch, src)
		in.Type = m.typ(0)
		if m.has("all") {
			in.Mode = 1
		}
		fl.dstMaybePair(src, &in, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
		fl.emit(in, src)
	case "redux":
		if len(ops) != 3 || !fl.needTypes(src, &m, 1) || len(m.rest) != 1 {
			fl.unsupported(src)
			return
		}
		in := fl.newInst(OpRedux, src)
		in.Type = m.typ(0)
		op, ok := atomNames[m.rest[0]]
		if !ok || op > AtomXor || IsFloat(in.Type) {
			fl.unsupported(src)
			return
		}
		in.Mode = op
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
		fl.emit(in, src)
	case "activemask":
		if !fl.need(src, 1) {
			return
		}
		in := fl.newInst(OpActivemask, src)
		in.D[0] = fl.reg(src, &ops[0])
		fl.emit(in, src)
	case "pmevent", "nanosleep":
		fl.emit(fl.newInst(OpNop, src), src)
	case "tex", "tld4", "suld", "sust":
		fl.lowerTex(src, &m)
	case "mma", "wmma", "wgmma", "ldmatrix", "stmatrix", "movmatrix":
		fl.lowerTensor(src)
	case "cp", "mbarrier":
		fl.lowerAsync(src)
	case "tensormap":
		fl.lowerTensormap(src)
	default:
		if vop, ok := videoOps[src.Op]; ok {
			fl.lowerVideo(src, vop) // video.go
			return
		}
		if fl.lowerSm90(src, &m) || fl.lowerCacheOp(src) {
			return
		}
		op, ok := aluOps[src.Op]
		if !ok {
			fl.unsupported(src)
			return
		}
		fl.lowerALU(src, &m, op)
	}
}

func (fl *fnLowerer) dstMaybePair(src *ptx.Instr, in *Inst, o *ptx.Operand) {
	if o.Kind == ptx.OpdPair && len(o.Elems) == 2 {
		in.D[0] = fl.reg(src, &o.Elems[0])
		in.D[1] = fl.reg(src, &o.Elems[1])
		return
	}
	in.D[0] = fl.reg(src, o)
}
