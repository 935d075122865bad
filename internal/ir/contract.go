package ir

import "github.com/warpsim/warpsim/ptx"

// ptxas expands div.full.f32 d, x, y into a reciprocal (MUFU.RCP) and a
// multiply, and contracts that multiply with an add.f32 or sub.f32 without
// a rounding modifier that is d's only reader into one FFMA: the H100's
// layer norm (Triton's var + eps, testdata/triton/layernorm_f32) rounds
// x·rcp(y) + eps once. contractDivFull finds such pairs and turns the add
// into OpExt/ExtDivFullAdd, which reads x and y itself, so the result is
// the fused one; the division stays as it is (its d is then dead).
//
// The pair qualifies only when nothing can tell the difference: both
// unguarded, no label between them, d written only by the division and read
// only by the add, x and y not written in between, and the add's own flags
// (.ftz, .sat, a rounding mode) absent or equal to the division's .ftz.

// Operand layout of ExtDivFullAdd: A0 = x, A1 = y, A2 = c; Cmp bit 0: the
// result is c - x/y (sub with the quotient second), bit 1: x/y - c.
const ExtDivFullAdd uint8 = 16

// contract runs both contractions of ptxas that change a result: the
// multiply of div.full with an add, and a multiply with an add (contractMulAdd).
func contract(f *Func, labelPCs []int32) {
	contractDivFull(f, labelPCs)
	contractMulAdd(f, labelPCs)
}

func contractDivFull(f *Func, labelPCs []int32) {
	if !contractCandidate(f, func(in *Inst) bool {
		return in.Op == OpDiv && in.Type == ptx.F32 && in.Flags&FlagFull != 0
	}) {
		return
	}
	isLabel := make(map[int32]bool, len(labelPCs))
	for _, pc := range labelPCs {
		isLabel[pc] = true
	}
	uses, defs := slotCounts(f)
	for i := range f.Code {
		dv := &f.Code[i]
		if dv.Op != OpDiv || dv.Type != ptx.F32 || dv.Flags&FlagFull == 0 || dv.Guard >= 0 {
			continue
		}
		d, x, y := dv.D[0], dv.A[0], dv.A[1]
		if d < 0 || uses[d] != 1 || defs[d] != 1 || d == x || d == y {
			continue
		}
		for j := i + 1; j < len(f.Code); j++ {
			if isLabel[int32(j)] {
				break
			}
			ad := &f.Code[j]
			if reads(ad, d) {
				if (ad.Op == OpAdd || ad.Op == OpSub) && ad.Type == ptx.F32 && ad.Guard < 0 && ad.Rnd == RndNone &&
					ad.Flags&^FlagFtz == 0 && ad.Flags&FlagFtz == dv.Flags&FlagFtz && ad.A[0] != ad.A[1] {
					var c int32
					var mode uint8
					if ad.A[1] == d {
						c = ad.A[0]
						if ad.Op == OpSub {
							mode = 1
						}
					} else {
						c = ad.A[1]
						if ad.Op == OpSub {
							mode = 2
						}
					}
					ad.Op, ad.Mode, ad.Cmp = OpExt, ExtDivFullAdd, mode
					ad.A[0], ad.A[1], ad.A[2] = x, y, c
				}
				break
			}
			if writes(ad, x) || writes(ad, y) || isFlow(ad.Op) {
				break
			}
		}
	}
}

// contractCandidate reports whether f has an instruction that want
// accepts and none whose operands live outside Inst (textures, surfaces,
// calls), which the contractions do not follow.
func contractCandidate(f *Func, want func(*Inst) bool) bool {
	found := false
	for i := range f.Code {
		switch f.Code[i].Op {
		case OpTex, OpSuld, OpSust, OpCall:
			return false
		}
		found = found || want(&f.Code[i])
	}
	return found
}

