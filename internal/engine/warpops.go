package engine

import (
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/printf"
	"github.com/warpsim/warpsim/internal/scalar"
	"github.com/warpsim/warpsim/ptx"
)

func (wp *warp) cvt(in *ir.Inst, exec uint32) {
	a := wp.r(in.A[0])
	o := wp.out(in.D[0], exec)
	dt, st := in.Type, in.Type2
	r := rounding(in.Rnd)
	ftz, sat := in.Flags&ir.FlagFtz != 0, in.Flags&ir.FlagSat != 0
	relu := in.Flags&ir.FlagRelu != 0
	switch {
	case dt == ptx.F16x2 || dt == ptx.BF16x2:
		b := wp.r(in.A[1])
		for l := range o {
			if dt == ptx.F16x2 {
				o[l] = uint64(scalar.F32x2ToF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			} else {
				o[l] = uint64(scalar.F32x2ToBF16x2(uint32(a[l]), uint32(b[l]), r, relu, sat))
			}
		}
	case !ir.IsFloat(dt) && !ir.IsFloat(st):
		ds, ss := ir.TypeSize(dt), ir.TypeSize(st)
		dm := typeMask(dt)
		for l := range o {
			v := a[l] & typeMask(st)
			if ir.IsSigned(st) {
				v = sext(v, ss)
			}
			if sat {
				v = satInt(v, st, dt)
			}
			v &= dm
			if ds < 4 && ir.IsSigned(dt) {
				v = sext(v, ds) & 0xffffffff // sub-word signed results are sign-extended in the register
			}
			o[l] = v
		}
	case ir.IsFloat(dt) && ir.IsFloat(st):
		if dt == st && in.Flags&ir.FlagIntRound == 0 && !ftz && !sat {
			for l := range o {
				o[l] = a[l] & typeMask(dt)
			}
			break
		}
		ir2 := in.Flags&ir.FlagIntRound != 0
		for l := range o {
			o[l] = scalar.CvtFloatToFloat(a[l]&typeMask(st), st, dt, r, ir2, ftz, sat)
		}
	case ir.IsFloat(st):
		if in.Rnd == ir.RndNone {
			r = scalar.RZ
		}
		for l := range o {
			o[l] = scalar.CvtFloatToInt(a[l]&typeMask(st), st, dt, r, true, ftz)
		}
	default:
		for l := range o {
			o[l] = scalar.CvtIntToFloat(a[l]&typeMask(st), st, dt, r)
		}
	}
	wp.commit(in.D[0], exec)
}

// satInt clamps sign-extended v of type st to dt's range.
func satInt(v uint64, st, dt ptx.Type) uint64 {
	ds := ir.TypeSize(dt)
	if ir.IsSigned(st) {
		x := int64(v)
		if ir.IsSigned(dt) {
			lo, hi := -int64(1)<<(8*ds-1), int64(1)<<(8*ds-1)-1
			if ds == 8 {
				return uint64(x)
			}
			return uint64(min(max(x, lo), hi))
		}
		if x < 0 {
			return 0
		}
		if ds < 8 && uint64(x) > typeMask(dt) {
			return typeMask(dt)
		}
		return uint64(x)
	}
	if ir.IsSigned(dt) {
		hi := uint64(1)<<(8*ds-1) - 1
		return min(v, hi)
	}
	return min(v, typeMask(dt))
}

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

// frameWord reads an n-byte value of the current frame for lane l.
func (wp *warp) frameWord(off int, n int, l int) uint64 {
	base := int(wp.frames[len(wp.frames)-1].base) + off
	lm := wp.local[l]
	if base+n > len(lm) {
		return 0
	}
	return loadLE(lm[base:], n)
}

func (wp *warp) setFrameWord(off int, n int, l int, v uint64) {
	base := int(wp.frames[len(wp.frames)-1].base) + off
	lm := wp.local[l]
	if base+n > len(lm) {
		return
	}
	storeLE(lm[base:], n, v)
}

// readCString reads a NUL-terminated string at a generic address.
func (wp *warp) readCString(addr uint64, lane int) ([]byte, bool) {
	var b []byte
	switch addrSpace(addr) {
	case ptx.SpaceShared:
		off := addr - SharedWindow
		if off >= uint64(len(wp.blk.shared)) {
			return nil, false
		}
		b = wp.blk.shared[off:]
	case ptx.SpaceLocal:
		off := addr - LocalWindow
		if off >= uint64(len(wp.local[lane])) {
			return nil, false
		}
		b = wp.local[lane][off:]
	default:
		a, ok := findAlloc(wp.w.l.allocs, addr, 1)
		if !ok {
			return nil, false
		}
		b = a.Data[addr-a.Base:]
	}
	for i, c := range b {
		if c == 0 {
			return b[:i], true
		}
	}
	return b, true
}

// argBytes returns the bytes from a generic address to the end of its region.
func (wp *warp) argBytes(addr uint64, lane int) []byte {
	if addr == 0 {
		return nil
	}
	switch addrSpace(addr) {
	case ptx.SpaceShared:
		off := addr - SharedWindow
		if off < uint64(len(wp.blk.shared)) {
			return wp.blk.shared[off:]
		}
	case ptx.SpaceLocal:
		off := addr - LocalWindow
		if off < uint64(len(wp.local[lane])) {
			return wp.local[lane][off:]
		}
	default:
		if a, ok := findAlloc(wp.w.l.allocs, addr, 1); ok {
			return a.Data[addr-a.Base:]
		}
	}
	return nil
}

// vprintf formats and writes one line per active lane, in lane order, each
// with a single Write under the launch's output lock.
func (wp *warp) vprintf(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	if len(cs.Args) < 2 {
		return
	}
	out := wp.w.l.cfg.Stdout
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		fmtAddr := wp.frameWord(cs.Args[0].Offset, 8, l)
		argAddr := wp.frameWord(cs.Args[1].Offset, 8, l)
		format, ok := wp.readCString(fmtAddr, l)
		if !ok {
			wp.fault(FaultOutOfBounds, pc, l, fmtAddr, true, "printf format string at %#x is outside every allocation", fmtAddr)
			return
		}
		lane := l
		buf := printf.Format(wp.w.printed[:0], format, wp.argBytes(argAddr, l), func(a uint64) ([]byte, bool) {
			return wp.readCString(a, lane)
		})
		wp.w.printed = buf
		if out != nil && len(buf) > 0 {
			wp.w.l.printMu.Lock()
			out.Write(buf)
			wp.w.l.printMu.Unlock()
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, 4, l, uint64(len(buf)))
		}
	}
}

