package ir

import (
	"math"
	"math/bits"
)

// successors lists the pcs control may reach after pc; n (len(code)) is
// the virtual exit.
func successors(f *Func, pc int, buf []int32) []int32 {
	code := f.Code
	n := len(code)
	in := &code[pc]
	next := int32(pc + 1)
	buf = buf[:0]
	switch in.Op {
	case OpBra:
		buf = append(buf, in.Target)
		if in.Guard >= 0 && int(next) != int(in.Target) {
			buf = append(buf, next)
		}
		return buf
	case OpBrx:
		for _, t := range f.BranchTables[in.Imm] {
			buf = append(buf, t)
		}
		if in.Guard >= 0 {
			buf = append(buf, next)
		}
		return buf
	case OpRet, OpExit, OpTrap:
		buf = append(buf, int32(n))
		if in.Guard >= 0 {
			buf = append(buf, next)
		}
		return buf
	}
	return append(buf, next)
}

// computeReconvergence sets each branch's Reconv to its immediate
// post-dominator (Cooper, Harvey and Kennedy's iterative algorithm on the
// reversed instruction-level CFG); -1 when the only common post-dominator
// is the function's exit.
func computeReconvergence(f *Func) {
	code := f.Code
	n := len(code)
	exit := n
	succ := make([][]int32, n+1)
	pred := make([][]int32, n+1)
	var buf []int32
	for pc := 0; pc < n; pc++ {
		buf = successors(f, pc, buf)
		succ[pc] = append([]int32(nil), buf...)
		for _, s := range buf {
			pred[s] = append(pred[s], int32(pc))
		}
	}
	// Postorder of the reversed graph from exit.
	po := make([]int32, n+1)
	for i := range po {
		po[i] = -1
	}
	var order []int32
	visited := make([]bool, n+1)
	type frame struct {
		v int32
		i int
	}
	stack := []frame{{int32(exit), 0}}
	visited[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(pred[top.v]) {
			p := pred[top.v][top.i]
			top.i++
			if !visited[p] {
				visited[p] = true
				stack = append(stack, frame{p, 0})
			}
			continue
		}
		po[top.v] = int32(len(order))
		order = append(order, top.v)
		stack = stack[:len(stack)-1]
	}
	ipdom := make([]int32, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = int32(exit)
	intersect := func(a, b int32) int32 {
		for a != b {
			for po[a] < po[b] {
				a = ipdom[a]
			}
			for po[b] < po[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 2; i >= 0; i-- {
			v := order[i]
			nd := int32(-1)
			for _, s := range succ[v] {
				if ipdom[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if nd != ipdom[v] {
				ipdom[v] = nd
				changed = true
			}
		}
	}
	for pc := range code {
		if code[pc].Op != OpBra && code[pc].Op != OpBrx {
			continue
		}
		r := ipdom[pc]
		if r == int32(exit) {
			r = -1
		}
		code[pc].Reconv = r
	}
}

// estimateRegs estimates the 32-bit registers per thread ptxas would
// allocate: the maximum number of simultaneously live register values
// (64-bit values count two), from a backward liveness analysis, plus the
// few registers the ABI reserves; at least 8 words, as ptxas never goes lower
// on sm_70+ in practice. Liveness is solved per basic block (one bit set a
// block), so a function of 70,000 straight-line instructions and as many
// registers costs a few megabytes, not gigabytes.
func estimateRegs(f *Func, width []uint8) int { return estimateRegsLive(f, width, nil) }

// estimateRegsLive is estimateRegs, and with after not nil (len(f.Code)
// long) it also records in after[pc] the 32-bit registers live right
// after each instruction (saturated at 65,535).
func estimateRegsLive(f *Func, width []uint8, after []uint16) int {
	n := len(f.Code)
	words := (f.NumSlots + 63) / 64
	if n == 0 || words == 0 {
		return 8
	}
	// Basic blocks: a block ends after an instruction whose only successor
	// is not the next one, and before every branch target.
	leader := make([]bool, n+1)
	leader[0] = true
	var buf []int32
	for pc := 0; pc < n; pc++ {
		buf = successors(f, pc, buf)
		if len(buf) == 1 && int(buf[0]) == pc+1 {
			continue
		}
		leader[pc+1] = true
		for _, s := range buf {
			if int(s) < n {
				leader[s] = true
			}
		}
	}
	var starts []int32
	blockOf := make([]int32, n)
	for pc := 0; pc < n; pc++ {
		if leader[pc] {
			starts = append(starts, int32(pc))
		}
		blockOf[pc] = int32(len(starts) - 1)
	}
	nb := len(starts)
	end := func(b int) int {
		if b+1 < nb {
			return int(starts[b+1])
		}
		return n
	}
	liveIn := make([]uint64, nb*words)
	in := func(b int) []uint64 { return liveIn[b*words : (b+1)*words] }
	tmp := make([]uint64, words)
	// liveOut fills tmp with the union of the live-in sets of b's successors.
	liveOut := func(b int) {
		clear(tmp)
		buf = successors(f, end(b)-1, buf)
		for _, s := range buf {
			if int(s) >= n {
				continue
			}
			r := in(int(blockOf[s]))
			for i := range tmp {
				tmp[i] |= r[i]
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for b := nb - 1; b >= 0; b-- {
			liveOut(b)
			for pc := end(b) - 1; pc >= int(starts[b]); pc-- {
				liveStepIn(f, &f.Code[pc], tmp, nil, nil)
			}
			r := in(b)
			for i := range tmp {
				if r[i] != tmp[i] {
					r[i] = tmp[i]
					changed = true
				}
			}
		}
	}
	w := func(s int32) int {
		if int(s) < len(width) {
			return int(width[s])
		}
		return 0
	}
	best := 0
	for b := 0; b < nb; b++ {
		liveOut(b)
		sum := 0
		for i, x := range tmp {
			for x != 0 {
				sum += w(int32(i*64 + bits.TrailingZeros64(x)))
				x &= x - 1
			}
		}
		for pc := end(b) - 1; pc >= int(starts[b]); pc-- {
			if after != nil {
				after[pc] = uint16(min(sum, math.MaxUint16))
			}
			liveStepIn(f, &f.Code[pc], tmp, &sum, w)
			best = max(best, sum)
		}
	}
	est := best + 2
	if est < 8 {
		est = 8
	}
	return est
}

// liveStep turns the live set after in into the one before it: an
// unguarded instruction's destinations die, its sources and guard come
// alive. With sum, it keeps sum the total width of the live set.
func liveStep(in *Inst, live []uint64, sum *int, w func(int32) int) {
	if in.Guard < 0 {
		for _, d := range in.D {
			if d >= 0 && live[d/64]&(1<<(d%64)) != 0 {
				live[d/64] &^= 1 << (d % 64)
				if sum != nil {
					*sum -= w(d)
				}
			}
		}
	}
	gen := func(a int32) {
		if a >= 0 && live[a/64]&(1<<(a%64)) == 0 {
			live[a/64] |= 1 << (a % 64)
			if sum != nil {
				*sum += w(a)
			}
		}
	}
	for _, a := range in.A {
		gen(a)
	}
	gen(in.Guard)
}
