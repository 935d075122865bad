package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// sreg reads a special register (%tid, %ctaid, %clock, …) for lanes exec.
func (wp *warp) sreg(in *ir.Inst, exec uint32) {
	cfg := wp.w.l.cfg
	b := wp.blk
	o := wp.out(in.D[0], exec)
	var v uint64
	uniform := true
	switch ir.Sreg(in.Imm) {
	case ir.SregTidX, ir.SregTidY, ir.SregTidZ:
		t := &wp.tid[in.Imm-int64(ir.SregTidX)]
		m := typeMask(in.Type)
		if m>>32 != 0 || m == 0xffffffff {
			// (A 32- or 64-bit register: the ids as they are.)
			widen32(o, t)
			wp.commit(in.D[0], exec)
			return
		}
		for l := 0; l < 32; l += 4 {
			o[l], o[l+1], o[l+2], o[l+3] = uint64(t[l])&m, uint64(t[l+1])&m, uint64(t[l+2])&m, uint64(t[l+3])&m
		}
		wp.commit(in.D[0], exec)
		return
	case ir.SregNtidX, ir.SregNtidY, ir.SregNtidZ:
		v = uint64(cfg.Block[in.Imm-int64(ir.SregNtidX)])
	case ir.SregCtaidX, ir.SregCtaidY, ir.SregCtaidZ:
		v = uint64(b.idx[in.Imm-int64(ir.SregCtaidX)])
	case ir.SregNctaidX, ir.SregNctaidY, ir.SregNctaidZ:
		v = uint64(cfg.Grid[in.Imm-int64(ir.SregNctaidX)])
	case ir.SregLaneid:
		for l := range o {
			o[l] = uint64(l)
		}
		uniform = false
	case ir.SregWarpid:
		v = uint64(wp.idx)
	case ir.SregNwarpid:
		v = uint64(max(cfg.MaxWarpsPerSM, 1))
	case ir.SregSmid:
		v = uint64(b.linear % max(cfg.SMs, 1))
	case ir.SregNsmid:
		v = uint64(max(cfg.SMs, 1))
	case ir.SregGridid:
		v = cfg.GridID
	case ir.SregLanemaskEq, ir.SregLanemaskLt, ir.SregLanemaskLe, ir.SregLanemaskGt, ir.SregLanemaskGe:
		for l := range o {
			bit := uint32(1) << l
			var m uint32
			switch ir.Sreg(in.Imm) {
			case ir.SregLanemaskEq:
				m = bit
			case ir.SregLanemaskLt:
				m = bit - 1
			case ir.SregLanemaskLe:
				m = bit | (bit - 1)
			case ir.SregLanemaskGt:
				m = ^(bit | (bit - 1))
			case ir.SregLanemaskGe:
				m = ^(bit - 1)
			}
			o[l] = uint64(m)
		}
		uniform = false
	case ir.SregClock:
		v = uint64(uint32(wp.cycles()))
	case ir.SregClock64:
		v = wp.cycles()
	case ir.SregGlobaltimer:
		v = wp.globalNS()
	case ir.SregGlobaltimerLo:
		v = uint64(uint32(wp.globalNS()))
	case ir.SregGlobaltimerHi:
		v = wp.globalNS() >> 32
	case ir.SregDynamicSmemSize:
		v = uint64(cfg.DynShared)
	case ir.SregTotalSmemSize:
		v = uint64(len(b.shared))
	case ir.SregWarpSize:
		v = 32
	case ir.SregEnvreg1, ir.SregEnvreg2:
		v = wp.w.l.envreg(ir.Sreg(in.Imm))
	default:
		if ir.Sreg(in.Imm) >= ir.SregClusteridX {
			v = wp.clusterSreg(ir.Sreg(in.Imm))
		}
	}
	m := typeMask(in.Type)
	if uniform {
		fill32(o, v&m)
	} else {
		for l := range o {
			o[l] &= m
		}
	}
	wp.commit(in.D[0], exec)
}

// symBase is the address of the instruction's symbol (0 when none).
func (wp *warp) symBase(in *ir.Inst) uint64 {
	switch in.SymKind {
	case ir.SymGlobal:
		return wp.w.l.mod.VarAddr[in.Sym]
	case ir.SymShared:
		return uint64(wp.w.l.sharedOff[in.Sym])
	case ir.SymFrame:
		return uint64(wp.frames[len(wp.frames)-1].pbase)
	case ir.SymFrameTop:
		fr := &wp.frames[len(wp.frames)-1]
		return uint64(fr.base) + uint64(fr.fn.FrameBytes)
	case ir.SymFunc:
		return ir.FuncAddrBase + 16*uint64(in.Sym)
	}
	return 0
}

func addrSpace(a uint64) ptxtype.Space {
	switch {
	case a >= SharedWindow && a < SharedWindow+WindowSize:
		return ptxtype.SpaceShared
	case a >= LocalWindow && a < LocalWindow+WindowSize:
		return ptxtype.SpaceLocal
	case a >= ParamWindow && a < ParamWindow+WindowSize:
		return ptxtype.SpaceParam
	}
	return ptxtype.SpaceGlobal
}

func (wp *warp) cvta(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	o := wp.out(in.D[0], exec)
	var off uint64
	switch in.Space {
	case ptxtype.SpaceShared:
		off = SharedWindow
	case ptxtype.SpaceLocal:
		off = LocalWindow
	case ptxtype.SpaceParam:
		off = ParamWindow // tma.go
	}
	m := typeMask(in.Type)
	for l := range o {
		if in.Mode == 1 {
			o[l] = (a[l] - off) & m
		} else {
			o[l] = (a[l] & m) + off
		}
	}
	wp.commit(in.D[0], exec)
}

// cycles is the SM clock %clock64 reads: the timing driver's clock, or
// under the functional driver a deterministic count of the warp's issues
// (4 cycles each).
func (wp *warp) cycles() uint64 {
	if wp.w.clockSet {
		return wp.w.clockCycles
	}
	return wp.clock
}

// globalNS is %globaltimer: the simulated time in nanoseconds since the
// device started, from the timing driver, or derived from the warp's issue
// count at the launch's clock under the functional driver, so that it is
// deterministic either way.
func (wp *warp) globalNS() uint64 {
	if wp.w.clockSet {
		return wp.w.clockNS
	}
	cfg := wp.w.l.cfg
	mhz := cfg.ClockMHz
	if mhz <= 0 {
		mhz = 1000
	}
	return cfg.TimeBaseNS + wp.clock*1000/uint64(mhz)
}