// libcall runs a native extern (libdevice) for each active lane.
func (wp *warp) libcall(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	fn := wp.w.l.mod.externs[wp.fi][in.Imm]
	if fn == nil {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call to %s is not supported yet", cs.Extern)
		return
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		wp.args = wp.args[:0]
		for _, a := range cs.Args {
			wp.args = append(wp.args, wp.frameWord(a.Offset, min(a.Size, 8), l))
		}
		v := fn(wp.args)
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), l, v)
		}
	}
}

// CUDA error codes the device runtime returns.
const (
	cudaSuccess                     = 0
	cudaErrorInvalidValue           = 1
	cudaErrorLaunchMaxDepthExceeded = 65
	cudaErrorInvalidConfiguration   = 9
)

// devRuntime implements the device runtime calls of dynamic parallelism,
// per active lane: parameter buffers are device allocations; a launch is
// queued and runs after the current grid.
func (wp *warp) devRuntime(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	l := wp.w.l
	arg := func(i, size, lane int) uint64 {
		if i >= len(cs.Args) {
			return 0
		}
		return wp.frameWord(cs.Args[i].Offset, size, lane)
	}
	dim3 := func(i, lane int) [3]uint32 {
		if i >= len(cs.Args) {
			return [3]uint32{1, 1, 1}
		}
		off := cs.Args[i].Offset
		return [3]uint32{uint32(wp.frameWord(off, 4, lane)), uint32(wp.frameWord(off+4, 4, lane)), uint32(wp.frameWord(off+8, 4, lane))}
	}
	funcIndex := func(p uint64) (int, bool) {
		fi := (p - ir.FuncAddrBase) / 16
		if p < ir.FuncAddrBase || p%16 != 0 || fi >= uint64(len(l.mod.Prog.Funcs)) || !l.mod.Prog.Funcs[fi].Entry {
			return 0, false
		}
		return int(fi), true
	}
	for lane := 0; lane < 32; lane++ {
		if exec>>lane&1 == 0 {
			continue
		}
		var ret uint64
		switch in.Mode {
		case ir.DevRTGetParameterBufferV2, ir.DevRTGetParameterBuffer:
			ch := childLaunch{fn: -1}
			size := 0
			if in.Mode == ir.DevRTGetParameterBufferV2 {
				fi, ok := funcIndex(arg(0, 8, lane))
				if !ok {
					break // null buffer: the launch fails
				}
				ch.fn = fi
				ch.grid, ch.block = dim3(1, lane), dim3(2, lane)
				ch.shmem = uint32(arg(3, 4, lane))
				size = l.mod.Prog.Funcs[fi].ParamBytes
			} else {
				size = int(arg(1, 8, lane))
			}
			addr, err := l.mod.Mem.Alloc(uint64(max(size, 1)))
			if err != nil {
				break
			}
			ch.params, ch.paramSize = addr, size
			l.childMu.Lock()
			l.pending[addr] = ch
			l.childMu.Unlock()
			// The new allocation must be visible to this launch's lookups.
			wp.recent[wp.recentNext%len(wp.recent)] = &Alloc{Base: addr, Size: uint64(size), Data: mustBytes(l.mod.Mem, addr, uint64(size))}
			wp.recentNext++
			ret = addr
		case ir.DevRTLaunchDeviceV2, ir.DevRTLaunchDevice:
			var buf uint64
			var fi = -1
			var grid, block [3]uint32
			var shmem uint32
			if in.Mode == ir.DevRTLaunchDeviceV2 {
				buf = arg(0, 8, lane)
			} else {
				f, ok := funcIndex(arg(0, 8, lane))
				if !ok {
					ret = cudaErrorInvalidValue
					break
				}
				fi, buf = f, arg(1, 8, lane)
				grid, block, shmem = dim3(2, lane), dim3(3, lane), uint32(arg(4, 4, lane))
			}
			l.childMu.Lock()
			ch, ok := l.pending[buf]
			switch {
			case !ok || ch.launched:
				ret = cudaErrorInvalidValue
			case l.depth+1 >= maxLaunchDepth:
				ret = cudaErrorLaunchMaxDepthExceeded
			default:
				if fi >= 0 {
					ch.fn, ch.grid, ch.block, ch.shmem = fi, grid, block, shmem
					ch.paramSize = l.mod.Prog.Funcs[fi].ParamBytes
				}
				if ch.fn < 0 || ch.grid[0]*ch.grid[1]*ch.grid[2] == 0 || ch.block[0]*ch.block[1]*ch.block[2] == 0 {
					ret = cudaErrorInvalidConfiguration
					break
				}
				ch.launched = true
				l.pending[buf] = ch
				l.children = append(l.children, ch)
			}
			l.childMu.Unlock()
		case ir.DevRTGetLastError:
			ret = cudaSuccess
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), lane, ret)
		}
	}
}

func mustBytes(m *Memory, addr, n uint64) []byte {
	b, err := m.Bytes(addr, n)
	if err != nil {
		return nil
	}
	return b
}
