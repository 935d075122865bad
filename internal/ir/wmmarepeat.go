package ir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warpsim/warpsim/internal/tensor"
)

// markWmmaRepeats sets TensorOperands.RepeatOf on f's wmma.mma
// instructions that compute a value an earlier wmma.mma of the same
// straight code computed: the same shape and types, and A, B and C
// fragments holding the same values. ptxas computes such a value once.
// Straight code is a basic block, or the body of a loop ptxas unrolls
// fully (fullUnrollTrip): nvcc 13's SASS of four wmma chains on the same
// A and B fragments from the same zero accumulator
// (testdata/timing/wmmacse: 52 launches of f16, bf16, tf32 and s8) has one
// chain wherever the SASS is straight code — the PTX's own, or a counted
// loop ptxas unrolled — and all four wherever it keeps a loop: ptxas does
// not prove loop-carried values equal, so a loop it keeps runs every
// chain. The loop's body is value-numbered optimistically (its carried
// registers equal where they enter equal, split until the body keeps
// them equal), which is what the unrolled iterations' straight code
// shows.
func markWmmaRepeats(f *Func) {
	mmas := 0
	for pc := range f.Code {
		if isWmmaMMA(f, pc) {
			mmas++
		}
	}
	if mmas < 2 {
		return
	}
	target := make([]bool, len(f.Code)+1)
	for pc := range f.Code {
		if in := &f.Code[pc]; in.Op == OpBra && in.Target >= 0 && int(in.Target) < len(f.Code) {
			target[in.Target] = true
		}
	}
	vn := newValueNumbers(f)
	for lo := 0; lo < len(f.Code); {
		hi := lo + 1
		for hi < len(f.Code) && !target[hi] && !blockEnd(&f.Code[hi-1]) {
			hi++
		}
		if target[lo] {
			// Reached by a branch: its values are those of the block
			// before only for a loop's header reached from it (below).
			if br := &f.Code[hi-1]; br.Op == OpBra && int(br.Target) == lo && onlyTarget(f, lo, hi-1) && lo > 0 && !blockEnd(&f.Code[lo-1]) {
				if trip := fullUnrollTrip(f, hi-1, vn); trip > 0 {
					vn.loop(lo, hi-1)
					vn.reset()
					lo = hi
					continue
				}
			}
			vn.reset()
		}
		vn.block(lo, hi, true)
		if in := &f.Code[hi-1]; blockEnd(in) && !(in.Op == OpBra && in.Guard >= 0) {
			vn.reset()
		}
		lo = hi
	}
}

// blockEnd says whether in ends a basic block: a branch, a return, an
// exit, a trap or a call (whose callee may write the caller's return
// registers: the value numbers start again after it).
func blockEnd(in *Inst) bool {
	switch in.Op {
	case OpBra, OpRet, OpExit, OpTrap, OpCall:
		return true
	}
	return false
}

// onlyTarget says whether the branch at pc is the only one to target h.
func onlyTarget(f *Func, h, pc int) bool {
	for q := range f.Code {
		if in := &f.Code[q]; q != pc && in.Op == OpBra && int(in.Target) == h {
			return false
		}
	}
	return true
}

// isWmmaMMA says whether f's instruction at pc is a wmma.mma.
func isWmmaMMA(f *Func, pc int) bool {
	in := &f.Code[pc]
	return in.Op == OpTensor && in.Mode == TensorWmmaMMA && int(in.Imm) < len(f.TensorOps) && f.TensorOps[in.Imm].WMMA != nil
}

// fullUnrollBudget bounds the SASS instructions of a counted loop that
// ptxas unrolls fully: its trip count times its body's (hardware MMAs
// for a wmma.mma, wmmaSASSInsts; one for any other instruction). Bracketed
// by testdata/timing/wmmacse's study launches: cx_f16_a4_n256_u0 (8 trips
// of 259, 2,072) unrolled, cx_tf32_a2_n256_u0 (64 of 35, 2,240) kept as a
// loop; the other 14 counted loops of nvcc's default unroll there
// (1,120 or less unrolled, 2,432 and more kept) agree.
const fullUnrollBudget = 2156

// fullUnrollMaxTrips bounds the trips fullUnrollTrip counts.
const fullUnrollMaxTrips = 4096