// slotCounts counts, for each slot, its appearances as an operand or guard
// (uses) and the instructions writing it (defs), indexed by slot (slices:
// lowering calls it on every function, and maps cost a loaded module's
// allocations, TestModuleMemoryBound).
func slotCounts(f *Func) (uses, defs []int) {
	n := int32(f.NumSlots)
	for i := range f.TensorOps {
		t := &f.TensorOps[i]
		for _, l := range [][]int32{t.D, t.A, t.B, t.C} {
			for _, x := range l {
				n = max(n, x+1)
			}
		}
	}
	for i := range f.Code {
		in := &f.Code[i]
		n = max(n, in.Guard+1)
		for _, a := range in.A {
			n = max(n, a+1)
		}
		for _, d := range in.D {
			n = max(n, d+1)
		}
	}
	counts := make([]int, 2*n)
	uses, defs = counts[:n:n], counts[n:]
	for i := range f.Code {
		in := &f.Code[i]
		for _, a := range in.A {
			if a >= 0 {
				uses[a]++
			}
		}
		if in.Guard >= 0 {
			uses[in.Guard]++
		}
		for _, d := range in.D {
			if d >= 0 {
				defs[d]++
			}
		}
	}
	return uses, defs
}

func reads(in *Inst, s int32) bool {
	for _, a := range in.A {
		if a == s {
			return true
		}
	}
	return false
}

func writes(in *Inst, s int32) bool {
	for _, d := range in.D {
		if d == s {
			return true
		}
	}
	return false
}

func isFlow(op Op) bool {
	switch op {
	case OpBra, OpBrx, OpCall, OpRet, OpExit, OpTrap, OpBar:
		return true
	}
	return false
}

// ptxas contracts a multiply and an add (or sub) that carry no rounding
// modifier into one fused multiply-add, as the PTX ISA allows ("mul/add
// sequences with no rounding modifiers may be optimized to use
// fused-multiply-add instructions on the target device"); an explicit .rn
// on either keeps both roundings. The H100's SASS of testdata/contract's
// probes (nvcc 13's PTX) shows the rule: a product whose readers are all
// such adds or subs is multiplied again in each (f32_add_sub: two FFMAs,
// f32_five_adds: five; f16_hmul_hadd: one HFMA2), a product with any other
// reader (a store, a shuffle, a compare) stays rounded for all of them
// (f32_add_store; f16_two_uses: HMUL2, HADD2; llm.c's softmax,
// testdata/programs6), and a label that no branch targets does not
// separate the two. nvcc's own `c[i] - y[i]*y[j]` is `mul.f32; sub.f32`
// in its PTX and one FFMA in the SASS (testdata/programs3 streams_events).
//
// contractMulAdd finds such multiplies (unguarded, the product written
// only by the multiply, .ftz alike and nothing else on either) for f32,
// f64, f16, bf16 and their x2 forms whose every reader is such an add or
// sub, and rewrites each reader: an add becomes OpFma of the multiply's
// operands and the addend; a sub becomes OpExt/ExtMulAdd, which negates the
// product or the addend. The multiply stays (its result unread).
//
// Where the readers may be. In the multiply's block (no branch lands and
// none leaves between them, nothing between rewrites the operands), always.
// In other blocks only when one operand is a value ptxas can read again
// anywhere without keeping a register live: an immediate, a kernel
// parameter or a `__constant__` variable at a fixed address (both are
// constant-bank operands in SASS). clang keeps lbm's 19-direction collision
// loop (testdata/programs8) and computes the loop-invariant 1.5·|u|² before
// it, and the H100's SASS of that PTX subtracts it inside the loop as
// `FFMA R11, R10, -1.5, R11`; nvcc's PTX of programs9's ray tracer squares
// a sphere's radius (`ld.const`) before its loop and subtracts it inside,
// and the SASS has `FFMA R15, -R15, R15, R18` in the loop. The probe
// testdata/programs9/probe/hoist.cu settles the rule on ten loop-invariant
// products added in a loop: param·param, param², const·const, const²,
// const·param, const·register, param·register and immediate·register are
// FFMAs in the loop, register·register and register² (a loaded value
// squared) stay an FMUL before it with FADDs in it; likewise a product of
// two registers computed before a loop (testdata/contract f32_hoisted) or
// read in both arms of a branch (f32_branch_add_only). In PTX, where a register
// may be written again, such a reader is rewritten only when every path
// that reaches it comes from the multiply (walking back from the reader,
// the function's entry is not reached without passing it) and nothing on
// those paths writes the multiply's register operand.

