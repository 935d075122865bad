package timing

import (
	"testing"
	"unsafe"
)

// TestCacheHitsAndEvictions: a cache holds sectors of 128-byte lines, hits
// only the sectors filled, evicts the least recently used line of a full
// set and reports the dirty sectors it evicted.
func TestCacheHitsAndEvictions(t *testing.T) {
	c := newCache(4*128, 4) // one set of four lines
	if c.sets != 1 || c.ways != 4 {
		t.Fatalf("sets %d, ways %d; want 1, 4", c.sets, c.ways)
	}
	if hit, _ := c.lookup(0); hit {
		t.Fatal("an empty cache hit")
	}
	c.fill(0, 100, false) // line 0, sector 0
	if hit, ready := c.lookup(0); !hit || ready != 100 {
		t.Errorf("sector 0: hit %v ready %d; want a hit ready at 100", hit, ready)
	}
	if hit, _ := c.lookup(1); hit {
		t.Error("sector 1 of a line whose sector 0 alone was filled hit")
	}
	// Lines 1..3 fill the set; line 1 gets two dirty sectors.
	c.fill(4, 0, true)
	c.fill(5, 0, true)
	c.fill(8, 0, false)
	c.fill(12, 0, false)
	c.lookup(0) // line 0 is now the most recently used; line 1 the least
	if ev, _ := c.fill(16, 0, false); ev != 2 {
		t.Errorf("evicting line 1 with two dirty sectors reported %d", ev)
	}
	for _, tc := range []struct {
		sector uint64
		hit    bool
	}{{0, true}, {4, false}, {5, false}, {8, true}, {12, true}, {16, true}} {
		if hit, _ := c.lookup(tc.sector); hit != tc.hit {
			t.Errorf("sector %d after the eviction: hit %v, want %v", tc.sector, hit, tc.hit)
		}
	}
	if ev, _ := c.fill(20, 0, false); ev != 0 {
		t.Errorf("evicting a clean line reported %d dirty sectors", ev)
	}
	if n := c.validSectors(); n != 4 {
		t.Errorf("valid sectors %d, want 4", n)
	}
	c.invalidate()
	if n := c.validSectors(); n != 0 {
		t.Errorf("after invalidate: %d valid sectors", n)
	}
}

// TestCacheMissesPendingFill: a second request for a sector whose fill is
// on its way waits for that fill (its ready cycle), and settle completes
// every fill.
func TestCacheMissesPendingFill(t *testing.T) {
	c := newCache(64*1024, 4)
	c.fill(7, 500, false)
	if hit, ready := c.lookup(7); !hit || ready != 500 {
		t.Errorf("pending fill: hit %v ready %d, want ready 500", hit, ready)
	}
	c.settle()
	if _, ready := c.lookup(7); ready != 0 {
		t.Errorf("after settle: ready %d, want 0", ready)
	}
	// settle counts (mod 2^16) instead of clearing each line: a fill
	// left pending 65,536 settles ago is complete all the same, in every
	// read or write of its ready cycle, and a line stays 32 bytes.
	for _, use := range []struct {
		name  string
		ready func() uint64
	}{
		{"lookup", func() uint64 { _, r := c.lookup(7); return r }},
		{"readyOf", func() uint64 { return c.readyOf(7) }},
		{"readyAt", func() uint64 { return *c.readyAt(7) }},
		{"update", func() uint64 { c.update(7, 3, true); return c.readyOf(7) }},
		{"fill", func() uint64 { c.fill(7, 4, false); return c.readyOf(7) }},
	} {
		c.fill(7, 500, false)
		for range 1 << 16 {
			c.settle()
		}
		want := uint64(0)
		switch use.name {
		case "update":
			want = 3
		case "fill":
			want = 4
		}
		if got := use.ready(); got != want {
			t.Errorf("%s 65,536 settles after a fill pending at 500: ready %d, want %d", use.name, got, want)
		}
	}
	if n := unsafe.Sizeof(cacheLine{}); n != 32 {
		t.Errorf("a cache line takes %d bytes, want 32", n)
	}
}

// TestCacheStoreUpdate: a store updates a present sector, allocates a
// missing sector only when it wrote all of it, and drop invalidates one.
func TestCacheStoreUpdate(t *testing.T) {
	c := newCache(64*1024, 4)
	tests := []struct {
		name   string
		sector uint64
		full   bool
		want   bool
	}{
		{"partial write of a missing sector", 40, false, false},
		{"full write of a missing sector", 41, true, true},
		{"partial write of a present sector", 41, false, true},
	}
	for _, tc := range tests {
		if got := c.update(tc.sector, 10, tc.full); got != tc.want {
			t.Errorf("%s: present %v, want %v", tc.name, got, tc.want)
		}
		if hit, _ := c.lookup(tc.sector); hit != tc.want {
			t.Errorf("%s: lookup hit %v, want %v", tc.name, hit, tc.want)
		}
	}
	c.drop(41)
	if hit, _ := c.lookup(41); hit {
		t.Error("a dropped sector hit")
	}
}