// fullUnrollTrip is the trip count of the loop whose back edge is at pc
// when ptxas unrolls it fully — counted (loopCounter), its counter set
// from an immediate before it (vn's values at the header), no `.pragma
// "nounroll"` in it, at most fullUnrollBudget SASS instructions unrolled
// — else 0.
func fullUnrollTrip(f *Func, pc int, vn *valueNumbers) int {
	iv, bound, ok := loopCounter(f, pc)
	h := int(f.Code[pc].Target)
	if !ok || slices.ContainsFunc(f.noUnroll, func(p int32) bool { return int(p) >= h && int(p) <= pc }) {
		return 0
	}
	init, ok1 := vn.constOf(iv)
	end, ok2 := f.constValue(bound)
	if !ok1 || !ok2 {
		return 0
	}
	var step *Inst
	var cmp *Inst
	size := 0
	for q := h; q <= pc; q++ {
		in := &f.Code[q]
		if q < pc && in.Op == OpBra || in.Op == OpCall || in.Op == OpBar {
			return 0
		}
		if slices.Contains(in.D[:], iv) {
			step = in
		}
		if in.Op == OpSetp && slices.Contains(in.D[:1], f.Code[pc].Guard) {
			cmp = in
		}
		size += wmmaSASSInsts(f, q)
	}
	if step == nil || cmp == nil {
		return 0
	}
	by := step.A[1]
	if by == iv {
		by = step.A[0]
	}
	d, ok := f.constValue(by)
	if !ok {
		return 0
	}
	mask := ^uint64(0)
	if bits := 8 * TypeSize(step.Type); bits > 0 && bits < 64 {
		mask = 1<<bits - 1
	}
	v := init & mask
	for trip := 1; trip <= fullUnrollMaxTrips; trip++ {
		if step.Op == OpSub {
			v = (v - d) & mask
		} else {
			v = (v + d) & mask
		}
		equal := v == end&mask
		taken := equal == (cmp.Cmp == CmpEq)
		if f.Code[pc].GuardNeg {
			taken = !taken
		}
		if !taken {
			if trip*size > fullUnrollBudget {
				return 0
			}
			return trip
		}
	}
	return 0
}

// wmmaSASSInsts is how many SASS instructions fullUnrollBudget counts for
// f's instruction at pc: a wmma.mma's hardware MMAs (HMMA.16816 and
// IMMA.16816 for 16- and 8-bit inputs, HMMA.1684 for tf32, DMMA.884 for
// f64: two, four, one a wmma.mma of their usual shapes), one else.
func wmmaSASSInsts(f *Func, pc int) int {
	if !isWmmaMMA(f, pc) {
		return 1
	}
	elem, macs := tensorWork(&f.TensorOps[f.Code[pc].Imm])
	hw := uint32(16 * 8 * 16)
	switch elem {
	case tensor.TF32:
		hw = 16 * 8 * 4
	case tensor.F64:
		hw = 8 * 8 * 4
	}
	return max(1, int(macs/hw))
}

// wmmaValue is a wmma.mma's pc and the numbers of its D fragment.
type wmmaValue struct {
	pc   int
	nums []int32
}

// valueNumbers numbers the values f's register slots hold in straight
// code: equal numbers, equal values. A slot not yet seen holds a value of
// its own; an immediate's number is its bits'.
type valueNumbers struct {
	f      *Func
	slot   map[int32]int32
	consts map[uint64]int32     // an immediate's bits: its number
	value  map[int32]uint64     // a number an immediate's: its bits
	imm    map[int32]uint64     // a constant slot: its immediate
	mma    map[string]wmmaValue // a wmma.mma's operands and type: the first to compute it
	next   int32
}

func newValueNumbers(f *Func) *valueNumbers {
	imm := make(map[int32]uint64, len(f.Consts))
	for _, c := range f.Consts {
		imm[c.Slot] = c.Value
	}
	return &valueNumbers{f: f, slot: map[int32]int32{}, consts: map[uint64]int32{}, value: map[int32]uint64{}, imm: imm, mma: map[string]wmmaValue{}}
}

// reset forgets every slot's value (a block reached from elsewhere).
func (v *valueNumbers) reset() {
	clear(v.slot)
	clear(v.mma)
}

// fresh is a number no value had.
func (v *valueNumbers) fresh() int32 {
	v.next++
	return v.next
}

// of is slot s's number.
func (v *valueNumbers) of(s int32) int32 {
	if n, ok := v.slot[s]; ok {
		return n
	}
	n := v.fresh()
	if c, ok := v.imm[s]; ok {
		if k, ok := v.consts[c]; ok {
			n = k
		} else {
			v.consts[c], v.value[n] = n, c
		}
	}
	v.slot[s] = n
	return n
}

// constOf is the immediate slot s holds, if it holds one.
func (v *valueNumbers) constOf(s int32) (uint64, bool) {
	c, ok := v.value[v.of(s)]
	return c, ok
}

