package ir

import "github.com/warpsim/warpsim/ptx"

// Warp aggregation of atomics (Inst.Agg): what ptxas (CUDA 13, sm_90) makes
// of an atom or red whose address it can prove the same in every lane of
// the warp, as recorded on an H100 (testdata/timing/atomagg: the SASS of 141
// kernels, README.md states the rule).
const (
	AggNone uint8 = iota
	// AggElect: one lane (the highest active one: VOTEU.ANY, FLO) performs
	// the warp's atomic with the warp's combined operand (POPC of the vote
	// times the operand for an add of a uniform value, REDUX.SUM/MIN/MAX/
	// AND/OR/XOR of the lanes' values for a red); each lane's result, when
	// used, is the elected lane's plus its rank (a SHFL.IDX and an add).
	// red.shared.add of an immediate is ATOMS.POPC.INC, one update too.
	AggElect
	// AggFullWarp: atom.add of a varying 32-bit value whose result is used.
	// A full warp adds its inclusive scan (five SHFL.UP) with one ATOM from
	// lane 31 and broadcasts the result (SHFL.IDX), so the warp waits for
	// it; a warp with inactive lanes runs the plain per-lane ATOM.
	AggFullWarp
)

// markWarpAggregated sets Inst.Agg on f's atom and red instructions from a
// uniformity analysis of f's registers (uniformSlots), as ptxas decides:
//
//   - the address must be warp-uniform (a register proved uniform, or none:
//     a symbol), in global, shared or generic space;
//   - add of a 32- or 64-bit integer with a uniform operand (atom or red):
//     AggElect (not in shared memory for 64 bits: ptxas makes a CAS loop);
//   - red (or an atom whose result no instruction reads: ptxas makes it a
//     RED) of a 32-bit integer add, min, max, and, or or xor with a varying
//     operand: AggElect (REDUX);
//   - atom.add of a varying 32-bit integer whose result is used: AggFullWarp;
//   - everything else (floating point, inc, dec, exch, cas, and/or/xor/min/
//     max with a result, 64-bit REDUX forms) is not aggregated.
//
// The engine's results do not change: it performs a warp's lanes in lane
// order, which is what the aggregated SASS returns to each lane (the
// highest active lane's one update of base + rank). The timing model costs
// a marked atomic as the aggregated SASS runs it.
func markWarpAggregated(f *Func) {
	has := false
	for i := range f.Code {
		if op := f.Code[i].Op; op == OpAtom || op == OpRed {
			has = true
			break
		}
	}
	if !has {
		return
	}
	varying := uniformSlots(f)
	isVarying := func(s int32) bool { return s >= 0 && int(s) < len(varying) && varying[s] }
	var read []bool // slots some instruction reads (an atom's result is used)
	for i := range f.Code {
		in := &f.Code[i]
		in.Agg = AggNone
		if in.Op != OpAtom && in.Op != OpRed || in.Type == ptx.B128 || isVarying(in.A[0]) {
			continue
		}
		if in.Space != ptx.SpaceGlobal && in.Space != ptx.SpaceShared && in.Space != ptx.SpaceGeneric {
			continue
		}
		if IsFloat(in.Type) {
			continue
		}
		size := TypeSize(in.Type)
		if size != 4 && size != 8 {
			continue
		}
		used := false
		if in.Op == OpAtom {
			if read == nil {
				read = readSlots(f)
			}
			used = in.D[0] >= 0 && int(in.D[0]) < len(read) && read[in.D[0]]
		}
		uniVal := !isVarying(in.A[1])
		switch {
		case in.Mode == AtomAdd && uniVal && (size == 4 || in.Space != ptx.SpaceShared):
			in.Agg = AggElect
		case !used && size == 4 && in.Mode <= AtomXor: // add, min, max, and, or, xor
			in.Agg = AggElect
		case used && size == 4 && in.Mode == AtomAdd:
			in.Agg = AggFullWarp
		}
	}
}

