package engine

import (
	"encoding/binary"

	"github.com/warpsim/warpsim/internal/ir"
)

// mbarrier objects (OpAsync, modes Mbar*) live in the 8 bytes of shared
// memory they are initialized in: bits 0-19 the pending arrival count,
// 20-39 the expected count, 40-60 the transaction count (21-bit two's
// complement), bit 63 the phase parity. The object is opaque to programs
// (the H100's own encoding differs). A phase completes when no arrival and
// no transaction is pending: the phase flips and the pending count is
// reloaded from the expected count. A state token is the phase parity at
// the arrival (bit 63) and the pending count before it (bits 0-19), which
// mbarrier.pending_count returns, as the H100 does.

type mbar struct {
	pending, expected, tx int64
	phase                 uint64
}

func loadMbar(b []byte) mbar {
	v := binary.LittleEndian.Uint64(b)
	tx := int64(v>>40) & (1<<21 - 1)
	if tx >= 1<<20 {
		tx -= 1 << 21
	}
	return mbar{pending: int64(v & (1<<20 - 1)), expected: int64(v>>20) & (1<<20 - 1), tx: tx, phase: v >> 63}
}

func (m *mbar) store(b []byte) {
	if m.pending <= 0 && m.tx == 0 {
		m.phase ^= 1
		m.pending = m.expected
	}
	v := uint64(m.pending)&(1<<20-1) | (uint64(m.expected)&(1<<20-1))<<20 | (uint64(m.tx)&(1<<21-1))<<40 | m.phase<<63
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
	for l := 0; l < 32; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		addr := uint64(to.DstOff)
		if to.Dst >= 0 {
			addr += wp.r(to.Dst)[l]
		}
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
			binary.LittleEndian.PutUint64(b, n|n<<20)
		case ir.MbarInval:
			binary.LittleEndian.PutUint64(b, 0)
		case ir.MbarArrive, ir.AsyncMbarArrive:
			m := loadMbar(b)
			tok := m.phase<<63 | uint64(m.pending)&(1<<20-1)
			cnt := int64(1)
			if in.Mode == ir.MbarArrive {
				if to.Flag {
					m.tx += arg()
				} else {
					cnt = arg()
				}
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
			if in.Mode == ir.MbarExpectTx {
				m.tx += arg()
			} else {
				m.tx -= arg()
			}
			m.store(b)
		case ir.MbarTestWait, ir.MbarTryWait:
			m := loadMbar(b)
			x := wp.r(to.A[0])[l]
			var done bool
			if to.Flag { // parity: the phase of that parity is the completed one
				done = m.phase != x&1
			} else {
				done = m.phase != x>>63
			}
			v := uint64(0)
			if done {
				v = 1
			}
			wp.r(to.D[0])[l] = v
		}
	}
}