// slotsWritten is the slots instruction in writes (a tensor instruction's
// whole fragments).
func slotsWritten(f *Func, in *Inst) []int32 {
	d := slices.DeleteFunc(slices.Clone(in.D[:]), func(s int32) bool { return s < 0 })
	if in.Op == OpTensor && int(in.Imm) < len(f.TensorOps) {
		d = append(d, f.TensorOps[in.Imm].D...)
	}
	return d
}

// block numbers the values of f.Code[lo:hi], straight code, from the
// slots' numbers now; with mark, it sets the RepeatOf of each wmma.mma
// whose value an earlier one of the block computed and whose registers
// still hold it.
func (v *valueNumbers) block(lo, hi int, mark bool) {
	f := v.f
	for pc := lo; pc < hi; pc++ {
		in := &f.Code[pc]
		switch {
		case in.Op == OpMov && in.Guard < 0 && in.A[0] >= 0 && in.D[0] >= 0 && in.D[1] < 0:
			v.slot[in.D[0]] = v.of(in.A[0])
			continue
		case isWmmaMMA(f, pc) && in.Guard < 0:
			to := &f.TensorOps[in.Imm]
			var b strings.Builder
			fmt.Fprintf(&b, "%s %d %d %d %v %v %v %v %v", to.WMMA.Name, to.WMMA.M, to.WMMA.N, to.WMMA.K, to.WMMA.A, to.WMMA.B, to.WMMA.C, to.WMMA.D, to.WMMA.Satfinite)
			for _, frag := range [3][]int32{to.A, to.B, to.C} {
				b.WriteByte('|')
				for _, s := range frag {
					fmt.Fprintf(&b, " %d", v.of(s))
				}
			}
			key := b.String()
			if m, ok := v.mma[key]; ok && v.still(m) {
				for i, s := range to.D {
					v.slot[s] = m.nums[i]
				}
				if mark {
					to.RepeatOf = int32(m.pc) + 1
				}
				continue
			}
			m := wmmaValue{pc: pc, nums: make([]int32, len(to.D))}
			for i, s := range to.D {
				m.nums[i] = v.fresh()
				v.slot[s] = m.nums[i]
			}
			v.mma[key] = m
			continue
		}
		for _, s := range slotsWritten(f, in) {
			v.slot[s] = v.fresh()
		}
	}
}

// still says whether the registers of m's wmma.mma still hold its value:
// the timing model reads a repeat's result from them.
func (v *valueNumbers) still(m wmmaValue) bool {
	for i, s := range v.f.TensorOps[v.f.Code[m.pc].Imm].D {
		if v.of(s) != m.nums[i] {
			return false
		}
	}
	return true
}

// loop numbers the body f.Code[h:pc] of a loop ptxas unrolls fully
// (back edge at pc) and marks its repeats: the slots the body writes hold
// at the header what they held before it where the body keeps equal the
// slots that entered equal, found by splitting classes of slots until the
// back edge's numbers respect them.
func (v *valueNumbers) loop(h, pc int) {
	f := v.f
	var carried []int32
	for q := h; q < pc; q++ {
		for _, s := range slotsWritten(f, &f.Code[q]) {
			if !slices.Contains(carried, s) {
				carried = append(carried, s)
			}
		}
	}
	entry := make(map[int32]int32, len(v.slot))
	for s, n := range v.slot {
		entry[s] = n
	}
	// class[i]: carried[i]'s class, first by the number it enters with.
	class := make([]int32, len(carried))
	for i, s := range carried {
		class[i] = v.of(s)
	}
	for range len(carried) + 1 {
		v.restore(entry)
		header := map[int32]int32{}
		for i, s := range carried {
			n, ok := header[class[i]]
			if !ok {
				n = v.fresh()
				header[class[i]] = n
			}
			v.slot[s] = n
		}
		clear(v.mma)
		v.block(h, pc, false)
		type key struct{ class, back int32 }
		split := map[key]int32{}
		next := make([]int32, len(carried))
		for i, s := range carried {
			k := key{class[i], v.of(s)}
			n, ok := split[k]
			if !ok {
				n = int32(len(split)) + 1
				split[k] = n
			}
			next[i] = n
		}
		if len(split) == len(header) {
			// Stable: number the body once more, marking.
			v.restore(entry)
			for i, s := range carried {
				v.slot[s] = header[class[i]]
			}
			clear(v.mma)
			v.block(h, pc, true)
			return
		}
		class = next
	}
}

// restore sets every slot's number to entry's.
func (v *valueNumbers) restore(entry map[int32]int32) {
	clear(v.slot)
	for s, n := range entry {
		v.slot[s] = n
	}
}