// readSlots reports the slots some instruction of f reads.
func readSlots(f *Func) []bool {
	read := make([]bool, f.NumSlots)
	mark := func(s int32) {
		if s >= 0 && int(s) < len(read) {
			read[s] = true
		}
	}
	for i := range f.Code {
		in := &f.Code[i]
		mark(in.Guard)
		for _, a := range in.A {
			mark(a)
		}
		switch in.Op {
		case OpTensor, OpAsync:
			if int(in.Imm) < len(f.TensorOps) {
				t := &f.TensorOps[in.Imm]
				for _, s := range [][]int32{t.A, t.B, t.C} {
					for _, x := range s {
						mark(x)
					}
				}
				mark(t.Dst)
				mark(t.Src)
				mark(t.SrcSize)
				mark(t.Stride)
				mark(t.ADesc)
				mark(t.BDesc)
				mark(t.ScaleD)
			}
		case OpTex, OpSuld, OpSust:
			if int(in.Imm) < len(f.TexOps) {
				t := &f.TexOps[in.Imm]
				mark(t.Handle)
				mark(t.Lod)
				for k := range t.Coords {
					mark(t.Coords[k])
					mark(t.Vals[k])
				}
			}
		case OpBrx:
			mark(in.A[0])
		case OpCall, OpLibcall, OpVprintf, OpDevRT:
			// Arguments go through the frame, or are A slots; a call may
			// read anything it was given: be safe and count every D too.
			for _, d := range in.D {
				mark(d)
			}
		}
	}
	return read
}

// uniformSlots is a static uniformity analysis of f's register slots, as
// ptxas's decides which atomics to aggregate (recorded: testdata/timing/
// atomagg). It returns, for each slot, whether its value may differ between
// the lanes of a warp (varying); the others are uniform.
//
// Sources: constants, kernel parameters, %ctaid, %nctaid, %ntid, %smid,
// %warpid, %nwarpid, %gridid, the cluster registers, symbol addresses,
// vote, redux.sync and activemask results are uniform; %tid, %laneid,
// %lanemask_*, %clock*, %globaltimer* and %pm* are varying, and so is what
// an atom returns, match, elect's predicate, tex and surface loads, tensor
// and asynchronous-copy results and loads from local memory (a function's
// own .param and .local). A load from another space is uniform when its
// address is; a shfl.idx is when its lane is, up, down and bfly when the
// value shuffled is. Any other result is varying when an operand (the
// carry flag of addc/madc included) is.
//
// Control flow: a branch whose predicate is varying (not bra.uni) is
// divergent; its region is what can run between it and its reconvergence
// point (Inst.Reconv, or the exit). A register written in such a region is
// varying when it is written elsewhere too (a merge of the paths, a loop-
// carried value of a divergent loop) or read outside the region (the lanes
// that left disagree); so is one written under a varying guard that is
// written elsewhere too. Registers no instruction of f is known to write
// (other than constants) are varying. The analysis iterates to a fixed
// point: divergent branches make registers varying, which may make more
// branches divergent.
//
// What ptxas proves beyond this (recorded): %laneid >> 5 and %laneid & 32
// are 0, x & 0 is 0 — constant folding and value ranges, not modelled.
func uniformSlots(f *Func) []bool {
	n := f.NumSlots
	varying := make([]bool, n+1) // slot n: the carry flag
	carry := int32(n)
	code := f.Code
	isConst := make([]bool, n)
	for _, c := range f.Consts {
		if c.Slot >= 0 && int(c.Slot) < n {
			isConst[c.Slot] = true
		}
	}
	// Static definitions and uses: per slot, the pcs that write it and the
	// pcs that read it.
	defs := make([][]int32, n)
	uses := make([][]int32, n)
	addDef := func(s int32, pc int) {
		if s >= 0 && int(s) < n {
			defs[s] = append(defs[s], int32(pc))
		}
	}
	addUse := func(s int32, pc int) {
		if s >= 0 && int(s) < n {
			uses[s] = append(uses[s], int32(pc))
		}
	}
	extraDefs := func(in *Inst, fn func(int32)) {
		switch in.Op {
		case OpTensor, OpAsync:
			if int(in.Imm) < len(f.TensorOps) {
				for _, d := range f.TensorOps[in.Imm].D {
					fn(d)
				}
			}
		}
	}
	for pc := range code {
		in := &code[pc]
		for _, d := range in.D {
			addDef(d, pc)
		}
		extraDefs(in, func(d int32) { addDef(d, pc) })
		addUse(in.Guard, pc)
		for _, a := range in.A {
			addUse(a, pc)
		}
	}
	for s := 0; s < n; s++ {
		if len(defs[s]) == 0 && !isConst[s] {
			varying[s] = true
		}
	}
	setVarying := func(s int32) bool {
		if s >= 0 && int(s) <= n && !varying[s] {
			varying[s] = true
			return true
		}
		return false
	}
	isVar := func(s int32) bool { return s >= 0 && int(s) <= n && varying[s] }
	// Divergent regions, one branch at a time: seen[pc] == mark holds pc
	// in the region of the branch at mark-1. work bounds the walks: past
	// it (huge functions with many divergent branches) every register but
	// the constants counts as varying, and nothing is aggregated.
	succBuf := make([]int32, 0, 4)
	region := make([]int32, 0, 64)
	seen := make([]int32, len(code))
	divDone := make([]bool, len(code))
	work := 0
	const maxWork = 1 << 24
	for {
		changed := false
		// Data flow to a fixed point.
		for again := true; again; {
			again = false
			for pc := range code {
				in := &code[pc]
				if resultVarying(f, in, isVar) {
					for _, d := range in.D {
						if setVarying(d) {
							again = true
						}
					}
					extraDefs(in, func(d int32) {
						if setVarying(d) {
							again = true
						}
					})
					if in.Flags&FlagCC != 0 && setVarying(carry) {
						again = true
					}
				}
				// A write under a varying guard merges with the others.
				if in.Guard >= 0 && isVar(in.Guard) {
					for _, d := range in.D {
						if d >= 0 && int(d) < n && len(defs[d]) > 1 && setVarying(d) {
							again = true
						}
					}
				}
			}
			changed = changed || again
		}
		// Divergent branches not yet looked at: their regions.
		grew := false
		for pc := range code {
			in := &code[pc]
			divergent := false
			switch in.Op {
			case OpBra:
				divergent = in.Guard >= 0 && isVar(in.Guard) && in.Flags&FlagUni == 0
			case OpBrx:
				divergent = isVar(in.A[0]) || in.Guard >= 0 && isVar(in.Guard)
			}
			if !divergent || divDone[pc] {
				continue
			}
			divDone[pc] = true
			if work > maxWork {
				for d := range varying[:n] {
					varying[d] = !isConst[d]
				}
				return varying[:n]
			}
			// The region: reachable from the branch's successors without
			// passing its reconvergence point.
			region = region[:0]
			stop := int(in.Reconv)
			mark := int32(pc + 1)
			inRegion := func(t int32) bool { return seen[t] == mark }
			push := func(t int32) {
				if int(t) < len(code) && int(t) != stop && seen[t] != mark {
					seen[t] = mark
					region = append(region, t)
				}
			}
			for _, s := range successors(f, pc, succBuf[:0]) {
				push(s)
			}
			for i := 0; i < len(region); i++ {
				for _, s := range successors(f, int(region[i]), succBuf[:0]) {
					push(s)
				}
			}
			work += len(region)
			for _, r := range region {
				ri := &code[r]
				check := func(d int32) {
					if d < 0 || int(d) >= n || varying[d] {
						return
					}
					v := false
					for _, o := range defs[d] {
						if !inRegion(o) {
							v = true // written outside the region too
						}
					}
					if len(defs[d]) > 1 {
						v = true // paths or iterations merge
					}
					for _, u := range uses[d] {
						if !inRegion(u) {
							v = true // read where the lanes have rejoined
						}
					}
					if v {
						varying[d] = true
						grew = true
					}
				}
				for _, d := range ri.D {
					check(d)
				}
				extraDefs(ri, check)
			}
		}
		if !changed && !grew {
			break
		}
	}
	return varying[:n]
}