// TestCacheSetHashSpreadsStrides: lines a power-of-two stride apart do not
// all fall into one set (the set index is hashed), so a strided sweep
// smaller than the cache stays in it.
func TestCacheSetHashSpreadsStrides(t *testing.T) {
	c := newCache(256*1024, 16) // 2048 lines
	const n = 1024
	for i := uint64(0); i < n; i++ {
		c.fill(i*4*64, 0, false) // one line every 8 KiB
	}
	hits := 0
	for i := uint64(0); i < n; i++ {
		if hit, _ := c.lookup(i * 4 * 64); hit {
			hits++
		}
	}
	if hits < n*9/10 {
		t.Errorf("%d of %d strided lines kept in a cache of twice as many lines", hits, n)
	}
}

// TestCacheWhole: a sector is whole once fetched from below or written all
// over, not while only part of its bytes were written (the L2 then merges a
// partial write into a whole sector at the full-sector cost).
func TestCacheWhole(t *testing.T) {
	c := newCache(1<<12, 4)
	if c.whole(8) {
		t.Errorf("an absent sector is whole")
	}
	c.fill(8, 0, false)
	if !c.whole(8) {
		t.Errorf("a fetched sector is not whole")
	}
	c.write(8, 0, 4)
	if !c.whole(8) {
		t.Errorf("a fetched sector written in part is no longer whole")
	}
	c.write(9, 0, 4)
	if c.whole(9) {
		t.Errorf("a sector only written in part is whole")
	}
	c.write(9, 0, 28)
	if !c.whole(9) {
		t.Errorf("a sector written all over is not whole")
	}
}

// TestFastmodIsModulo: setOf's remainder without a division equals a % d
// for the divisors of every cache geometry and then some (1, powers of
// two, the H100's L2 and L1 set counts, primes, the largest 32-bit one)
// over edge and pseudo-random numerators.
func TestFastmodIsModulo(t *testing.T) {
	ds := []uint32{1, 2, 3, 4, 7, 8, 16, 63, 64, 500, 512, 1536, 3200, 25600, 65521, 1 << 20, 1<<31 - 1, 1 << 31, 1<<32 - 1}
	for _, d := range ds {
		c := newCache(int(min(d, 1<<16))*4*128, 4)
		if c.sets != int(min(d, 1<<16)) {
			t.Fatalf("newCache: %d sets, want %d", c.sets, min(d, 1<<16))
		}
		m := fastmodM(d)
		as := []uint32{0, 1, d - 1, d, d + 1, 1<<32 - 1, 1<<32 - 2, 1 << 31}
		x := uint64(d) * 0x9E3779B97F4A7C15
		for range 20000 {
			x = x*6364136223846793005 + 1442695040888963407
			as = append(as, uint32(x>>32))
		}
		for _, a := range as {
			if got, want := fastmod(a, m, d), uint64(a%d); got != want {
				t.Fatalf("fastmod(%d, %d) = %d, want %d", a, d, got, want)
			}
		}
	}
	// setOf itself, against the definition, on a cache of 3200 sets.
	c := newCache(3200*16*128, 16)
	for line := uint64(0); line < 1<<16; line++ {
		h := line * 0x9E3779B97F4A7C15
		if got, want := c.setOf(line), int((h>>32)%uint64(c.sets)); got != want {
			t.Fatalf("setOf(%d) = %d, want %d", line, got, want)
		}
	}
}

// TestCacheInvalidateEmpties: after invalidate a cache is as empty as a new
// one (every array zero, no hit) and settle completes every pending fill,
// whether few lines were filled (cleared way by way) or more than a
// sixteenth of the cache (cleared whole); the cache then fills and hits as
// before.
func TestCacheInvalidateEmpties(t *testing.T) {
	const lines = 64 * 16 // 64 sets of 16 ways
	cases := []struct {
		name  string
		fills int
	}{
		{"nothing filled", 0},
		{"3 lines", 3},
		{"a sixteenth of the lines", lines / freshShare},
		{"one line more", lines/freshShare + 1},
		{"five times the cache: evictions", 5 * lines},
	}
	zero := func(c *cache) bool {
		for _, l := range c.lines {
			if l != (cacheLine{}) {
				return false
			}
		}
		return true
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCache(lines*128, 16)
			for round := range 2 { // the second round after an invalidate
				for i := range tc.fills {
					// Lines spread over the sets by the hash; a store's
					// partial sector too.
					line := uint64(i*7919 + round)
					c.fill(line*4, uint64(100+i), i%3 == 0)
					c.write(line*4+1, uint64(200+i), 8)
				}
				c.settle()
				for i, l := range c.lines {
					if l.ready != 0 && l.settled == c.settles { // (a line behind settles is complete: current)
						t.Fatalf("round %d: way %d still pending at %d after settle", round, i, l.ready)
					}
				}
				c.invalidate()
				if !zero(c) {
					t.Fatalf("round %d: the cache holds state after invalidate", round)
				}
				if hit, _ := c.lookup(4 * uint64(round)); hit {
					t.Fatalf("round %d: an invalidated cache hit", round)
				}
			}
			c.fill(40, 7, false)
			if hit, ready := c.lookup(40); !hit || ready != 7 {
				t.Errorf("after invalidating: fill then lookup: hit %v ready %d; want a hit ready at 7", hit, ready)
			}
		})
	}
}
