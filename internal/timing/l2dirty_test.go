package timing

import "testing"

// TestL2DirtyWays checks the L2's replacement with dirtyWays: in a set
// holding fewer dirty lines than dirtyWays a new line evicts the least
// recently used clean line (no write-back), even when dirty lines are
// older; with dirtyWays dirty lines or more, the least recently used dirty
// one (its sectors written back); with every way dirty, a dirty one; and
// without dirtyWays, plain LRU.
func TestL2DirtyWays(t *testing.T) {
	const ways = 16
	line := func(i int) uint64 { return uint64(i) * 4 } // sector 0 of line i
	for _, tc := range []struct {
		name        string
		dirtyWays   int
		dirty       int // the set's first lines (oldest) written, the rest read
		wantEvicted int // dirty sectors the next new line's fill writes back
	}{
		{"plain LRU: the oldest line, dirty", 0, 4, 1},
		{"fewer dirty than kept: a clean line", 13, 12, 0},
		{"as many dirty as kept: the oldest dirty", 13, 13, 1},
		{"all dirty: a dirty line", 13, ways, 1},
		{"none dirty: a clean line", 13, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCache(ways*128, ways) // one set
			if c.sets != 1 {
				t.Fatalf("%d sets, want 1", c.sets)
			}
			c.dirtyWays = tc.dirtyWays
			for i := range ways {
				if ev, _ := c.fill(line(i), 0, i < tc.dirty); ev != 0 {
					t.Fatalf("filling line %d of an empty set evicted %d dirty sectors", i, ev)
				}
			}
			ev, _ := c.fill(line(ways), 0, false)
			if ev != tc.wantEvicted {
				t.Errorf("the new line's fill wrote back %d dirty sectors, want %d", ev, tc.wantEvicted)
			}
			// The line evicted: the oldest of its kind.
			victim := 0
			if tc.dirtyWays > 0 && tc.wantEvicted == 0 {
				victim = tc.dirty // the oldest clean line
			}
			if c.holds(line(victim)) {
				t.Errorf("line %d (the one to evict) is still held", victim)
			}
			for i := range ways {
				if i != victim && !c.holds(line(i)) {
					t.Errorf("line %d was evicted, want line %d", i, victim)
				}
			}
		})
	}
}
