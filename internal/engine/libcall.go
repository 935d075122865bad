package engine

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// Extern functions the engine implements itself (CUDA's device runtime
// entry points that are not libdevice's): per call site, which one.
const (
	builtinNone uint8 = iota
	builtinTrap
	builtinAssert
	builtinMalloc
	builtinFree
	builtinGridSync
)

var builtinExterns = map[string]uint8{
	"__trap":       builtinTrap,
	"__assertfail": builtinAssert,
	"malloc":       builtinMalloc,
	"free":         builtinFree,
	// warpsim's cooperative_groups.h: grid_group::sync() (gridsync.go).
	"__warpsim_grid_sync": builtinGridSync,
}

// BuiltinExtern reports whether the engine implements the extern function
// name itself: __trap, __assertfail (assert), malloc, free and
// __warpsim_grid_sync.
func BuiltinExtern(name string) bool {
	_, ok := builtinExterns[name]
	return ok
}

// libcall runs a native extern (libdevice) for each active lane.
func (wp *warp) libcall(pc int, in *ir.Inst, exec uint32) {
	cs := &wp.fn.Calls[in.Imm]
	mod := wp.w.l.mod
	if k := mod.builtins[wp.fi][in.Imm]; k != builtinNone {
		wp.builtin(pc, cs, k, exec)
		return
	}
	fn := mod.externs[wp.fi][in.Imm]
	if fn == nil {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call to %s is not supported yet", cs.Extern)
		return
	}
	nargs := len(cs.Args) - len(fn.OutSizes)
	if fn.Out != nil && (nargs < 0 || len(fn.OutSizes) > 2) {
		wp.fault(FaultIllegal, pc, bits.TrailingZeros32(exec), 0, false, "call to %s with %d arguments, not its %d", cs.Extern, len(cs.Args), len(fn.OutSizes))
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
		var v uint64
		if fn.Out == nil {
			v = fn.Fn(wp.args)
		} else {
			var outs [2]uint64
			v = fn.Out(wp.args[:nargs], outs[:len(fn.OutSizes)])
			for i, size := range fn.OutSizes {
				if !wp.storeOut(pc, wp.args[nargs+i], size, outs[i], l) {
					return
				}
			}
		}
		if len(cs.Rets) > 0 {
			wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), l, v)
		}
	}
}

// storeOut stores an extern's out-parameter value of size bytes through the
// generic pointer addr, as a st of that size would; false after a fault.
func (wp *warp) storeOut(pc int, addr uint64, size int, v uint64, lane int) bool {
	n := uint64(size)
	if addr&(n-1) != 0 {
		wp.fault(FaultMisaligned, pc, lane, addr, true, "%d-byte store at %#x is not %d-byte aligned", n, addr, n)
		return false
	}
	b, kind := wp.resolve(pc, ptxtype.SpaceGeneric, addr, n, lane)
	if b == nil {
		return false
	}
	if kind == accParam {
		wp.fault(FaultIllegal, pc, lane, addr, true, "store to the kernel parameter buffer")
		return false
	}
	if kind == accShared {
		wp.blk.sharedDirty = true
	}
	wp.stored = true
	storeLE(b, size, v)
	return true
}

func (wp *warp) callArg(cs *ir.CallSite, i, lane int) uint64 {
	if i >= len(cs.Args) {
		return 0
	}
	return wp.frameWord(cs.Args[i].Offset, min(cs.Args[i].Size, 8), lane)
}

// builtin runs __trap, __assertfail, malloc or free for the lanes exec.
func (wp *warp) builtin(pc int, cs *ir.CallSite, kind uint8, exec uint32) {
	switch kind {
	case builtinTrap:
		wp.fault(FaultTrap, pc, bits.TrailingZeros32(exec), 0, false, "__trap() called")
	case builtinAssert:
		wp.assertFail(pc, cs, exec)
	case builtinGridSync:
		wp.gridSync(pc, exec)
	case builtinMalloc:
		heap := &wp.w.l.mod.Mem.heap
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			p := heap.malloc(wp.callArg(cs, 0, l))
			if len(cs.Rets) > 0 {
				wp.setFrameWord(cs.Rets[0].Offset, min(cs.Rets[0].Size, 8), l, p)
			}
		}
	case builtinFree:
		heap := &wp.w.l.mod.Mem.heap
		for l := 0; l < 32; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			p := wp.callArg(cs, 0, l)
			if p == 0 {
				continue
			}
			r := heap.free(p)
			if hc, ok := wp.chk.(HeapChecker); ok && (r == freeOutside || r == freeDouble) {
				if !hc.HeapFree(wp.site(pc, exec), l, p, r == freeDouble) {
					wp.sanitizerStop(pc, 1<<uint(l))
					return
				}
			}
			switch r {
			case freeOutside:
				wp.fault(FaultOutOfBounds, pc, l, p, true, "free(%#x): not a pointer into the device heap", p)
				return
			case freeDouble:
				wp.fault(FaultHeap, pc, l, p, true, "free(%#x): freed already (double free)", p)
				return
			}
		}
	}
}

// assertFail is CUDA's __assertfail(message, file, line, function,
// charSize): every lane that calls it prints the GPU's message, and the
// kernel stops with cudaErrorAssert (FaultAssert).
func (wp *warp) assertFail(pc int, cs *ir.CallSite, exec uint32) {
	var out strings.Builder
	str := func(i, lane int) string {
		s, ok := wp.readCString(wp.callArg(cs, i, lane), lane)
		if !ok {
			return "?"
		}
		return string(s)
	}
	first := bits.TrailingZeros32(exec)
	var detail string
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		b := wp.blk.idx
		line := fmt.Sprintf("%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` failed.\n",
			str(1, l), uint32(wp.callArg(cs, 2, l)), str(3, l), b[0], b[1], b[2],
			wp.tid[0][l], wp.tid[1][l], wp.tid[2][l], str(0, l))
		if detail == "" {
			detail = strings.TrimSuffix(line, "\n")
		}
		out.WriteString(line)
	}
	wp.fault(FaultAssert, pc, first, 0, false, "%s", detail)
	wp.w.fault.Output = out.String()
}
