package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
)

// TestCachePartialSectors: a sector written in part stays partial until
// written whole (two halves merge) or filled from below; evicting a line
// reports its dirty and its partial sectors.
func TestCachePartialSectors(t *testing.T) {
	c := newCache(4*128, 4) // one set of four lines
	c.write(0, 0, 16)       // line 0, sector 0: half
	if !c.partial(0) {
		t.Fatal("a 16-byte write left the sector whole")
	}
	c.write(0, 0, 16) // the other half
	if c.partial(0) {
		t.Error("two 16-byte writes left the sector partial")
	}
	c.write(5, 0, 4) // line 1, sector 1: 4 bytes
	c.fill(5, 0, false)
	if c.partial(5) {
		t.Error("a sector fetched from below after a partial write is still partial")
	}
	c.write(8, 0, 4) // line 2: one partial sector and one whole one
	c.write(9, 0, 32)
	c.write(12, 0, 8) // line 3: partial
	c.lookup(0)
	c.lookup(5)
	c.lookup(12)
	// Line 2 is the least recently used: a fifth line evicts it.
	dirty, partial := c.write(16, 0, 32)
	if dirty != 2 || partial != 1 {
		t.Errorf("evicting line 2: %d dirty, %d partial sectors; want 2, 1", dirty, partial)
	}
}

// TestMemoryPartialStores: stores that write sectors in part cost the L2
// PartialSectorBytes each instead of 32, and once the L2 overflows each
// line evicted with partial sectors is a DRAM read-modify-write (DRAM read
// bytes, RMWLineBytes of DRAM time) that the store waits for; whole-sector
// stores of the same sectors read nothing from DRAM.
func TestMemoryPartialStores(t *testing.T) {
	run := func(bytesPerSector uint32) (*gridState, uint64) {
		s := memFixture()
		// All the H100's SMs, so that no SM's L1 data path is the limit.
		for len(s.sms) < 132 {
			s.sms = append(s.sms, &smT{id: len(s.sms), l1: newCache(s.p.L1Bytes, 4), l1q: queue{bytesPerCycle: float64(s.p.L1BytesPerCycle)}})
		}
		lines := uint64(s.d.l2.sectors() / 4)
		rec := &engine.StepRecord{Store: true}
		// One sector a line (stride 128 bytes), 32 a request, twice the
		// L2's lines.
		for line := uint64(0); line < 2*lines; line += 32 {
			rec.Sectors = rec.Sectors[:0]
			for k := uint64(0); k < 32; k++ {
				rec.Sectors = append(rec.Sectors, 4*(line+k))
			}
			rec.Bytes = bytesPerSector * 32
			s.store(s.sms[line/32%132], rec, 0)
		}
		s.settle(0)
		return s, lines
	}
	whole, lines := run(32)
	part, _ := run(4)
	if whole.dramRd != 0 {
		t.Errorf("whole-sector stores read %d DRAM bytes", whole.dramRd)
	}
	// About one L2's worth of lines was evicted, each with one partial
	// sector: 32 bytes read for each.
	if part.dramRd < 32*lines/2 || part.dramRd > 32*lines*2 {
		t.Errorf("partial stores read %d DRAM bytes for %d lines evicted", part.dramRd, lines)
	}
	// The partial stream waits for DRAM's read-modify-writes: far slower.
	p := part.p
	rmw := float64(lines) * (32 + p.RMWLineBytes) / p.DRAMBytesPerCycle
	if float64(part.drain) < 0.5*rmw {
		t.Errorf("partial stores drained at cycle %d; %d read-modify-writes take %.0f cycles of DRAM", part.drain, lines, rmw)
	}
	if part.drain < 2*whole.drain {
		t.Errorf("partial stores drained at %d, whole ones at %d: want the partial ones at least twice as slow", part.drain, whole.drain)
	}
}

// TestL1CarveoutCapacity: on the H100 the L1 is what the shared-memory
// carveout leaves of the SM's 256 KiB: 248 KiB for blocks that use no
// shared memory (the 8 KiB carveout holds their reserved 1 KiB each), less
// as blocks use more; a preset without UnifiedL1 keeps its L1Bytes.
func TestL1CarveoutCapacity(t *testing.T) {
	h100 := arch.MustLookup("h100")
	p := ForArch(h100, 0)
	tests := []struct {
		name                 string
		threads, regs, shmem int
		want                 int
	}{
		{"no shared memory, 1024 threads", 1024, 32, 0, 248 << 10},
		{"no shared memory, 8 blocks of 256", 256, 32, 0, 248 << 10},
		{"48 KiB a block, 4 blocks: 196 KiB carveout", 256, 32, 48 << 10, 60 << 10},
		{"100 KiB a block, 2 blocks: 228 KiB carveout", 128, 32, 100 << 10, 28 << 10},
	}
	for _, tc := range tests {
		if got := l1Bytes(h100, p, tc.threads, tc.regs, tc.shmem); got != tc.want {
			t.Errorf("%s: L1 %d KiB, want %d KiB", tc.name, got>>10, tc.want>>10)
		}
	}
	q := *p
	q.UnifiedL1 = false
	if got := l1Bytes(h100, &q, 256, 32, 0); got != p.L1Bytes {
		t.Errorf("without UnifiedL1: %d, want L1Bytes %d", got, p.L1Bytes)
	}
}

// TestDispatchCycle: a block is dispatched when its SM has room, no sooner
// than the block scheduler's rate (FirstDispatchNS for the grid's first
// wave, BlockDispatchNS after it) and than its SM released the block before
// (BlockRetireCycles after that block's last warp was done: retireBlocks
// sets freeAt).
func TestDispatchCycle(t *testing.T) {
	p := ForArch(arch.MustLookup("h100"), 1589)
	if p.BlockRetireCycles < 210 || p.BlockRetireCycles > 235 {
		t.Fatalf("BlockRetireCycles %.0f at 1.589 GHz, want 140 ns = 222", p.BlockRetireCycles)
	}
	retire := uint64(p.BlockRetireCycles)
	const wave = 1056
	tests := []struct {
		name         string
		t            uint64
		index        int
		freeAt, want uint64
	}{
		{"first wave: its own rate", 0, 1000, 0, uint64(1000 * p.FirstDispatchCycles)},
		{"after the first wave: the scheduler's rate", 0, 2000, 0, uint64(2000 * p.DispatchCycles)},
		{"room and rate long passed", 50000, 1100, 0, 50000},
		{"a retired block's slot: its release", 50000, 1100, 50000 + retire, 50000 + retire},
		{"the rate later than the release", 100, 100000, 100 + retire, uint64(100000 * p.DispatchCycles)},
	}
	for _, tc := range tests {
		if got := dispatchCycle(p, tc.t, tc.index, wave, tc.freeAt); got != tc.want {
			t.Errorf("%s: dispatched at %d, want %d", tc.name, got, tc.want)
		}
	}
	if p.FirstDispatchCycles >= p.DispatchCycles {
		t.Errorf("first wave %.2f cycles a block, later blocks %.2f: the first wave is the faster", p.FirstDispatchCycles, p.DispatchCycles)
	}
}
