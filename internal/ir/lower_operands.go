// Operands: registers, immediates and constant slots, symbols and addresses, and the operand-count checks.

package ir

import (
	"math"

	"github.com/warpsim/warpsim/ptx"
)

// reg resolves a register operand to its slot.
func (fl *fnLowerer) reg(src *ptx.Instr, o *ptx.Operand) int32 {
	o = scalarOperand(o)
	if o.Kind == ptx.OpdSink {
		return fl.sink
	}
	if o.Kind != ptx.OpdReg && o.Kind != ptx.OpdSym || o.Minus {
		fl.bad(src, "expected a register operand")
		return fl.sink
	}
	s, ok := fl.lookup(o.Name)
	if !ok || s.kind != symReg {
		if _, isS := sregNames[o.Name]; isS {
			fl.bad(src, "special register %s cannot be written", o.Name)
		} else {
			fl.bad(src, "undefined register %s", o.Name)
		}
		return fl.sink
	}
	return s.slot
}

// scalarOperand unwraps a one-element brace list ("{ %r1 }"), which ptxas
// accepts wherever a scalar operand stands; Triton's inline assembly writes
// scalar loads and stores that way.
func scalarOperand(o *ptx.Operand) *ptx.Operand {
	if o.Kind == ptx.OpdVector && len(o.Elems) == 1 {
		return &o.Elems[0]
	}
	return o
}

// value resolves a source operand of type t to a slot, turning immediates
// into constant slots and special registers or symbol addresses into a
// preceding instruction writing a temporary.
func (fl *fnLowerer) value(src *ptx.Instr, o *ptx.Operand, t ptx.Type) int32 {
	o = scalarOperand(o)
	switch o.Kind {
	case ptx.OpdReg:
		if o.Minus {
			fl.bad(src, "a negated register (-%s) is only allowed in vmad", o.Name)
			return fl.sink
		}
		if sr, ok := sregNames[o.Name]; ok {
			tmp := fl.newSlot(ptx.B64)
			in := fl.newInst(OpMovSreg, src)
			in.Guard = -1
			in.D[0] = tmp
			in.Imm = int64(sr)
			in.Type = ptx.U32
			if sr == SregClock64 || sr == SregGlobaltimer {
				in.Type = ptx.U64
			}
			fl.emit(in, src)
			return tmp
		}
		s, ok := fl.lookup(o.Name)
		if !ok {
			if clusterSreg(o.Name) {
				fl.unsupportedf(src.Pos, "special register %s is not supported yet", o.Name)
				return fl.sink
			}
			fl.bad(src, "undefined register %s", o.Name)
			return fl.sink
		}
		if s.kind != symReg {
			return fl.addrTemp(src, o.Name, 0)
		}
		if o.Neg {
			// "!%p" as a value: materialize the complement.
			tmp := fl.newSlot(ptx.Pred)
			in := fl.newInst(OpNot, src)
			in.Guard = -1
			in.Type = ptx.Pred
			in.D[0] = tmp
			in.A[0] = s.slot
			fl.emit(in, src)
			return tmp
		}
		return s.slot
	case ptx.OpdInt:
		return fl.constSlot(fl.immBits(o, t))
	case ptx.OpdFloat:
		return fl.constSlot(fl.immBits(o, t))
	case ptx.OpdSym:
		if o.Name == "WARP_SZ" {
			return fl.constSlot(32)
		}
		if s, ok := fl.lookup(o.Name); ok && s.kind == symReg && o.Offset == 0 {
			return s.slot // a register named without "%" ("p" in inline asm)
		}
		return fl.addrTemp(src, o.Name, o.Offset)
	case ptx.OpdSink:
		return fl.sink
	}
	fl.bad(src, "unexpected operand")
	return fl.sink
}

