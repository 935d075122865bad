package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// rounding maps the IR's rounding (RndNone → RN) to scalar's.
func rounding(r uint8) scalar.Rounding {
	if r == ir.RndNone {
		return scalar.RN
	}
	return scalar.Rounding(r - 1)
}

// exec executes one non-control instruction for lanes exec.
func (wp *warp) exec(pc int, in *ir.Inst, exec uint32) {
	switch in.Op {
	case ir.OpNop, ir.OpMembar, ir.OpPrefetch:
	case ir.OpMov:
		a := wp.r(in.A[0])
		o := wp.out(in.D[0], exec)
		m := typeMask(in.Type)
		for l := range o {
			o[l] = a[l] & m
		}
		wp.commit(in.D[0], exec)
	case ir.OpMovSreg:
		wp.sreg(in, exec)
	case ir.OpMovAddr:
		v := wp.symBase(in) + uint64(in.Imm)
		v &= typeMask(in.Type)
		o := wp.out(in.D[0], exec)
		fill32(o, v)
		wp.commit(in.D[0], exec)
	case ir.OpPack:
		es := uint(ir.TypeSize(in.Type2) * 8)
		em := uint64(1)<<es - 1
		if es == 64 {
			em = ^uint64(0)
		}
		o := wp.out(in.D[0], exec)
		for l := range o {
			var v uint64
			for i := 0; i < int(in.Vec); i++ {
				v |= (wp.r(in.A[i])[l] & em) << (es * uint(i))
			}
			o[l] = v
		}
		wp.commit(in.D[0], exec)
	case ir.OpUnpack:
		es := uint(ir.TypeSize(in.Type2) * 8)
		em := uint64(1)<<es - 1
		if es == 64 {
			em = ^uint64(0)
		}
		a := wp.r(in.A[0])
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			v := a[l]
			for i := 0; i < int(in.Vec); i++ {
				if in.D[i] >= 0 {
					wp.r(in.D[i])[l] = v >> (es * uint(i)) & em
				}
			}
		}
	case ir.OpAdd, ir.OpSub:
		wp.addSub(in, exec)
	case ir.OpMul, ir.OpMad, ir.OpMul24, ir.OpMad24:
		wp.mulMad(in, exec)
	case ir.OpFma:
		wp.fma(in, exec)
	case ir.OpLd:
		if wp.chk != nil && !wp.checkMem(pc, in, &exec, CheckLoad) {
			return
		}
		wp.load(pc, in, exec)
	case ir.OpSt:
		if wp.chk != nil && !wp.checkMem(pc, in, &exec, CheckStore) {
			return
		}
		wp.store(pc, in, exec)
	case ir.OpAtom, ir.OpRed:
		if wp.chk != nil && !wp.checkMem(pc, in, &exec, CheckAtomic) {
			return
		}
		wp.atomic(pc, in, exec)
	case ir.OpSetp, ir.OpSet:
		wp.setp(in, exec)
	case ir.OpSelp:
		a, b, p := wp.r(in.A[0]), wp.r(in.A[1]), wp.r(in.A[2])
		o := wp.out(in.D[0], exec)
		for l := range o {
			if p[l] != 0 {
				o[l] = a[l]
			} else {
				o[l] = b[l]
			}
		}
		wp.commit(in.D[0], exec)
	case ir.OpCvt:
		wp.cvt(in, exec)
	case ir.OpCvta:
		wp.cvta(in, exec)
	case ir.OpIsspacep:
		a := wp.r(in.A[0])
		o := wp.out(in.D[0], exec)
		for l := range o {
			o[l] = b2u(addrSpace(a[l]) == in.Space)
		}
		wp.commit(in.D[0], exec)
	case ir.OpShfl:
		if wp.chk != nil && !wp.checkWarpSync(pc, in.A[3], exec) {
			return
		}
		wp.shfl(in, exec)
	case ir.OpVote:
		if wp.chk != nil && !wp.checkWarpSync(pc, in.A[1], exec) {
			return
		}
		wp.vote(in, exec)
	case ir.OpMatch:
		if wp.chk != nil && !wp.checkWarpSync(pc, in.A[1], exec) {
			return
		}
		wp.match(in, exec)
	case ir.OpRedux:
		if wp.chk != nil && !wp.checkWarpSync(pc, in.A[1], exec) {
			return
		}
		wp.redux(in, exec)
	case ir.OpExt:
		if in.Mode == ir.ExtElect && wp.chk != nil && !wp.checkWarpSync(pc, in.A[0], exec) {
			return
		}
		wp.ext(in, exec)
	case ir.OpActivemask:
		o := wp.out(in.D[0], exec)
		for l := range o {
			o[l] = uint64(exec)
		}
		wp.commit(in.D[0], exec)
	case ir.OpBarWarp:
		if wp.chk != nil {
			wp.checkWarpSync(pc, in.A[0], exec)
		}
	case ir.OpVprintf:
		wp.vprintf(pc, in, exec)
	case ir.OpLibcall:
		wp.libcall(pc, in, exec)
	case ir.OpDevRT:
		wp.devRuntime(pc, in, exec)
	case ir.OpTex, ir.OpSuld, ir.OpSust:
		wp.texInst(pc, in, exec)
	case ir.OpCluster:
		wp.clusterOp(pc, in, exec)
	case ir.OpTensor:
		wp.tensorInst(pc, in, exec)
	case ir.OpAsync:
		wp.asyncInst(pc, in, exec)
	default:
		wp.alu(pc, in, exec)
	}
}

func typeMask(t ptxtype.Type) uint64 { return typeMasks[t&31] }

// typeMasks holds, per ptxtype.Type, the mask of its significant register bits.
var typeMasks = func() (m [32]uint64) {
	for t := range m {
		switch ir.TypeSize(ptxtype.Type(t)) {
		case 1:
			m[t] = 0xff
		case 2:
			m[t] = 0xffff
		case 4:
			m[t] = 0xffffffff
		default:
			m[t] = ^uint64(0)
		}
	}
	return m
}()

// sext sign-extends the low n bytes of v.
func sext(v uint64, n int) uint64 {
	s := uint(64 - 8*n)
	return uint64(int64(v<<s) >> s)
}
