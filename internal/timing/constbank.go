package timing

import (
	"slices"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// A kernel's parameters are not in registers when its blocks start: ptxas
// reads them (and %ntid, %nctaid) from constant bank 0 through the SM's
// constant caches, as LDC, ULDC or an instruction's c[0x0][...] operand.
// On the H100 a block's first read of a 32-byte line of the bank waits
// ~62 cycles, a later one ~10 (testdata/timing/kstart): the first
// instructions of every block wait for their parameters. The lines are
// kept per block (a later block on the same SM misses again), and ptxas
// reads a parameter where it is used, not where nvcc's PTX has its
// ld.param (at the kernel's top): a read whose line the block has not
// asked for is left to its first consumer (lazyParams), which asks then.

// constLine is a line of constant bank 0 a block has asked for and the
// cycle it is (or will be) there.
type constLine struct {
	line, at uint64
}

// bank0Offset is the offset in constant bank 0 that instruction in reads
// (with its step record), and whether it reads the bank: a kernel
// parameter at ParamBankOffset plus its offset, %ntid and %nctaid at 0.
func bank0Offset(p *Params, in *ir.Inst, rec *engine.StepRecord) (uint64, bool) {
	if p.ParamChunkBytes <= 0 {
		return 0, false
	}
	if rec.Space == engine.SpaceConst && rec.ParamOff != 0 {
		return uint64(p.ParamBankOffset) + uint64(rec.ParamOff-1), true
	}
	if in.Op == ir.OpMovSreg {
		switch ir.Sreg(in.Imm) {
		case ir.SregNtidX, ir.SregNtidY, ir.SregNtidZ, ir.SregNctaidX, ir.SregNctaidY, ir.SregNctaidZ:
			return 0, true
		}
	}
	return 0, false
}

// bank0Read is when the data of a read of constant bank 0 at off, issued
// by a warp of block b at cycle now, is there: the line's arrival (asked
// for now if the block had not asked for it yet), and no sooner than lat
// after the issue.
func bank0Read(p *Params, b *blockT, now, lat, off uint64) uint64 {
	return constRead(b, now, lat, off/uint64(p.ParamChunkBytes), uint64(p.ParamMissCycles))
}

// constRead is when line of block b's constant lines, read at cycle now,
// is there: its arrival if the block has asked for it (no sooner than lat
// after the issue), else now plus the larger of lat and miss, the line
// then asked for.
func constRead(b *blockT, now, lat, line, miss uint64) uint64 {
	if i := constIndex(b, line); i >= 0 {
		return max(now+lat, b.consts[i].at)
	}
	at := now + max(lat, miss)
	b.consts = append(b.consts, constLine{line, at})
	return at
}

// constIndex is the index of line among block b's constant lines, or -1.
func constIndex(b *blockT, line uint64) int {
	for i, c := range b.consts {
		if c.line == line {
			return i
		}
	}
	return -1
}

// symbolAddr reports whether instruction in reads a global variable's
// address from the module's bank of addresses (c[0x4]): a mov of its
// symbol or an access through it, but not a __constant__ variable's (ptxas
// names it in its own bank, c[0x3]; an ld.const is constLoad's). Its line
// is the symbol's.
func (s *gridState) symbolAddr(p *Params, in *ir.Inst) (uint64, bool) {
	if p.SymFirstMissCycles == 0 || in.SymKind != ir.SymGlobal || in.Space == ptxtype.SpaceConst {
		return 0, false
	}
	if vars := s.vars(); int(in.Sym) < len(vars) && vars[in.Sym].Space == ptxtype.SpaceConst {
		return 0, false
	}
	return symLine | uint64(in.Sym), true
}

// symLine marks the lines of the bank of addresses among a block's
// constLines (bank 0's are offsets / ParamChunkBytes).
const symLine = 1 << 62

// symbolRead is when a global variable's address read by a warp of
// block b at cycle now is there: the block's first read of it waits
// SymFirstMissCycles in the grid's first wave (one block an SM: order
// below the SM count), SymMissCycles later.
func symbolRead(p *Params, b *blockT, sms int, now, lat, line uint64) uint64 {
	miss := p.SymMissCycles
	if b.order < sms {
		miss = p.SymFirstMissCycles
	}
	return constRead(b, now, lat, line, uint64(miss))
}

// lazyParam is a parameter read (into register reg, at offset off of
// constant bank 0) whose line its block had not asked for when it issued.
type lazyParam struct {
	reg int32
	off uint64
}

// hasLine reports whether block b has asked for line of constant bank 0.
func hasLine(b *blockT, line uint64) bool {
	return constIndex(b, line) >= 0
}

// dropLazy forgets the lazy parameter reads into the registers in writes.
func dropLazy(w *warpT, in *ir.Inst) {
	if w.lazyRegs&writeBits(in) == 0 || !lazyWrites(w.lazy, in) {
		// (The common case: nothing to drop; the slice stays as it is.)
		return
	}
	k := 0
	for _, l := range w.lazy {
		if !slices.Contains(in.D[:], l.reg) {
			w.lazy[k] = l
			k++
		}
	}
	w.lazy = w.lazy[:k]
	w.lazyRegs = lazyMask(w.lazy)
}

// lazyBit is register r's bit in a warp's lazyRegs: r modulo 64, so that
// a register's bit may stand for others too (the mask only rules out).
func lazyBit(r int32) uint64 { return 1 << (uint32(r) & 63) }

// lazyMask is the lazyRegs of lazy.
func lazyMask(lazy []lazyParam) uint64 {
	var m uint64
	for _, l := range lazy {
		m |= lazyBit(l.reg)
	}
	return m
}

// readBits are the lazyBits of the registers in reads (its guard and
// sources); writeBits of those it writes.
// (Written out: they run for every instruction of a warp with a lazy
// read, most often to find nothing.)
func readBits(in *ir.Inst) uint64 {
	a := &in.A
	return lazyBit(in.Guard) | lazyBit(a[0]) | lazyBit(a[1]) | lazyBit(a[2]) | lazyBit(a[3]) | lazyBit(a[4])
}

func writeBits(in *ir.Inst) uint64 {
	d := &in.D
	return lazyBit(d[0]) | lazyBit(d[1]) | lazyBit(d[2]) | lazyBit(d[3])
}

// (readBits and writeBits name every source and destination: an
// instruction has five and four.)
var _ = [1]int{}[len(ir.Inst{}.A)-5] + [1]int{}[len(ir.Inst{}.D)-4]

// lazyWrites says whether in writes a register of one of lazy's reads.
func lazyWrites(lazy []lazyParam, in *ir.Inst) bool {
	for _, l := range lazy {
		if slices.Contains(in.D[:], l.reg) {
			return true
		}
	}
	return false
}

// lazyReads says whether in reads (its guard or a source) a register of
// one of lazy's reads.
func lazyReads(lazy []lazyParam, in *ir.Inst) bool {
	for _, l := range lazy {
		if l.reg == in.Guard || slices.Contains(in.A[:], l.reg) {
			return true
		}
	}
	return false
}

// lazyParams is when the parameters instruction in reads, among warp w's
// lazy reads, are there if it would otherwise issue at t: ptxas reads a
// parameter where it is used (an LDC, a ULDC or a constant operand just
// before its consumer), so the line is asked for then (bank0Read); the
// registers then wait as any other's.
func (s *gridState) lazyParams(w *warpT, in *ir.Inst, t uint64) uint64 {
	if w.blk == nil {
		return 0
	}
	if w.lazyRegs&readBits(in) == 0 || !lazyReads(w.lazy, in) {
		// (The common case: in reads none of them; nothing changes.)
		return 0
	}
	at := uint64(0)
	now := max(t, w.blk.sm.now)
	lat := uint64(s.p.Latency[ir.ClassConst])
	k := 0
	for _, l := range w.lazy {
		if l.reg == in.Guard || slices.Contains(in.A[:], l.reg) {
			r := bank0Read(s.p, w.blk, now, lat, l.off)
			w.regReady[l.reg], w.regKind[l.reg] = r, prodShort
			at = max(at, r)
			continue
		}
		w.lazy[k] = l
		k++
	}
	w.lazy = w.lazy[:k]
	w.lazyRegs = lazyMask(w.lazy)
	return at
}

// vars are the grid's module's variables (none without a grid: unit
// tests).
func (s *gridState) vars() []*ir.Var {
	if s.g == nil {
		return nil
	}
	return s.g.Vars()
}
