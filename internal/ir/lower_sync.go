// Barriers and warp collectives: bar and barrier, shfl, vote.

package ir

import (
	"slices"

	"github.com/warpsim/warpsim/ptx"
)

func (fl *fnLowerer) lowerBar(src *ptx.Instr, m *mods) {
	ops := src.Operands
	if hasMod(src.Mods, "cluster") {
		fl.unsupported(src) // barrier.cluster: thread-block clusters
		return
	}
	if src.Op == "bar" && m.has("warp") {
		in := fl.newInst(OpBarWarp, src)
		if len(ops) == 1 {
			in.A[0] = fl.value(src, &ops[0], ptx.B32)
		}
		fl.emit(in, src)
		return
	}
	in := fl.newInst(OpBar, src)
	red := false
	for _, r := range m.rest {
		switch r {
		case "arrive":
			in.Mode = BarArrive
		case "red":
			red = true
		case "popc":
			in.Mode = BarRedPopc
		case "and":
			in.Mode = BarRedAnd
		case "or":
			in.Mode = BarRedOr
		default:
			fl.unsupported(src)
			return
		}
	}
	in.Type = m.typ(0)
	if red {
		// bar.red.op.type d, a{, b}, {!}c
		if len(ops) < 3 || len(ops) > 4 {
			fl.bad(src, "expected 3 or 4 operands")
			return
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.U32)
		if len(ops) == 4 {
			in.A[1] = fl.value(src, &ops[2], ptx.U32)
		}
		c := ops[len(ops)-1]
		if c.Kind == ptx.OpdReg && c.Neg {
			in.Flags |= FlagNegB
			c.Neg = false
		}
		in.A[2] = fl.value(src, &c, ptx.Pred)
		fl.emit(in, src)
		return
	}
	if len(ops) < 1 || len(ops) > 2 {
		fl.bad(src, "expected 1 or 2 operands")
		return
	}
	in.A[0] = fl.value(src, &ops[0], ptx.U32)
	if len(ops) == 2 {
		in.A[1] = fl.value(src, &ops[1], ptx.U32)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerShfl(src *ptx.Instr, m *mods) {
	ops := src.Operands
	in := fl.newInst(OpShfl, src)
	in.Type = ptx.B32
	mode := -1
	for _, r := range m.rest {
		switch r {
		case "up":
			mode = int(ShflUp)
		case "down":
			mode = int(ShflDown)
		case "bfly":
			mode = int(ShflBfly)
		case "idx":
			mode = int(ShflIdx)
		default:
			fl.unsupported(src)
			return
		}
	}
	if mode < 0 {
		fl.unsupported(src)
		return
	}
	in.Mode = uint8(mode)
	sync := false
	for _, s := range src.Mods {
		if s == "sync" {
			sync = true
		}
	}
	want := 4
	if sync {
		want = 5
	}
	if !fl.need(src, want) {
		return
	}
	fl.dstMaybePair(src, &in, &ops[0])
	in.A[0] = fl.value(src, &ops[1], ptx.B32)
	in.A[1] = fl.value(src, &ops[2], ptx.B32)
	in.A[2] = fl.value(src, &ops[3], ptx.B32)
	if sync {
		in.A[3] = fl.value(src, &ops[4], ptx.B32)
	}
	fl.emit(in, src)
}

func (fl *fnLowerer) lowerVote(src *ptx.Instr, m *mods) {
	ops := src.Operands
	in := fl.newInst(OpVote, src)
	mode := -1
	for _, r := range m.rest {
		switch r {
		case "all":
			mode = int(VoteAll)
		case "any":
			mode = int(VoteAny)
		case "uni":
			mode = int(VoteUni)
		case "ballot":
			mode = int(VoteBallot)
		default:
			fl.unsupported(src)
			return
		}
	}
	// "uni" is in ignoredMods for bra.uni; recover it here.
	for _, s := range src.Mods {
		if s == "uni" {
			mode = int(VoteUni)
		}
	}
	if mode < 0 || len(ops) < 2 || len(ops) > 3 {
		fl.unsupported(src)
		return
	}
	if len(ops) == 2 && slices.Contains(src.Mods, "sync") {
		fl.bad(src, "vote.sync takes 3 operands (d, predicate, membermask), found 2")
		return
	}
	in.Mode = uint8(mode)
	in.D[0] = fl.reg(src, &ops[0])
	p := ops[1]
	if p.Kind == ptx.OpdReg && p.Neg {
		in.Flags |= FlagNegB
		p.Neg = false
	}
	in.A[0] = fl.value(src, &p, ptx.Pred)
	if len(ops) == 3 {
		in.A[1] = fl.value(src, &ops[2], ptx.B32)
	}
	fl.emit(in, src)
}