// ExtMulAdd is a multiply and a sub that ptxas contracted: A0·A1 + A2
// rounded once, with Cmp bit 0 negating the product (c - a·b) and bit 1
// the addend (a·b - c); Type is the sub's.
const ExtMulAdd uint8 = 17

// contractWalkLimit bounds the instructions one multiply's backward walks
// visit; a multiply whose readers lie further away stays unfused.
const contractWalkLimit = 1 << 15

func contractMulAdd(f *Func, labelPCs []int32) {
	isMul := func(in *Inst) bool {
		return in.Op == OpMul && contractible(in.Type) && in.Guard < 0 && in.Rnd == RndNone && in.Flags&^FlagFtz == 0
	}
	if !contractCandidate(f, isMul) {
		return
	}
	indirect := false
	for i := range f.Code {
		if f.Code[i].Op == OpBrx {
			indirect = true
		}
	}
	// pred lists the pcs control reaches pc from; a label no branch
	// targets (clang's line tables put one wherever an inlined function
	// begins or ends, often between a product and its add: cuda_fp16.h's
	// __hmul and __hadd, testdata/contract f16_hmul_hadd, one HFMA2) is no
	// edge at all.
	n := len(f.Code)
	pred := make([][]int32, n)
	var buf []int32
	for pc := 0; pc < n; pc++ {
		buf = successors(f, pc, buf)
		for _, s := range buf {
			if int(s) < n {
				pred[s] = append(pred[s], int32(pc))
			}
		}
	}
	isTarget := make([]bool, n+1) // a branch lands at pc
	for pc := range f.Code {
		if f.Code[pc].Op == OpBra {
			isTarget[f.Code[pc].Target] = true
		}
	}
	if indirect { // with an indirect branch every label may be landed at
		for _, pc := range labelPCs {
			isTarget[pc] = true
		}
	}
	uses, defs := slotCounts(f)
	remat := rematerializable(f, defs)
	readersOf := map[int32][]int{}
	for j := range f.Code {
		for _, a := range f.Code[j].A {
			if a >= 0 && (len(readersOf[a]) == 0 || readersOf[a][len(readersOf[a])-1] != j) {
				readersOf[a] = append(readersOf[a], j)
			}
		}
	}
	seen := make([]int32, n) // the multiply's pc+1 that last visited a pc
	for i := range f.Code {
		mv := &f.Code[i]
		if !isMul(mv) {
			continue
		}
		d, x, y := mv.D[0], mv.A[0], mv.A[1]
		if d < 0 || x < 0 || y < 0 || uses[d] < 1 || defs[d] != 1 || d == x || d == y {
			continue
		}
		// Every reader of the product must be such an add or sub (one
		// other reader keeps the product rounded for all: ptxas multiplies
		// again in each, testdata/contract f32_add_sub, f32_five_adds).
		readers := readersOf[d]
		ok := len(readers) == uses[d]
		for _, j := range readers {
			ad := &f.Code[j]
			if !ok || !((ad.Op == OpAdd || ad.Op == OpSub) && ad.Type == mv.Type && ad.Guard < 0 && ad.Rnd == RndNone &&
				ad.Flags == mv.Flags && ad.A[0] != ad.A[1] && ad.A[0] >= 0 && ad.A[1] >= 0) {
				ok = false
				break
			}
		}
		if ok && !contractSameBlock(f, isTarget, i, readers, x, y) {
			// Readers elsewhere: only with an operand ptxas can have again
			// anywhere without a register (and not past an indirect
			// branch, whose table the walk does not read).
			ok = !indirect && (remat[x] || remat[y])
			budget := contractWalkLimit
			for _, j := range readers {
				if !ok {
					break
				}
				ok = contractPathClean(f, pred, seen, int32(i), int32(j), x, y, &budget)
			}
		}
		if !ok {
			continue
		}
		for _, j := range readers {
			ad := &f.Code[j]
			c, second := ad.A[0], true
			if ad.A[0] == d {
				c, second = ad.A[1], false
			}
			if ad.Op == OpAdd {
				ad.Op, ad.Rnd = OpFma, RndRN
			} else {
				var mode uint8 = 2 // d - c
				if second {
					mode = 1 // c - d
				}
				ad.Op, ad.Mode, ad.Cmp = OpExt, ExtMulAdd, mode
			}
			ad.A[0], ad.A[1], ad.A[2] = x, y, c
		}
	}
}

