// The memory system beyond the SM's pipes: global loads through the SM's
// L1 (cache.go) to the device's L2 and DRAM (the L2 misses fetch
// DRAMFetch bytes; dirty sectors evicted are written back), stores written
// through L1 to L2, atomics performed at the L2 (same-address updates
// serialized, all sharing the L2's atomic throughput). Bandwidth is
// queue.go's: the L1's per-SM queue, the L2's and DRAM's device-wide bucket
// queues.

package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
)

// load times a global load: every sector through L1, L2 and DRAM; the
// data is there when the last sector arrives.
func (s *gridState) load(sm *smT, rec *engine.StepRecord) uint64 {
	p := s.p
	t0 := sm.l1q.take(s.now, float64(len(rec.Sectors)*32))
	done := t0 + uint64(p.L1HitLatency)
	for _, sec := range rec.Sectors {
		if sm.l1 != nil {
			if hit, ready := sm.l1.lookup(sec); hit {
				done = max(done, ready)
				continue
			}
		}
		at := s.fromL2(t0, sec)
		if sm.l1 != nil {
			sm.l1.fill(sec, at, false)
		}
		done = max(done, at)
	}
	return done - s.now
}

// fromL2 is when sector sec, requested from L2 at cycle t, arrives back at
// the SM: an L2 hit, or a DRAM fetch of the sector with its neighbours.
func (s *gridState) fromL2(t, sec uint64) uint64 {
	d, p := s.d, s.p
	if hit, ready := d.l2.lookup(sec); hit {
		s.l2Hit++
		return max(d.l2q.take(t, 32)+uint64(p.L2HitLatency), ready)
	}
	s.l2Miss++
	n := uint64(max(p.DRAMFetch/32, 1))
	first := sec / n * n
	at := d.dram.take(t, float64(n*32)) + uint64(p.DRAMLatency)
	s.dramRd += n * 32
	for k := first; k < first+n; k++ {
		if hit, _ := d.l2.lookup(k); hit && k != sec {
			continue
		}
		if ev := d.l2.fill(k, at, false); ev > 0 {
			s.writeBack(t, ev)
		}
	}
	return at
}

// store writes through L1 to L2 (write-back to DRAM on eviction) once
// its data is ready at cycle data; the grid is not done before its stores
// are.
func (s *gridState) store(sm *smT, rec *engine.StepRecord, data uint64) {
	d := s.d
	t0 := max(sm.l1q.take(s.now, float64(len(rec.Sectors)*32)), data)
	// Every sector written whole: the lanes' bytes cover the sectors.
	full := int(rec.Bytes) >= 32*len(rec.Sectors)
	for _, sec := range rec.Sectors {
		if sm.l1 != nil {
			if s.p.StoreInvalidatesL1 {
				sm.l1.drop(sec)
			} else {
				sm.l1.update(sec, t0+uint64(s.p.StoreToLoad), full)
			}
		}
		at := d.l2q.take(t0, 32)
		if ev := d.l2.fill(sec, at, true); ev > 0 {
			s.writeBack(t0, ev)
		}
		s.drain = max(s.drain, at)
	}
}

// atomic times a global atomic, performed at the L2. Lanes that name the
// same address are separate updates, serialized at that address's atomic
// unit (AtomicNS each); lanes on distinct addresses of one sector are one
// update. All updates share the L2's atomic throughput (AtomicOpsPerNS).
func (s *gridState) atomic(sm *smT, rec *engine.StepRecord) uint64 {
	d, p := s.d, s.p
	n := max(len(rec.Sectors), 1)
	t0 := sm.l1q.take(s.now, float64(n*32))
	serial := float64(max(rec.AddrMaxDup, 1))
	ops := float64(n) + float64(popcount(rec.Exec)) - float64(max(rec.AddrDistinct, 1))
	// The pool serves ops at its rate: take them as bytes of a queue.
	pool := d.atomQ.take(t0, ops)
	done := t0
	for _, sec := range rec.Sectors {
		at := max(s.fromL2(t0, sec), pool)
		start := max(float64(at), d.atomBusy[sec])
		end := start + serial*p.AtomicCycles
		d.atomBusy[sec] = end
		d.l2.fill(sec, uint64(end), true)
		done = max(done, uint64(end+0.999))
	}
	s.drain = max(s.drain, done)
	return done - s.now
}

func (s *gridState) writeBack(t uint64, sectors int) {
	s.dramWr += uint64(sectors) * 32
	s.d.dram.take(t, float64(sectors*32))
}

func popcount(x uint32) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}
