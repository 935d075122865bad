package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
)

// memFixture is an H100 grid state of two SMs with cold caches and idle
// queues.
func memFixture() *gridState {
	d := New(arch.MustLookup("h100"), Options{})
	s := &gridState{d: d, p: d.p}
	for i := 0; i < 2; i++ {
		s.sms = append(s.sms, &smT{id: i, l1: newCache(d.p.L1Bytes, 4), l1q: queue{bytesPerCycle: float64(d.p.L1BytesPerCycle)}})
	}
	return s
}

// settle replays the requests the SMs made since cycle t through the L2
// side and writes their answers (what the next quanta do), the SMs going
// on in a new quantum.
func (s *gridState) settle(t uint64) {
	k := s.sms[0].cur
	s.replay(k, t)
	for _, sm := range s.sms {
		s.begin(sm, k+2)
	}
}

// loadCycles is a load's latency on sm at sm.now, answered at once.
func loadCycles(s *gridState, sm *smT, rec *engine.StepRecord) uint64 {
	done := s.load(sm, rec)
	k := sm.cur
	s.replay(k, sm.now)
	v := sm.val(done)
	for _, x := range s.sms {
		s.begin(x, k+2)
	}
	return v - sm.now
}

// TestMemoryLoadLatencies: a load that misses everywhere takes DRAM's
// latency, the same sector again hits the SM's L1, and another SM finds it
// in L2; each level's counts follow.
func TestMemoryLoadLatencies(t *testing.T) {
	s := memFixture()
	p := s.p
	rec := &engine.StepRecord{Sectors: []uint64{1000}}
	miss := loadCycles(s, s.sms[0], rec)
	if lo := uint64(p.DRAMLatency); miss < lo || miss > lo+uint64(p.L1HitLatency)+2 {
		t.Errorf("cold load: %d cycles, want DRAM's %.0f (+ the L1's %d at most)", miss, p.DRAMLatency, p.L1HitLatency)
	}
	if s.l2Miss != 1 || s.dramRd != uint64(p.DRAMFetch) {
		t.Errorf("cold load: %d L2 misses, %d DRAM bytes; want 1, %d", s.l2Miss, s.dramRd, p.DRAMFetch)
	}
	s.sms[0].now, s.sms[1].now = 10000, 10000 // the fill has arrived
	// An L1 hit: the hit latency after the sector's cycle on the L1's
	// data path.
	if hit := loadCycles(s, s.sms[0], rec); hit != uint64(p.L1HitLatency)+1 {
		t.Errorf("L1 hit: %d cycles, want %d", hit, p.L1HitLatency+1)
	}
	l2 := loadCycles(s, s.sms[1], rec)
	if want := uint64(p.L2HitLatency); l2 < want || l2 > want+1 {
		t.Errorf("L2 hit from another SM: %d cycles, want %d", l2, want)
	}
	if s.l2Hit != 1 || s.l2Miss != 1 {
		t.Errorf("L2 hits %d, misses %d; want 1, 1", s.l2Hit, s.l2Miss)
	}
	// DRAMFetch brings the sector's neighbour: it hits in L2.
	s.sms[1].now = 20000
	loadCycles(s, s.sms[1], &engine.StepRecord{Sectors: []uint64{1001}})
	if s.l2Hit != 2 {
		t.Errorf("the fetched neighbour sector missed L2 (hits %d)", s.l2Hit)
	}
}

// TestMemoryStoresWriteBack: stores leave dirty sectors in L2, which cost
// DRAM writes only when evicted; the grid is not done before its stores
// have reached L2.
func TestMemoryStoresWriteBack(t *testing.T) {
	s := memFixture()
	sectors := uint64(s.d.l2.sectors())
	rec := &engine.StepRecord{Store: true, Bytes: 32 * 4}
	for sec := uint64(0); sec < 2*sectors; sec += 4 {
		rec.Sectors = append(rec.Sectors[:0], sec, sec+1, sec+2, sec+3)
		s.store(s.sms[0], rec, s.sms[0].now)
		s.sms[0].now++
	}
	s.settle(0)
	if s.drain == 0 {
		t.Error("stores left the drain cycle at 0")
	}
	// Twice the L2's capacity written: at least half of it written back.
	if s.dramWr < 32*sectors/2 || s.dramWr > 32*sectors*2 {
		t.Errorf("DRAM writes %d bytes for %d sectors written to an L2 of %d", s.dramWr, 2*sectors, sectors)
	}
	if s.dramRd != 0 {
		t.Errorf("whole-sector stores read %d bytes from DRAM", s.dramRd)
	}
}

// TestMemoryAtomicsSerialize: lanes updating one address serialize at its
// L2 atomic unit; lanes on distinct addresses of a sector do not.
func TestMemoryAtomicsSerialize(t *testing.T) {
	lat := func(dup uint32) uint64 {
		s := memFixture()
		rec := &engine.StepRecord{Sectors: []uint64{5}, Exec: 0xffffffff, AddrDistinct: 32 / dup, AddrMaxDup: dup}
		done := s.atomic(s.sms[0], rec)
		s.replay(0, 0)
		return s.sms[0].val(done)
	}
	one, same := lat(1), lat(32)
	want := uint64(31 * s0(memFixture()).AtomicCycles)
	if same-one+1 < want || same-one > want+1 {
		t.Errorf("32 lanes on one address: %d cycles, on 32 addresses: %d; want %d more", same, one, want)
	}
}

func s0(s *gridState) *Params { return s.p }
