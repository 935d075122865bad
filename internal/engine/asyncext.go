package engine

import (
	"encoding/binary"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tmap"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// asyncExt runs st.async, red.async, the shared::cta -> shared::cluster bulk
// copy and cp.reduce.async.bulk (ir/asyncext.go) for each active lane: the
// bytes move at once, and the forms with an mbarrier then complete their
// bytes on it (the destination block's barrier), as bulkCopy does.
// Recorded on the H100: testdata/isa (TestISAProbeMatchesH100).
func (wp *warp) asyncExt(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		dst := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, l)
		var n uint64
		switch in.Mode {
		case ir.AsyncStore, ir.AsyncRed:
			es := uint64(to.Size)
			n = es * uint64(to.Num)
			if dst%n != 0 {
				wp.fault(FaultMisaligned, pc, l, dst, true, "%d-byte asynchronous store at %#x is not naturally aligned", n, dst)
				return
			}
			if !wp.checkPieces(pc, CheckAtomic, ptxtype.SpaceShared, l, dst, n) {
				return
			}
			d, _ := wp.resolve(pc, ptxtype.SpaceShared, dst, n, l)
			if d == nil {
				return
			}
			for i, s := range to.A {
				v := wp.r(s)[l]
				var b [8]byte
				binary.LittleEndian.PutUint64(b[:], v)
				e := d[uint64(i)*es : uint64(i+1)*es]
				if in.Mode == ir.AsyncRed {
					tmaReduce(to.DType, to.Elem, e, b[:es])
				} else {
					copy(e, b[:es])
				}
			}
		default: // the bulk forms
			src := wp.operandAddr(ptxtype.SpaceShared, to.Src, to.SrcOff, l)
			n = wp.r(to.A[0])[l] & 0xffffffff
			if n%16 != 0 || dst%16 != 0 || src%16 != 0 {
				wp.fault(FaultMisaligned, pc, l, dst, true, "bulk copy of %d bytes from %#x to %#x: size and addresses must be multiples of 16", n, src, dst)
				return
			}
			// the destination's writes are ordered by the mbarrier or the
			// bulk group, as bulkCopy's
			if !wp.checkPieces(pc, CheckLoad, ptxtype.SpaceShared, l, src, n) || !wp.checkPieces(pc, CheckAtomic, to.DstSpace, l, dst, n) {
				return
			}
			d, _ := wp.resolve(pc, to.DstSpace, dst, n, l)
			if d == nil {
				return
			}
			s, _ := wp.resolve(pc, ptxtype.SpaceShared, src, n, l)
			if s == nil {
				return
			}
			if in.Mode == ir.AsyncBulkS2S {
				copy(d, s)
				break
			}
			es := uint64(to.Size)
			for o := uint64(0); o+es <= n; o += es {
				if to.DstSpace == ptxtype.SpaceGlobal {
					// other blocks' goroutines may reduce onto the same words
					asyncReduceAtomic(to.DType, to.Elem, d[o:o+es], s[o:o+es], dst+o)
				} else {
					asyncReduce(to.DType, to.Elem, d[o:o+es], s[o:o+es])
				}
			}
			if r := wp.rec; r != nil && to.DstSpace == ptxtype.SpaceGlobal {
				// the timing model sees the destination's sectors as one
				// global store of the warp
				r.Space, r.Store = SpaceGlobal, true
				for a := dst &^ 31; a < dst+n; a += 32 {
					r.Sectors = append(r.Sectors, a>>5)
				}
				r.Bytes += uint32(n)
			}
		}
		if to.MbarSlot < 0 && to.MbarOff == 0 {
			continue // a bulk_group reduction: nothing to complete
		}
		bar := wp.operandAddr(ptxtype.SpaceShared, to.MbarSlot, to.MbarOff, l)
		if bar&7 != 0 {
			wp.fault(FaultMisaligned, pc, l, bar, true, "mbarrier object at %#x is not 8-byte aligned", bar)
			return
		}
		b, _ := wp.resolve(pc, ptxtype.SpaceShared, bar, 8, l)
		if b == nil {
			return
		}
		m := loadMbar(b)
		m.tx -= int64(n)
		m.store(b)
	}
}

// asyncReduce is tmaReduce with f64 addition: rounded to nearest even; a
// NaN operand gives itself, quieted (the destination's first; recorded:
// testdata/isa test 43), an invalid sum the canonical NaN.
func asyncReduce(t, op uint8, g, s []byte) {
	if t != tmap.F64 {
		tmaReduce(t, op, g, s)
		return
	}
	le := binary.LittleEndian
	a, b := le.Uint64(g), le.Uint64(s)
	isNaN := func(x uint64) bool { return x&0x7fffffffffffffff > 0x7ff0000000000000 }
	var v uint64
	switch {
	case isNaN(a):
		v = a | 1<<51
	case isNaN(b):
		v = b | 1<<51
	default:
		r := math.Float64frombits(a) + math.Float64frombits(b)
		v = math.Float64bits(r)
		if r != r {
			v = 0x7fffffffffffffff
		}
	}
	le.PutUint64(g, v)
}

// asyncReduceAtomic is asyncReduce on global memory as a compare-and-swap
// loop on the element's aligned word (a 16-bit element's 32-bit word, as
// atomicRMW16 does), so that reductions by blocks on other goroutines are
// not lost. addr is the element's device address.
func asyncReduceAtomic(t, op uint8, g, s []byte, addr uint64) {
	le := binary.LittleEndian
	p := unsafe.Pointer(&g[0])
	switch {
	case len(g) == 8 && uintptr(p)&7 == 0:
		w := (*uint64)(p)
		for {
			old := atomic.LoadUint64(w)
			var b [8]byte
			le.PutUint64(b[:], old)
			asyncReduce(t, op, b[:], s)
			if atomic.CompareAndSwapUint64(w, old, le.Uint64(b[:])) {
				return
			}
		}
	case len(g) == 4 && uintptr(p)&3 == 0, len(g) == 2 && uintptr(p)&3 == uintptr(addr&3) && addr&1 == 0:
		off := int(addr & uint64(4-len(g)) & 2) // a 16-bit element's offset in its word
		w := (*uint32)(unsafe.Add(p, -off))
		for {
			old := atomic.LoadUint32(w)
			var b [4]byte
			le.PutUint32(b[:], old)
			asyncReduce(t, op, b[off:off+len(g)], s)
			if atomic.CompareAndSwapUint32(w, old, le.Uint32(b[:])) {
				return
			}
		}
	}
	asyncReduce(t, op, g, s) // memory not laid out with the device's alignment (never for the engine's)
}
