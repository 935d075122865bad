// Liveness inputs: immediates' widths, tensor fragments' registers and one instruction's step of the live set.

package ir

// immediateWidths is width with the registers ptxas turns into immediate
// operands taken out (width 0), for the register estimate only: a 32-bit
// register written once, by a mov of a constant (mov.b32 %r9, 0f3DC6B27F,
// as Triton's PTX writes a polynomial's coefficients), and read only by
// arithmetic that takes an immediate operand and reads no other constant.
// ptxas folds the constant into each reader (Triton's math_f32 SASS:
// FFMA.FTZ R0, R7, R0, 0.1398...), so it needs no register.
func immediateWidths(f *Func, width []uint8) []uint8 {
	n := f.NumSlots
	if n == 0 || len(f.Code) == 0 {
		return width
	}
	valid := func(s int32) bool { return s >= 0 && int(s) < n && int(s) < len(width) }
	isConst := make([]bool, n)
	for _, c := range f.Consts {
		if valid(c.Slot) {
			isConst[c.Slot] = true
		}
	}
	// cand: written once, by an unguarded mov of a constant, 32 bits wide.
	defs := make([]int32, n)
	cand := make([]bool, n)
	for pc := range f.Code {
		in := &f.Code[pc]
		for _, d := range in.D {
			if valid(d) {
				defs[d]++
			}
		}
		if d := in.D[0]; in.Op == OpMov && valid(d) && in.Guard < 0 && in.D[1] < 0 && valid(in.A[0]) && isConst[in.A[0]] && width[d] == 1 {
			cand[d] = true
		}
	}
	for s := range cand {
		if cand[s] && defs[s] != 1 {
			cand[s] = false
		}
	}
	// A reader keeps its operands registers unless it takes an immediate
	// and reads only this one constant.
	for pc := range f.Code {
		in := &f.Code[pc]
		consts := 0
		for _, a := range in.A {
			if valid(a) && (isConst[a] || cand[a]) {
				consts++
			}
		}
		ok := consts <= 1 && immediateReader(in.Op)
		for _, a := range in.A {
			if !ok && valid(a) && cand[a] {
				cand[a] = false
			}
		}
		// A tensor instruction's fragments and accumulators are registers.
		tensorRegs(f, in, func(d int32) {}, func(a int32) {
			if valid(a) {
				cand[a] = false
			}
		})
		if valid(in.Guard) {
			cand[in.Guard] = false
		}
	}
	var out []uint8
	for s, c := range cand {
		if !c {
			continue
		}
		if out == nil {
			out = append([]uint8(nil), width...)
		}
		out[s] = 0
	}
	if out == nil {
		return width
	}
	return out
}

// immediateReader reports whether ptxas gives op's SASS an immediate
// source operand.
func immediateReader(op Op) bool {
	switch op {
	case OpAdd, OpSub, OpMul, OpMad, OpFma, OpMin, OpMax, OpAnd, OpOr, OpXor, OpShl, OpShr,
		OpSelp, OpSetp, OpSet, OpSlct, OpLop3, OpPrmt, OpShf, OpBfe, OpBfi:
		return true
	}
	return false
}

// tensorRegs calls def for every register an OpTensor or OpAsync
// instruction writes and use for every one it reads, from its full operand
// lists (Func.TensorOps): Inst.D and Inst.A hold only the first four
// destinations and five sources, and an MMA's fragments are more — an
// m16n8k16 mma.sync reads ten registers and its accumulator, a
// wgmma.mma_async m64n256 writes and reads 128 accumulators. The
// accumulators of a wgmma that accumulates (scale-d not the immediate 0)
// are read as well as written: they are live from the instruction that
// set them up to the wgmma, and from it to the reads after its
// wgmma.wait_group, as ptxas must keep them (wgmma.ptx's m64n256 kernels:
// 154 registers by ptxas's count). It covers the modes wholeFragments
// names and reports false for other instructions.
func tensorRegs(f *Func, in *Inst, def, use func(int32)) bool {
	if in.Op != OpTensor || !wholeFragments(in.Mode) || in.Imm < 0 || int(in.Imm) >= len(f.TensorOps) {
		return false
	}
	to := &f.TensorOps[in.Imm]
	for _, d := range to.D {
		def(d)
	}
	for _, l := range [][]int32{to.A, to.B, to.C} {
		for _, a := range l {
			use(a)
		}
	}
	if in.Op == OpTensor && in.Mode == TensorWgmma && (to.ScaleD >= 0 || to.Num != 0) {
		for _, d := range to.D {
			use(d)
		}
	}
	if in.Op == OpTensor && to.MMA != nil && to.MMA.Sparse {
		use(to.Meta)
	}
	return true
}

// wholeFragments says whether tensorRegs gives the full operand lists of
// an OpTensor instruction of mode m: wgmma.mma_async's, and the wmma
// forms' (a fragment of wmma.load, wmma.store and wmma.mma is up to
// eight registers, of which Inst.D and Inst.A hold four and the
// scoreboard's few). mma.sync's and ldmatrix's stay as Inst.D and Inst.A
// have them: the estimate of Triton's mma.sync kernels was chosen so
// (their full fragments make sm_80 matmuls 107 → 147 registers where
// ptxas has 90).
func wholeFragments(m uint8) bool {
	switch m {
	case TensorWgmma, TensorWmmaLoad, TensorWmmaStore, TensorWmmaMMA:
		return true
	}
	return false
}

// liveStepIn is liveStep with an OpTensor or OpAsync instruction's full
// operand lists (tensorRegs): its destinations die (when unguarded), then
// its sources, guard and accumulators come alive.
func liveStepIn(f *Func, in *Inst, live []uint64, sum *int, w func(int32) int) {
	if in.Op != OpTensor && in.Op != OpAsync {
		liveStep(in, live, sum, w)
		return
	}
	nslots := int32(len(live) * 64)
	kill := func(d int32) {
		if in.Guard < 0 && d >= 0 && d < nslots && live[d/64]&(1<<(d%64)) != 0 {
			live[d/64] &^= 1 << (d % 64)
			if sum != nil {
				*sum -= w(d)
			}
		}
	}
	gen := func(a int32) {
		if a >= 0 && a < nslots && live[a/64]&(1<<(a%64)) == 0 {
			live[a/64] |= 1 << (a % 64)
			if sum != nil {
				*sum += w(a)
			}
		}
	}
	for _, d := range in.D {
		kill(d)
	}
	var uses []int32
	if !tensorRegs(f, in, kill, func(a int32) { uses = append(uses, a) }) {
		liveStep(in, live, sum, w)
		return
	}
	for _, a := range in.A {
		gen(a)
	}
	for _, a := range uses {
		gen(a)
	}
	gen(in.Guard)
}