// resultVarying reports whether what in writes may differ between lanes.
func resultVarying(f *Func, in *Inst, isVar func(int32) bool) bool {
	anyA := func() bool {
		for _, a := range in.A {
			if isVar(a) {
				return true
			}
		}
		return in.Flags&FlagCarryIn != 0 && isVar(int32(f.NumSlots))
	}
	switch in.Op {
	case OpMovSreg:
		switch Sreg(in.Imm) {
		case SregTidX, SregTidY, SregTidZ, SregLaneid, SregLanemaskEq, SregLanemaskLt, SregLanemaskLe,
			SregLanemaskGt, SregLanemaskGe, SregClock, SregClock64, SregGlobaltimer, SregGlobaltimerLo,
			SregGlobaltimerHi, SregPm:
			return true
		}
		return false
	case OpMovAddr:
		return in.SymKind == SymFrame || in.SymKind == SymFrameTop
	case OpLd:
		if in.Space == ptx.SpaceLocal || in.SymKind == SymFrame || in.SymKind == SymFrameTop {
			return true
		}
		return isVar(in.A[0])
	case OpAtom, OpMatch, OpTex, OpSuld, OpTensor, OpAsync, OpCall, OpLibcall, OpVprintf, OpDevRT:
		return true
	case OpVote, OpRedux, OpActivemask:
		return false
	case OpShfl:
		if in.Mode == ShflIdx {
			return isVar(in.A[1])
		}
		return isVar(in.A[0])
	case OpExt:
		if in.Mode == ExtElect {
			return true
		}
		return anyA()
	}
	return anyA()
}
