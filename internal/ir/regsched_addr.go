// Address arithmetic as ptxas places it: folded into the accesses' operands and sunk next to their uses.

package ir

// foldAddresses is f with the address arithmetic ptxas folds into memory
// instructions taken out, for the register estimate only: a value written
// once as another value written once plus a constant (add.s64 %rd2, %rd1,
// 256), or as a copy of one (mov, cvta), and read only as the address of
// loads, stores, atomics, cp.async copies and ldmatrix/stmatrix/wmma
// accesses, needs no register of its own — SASS addresses are a register
// plus a 24-bit immediate ([R2.64+0x100], [R9+0x4120]), so ptxas reads
// the base and the offset where the access is. The uses read the base
// instead, and the instruction writing the folded value does nothing.
// 64-bit (global and generic) and 32-bit (shared window) addresses fold
// alike, and a constant is an immediate, a register written once by a mov
// of one, a shared variable's address (its offset in the block's window:
// SASS adds it as an immediate) or the sum of two constants: nvcc hoists
// cp.async's addresses out of the loop as base-plus-offset registers
// (ldgsts_mb's k_tri: `add.s32 %r3, %r42, %r49` with %r49 the buffer's
// address plus 16672, `add.s64 %rd2, %rd1, 8`), and ptxas's SASS reads
// them as [R9+0x4120] and [R2.64+0x8].
func foldAddresses(f *Func) *Func {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return f
	}
	defs := make([]int32, n) // how many instructions write each slot
	defAt := make([]int32, n)
	addrOnly := make([]bool, n)
	for i := range addrOnly {
		addrOnly[i] = true
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n }
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
				defAt[d] = int32(pc)
			}
		}
		for i, a := range in.A {
			if !valid(a) || addressOperand(in, i) {
				continue
			}
			addrOnly[a] = false
		}
		if valid(in.Guard) {
			addrOnly[in.Guard] = false
		}
		tensorRegs(f, in, func(d int32) {
			if valid(d) {
				defs[d]++
			}
		}, func(a int32) {
			if valid(a) {
				addrOnly[a] = false
			}
		})
	}
	// konst[s]: s holds a constant (value v[s]; a shared variable's
	// address counts as 0, SASS adds it as an immediate).
	konst := make([]bool, n)
	kval := make([]int64, n)
	for _, c := range f.Consts {
		if valid(c.Slot) {
			konst[c.Slot], kval[c.Slot] = true, int64(c.Value)
		}
	}
	for pc := range f.Code {
		in := &f.Code[pc]
		d := in.D[0]
		if !valid(d) || in.Guard >= 0 || defs[d] != 1 || in.D[1] >= 0 || IsFloat(in.Type) {
			continue
		}
		switch {
		case in.Op == OpMovAddr && in.SymKind == SymShared:
			konst[d], kval[d] = true, 0
		case in.Op == OpMov && valid(in.A[0]) && konst[in.A[0]] && in.A[0] != d:
			konst[d], kval[d] = true, kval[in.A[0]]
		case (in.Op == OpAdd || in.Op == OpSub) && valid(in.A[0]) && valid(in.A[1]) && konst[in.A[0]] && konst[in.A[1]] && in.A[0] != d && in.A[1] != d:
			v := kval[in.A[1]]
			if in.Op == OpSub {
				v = -v
			}
			konst[d], kval[d] = true, kval[in.A[0]]+v
		}
	}
	// base[s], off[s]: a folded slot's base and offset.
	base := make([]int32, n)
	off := make([]int64, n)
	for i := range base {
		base[i] = -1
	}
	var resolve func(s int32) (int32, int64)
	resolve = func(s int32) (int32, int64) {
		if base[s] < 0 {
			return s, 0
		}
		b, o := resolve(base[s])
		return b, o + off[s]
	}
	const maxOff = 1 << 23
	folded := false
	for pc := range f.Code {
		in := &f.Code[pc]
		d := in.D[0]
		if !valid(d) || in.Guard >= 0 || defs[d] != 1 || !addrOnly[d] || in.D[1] >= 0 {
			continue
		}
		var src int32 = -1
		var c int64
		switch in.Op {
		case OpAdd, OpSub:
			if sz := TypeSize(in.Type); sz != 8 && sz != 4 || IsFloat(in.Type) || !valid(in.A[0]) || !valid(in.A[1]) {
				continue
			}
			a, b := in.A[0], in.A[1]
			switch {
			case konst[b] && !konst[a]:
				src, c = a, kval[b]
				if in.Op == OpSub {
					c = -c
				}
			case konst[a] && !konst[b] && in.Op == OpAdd:
				src, c = b, kval[a]
			default:
				continue
			}
		case OpMov, OpCvta:
			if !valid(in.A[0]) || TypeSize(in.Type) != 8 {
				continue
			}
			if konst[in.A[0]] {
				continue
			}
			src = in.A[0]
		default:
			continue
		}
		if defs[src] != 1 || int(defAt[src]) > pc {
			continue
		}
		b, o := resolve(src)
		if o+c <= -maxOff || o+c >= maxOff {
			continue
		}
		base[d], off[d] = b, o+c
		folded = true
	}
	if !folded {
		return f
	}
	out := &Func{}
	*out = *f
	out.Code = append([]Inst(nil), f.Code...)
	for pc := range out.Code {
		in := &out.Code[pc]
		if d := in.D[0]; valid(d) && base[d] >= 0 {
			*in = Inst{Op: OpNop, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Target: -1}
			continue
		}
		for i, a := range in.A {
			if valid(a) && base[a] >= 0 && addressOperand(in, i) {
				in.A[i], _ = resolve(a)
			}
		}
	}
	return out
}

