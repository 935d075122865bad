package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
)

func (wp *warp) shfl(in *ir.Inst, exec uint32) {
	a, b, c := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
	src := &wp.tmp
	var valid [32]bool
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		lane := int(b[l] & 31)
		cv := uint32(c[l])
		clamp := int(cv & 31)
		segMask := int(cv>>8) & 31
		maxLane := (l & segMask) | (clamp &^ segMask)
		minLane := l & segMask
		var j int
		ok := true
		switch in.Mode {
		case ir.ShflUp:
			j = l - lane
			ok = j >= maxLane
		case ir.ShflDown:
			j = l + lane
			ok = j <= maxLane
		case ir.ShflBfly:
			j = l ^ lane
			ok = j <= maxLane
		case ir.ShflIdx:
			j = minLane | (lane &^ segMask)
			ok = j <= maxLane
		}
		if !ok || j < 0 || j > 31 {
			j = l
		}
		src[l] = a[j]
		valid[l] = ok && exec>>uint(j)&1 != 0
	}
	d := wp.r(in.D[0])
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 {
			d[l] = src[l] & 0xffffffff
		}
	}
	if in.D[1] >= 0 {
		p := wp.r(in.D[1])
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				p[l] = b2u(valid[l])
			}
		}
	}
}

func (wp *warp) predMask(in *ir.Inst, s int32, exec uint32) uint32 {
	p := wp.r(s)
	var m uint32
	for l := 0; l < 32; l++ {
		v := p[l] != 0
		if in.Flags&ir.FlagNegB != 0 {
			v = !v
		}
		if v {
			m |= 1 << l
		}
	}
	return m & exec
}

func (wp *warp) vote(in *ir.Inst, exec uint32) {
	// The vote is over the executing lanes that the member mask names
	// (PTX ISA, vote.sync). Lanes running in lockstep may pass different
	// masks (cooperative-groups tiles: each lane names its own tile), so
	// each lane votes with its own group.
	pm := wp.predMask(in, in.A[0], exec)
	var masks *[32]uint64
	if in.A[1] >= 0 {
		masks = wp.r(in.A[1])
	}
	d := wp.r(in.D[0])
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		group := exec
		if masks != nil {
			group &= uint32(masks[l])
		}
		p := pm & group
		var v uint64
		switch in.Mode {
		case ir.VoteAll:
			v = b2u(p == group)
		case ir.VoteAny:
			v = b2u(p != 0)
		case ir.VoteUni:
			v = b2u(p == 0 || p == group)
		case ir.VoteBallot:
			v = uint64(p)
		}
		d[l] = v
	}
}

func (wp *warp) match(in *ir.Inst, exec uint32) {
	// Each lane matches among the executing lanes its own member mask names
	// (lanes in lockstep may name different groups: cooperative-groups
	// tiles).
	a := wp.r(in.A[0])
	m := typeMask(in.Type)
	var masks *[32]uint64
	if in.A[1] >= 0 {
		masks = wp.r(in.A[1])
	}
	var p *[32]uint64
	if in.D[1] >= 0 {
		p = wp.r(in.D[1])
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		group := exec
		if masks != nil {
			group &= uint32(masks[l])
		}
		var same uint32
		for k := 0; k < 32; k++ {
			if group>>k&1 != 0 && a[k]&m == a[l]&m {
				same |= 1 << k
			}
		}
		if in.Mode == 1 { // all: the group if every lane in it has the value
			all := same == group
			if all {
				wp.tmp[l] = uint64(group)
			} else {
				wp.tmp[l] = 0
			}
			if p != nil {
				p[l] = b2u(all)
			}
			continue
		}
		wp.tmp[l] = uint64(same)
	}
	d := wp.r(in.D[0])
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 {
			d[l] = wp.tmp[l]
		}
	}
}

func (wp *warp) redux(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	signed := ir.IsSigned(in.Type)
	var acc uint64
	first := true
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		v := a[l] & 0xffffffff
		if first {
			acc, first = v, false
			continue
		}
		switch in.Mode {
		case ir.AtomAdd:
			acc = (acc + v) & 0xffffffff
		case ir.AtomAnd:
			acc &= v
		case ir.AtomOr:
			acc |= v
		case ir.AtomXor:
			acc ^= v
		case ir.AtomMin, ir.AtomMax:
			var less bool
			if signed {
				less = int32(v) < int32(acc)
			} else {
				less = v < acc
			}
			if less == (in.Mode == ir.AtomMin) {
				acc = v
			}
		}
	}
	d := wp.r(in.D[0])
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 {
			d[l] = acc
		}
	}
}
