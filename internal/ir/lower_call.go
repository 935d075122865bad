// Calls: direct and indirect, the caller's parameter frame, and calls whose arguments are all constants.

package ir

import "github.com/warpsim/warpsim/ptx"

func (fl *fnLowerer) lowerCall(src *ptx.Instr, m *mods) {
	ops := src.Operands
	var rets, args []ptx.Operand
	callee := ""
	indirect := false
	for i := range ops {
		o := &ops[i]
		switch o.Kind {
		case ptx.OpdList:
			if callee == "" {
				rets = o.Elems
			} else if args == nil {
				args = o.Elems
				if args == nil {
					args = []ptx.Operand{}
				}
			}
		case ptx.OpdSym:
			if callee == "" {
				callee = o.Name
			}
		case ptx.OpdReg:
			if callee == "" {
				callee = o.Name
				indirect = true
			}
		}
	}
	if callee == "" {
		fl.bad(src, "missing callee")
		return
	}
	cs := CallSite{Callee: -1}
	if indirect {
		fl.lowerIndirectCall(src, m, &cs, callee, rets, args)
		return
	}
	fi, ok := fl.l.p.FuncByName[callee]
	if !ok {
		fl.bad(src, "undefined function %s", callee)
		return
	}
	target := fl.l.srcFuncs[fi]
	if !target.HasBody {
		_, devrt := DevRTNames[callee]
		switch {
		case callee == "vprintf", devrt:
		case fl.l.externs != nil && fl.l.externs(callee):
		default:
			fl.unsupportedf(src.Pos, "call to %s is not supported yet", callee)
			return
		}
		cs.Extern = callee
	} else {
		cs.Callee = int32(fi)
		fl.calls[int32(fi)] = true
	}
	if len(rets) != len(target.Returns) || len(args) != len(target.Params) {
		fl.bad(src, "%s takes %d arguments and %d results", callee, len(target.Params), len(target.Returns))
		return
	}
	for i, a := range args {
		p, ok := fl.frameVar(src, &a)
		if !ok {
			return
		}
		cs.Args = append(cs.Args, p)
		cs.ArgType = append(cs.ArgType, target.Params[i].Type)
	}
	for i, r := range rets {
		p, ok := fl.frameVar(src, &r)
		if !ok {
			return
		}
		cs.Rets = append(cs.Rets, p)
		cs.RetType = target.Returns[i].Type
	}
	op := OpCall
	devrt, isDevRT := DevRTNames[callee]
	switch {
	case isDevRT:
		op = OpDevRT
	case callee == "vprintf":
		op = OpVprintf
	case cs.Extern != "":
		op = OpLibcall
	}
	in := fl.newInst(op, src)
	in.Flags = m.flags
	in.Mode = devrt
	if op == OpLibcall {
		in.Mode = LibcallKind(cs.Extern)
		if fl.constArgs(&cs) {
			in.Mode = LibcallFolded
		}
	}
	in.Imm = int64(len(fl.f.Calls))
	fl.f.Calls = append(fl.f.Calls, cs)
	fl.emit(in, src)
}

// lowerIndirectCall lowers "call (r), %rd, (a), proto": the callee is
// chosen per lane at run time from the function address in the register.
func (fl *fnLowerer) lowerIndirectCall(src *ptx.Instr, m *mods, cs *CallSite, reg string, rets, args []ptx.Operand) {
	cs.Indirect = true
	cs.Target = fl.value(src, &ptx.Operand{Kind: ptx.OpdReg, Name: reg}, ptx.U64)
	for _, a := range args {
		p, ok := fl.frameVar(src, &a)
		if !ok {
			return
		}
		cs.Args = append(cs.Args, p)
	}
	for _, r := range rets {
		p, ok := fl.frameVar(src, &r)
		if !ok {
			return
		}
		cs.Rets = append(cs.Rets, p)
	}
	// Any function whose address is taken may be called.
	in := fl.newInst(OpCall, src)
	in.Flags = m.flags
	in.A[0] = cs.Target
	in.Imm = int64(len(fl.f.Calls))
	fl.f.Calls = append(fl.f.Calls, *cs)
	fl.emit(in, src)
}

// frameVar resolves a call argument: a .param variable of the caller's frame.
func (fl *fnLowerer) frameVar(src *ptx.Instr, o *ptx.Operand) (Param, bool) {
	if o.Kind != ptx.OpdSym && o.Kind != ptx.OpdReg {
		fl.l.errorf(src.Pos, "%s: immediate call arguments are not supported yet", opText(src))
		return Param{}, false
	}
	s, ok := fl.lookup(o.Name)
	if !ok {
		fl.bad(src, "undefined %s", o.Name)
		return Param{}, false
	}
	if s.kind != symFrame {
		fl.l.errorf(src.Pos, "%s: argument %s must be a .param variable (register arguments are not supported yet)", opText(src), o.Name)
		return Param{}, false
	}
	return Param{Name: o.Name, Offset: s.off, Size: s.size, Align: s.align}, true
}

// constArgs says whether every argument of call site cs is a constant: the
// call's argument stores, just before it, store constant slots (clang's
// code of `powf(2.0f, (float)i)` in an unrolled loop). A compiler that sees
// libdevice's code (nvcc; clang with libdevice linked) computes such a call
// when it compiles: no instruction is left but the result's move. warpsim
// cc links no libdevice, so clang's PTX keeps the call, and the timing
// model costs it as that move (LibcallFolded).
func (fl *fnLowerer) constArgs(cs *CallSite) bool {
	if len(cs.Args) == 0 {
		return false
	}
	consts := make(map[int32]bool, len(fl.consts))
	for _, slot := range fl.consts {
		consts[slot] = true
	}
	for _, a := range cs.Args {
		found := false
		for i := len(fl.f.Code) - 1; i >= 0; i-- {
			st := &fl.f.Code[i]
			if st.Op != OpSt || st.SymKind != SymFrame || st.A[0] >= 0 {
				break // past the call's argument stores
			}
			if int(st.Imm) != a.Offset {
				continue
			}
			for _, v := range st.A[1:] {
				if v >= 0 && !consts[v] {
					return false
				}
			}
			found = true
			break
		}
		if !found {
			return false
		}
	}
	return true
}
