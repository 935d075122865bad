package engine

import "github.com/warpsim/warpsim/internal/ir"

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
	pm := wp.predMask(in, in.A[0], exec)
	var v uint64
	switch in.Mode {
	case ir.VoteAll:
		v = b2u(pm == exec)
	case ir.VoteAny:
		v = b2u(pm != 0)
	case ir.VoteUni:
		v = b2u(pm == 0 || pm == exec)
	case ir.VoteBallot:
		v = uint64(pm)
	}
	d := wp.r(in.D[0])
	for l := 0; l < 32; l++ {
		if exec>>l&1 != 0 {
			d[l] = v
		}
	}
}

func (wp *warp) match(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	m := typeMask(in.Type)
	d := wp.r(in.D[0])
	var p *[32]uint64
	if in.D[1] >= 0 {
		p = wp.r(in.D[1])
	}
	if in.Mode == 1 { // all
		same := true
		first := -1
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			if first < 0 {
				first = l
			} else if a[l]&m != a[first]&m {
				same = false
			}
		}
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			if same {
				d[l] = uint64(exec)
			} else {
				d[l] = 0
			}
			if p != nil {
				p[l] = b2u(same)
			}
		}
		return
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var mm uint32
		for k := 0; k < 32; k++ {
			if exec>>k&1 != 0 && a[k]&m == a[l]&m {
				mm |= 1 << k
			}
		}
		wp.tmp[l] = uint64(mm)
	}
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
