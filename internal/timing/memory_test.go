package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
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
	// Sector 1000's page is homed in the L2 partition near SM 0: half the
	// far partition's extra less than the DRAM latency (their mean).
	dram := p.DRAMLatency - p.DRAMFarCycles/2
	if farPage(1000>>7) != smSide(0) {
		t.Fatal("sector 1000 is far from SM 0")
	}
	if lo := uint64(dram); miss < lo || miss > lo+uint64(p.L1HitLatency)+2 {
		t.Errorf("cold load: %d cycles, want DRAM's %.0f (+ the L1's %d at most)", miss, dram, p.L1HitLatency)
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

// TestMemoryFarPartition: an L2 miss on a line whose page is homed in
// the L2 partition far from the SM (farPage, smSide) is answered
// DRAMFarCycles after a near one, the DRAM latency their mean; a burst of
// far misses is no faster than the link between the partitions
// (FarBytesPerNS) carries their bytes, while the same burst of near ones
// is the DRAM's; an L2 hit does not cross.
func TestMemoryFarPartition(t *testing.T) {
	s := memFixture()
	p := s.p
	if p.DRAMFarCycles <= 0 || s.d.far == nil {
		t.Fatal("the H100 preset has no far L2 partition")
	}
	// Pages of parity 0 are near SM 0 (side 0), of parity 1 far.
	var near, far []uint64
	for page := uint64(0); len(near) < 256 || len(far) < 256; page++ {
		if farPage(page) == smSide(0) {
			near = append(near, page)
		} else {
			far = append(far, page)
		}
	}
	one := func(page uint64) uint64 {
		s.sms[0].now += 100000 // every queue empty
		return loadCycles(s, s.sms[0], &engine.StepRecord{Sectors: []uint64{page << 7}})
	}
	n, f := one(near[0]), one(far[0])
	if d := float64(f) - float64(n); math.Abs(d-p.DRAMFarCycles) > 2 {
		t.Errorf("a far miss takes %d cycles, a near one %d: %.0f apart, want DRAMFarCycles %.0f", f, n, d, p.DRAMFarCycles)
	}
	if mean := (float64(n) + float64(f)) / 2; math.Abs(mean-p.DRAMLatency) > float64(p.L1HitLatency)+2 {
		t.Errorf("near and far misses %d and %d cycles: their mean is not the DRAM latency %.0f", n, f, p.DRAMLatency)
	}
	if hit := one(far[0]); hit > uint64(p.L1HitLatency)+1 {
		// The L1 hits; from the other SM's side the L2 hits.
		t.Errorf("the far line again: %d cycles", hit)
	}
	s.sms[1].now = s.sms[0].now
	if l2 := loadCycles(s, s.sms[1], &engine.StepRecord{Sectors: []uint64{far[0] << 7}}); l2 > uint64(p.L2HitLatency)+1 {
		t.Errorf("an L2 hit on a far line: %d cycles, want the L2's %.0f", l2, p.L2HitLatency)
	}
	// The L2's side of a burst of misses all at cycle t0, one sector a line
	// (the L1's data path would otherwise be the limit), DRAM's bandwidth
	// made ample so that the link is what the far burst waits for.
	s.d.dram = newQueue(1e6)
	t0 := s.sms[0].now + 100000
	burst := func(pages []uint64) uint64 {
		t0 += 100000
		last := t0
		for _, page := range pages[1:] {
			for k := uint64(0); k < 128; k += 4 {
				last = max(last, s.fromL2(t0, page<<7+k, 32, 0))
			}
		}
		return last - t0
	}
	bytes := float64(255 * 32 * uint64(max(p.DRAMFetch, 32)))
	nb, fb := burst(near), burst(far)
	if link := bytes / p.FarBytesPerCycle; float64(fb) < float64(nb)+p.DRAMFarCycles+0.9*link {
		t.Errorf("%.0f bytes of far misses took %d cycles, of near ones %d: want the far partition's %.0f and the link's %.0f more",
			bytes, fb, nb, p.DRAMFarCycles, link)
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
// L2 atomic unit; lanes on distinct addresses of a sector do not; an
// atomic ptxas aggregates across the warp is one update (a full-warp scan
// only when every lane runs it).
func TestMemoryAtomicsSerialize(t *testing.T) {
	lat := func(dup uint32, agg uint8, exec uint32) uint64 {
		s := memFixture()
		in := &ir.Inst{Op: ir.OpAtom, Mode: ir.AtomAdd, Type: ptxtype.U32, Agg: agg}
		rec := &engine.StepRecord{Sectors: []uint64{5}, Exec: exec, AddrDistinct: 32 / dup, AddrMaxDup: dup}
		done := s.atomic(s.sms[0], in, rec)
		s.replay(0, 0)
		return s.sms[0].val(done)
	}
	const full = 0xffffffff
	one, same := lat(1, ir.AggNone, full), lat(32, ir.AggNone, full)
	want := uint64(31 * s0(memFixture()).AtomicCycles)
	if same-one+1 < want || same-one > want+1 {
		t.Errorf("32 lanes on one address: %d cycles, on 32 addresses: %d; want %d more", same, one, want)
	}
	if e := lat(32, ir.AggElect, full); e != one {
		t.Errorf("32 lanes on one address, aggregated: %d cycles, want one update's %d", e, one)
	}
	if e := lat(32, ir.AggFullWarp, full); e != one {
		t.Errorf("32 lanes on one address, a full warp's scan: %d cycles, want one update's %d", e, one)
	}
	if e := lat(31, ir.AggFullWarp, full>>1); e <= one {
		t.Errorf("31 lanes on one address, the scan's partial-warp path: %d cycles, want more than one update's %d", e, one)
	}
}

func s0(s *gridState) *Params { return s.p }

// TestL1Wavefronts: with L1Wavefronts a global load takes a cycle of the
// L1's data path per wavefront (the most distinct sectors at one place in
// their lines) or its bytes at L1BytesPerCycle, whichever is more, as
// mech2.cu's l1wave measured on the GH100 (testdata/timing/mechanisms2):
// a whole line one cycle, a sector in each of 32 lines at the same offset
// 32, at 32 different offsets 8 (its 32 sectors), 8 lines a sector each
// at stride 32 bytes 8, two lines 2, one word for the warp 1 (a request
// takes at least a cycle); without it, the sectors' bytes.
func TestL1Wavefronts(t *testing.T) {
	p := &Params{L1BytesPerCycle: 128, L1Wavefronts: true}
	// sectors of the words lane*S + u*T (l1wave<S,T>) for u = 0.
	words := func(S uint64) []uint64 {
		var v []uint64
		for l := uint64(0); l < 32; l++ {
			s := l * S / 8
			if len(v) == 0 || v[len(v)-1] != s {
				v = append(v, s)
			}
		}
		return v
	}
	for _, tc := range []struct {
		name   string
		S      uint64
		cycles float64
	}{
		{"one line (S=1)", 1, 1},
		{"two lines (S=2)", 2, 2},
		{"8 lines, a sector a lane (S=8)", 8, 8},
		{"32 lines, one bank (S=32)", 32, 32},
		{"32 lines, 32 banks (S=33)", 33, 8},
		{"one word (S=0)", 0, 1},
	} {
		if got := l1DataBytes(p, words(tc.S)) / float64(p.L1BytesPerCycle); got != tc.cycles {
			t.Errorf("%s: %.2f cycles of the L1 data path, want %.2f", tc.name, got, tc.cycles)
		}
	}
	p.L1Wavefronts = false
	if got := l1DataBytes(p, words(32)); got != 32*32 {
		t.Errorf("without L1Wavefronts: 32 sectors at one offset take %.0f bytes, want %d", got, 32*32)
	}
}

// TestLoadMissPath: a global load into registers takes the L1 data path
// for its missing sectors at LoadMissBytesPerCycle and at least
// LoadMissLineCycles a missing line, its wavefronts when more. The
// expected cycles are the GH100's: one sector of each of 32 lines at 32
// offsets, missing, 32.1-32.2 cycles an SM (testdata/timing/l1reuse,
// miss_rowsx_s32; in the L1 the model's wavefronts, 8); at one offset 32
// either way (miss_rows_s32, hit_rows); whole lines about two cycles each
// (testdata/timing/coldlines: four lines of a warp's 16-byte loads).
func TestLoadMissPath(t *testing.T) {
	p := memFixture().p
	spread := func() []uint64 { // lane l: line 33*l, sector l/8 of it (rowsx)
		var v []uint64
		for l := uint64(0); l < 32; l++ {
			v = append(v, 33*l*4+l/8)
		}
		return v
	}
	column := func() []uint64 { // lane l: line 33*l, sector 0 (rows)
		var v []uint64
		for l := uint64(0); l < 32; l++ {
			v = append(v, 33*l*4)
		}
		return v
	}
	lines := func(n uint64) []uint64 { // n whole lines
		var v []uint64
		for i := uint64(0); i < 4*n; i++ {
			v = append(v, 4096+i)
		}
		return v
	}
	for _, tc := range []struct {
		name    string
		sectors []uint64
		held    bool
		cycles  float64
	}{
		{"32 lines at 32 offsets, missing", spread(), false, 32},
		{"32 lines at 32 offsets, in the L1", spread(), true, 8},
		{"32 lines at one offset, missing", column(), false, 32},
		{"32 lines at one offset, in the L1", column(), true, 32},
		{"one whole line, missing", lines(1), false, 2},
		{"four whole lines, missing", lines(4), false, 8},
		{"four whole lines, in the L1", lines(4), true, 4},
	} {
		l1 := newCache(p.L1Bytes, 4)
		if tc.held {
			for _, sec := range tc.sectors {
				l1.fill(sec, 0, false)
			}
		}
		if got := loadL1Bytes(p, l1, tc.sectors) / float64(p.L1BytesPerCycle); got != tc.cycles {
			t.Errorf("%s: %.2f cycles of the L1 data path, want %.2f", tc.name, got, tc.cycles)
		}
	}
}

// TestStoreL1Wavefronts: a global store takes the L1's data path as a
// load does, a cycle per wavefront: the tensor lesson's C stores (a warp's
// store writes one sector of each of 8 lines at one place in their lines:
// 8 cycles, not its 256 bytes' 2) take the H100 1091 cycles an SM for 128
// of them (testdata/timing/wgmma/h100b/mmaclk_stdout.txt, N = 256: the
// stamps after the loop and after the stores).
func TestStoreL1Wavefronts(t *testing.T) {
	s := memFixture()
	sm := s.sms[0]
	var secs []uint64
	for r := uint64(0); r < 8; r++ {
		secs = append(secs, r*1024/32) // rows of 256 floats: one line each, sector 0 of it
	}
	rec := &engine.StepRecord{Sectors: secs, Store: true, Bytes: 128}
	for i := 0; i < 128; i++ {
		s.store(sm, rec, 0)
	}
	if got := sm.l1q.free; got < 1000 || got > 1100 {
		t.Errorf("128 stores of 8 lines: the L1 busy %.0f cycles, want 1024 (the H100: 1091)", got)
	}
}

// TestL2Access: a request's line of one sector takes L2AccessBytes of
// the L2's bandwidth, a whole line its 128 bytes.
func TestL2Access(t *testing.T) {
	p := memFixture().p
	if p.L2AccessBytes <= 32 {
		t.Fatalf("the H100 preset's L2 access cost is %.1f bytes", p.L2AccessBytes)
	}
	// The L2's bandwidth: 32 lines of one sector each against one whole line.
	for _, tc := range []struct {
		name    string
		sectors []uint64
		bytes   float64
	}{
		{"32 lines, a sector each", func() (v []uint64) {
			for k := uint64(0); k < 32; k++ {
				v = append(v, 4*k)
			}
			return v
		}(), 32 * p.L2AccessBytes},
		{"one whole line", []uint64{0, 1, 2, 3}, 128},
	} {
		s := memFixture()
		for _, sec := range tc.sectors {
			s.d.l2.fill(sec, 0, false)
		}
		s.sms[0].l1 = nil // straight to the L2
		s.sms[0].now = 100
		loadCycles(s, s.sms[0], &engine.StepRecord{Sectors: tc.sectors})
		var used float64 // the bytes the L2's queue served
		for _, u := range s.d.l2q.used {
			used += u
		}
		if math.Abs(used-tc.bytes) > 0.01 {
			t.Errorf("%s: %.1f bytes of the L2's bandwidth, want %.1f", tc.name, used, tc.bytes)
		}
	}
}

// TestFarPageFollowsOffset: a page's L2 partition (farPage) follows its
// offset within its allocation's 2 GiB slot, never the slot (the
// physical frame's part of the H100's hash is unknown: the model takes
// the offset's bits 23 to 30), so a buffer's partitions do not depend on
// where the allocator put it; every slot's first page is homed on side 0,
// and two neighbouring pages are homed apart.
func TestFarPageFollowsOffset(t *testing.T) {
	const slot = 2 << 30 // engine.Memory's allocation slots
	offsets := []uint64{0, 4096, 8192, 12288, 64 << 10, 1 << 21, 3 << 21, 1 << 23, 5 << 23, slot - 4096}
	for _, k := range []uint64{0, 1, 2, 3, 7, 1000} {
		base := engine.GlobalBase + k*slot
		if got := farPage(base >> 12); got != 0 {
			t.Errorf("slot %d: its first page homed on side %d, want 0", k, got)
		}
		for _, off := range offsets {
			if got, want := farPage((base+off)>>12), farPage((engine.GlobalBase+off)>>12); got != want {
				t.Errorf("slot %d, offset %#x: side %d, the first slot's %d", k, off, got, want)
			}
		}
	}
	for page := uint64(0); page < 1<<19; page += 2 {
		if farPage(page) == farPage(page+1) {
			t.Fatalf("pages %d and %d homed together", page, page+1)
		}
	}
}

// TestConstMissTakesNoSide: a constant cache's miss (constLoad's,
// reqConstLoad) takes the DRAM latency's mean whether its page is homed
// near the SM or far, as the H100's const_mb showed (132 SMs chasing
// through one cold page of __constant__ memory no slower than one).
func TestConstMissTakesNoSide(t *testing.T) {
	s := memFixture()
	// Pages near and far from SM 0, a pair for the constant misses and
	// one for the global ones (every line cold).
	var near, far []uint64
	for page := uint64(16); len(near) < 2 || len(far) < 2; page++ {
		if farPage(page) == smSide(0) {
			near = append(near, page)
		} else {
			far = append(far, page)
		}
	}
	one := func(page uint64, constant bool) uint64 {
		s.sms[0].now += 100000 // every queue empty
		s.sms[0].inConst = constant
		defer func() { s.sms[0].inConst = false }()
		return loadCycles(s, s.sms[0], &engine.StepRecord{Sectors: []uint64{page<<7 | 4}})
	}
	cn, cf := one(near[0], true), one(far[0], true)
	gn, gf := one(near[1], false), one(far[1], false)
	if cn != cf {
		t.Errorf("constant misses: near %d cycles, far %d: want the same", cn, cf)
	}
	if gf <= gn {
		t.Errorf("global misses: near %d cycles, far %d: want far later", gn, gf)
	}
	if mean := (float64(gn) + float64(gf)) / 2; math.Abs(float64(cn)-mean) > 2 {
		t.Errorf("constant miss %d cycles: not the mean %.0f of a near and a far global miss", cn, mean)
	}
}
