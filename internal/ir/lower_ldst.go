// Loads, stores and atomics: state spaces, strong loads, memory orders and scopes, vector and 128-bit atomics.

package ir

import (
	"fmt"
	"slices"

	"github.com/warpsim/warpsim/ptx"
)

func (fl *fnLowerer) memSpace(src *ptx.Instr, m *mods) bool {
	if hasMod(src.Mods, "shared::cluster") {
		fl.unsupported(src) // distributed shared memory: a cluster's addresses
		return false
	}
	if m.space == ptx.SpaceNone {
		m.space = ptx.SpaceGeneric
	}
	for _, r := range m.rest {
		switch r {
		case "L1", "L2", "evict_normal", "evict_first", "evict_last", "no_allocate", "unified":
		default:
			fl.unsupported(src)
			return false
		}
	}
	return true
}

func (fl *fnLowerer) lowerLd(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) || !fl.memSpace(src, m) {
		return
	}
	in := fl.newInst(OpLd, src)
	in.Type = m.typ(0)
	in.Space = m.space
	if in.Type == ptx.B128 && m.vec > 0 || m.vec > 4 {
		fl.unsupported(src)
		return
	}
	if !fl.addr(src, &in, &ops[1]) {
		return
	}
	if in.Type == ptx.B128 {
		// ld.b128 is ld.v2.b64 into the register's two halves.
		in.Type, in.Vec = ptx.B64, 2
		in.D[0], in.D[1] = fl.reg128(src, &ops[0])
	} else if m.vec > 0 {
		if ops[0].Kind != ptx.OpdVector || len(ops[0].Elems) != m.vec {
			fl.bad(src, "expected a vector of %d registers", m.vec)
			return
		}
		in.Vec = uint8(m.vec)
		for i := range ops[0].Elems {
			in.D[i] = fl.reg(src, &ops[0].Elems[i])
		}
	} else {
		in.Vec = 1
		in.D[0] = fl.reg(src, &ops[0])
	}
	if d := in.D[0]; d >= 0 && int(d) < len(fl.slotW) && fl.slotW[d] == 2 {
		in.Cmp = LdWideDest // a signed load into a 64-bit register sign-extends to 64 bits
	}
	fl.checkSpaceSym(src, &in)
	if strongLoad(src.Mods) && (in.Space == ptx.SpaceGlobal || in.Space == ptx.SpaceGeneric) {
		in.Flags |= FlagStrong
	}
	if slices.Contains(src.Mods, "nc") {
		in.Flags |= FlagNC
	}
	if in.Flags&FlagStrong != 0 || slices.Contains(src.Mods, "cg") || slices.Contains(src.Mods, "cv") {
		in.Mode = LdL2Only
	}
	fl.emit(in, src)
}

// strongLoad reports whether a load's modifiers make it a strong
// (volatile, relaxed, acquire or sc) access beyond the CTA's scope.
func strongLoad(ms []string) bool {
	strong, cta := false, false
	for _, m := range ms {
		switch m {
		case "volatile", "relaxed", "acquire", "sc":
			strong = true
		case "cta":
			cta = true
		}
	}
	return strong && !cta
}

func (fl *fnLowerer) checkSpaceSym(src *ptx.Instr, in *Inst) {
	if in.SymKind == SymKParam && in.Space != ptx.SpaceParam && in.Space != ptx.SpaceGeneric {
		fl.bad(src, "kernel parameter used in %s space", in.Space)
	}
	if in.SymKind == SymKParam && in.Space == ptx.SpaceGeneric {
		in.Space = ptx.SpaceParam
	}
	if in.SymKind == SymFrame || in.SymKind == SymFrameTop {
		// Local and .param variables of a function body live in its frame.
		in.Space = ptx.SpaceLocal
	}
	if in.Space == ptx.SpaceParam && in.SymKind == SymNone && fl.f.Entry {
		in.SymKind = SymKParam // ld.param through a register holding a param-space address
	}
	if in.Space == ptx.SpaceParam && !fl.f.Entry && in.SymKind == SymNone {
		in.Space = ptx.SpaceLocal
	}
}

