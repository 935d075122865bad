package engine

import (
	"encoding/binary"
	"math/bits"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// mbarrier objects (OpAsync, modes Mbar*) live in the 8 bytes of shared
// memory they are initialized in: bits 0-19 the pending arrival count,
// 20-39 the expected count, 40-60 the transaction count (21-bit two's
// complement), bit 61 set by mbarrier.inval, bit 62 set by mbarrier.init
// (a valid object), bit 63 the phase parity. The object is opaque to
// programs (the H100's own encoding differs). A phase completes when no
// arrival and no transaction is pending: the phase flips and the pending
// count is reloaded from the expected count. A state token is the phase
// parity at the arrival (bit 63) and the pending count before it (bits
// 0-19), which mbarrier.pending_count returns, as the H100 does.
//
// Misuse, as the H100 showed it (testdata/sanitize/mbar): an arrival on an
// object no mbarrier.init made valid, or one of more arrivals than the
// phase has pending, stops the kernel (cudaErrorLaunchFailure); an arrival
// or a wait on an invalidated object goes on. A sanitizer sees each misuse
// first (MbarChecker).

const (
	mbarInvalBit = 1 << 61
	mbarValidBit = 1 << 62
)

type mbar struct {
	pending, expected, tx int64
	phase                 uint64
	flags                 uint64 // mbarValidBit, mbarInvalBit
}

func loadMbar(b []byte) mbar {
	v := binary.LittleEndian.Uint64(b)
	tx := int64(v>>40) & (1<<21 - 1)
	if tx >= 1<<20 {
		tx -= 1 << 21
	}
	return mbar{pending: int64(v & (1<<20 - 1)), expected: int64(v>>20) & (1<<20 - 1), tx: tx, phase: v >> 63,
		flags: v & (mbarValidBit | mbarInvalBit)}
}

func (m *mbar) store(b []byte) {
	if m.pending <= 0 && m.tx == 0 {
		m.phase ^= 1
		m.pending = m.expected
	}
	v := uint64(m.pending)&(1<<20-1) | (uint64(m.expected)&(1<<20-1))<<20 | (uint64(m.tx)&(1<<21-1))<<40 | m.phase<<63 | m.flags
	binary.LittleEndian.PutUint64(b, v)
}

func (wp *warp) mbarrierInst(pc int, in *ir.Inst, to *ir.TensorOperands, exec uint32) {
	if in.Mode == ir.MbarPendingCount {
		a, d := wp.r(to.A[0]), wp.r(to.D[0])
		for l := 0; l < 32; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] & (1<<20 - 1)
			}
		}
		return
	}
	var bad *CheckMbar // lanes that misused the object, when any did
	if in.Mode == ir.MbarTestWait || in.Mode == ir.MbarTryWait {
		wp.waitFailed = false // the lanes' results below say
	}
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := wp.operandAddr(to.DstSpace, to.Dst, to.DstOff, l)
		if addr&7 != 0 {
			wp.fault(FaultMisaligned, pc, l, addr, true, "mbarrier object at %#x is not 8-byte aligned", addr)
			return
		}
		b, _ := wp.resolve(pc, to.DstSpace, addr, 8, l)
		if b == nil {
			return
		}
		if wp.rec != nil && wp.rec.Mbar == 0 {
			wp.rec.Mbar = addr + 1
		}
		arg := func() int64 {
			if len(to.A) == 0 || to.A[0] < 0 {
				return 1
			}
			return int64(wp.r(to.A[0])[l] & 0xffffffff)
		}
		switch in.Mode {
		case ir.MbarInit:
			n := uint64(arg()) & (1<<20 - 1)
			binary.LittleEndian.PutUint64(b, n|n<<20|mbarValidBit)
		case ir.MbarInval:
			binary.LittleEndian.PutUint64(b, mbarInvalBit)
		case ir.MbarArrive, ir.AsyncMbarArrive:
			m := loadMbar(b)
			tok := m.phase<<63 | uint64(m.pending)&(1<<20-1)
			cnt := int64(1)
			if in.Mode == ir.MbarArrive && !to.Flag {
				cnt = arg()
			}
			if kind, fatal := m.misuse(cnt); kind != 0 {
				bad = wp.mbarMisuse(bad, l, kind, fatal, to.DstSpace, addr)
				if fatal {
					continue // the GPU stops the kernel: the arrival is not made
				}
			}
			if in.Mode == ir.MbarArrive && to.Flag {
				m.tx += arg()
			}
			m.pending -= cnt
			if to.Drop {
				m.expected -= cnt
			}
			m.store(b)
			if in.Mode == ir.MbarArrive {
				wp.r(to.D[0])[l] = tok
			}
		case ir.MbarExpectTx, ir.MbarCompleteTx:
			m := loadMbar(b)
			if kind, _ := m.misuse(0); kind != 0 {
				bad = wp.mbarMisuse(bad, l, kind, false, to.DstSpace, addr)
			}
			if in.Mode == ir.MbarExpectTx {
				m.tx += arg()
			} else {
				m.tx -= arg()
			}
			m.store(b)
		case ir.MbarTestWait, ir.MbarTryWait:
			m := loadMbar(b)
			if kind, _ := m.misuse(0); kind != 0 {
				bad = wp.mbarMisuse(bad, l, kind, false, to.DstSpace, addr)
			}
			x := wp.r(to.A[0])[l]
			var done bool
			if to.Flag { // parity: the phase of that parity is the completed one
				done = m.phase != x&1
			} else {
				done = m.phase != x>>63
			}
			v := uint64(0)
			if !done && wp.w.l.cfg.ITS {
				wp.waitFailed = true
			}
			if done {
				v = 1
				if wp.chk != nil {
					if off, ok := wp.sharedOff(to.DstSpace, addr); ok {
						wp.asyncEvent(pc, AsyncWaited, 0, l, to.DstSpace, 0, 0, off)
					}
				}
			}
			wp.r(to.D[0])[l] = v
		}
	}
	if bad != nil {
		wp.mbarStop(pc, bad)
	}
}

