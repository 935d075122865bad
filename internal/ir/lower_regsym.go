package ir

import "github.com/warpsim/warpsim/ptx"

// namesRegister reports whether a symbol operand is a register declared
// without '%' (inline PTX such as CUB's "{ .reg .u32 r0; … mov.u32 %0, r0; }"),
// which mov copies rather than taking an address of.
func (fl *fnLowerer) namesRegister(o *ptx.Operand) bool {
	s, ok := fl.lookup(o.Name)
	return ok && s.kind == symReg && o.Offset == 0
}