// rematerializable marks the slots whose value ptxas can read anywhere
// without a register: immediates (Func.Consts) and registers written once,
// unguarded, by a load of a kernel parameter or of a `.const` variable at a
// fixed address (no register in the address), which SASS reads as c[bank]
// operands.
func rematerializable(f *Func, defs []int) map[int32]bool {
	r := map[int32]bool{}
	for _, c := range f.Consts {
		r[c.Slot] = true
	}
	for i := range f.Code {
		in := &f.Code[i]
		if in.Op != OpLd || in.Guard >= 0 || in.A[0] >= 0 || !(in.Space == ptx.SpaceConst || in.SymKind == SymKParam) {
			continue
		}
		for k := 0; k < int(in.Vec) && k < len(in.D); k++ {
			if d := in.D[k]; d >= 0 && defs[d] == 1 {
				r[d] = true
			}
		}
	}
	return r
}

// contractSameBlock reports whether every reader (in pc order) follows
// the multiply at pc m in its block: no branch lands after m up to the
// last reader, no branch, barrier or exit comes before it, and nothing
// between writes x or y.
func contractSameBlock(f *Func, isTarget []bool, m int, readers []int, x, y int32) bool {
	last := readers[len(readers)-1]
	if readers[0] <= m {
		return false
	}
	for k := m + 1; k <= last; k++ {
		if isTarget[k] {
			return false
		}
		if k < last {
			if in := &f.Code[k]; isFlow(in.Op) || writes(in, x) || writes(in, y) {
				return false
			}
		}
	}
	return true
}

// contractPathClean walks back from the reader at pc r to the multiply at
// pc m: it reports whether every path into r comes from m (the entry is
// not reached first) and no instruction on the way writes x or y. seen
// marks the pcs visited for m (m+1), budget bounds the visits.
func contractPathClean(f *Func, pred [][]int32, seen []int32, m, r int32, x, y int32, budget *int) bool {
	mark := m + 1
	stack := []int32{r}
	first := true
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !first {
			if pc == m {
				continue
			}
			if seen[pc] == mark {
				continue
			}
			seen[pc] = mark
			if *budget--; *budget < 0 {
				return false
			}
			if in := &f.Code[pc]; writes(in, x) || writes(in, y) {
				return false
			}
		}
		first = false
		if pc == 0 {
			return false // the entry, reached without the multiply
		}
		if len(pred[pc]) == 0 && pc != 0 {
			continue // unreachable code
		}
		stack = append(stack, pred[pc]...)
	}
	return true
}

// contractible reports the types whose mul and add ptxas contracts.
func contractible(t ptx.Type) bool {
	switch t {
	case ptx.F32, ptx.F64, ptx.F16, ptx.F16x2, ptx.BF16, ptx.BF16x2:
		return true
	}
	return false
}