// misuse says whether an operation on the object, an arrival of cnt (0
// for a wait or a transaction count), misuses it, and whether the GPU
// stops the kernel for it: any use of an object no init made valid
// (fatal for an arrival, unless mbarrier.inval left it), and an arrival of
// more than the pending count (always fatal).
func (m *mbar) misuse(cnt int64) (kind uint8, fatal bool) {
	switch {
	case m.flags&mbarValidBit == 0:
		return MbarMissingInit, cnt > 0 && m.flags&mbarInvalBit == 0
	case cnt > m.pending:
		return MbarOverflow, true
	}
	return 0, false
}

// mbarMisuse records lane l's misuse of the object at addr (in space sp)
// in the warp's check buffer (allocated on the first misuse only).
func (wp *warp) mbarMisuse(bad *CheckMbar, l int, kind uint8, fatal bool, sp ptxtype.Space, addr uint64) *CheckMbar {
	if bad == nil {
		if wp.chkBuf == nil {
			wp.chkBuf = new(checkBuf)
		}
		bad = &wp.chkBuf.mbar
		*bad = CheckMbar{}
	}
	if sp == ptxtype.SpaceGeneric && addr >= SharedWindow && addr < SharedWindow+WindowSize {
		addr -= SharedWindow
	}
	bad.Lanes |= 1 << uint(l)
	bad.Kind[l], bad.Addr[l] = kind, addr
	bad.Fatal = bad.Fatal || fatal
	return bad
}

// mbarStop hands the warp's mbarrier misuse to the sanitizer, which
// reports it and may stop the kernel; without one, a misuse the GPU stops
// the kernel for faults it (cudaErrorLaunchFailure).
func (wp *warp) mbarStop(pc int, bad *CheckMbar) {
	if mc, ok := wp.chk.(MbarChecker); ok {
		if !mc.Mbarrier(wp.site(pc, bad.Lanes), bad) {
			wp.sanitizerStop(pc, bad.Lanes)
		}
		return
	}
	if !bad.Fatal {
		return
	}
	for m := bad.Lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		switch bad.Kind[l] {
		case MbarMissingInit:
			wp.fault(FaultTrap, pc, l, SharedWindow+bad.Addr[l], true,
				"mbarrier arrival on the object at shared offset %#x, which no mbarrier.init initialized", bad.Addr[l])
			return
		case MbarOverflow:
			wp.fault(FaultTrap, pc, l, SharedWindow+bad.Addr[l], true,
				"mbarrier arrival count exceeds the pending arrivals of the current phase of the object at shared offset %#x", bad.Addr[l])
			return
		}
	}
}
