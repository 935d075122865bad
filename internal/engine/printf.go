package engine

import (
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/printf"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// frameWord reads an n-byte value of the current frame for lane l.
func (wp *warp) frameWord(off int, n int, l int) uint64 {
	b := wp.localBytes(l, uint64(wp.frames[len(wp.frames)-1].pbase)+uint64(off), uint64(n))
	if b == nil {
		return 0
	}
	return loadLE(b, n)
}

func (wp *warp) setFrameWord(off int, n int, l int, v uint64) {
	b := wp.localBytes(l, uint64(wp.frames[len(wp.frames)-1].pbase)+uint64(off), uint64(n))
	if b == nil {
		return
	}
	storeLE(b, n, v)
}

// readCString reads a NUL-terminated string at a generic address.
func (wp *warp) readCString(addr uint64, lane int) ([]byte, bool) {
	var b []byte
	switch addrSpace(addr) {
	case ptxtype.SpaceShared:
		off := addr - SharedWindow
		if off >= uint64(len(wp.blk.shared)) {
			return nil, false
		}
		b = wp.blk.shared[off:]
	case ptxtype.SpaceLocal:
		if b = wp.localTail(lane, addr-LocalWindow); b == nil {
			return nil, false
		}
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
	case ptxtype.SpaceShared:
		off := addr - SharedWindow
		if off < uint64(len(wp.blk.shared)) {
			return wp.blk.shared[off:]
		}
	case ptxtype.SpaceLocal:
		return wp.localTail(lane, addr-LocalWindow)
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
		var strs, strBytes uint32
		buf := printf.Format(wp.w.printed[:0], format, wp.argBytes(argAddr, l), func(a uint64) ([]byte, bool) {
			b, ok := wp.readCString(a, lane)
			strs, strBytes = strs+1, strBytes+uint32(len(b))
			return b, ok
		})
		if r := wp.rec; r != nil {
			r.Printf.FormatBytes = max(r.Printf.FormatBytes, uint32(len(format)))
			r.Printf.Strings = max(r.Printf.Strings, strs)
			r.Printf.StringBytes = max(r.Printf.StringBytes, strBytes)
		}
		wp.w.printed = buf
		if out != nil && len(buf) > 0 {
			// Released in order when the grid's generation completes
			// (cdp.go).
			wp.w.print(buf)
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, 4, l, uint64(len(buf)))
		}
	}
}