func (fl *fnLowerer) immBits(o *ptx.Operand, t ptx.Type) uint64 {
	if o.Kind == ptx.OpdInt {
		return o.Bits
	}
	// float literal
	switch t {
	case ptx.F32:
		if o.FloatBits == 64 {
			return uint64(math.Float32bits(float32(math.Float64frombits(o.Bits))))
		}
		return o.Bits
	case ptx.F64:
		if o.FloatBits == 32 {
			return math.Float64bits(float64(math.Float32frombits(uint32(o.Bits))))
		}
		return o.Bits
	}
	return o.Bits
}

// addrTemp emits "mov tmp, sym+off" and returns tmp.
func (fl *fnLowerer) addrTemp(src *ptx.Instr, name string, off int64) int32 {
	tmp := fl.newSlot(ptx.B64)
	in := fl.newInst(OpMovAddr, src)
	in.Guard = -1
	in.D[0] = tmp
	in.Type = ptx.U64
	if !fl.setSym(src, &in, name, off) {
		return fl.sink
	}
	fl.emit(in, src)
	return tmp
}

// setSym resolves a symbol reference into in's SymKind/Sym/Imm.
func (fl *fnLowerer) setSym(src *ptx.Instr, in *Inst, name string, off int64) bool {
	s, ok := fl.lookup(name)
	if !ok {
		if fi, isFunc := fl.l.p.FuncByName[name]; isFunc {
			if !fl.l.srcFuncs[fi].HasBody {
				fl.unsupportedf(src.Pos, "%s: address of extern function %s is not supported yet", opText(src), name)
				return false
			}
			in.SymKind = SymFunc
			in.Sym = int32(fi)
			in.Imm = off
			fl.calls[int32(fi)] = true
			return true
		} else {
			fl.bad(src, "undefined symbol %s", name)
		}
		return false
	}
	switch s.kind {
	case symFrame:
		in.SymKind = SymFrame
		in.Imm = int64(s.off) + off
		if s.top {
			in.SymKind = SymFrameTop
			in.Imm = off - int64(s.off)
		}
	case symKParam:
		in.SymKind = SymKParam
		in.Imm = int64(s.off) + off
	case symModVar:
		v := fl.l.p.Vars[s.vidx]
		in.Sym = s.vidx
		in.Imm = off
		if v.Space == ptx.SpaceShared {
			in.SymKind = SymShared
			fl.used[s.vidx] = true
			if v.Size == 0 {
				fl.f.UsesDynShared = true
			}
		} else {
			in.SymKind = SymGlobal
		}
	default:
		fl.bad(src, "%s is a register, not an address", name)
		return false
	}
	return true
}

// addr resolves an address operand "[base+off]" into in.A[0], Imm and the symbol.
func (fl *fnLowerer) addr(src *ptx.Instr, in *Inst, o *ptx.Operand) bool {
	if o.Kind != ptx.OpdAddr {
		// Some emitters write a bare symbol for param addresses.
		if o.Kind == ptx.OpdSym {
			return fl.setSym(src, in, o.Name, o.Offset)
		}
		fl.bad(src, "expected an address operand")
		return false
	}
	in.A[0] = -1
	if o.Name == "" {
		in.Imm = o.Offset
		return true
	}
	if s, ok := fl.lookup(o.Name); ok && s.kind == symReg {
		in.A[0] = s.slot
		in.Imm = o.Offset
		return true
	}
	if _, ok := sregNames[o.Name]; ok {
		in.A[0] = fl.value(src, &ptx.Operand{Kind: ptx.OpdReg, Name: o.Name}, ptx.U64)
		in.Imm = o.Offset
		return true
	}
	return fl.setSym(src, in, o.Name, o.Offset)
}

func (fl *fnLowerer) need(src *ptx.Instr, n int) bool {
	if len(src.Operands) != n {
		fl.bad(src, "expected %d operands, found %d", n, len(src.Operands))
		return false
	}
	return true
}

func (fl *fnLowerer) needTypes(src *ptx.Instr, m *mods, n int) bool {
	if len(m.types) < n {
		fl.bad(src, "missing type")
		return false
	}
	return true
}