// addressOperand reports whether in's source A[i] is an address only (SASS
// takes a register plus an immediate there): the address of a load, store
// or atomic, of a cp.async copy's destination and source, of an ldmatrix,
// stmatrix or wmma load or store.
func addressOperand(in *Inst, i int) bool {
	switch in.Op {
	case OpLd, OpSt, OpAtom, OpRed:
		return i == 0
	case OpAsync:
		return in.Mode == AsyncCopy && i <= 1
	case OpTensor:
		switch in.Mode {
		case TensorLdmatrix, TensorStmatrix, TensorWmmaLoad, TensorWmmaStore:
			return i == 0
		}
	}
	return false
}

// sinkAddresses is f with the 64-bit address sums that ptxas computes next
// to their accesses taken out, for the register estimate of a kernel short
// of registers only: a value written once as the sum of two registers that
// stay live past the sum anyway (read again later, or defined before a
// loop around it), and read only as the address of loads, stores and
// atomics. Where the PTX computes many such addresses ahead of their
// accesses (Triton's masked matmul: 32 pointer sums, then the 32 masked
// loads), ptxas computes each into a scratch register just before its
// access (its SASS reuses three address registers for the 32 loads) rather
// than keep them all live. The accesses read the sum's first operand
// instead; the scratch register is among the two estimateRegs adds.
func sinkAddresses(f *Func) *Func {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return f
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n }
	defs := make([]int32, n)
	maxDef := make([]int32, n)   // the highest pc writing each slot
	lastRead := make([]int32, n) // the highest pc reading it
	addrOnly := make([]bool, n)
	for i := range addrOnly {
		addrOnly[i] = true
		maxDef[i], lastRead[i] = -1, -1
	}
	type loop struct{ head, tail int32 }
	var loops []loop
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
				maxDef[d] = int32(pc)
			}
		}
		for i, a := range in.A {
			if !valid(a) {
				continue
			}
			lastRead[a] = int32(pc)
			if i != 0 || in.Op != OpLd && in.Op != OpSt && in.Op != OpAtom && in.Op != OpRed {
				addrOnly[a] = false
			}
		}
		if valid(in.Guard) {
			addrOnly[in.Guard] = false
			lastRead[in.Guard] = int32(pc)
		}
		if in.Op == OpBra && int(in.Target) <= pc {
			loops = append(loops, loop{in.Target, int32(pc)})
		}
	}
	konst := map[int32]bool{}
	for _, c := range f.Consts {
		konst[c.Slot] = true
	}
	liveAfter := func(x int32, pc int32) bool {
		if lastRead[x] > pc {
			return true
		}
		for _, l := range loops {
			if l.head <= pc && pc <= l.tail && maxDef[x] < l.head {
				return true
			}
		}
		return false
	}
	sunk := make([]int32, n) // the operand an access reads instead, +1
	any := false
	for pc := range f.Code {
		in := &f.Code[pc]
		d, a, b := in.D[0], in.A[0], in.A[1]
		if in.Op != OpAdd || TypeSize(in.Type) != 8 || IsFloat(in.Type) || in.Guard >= 0 || in.D[1] >= 0 ||
			!valid(d) || !valid(a) || !valid(b) || defs[d] != 1 || !addrOnly[d] || konst[a] || konst[b] {
			continue
		}
		if !liveAfter(a, int32(pc)) || !liveAfter(b, int32(pc)) {
			continue
		}
		sunk[d] = a + 1
		any = true
	}
	if !any {
		return f
	}
	out := &Func{}
	*out = *f
	out.Code = append([]Inst(nil), f.Code...)
	for pc := range out.Code {
		in := &out.Code[pc]
		if d := in.D[0]; valid(d) && sunk[d] > 0 && in.Op == OpAdd {
			*in = Inst{Op: OpNop, Guard: -1, D: noSlots4, A: noSlots5, Reconv: -1, Target: -1}
			continue
		}
		if a := in.A[0]; valid(a) && sunk[a] > 0 {
			in.A[0] = sunk[a] - 1
		}
	}
	return out
}
