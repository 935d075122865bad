package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx"
)

// A kernel's parameters are not in registers when its blocks start: ptxas
// reads them (and %ntid, %nctaid) from constant bank 0 through the SM's
// constant caches, as LDC, ULDC or an instruction's c[0x0][...] operand.
// On the H100 a block's first read of a 32-byte line of the bank waits
// ~62 cycles, a later one ~10 (testdata/timing/kstart): the first
// instructions of every block wait for their parameters. The lines are
// kept per block (a later block on the same SM misses again).

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
	line := off / uint64(p.ParamChunkBytes)
	for _, c := range b.consts {
		if c.line == line {
			return max(now+lat, c.at)
		}
	}
	at := now + max(lat, uint64(p.ParamMissCycles))
	b.consts = append(b.consts, constLine{line, at})
	return at
}

// symbolAddr reports whether instruction in reads a global variable's
// address from the module's bank of addresses (c[0x4]): a mov of its
// symbol or an access through it, but not a __constant__ variable's
// ld.const (its own bank, constLoad). Its line is the symbol's.
func symbolAddr(p *Params, in *ir.Inst) (uint64, bool) {
	if p.SymFirstMissCycles == 0 || in.SymKind != ir.SymGlobal || in.Space == ptx.SpaceConst {
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
	for _, c := range b.consts {
		if c.line == line {
			return max(now+lat, c.at)
		}
	}
	miss := p.SymMissCycles
	if b.order < sms {
		miss = p.SymFirstMissCycles
	}
	at := now + max(lat, uint64(miss))
	b.consts = append(b.consts, constLine{line, at})
	return at
}