func (fl *fnLowerer) lowerSt(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if hasMod(src.Mods, "async") {
		fl.unsupported(src) // st.async: a remote store completing an mbarrier
		return
	}
	if !fl.need(src, 2) || !fl.needTypes(src, m, 1) || !fl.memSpace(src, m) {
		return
	}
	in := fl.newInst(OpSt, src)
	in.Type = m.typ(0)
	in.Space = m.space
	if in.Type == ptx.B128 && m.vec > 0 || m.vec > 4 {
		fl.unsupported(src)
		return
	}
	if !fl.addr(src, &in, &ops[0]) {
		return
	}
	if in.Type == ptx.B128 {
		// st.b128 is st.v2.b64 of the register's two halves.
		in.Type, in.Vec = ptx.B64, 2
		in.A[1], in.A[2] = fl.reg128(src, &ops[1])
	} else if m.vec > 0 {
		if ops[1].Kind != ptx.OpdVector || len(ops[1].Elems) != m.vec {
			fl.bad(src, "expected a vector of %d values", m.vec)
			return
		}
		in.Vec = uint8(m.vec)
		for i := range ops[1].Elems {
			in.A[1+i] = fl.value(src, &ops[1].Elems[i], in.Type)
		}
	} else {
		in.Vec = 1
		in.A[1] = fl.value(src, &ops[1], in.Type)
	}
	if in.Space == ptx.SpaceParam && fl.f.Entry && in.SymKind == SymKParam {
		fl.bad(src, "kernel parameters are read-only")
		return
	}
	fl.checkSpaceSym(src, &in)
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerAtom(src *ptx.Instr, m *mods) {
	ops := src.Operands
	op := OpAtom
	if src.Op == "red" {
		op = OpRed
	}
	in := fl.newInst(op, src)
	if !fl.needTypes(src, m, 1) {
		return
	}
	in.Type = m.typ(0)
	in.Order = atomOrder(src.Mods)
	if hasMod(src.Mods, "shared::cluster") {
		fl.unsupported(src) // distributed shared memory: a cluster's addresses
		return
	}
	if m.space == ptx.SpaceNone {
		m.space = ptx.SpaceGeneric
	}
	in.Space = m.space
	found, noftz := false, false
	for _, r := range m.rest {
		if a, ok := atomNames[r]; ok && !found {
			in.Mode = a
			found = true
			continue
		}
		if r == "noftz" && !noftz {
			noftz = true
			continue
		}
		fl.unsupported(src)
		return
	}
	if !found || len(m.types) > 1 || !atomTypeOK(in.Type, in.Mode, m.vec, noftz) {
		fl.unsupported(src)
		return
	}
	if in.Space != ptx.SpaceGlobal && in.Space != ptx.SpaceShared && in.Space != ptx.SpaceGeneric ||
		m.vec > 0 && in.Space == ptx.SpaceShared {
		fl.unsupported(src)
		return
	}
	n := 3
	if in.Mode == AtomCas {
		n = 4
	}
	if op == OpRed {
		n--
	}
	if !fl.need(src, n) {
		return
	}
	i := 0
	if op == OpAtom {
		i = 1
	}
	if !fl.addr(src, &in, &ops[i]) {
		return
	}
	if in.Type == ptx.B128 {
		fl.lowerAtom128(src, in, ops, i)
		return
	}
	if m.vec > 0 {
		fl.lowerAtomVec(src, in, ops, i, m.vec)
		return
	}
	if op == OpAtom {
		in.D[0] = fl.reg(src, &ops[0])
	}
	in.A[1] = fl.value(src, &ops[i+1], in.Type)
	if in.Mode == AtomCas {
		in.A[2] = fl.value(src, &ops[i+2], in.Type)
	}
	fl.emit(in, src)
}

// atomOrder is the memory order of an atom or red with modifiers ms: its
// semantics (relaxed when none is given) and scope (.gpu when none is).
func atomOrder(ms []string) uint8 {
	var o uint8
	switch {
	case hasMod(ms, "acquire"):
		o = OrderAcquire
	case hasMod(ms, "release"):
		o = OrderRelease
	case hasMod(ms, "acq_rel"), hasMod(ms, "sc"):
		o = OrderAcquire | OrderRelease
	}
	return o | orderScope(ms, OrderGPU)
}

// fenceOrder is the memory order of membar.{cta,gl,sys} or
// fence.{sc,acq_rel}.{cta,cluster,gpu,sys}: both ways, at its scope.
func fenceOrder(ms []string) uint8 {
	o := OrderAcquire | OrderRelease
	if hasMod(ms, "gl") {
		return o | OrderGPU
	}
	return o | orderScope(ms, OrderGPU)
}

// fenceModsError says what is wrong with the modifiers of membar (one of
// .cta, .gl, .sys) or fence ([.sc|.acq_rel] or .mbarrier_init.release,
// then one of .cta, .cluster, .gpu, .sys), as ptxas refuses them; "" when
// nothing is. (The .proxy forms are lowered before.)
func fenceModsError(op string, ms []string) string {
	scopes := 0
	for _, m := range ms {
		switch {
		case op == "membar" && (m == "cta" || m == "gl" || m == "sys"),
			op == "fence" && (m == "cta" || m == "cluster" || m == "gpu" || m == "sys"):
			scopes++
		case op == "fence" && (m == "sc" || m == "acq_rel" || m == "mbarrier_init" || m == "release"):
		default:
			return fmt.Sprintf("%s does not take .%s", op, m)
		}
	}
	switch {
	case scopes != 1 && op == "membar":
		return "membar takes one level: .cta, .gl or .sys"
	case scopes != 1:
		return "fence takes one scope: .cta, .cluster, .gpu or .sys"
	case hasMod(ms, "release") != hasMod(ms, "mbarrier_init"):
		return "fence.release is only fence.mbarrier_init.release.cluster"
	}
	return ""
}

// orderScope is the scope bit modifiers ms name (def when none; 0 for .cta).
func orderScope(ms []string, def uint8) uint8 {
	switch {
	case hasMod(ms, "cta"):
		return 0
	case hasMod(ms, "cluster"):
		return OrderCluster
	case hasMod(ms, "gpu"):
		return OrderGPU
	case hasMod(ms, "sys"):
		return OrderSys
	}
	return def
}

// atomTypeOK reports whether atom/red support a type, operation and vector
// width (vec 0: scalar): the integer and f32/f64 forms, add.noftz on f16,
// bf16 and their packed pairs, the sm_90 vector forms (global only:
// add/min/max.noftz on .v2/.v4/.v8 f16/bf16 and .v2/.v4 f16x2/bf16x2, add on
// .v2/.v4 f32), and cas/exch on b128.
func atomTypeOK(t ptx.Type, mode uint8, vec int, noftz bool) bool {
	switch t {
	case ptx.F16, ptx.BF16, ptx.F16x2, ptx.BF16x2:
		if !noftz {
			return false
		}
		switch vec {
		case 0:
			return mode == AtomAdd
		case 2, 4:
		case 8:
			if t == ptx.F16x2 || t == ptx.BF16x2 {
				return false
			}
		default:
			return false
		}
		return mode == AtomAdd || mode == AtomMin || mode == AtomMax
	case ptx.B128:
		return !noftz && vec == 0 && (mode == AtomCas || mode == AtomExch)
	}
	if noftz {
		return false
	}
	if vec > 0 {
		return t == ptx.F32 && mode == AtomAdd && (vec == 2 || vec == 4)
	}
	return true
}

// lowerAtomVec lowers a vector atom/red (sm_90, global) to one scalar
// atomic per element at consecutive addresses: the PTX ISA makes each
// element its own atomic operation.
func (fl *fnLowerer) lowerAtomVec(src *ptx.Instr, in Inst, ops []ptx.Operand, i, vec int) {
	var d, b []ptx.Operand
	if in.Op == OpAtom {
		d = ops[0].Elems
		if ops[0].Kind != ptx.OpdVector || len(d) != vec {
			fl.bad(src, "expected a vector of %d registers", vec)
			return
		}
	}
	b = ops[i+1].Elems
	if ops[i+1].Kind != ptx.OpdVector || len(b) != vec {
		fl.bad(src, "expected a vector of %d operands", vec)
		return
	}
	bs := make([]int32, vec)
	for k := range b {
		bs[k] = fl.value(src, &b[k], in.Type)
	}
	ds := make([]int32, len(d))
	for k := range d {
		ds[k] = fl.reg(src, &d[k])
	}
	// An element's result written over an input of a later element (its
	// address or operand): the hardware reads every input first, so the
	// inputs are copied to fresh registers before the elements run.
	conflict := func(s int32, from int) bool {
		for _, r := range ds[:min(from, len(ds))] {
			if r == s {
				return true
			}
		}
		return false
	}
	copyIn := func(s int32, t ptx.Type) int32 {
		tmp := fl.newSlot(t)
		mv := fl.newInst(OpMov, src)
		mv.Type, mv.D[0], mv.A[0] = t, tmp, s
		fl.emit(mv, src)
		return tmp
	}
	if in.A[0] >= 0 && conflict(in.A[0], vec-1) {
		in.A[0] = copyIn(in.A[0], ptx.B64)
	}
	for k := range bs {
		if conflict(bs[k], k) {
			bs[k] = copyIn(bs[k], in.Type)
		}
	}
	size := int64(TypeSize(in.Type))
	for k := 0; k < vec; k++ {
		e := in
		e.Imm = in.Imm + int64(k)*size
		e.Vec = uint8(k) // 0 for the first: one warp instruction for the counters
		e.A[1] = bs[k]
		if in.Op == OpAtom {
			e.D[0] = ds[k]
		}
		fl.emit(e, src)
	}
}

// lowerAtom128 lowers atom.cas.b128/atom.exch.b128: D[0], D[1] the old
// value's halves, A[1], A[2] the operand b's, A[3], A[4] c's (cas).
func (fl *fnLowerer) lowerAtom128(src *ptx.Instr, in Inst, ops []ptx.Operand, i int) {
	if in.Op == OpAtom {
		in.D[0], in.D[1] = fl.reg128(src, &ops[0])
	}
	in.A[1], in.A[2] = fl.reg128(src, &ops[i+1])
	if in.Mode == AtomCas {
		in.A[3], in.A[4] = fl.reg128(src, &ops[i+2])
	}
	fl.emit(in, src)
}
