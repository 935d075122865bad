// The caches: the L1 of each SM and the device's L2 are one
// set-associative, sectored, LRU cache type with pending fills (cache).

package timing

import (
	"math/bits"
	"sync"
	"unsafe"
)

// cache is a set-associative cache of 128-byte lines with 32-byte sector
// valid and dirty bits and least-recently-used replacement. Each line also
// keeps the cycle its pending fill arrives, so a second request for a line
// already on its way waits for that fill rather than hitting at once or
// going to memory again (the miss-status holding registers of a real
// cache).
type cache struct {
	sets, ways int
	// setM is setOf's divisor for sets as a multiplier (fastmod).
	setM uint64
	// lines holds each way's state, a set's ways side by side: a lookup
	// reads its set's tags and then the way it found (its use, its ready
	// cycle, its sector bits), and a fill the set's uses and dirty bits,
	// all in the set's few host cache lines (the H100's 50 MB L2 has
	// 400 K ways, 13 MB of them: as one array per field, a lookup missed
	// the host's caches in four arrays, a fill in six).
	lines []cacheLine
	tick  uint64
	// dirtyWays, when above 0, is how many of a set's ways the cache
	// keeps dirty lines in before it evicts one: below it a new line takes
	// the least recently used clean line's way (a dirty one's only when
	// the set has no clean line), at or above it the least recently used
	// dirty line's (alloc). 0: plain LRU.
	dirtyWays int
	// memoTag and memoWay are find's last answer (the tag it looked for
	// and its way, or -1): a load's or a store's sectors ask for the same
	// line several times in a row (lookup, readyOf, fill, readyAt). Only
	// alloc changes a tag, and it sets the memo to the line it placed;
	// invalidate clears it.
	memoTag uint64
	memoWay int
	// fresh lists the ways allocated since the cache was last empty while
	// they are few (at most len(lines)/freshShare); past that, overflow is
	// set. invalidate then clears only those ways: every host
	// launch invalidates the L2, whose arrays are 12 MB on the H100, and a
	// whole clear cost each program's simulator a page fault for every
	// page of them (its first launch) and a 12 MB memclr for every launch
	// after, whatever the kernel touched.
	fresh    []int32
	overflow bool
	// settles counts settle calls (mod 2^16): a line whose settled is
	// not it is ready (current), so that settling the L2 between device
	// launches' grids costs nothing per line (a pass over its 13 MB of
	// lines at each of the nested lesson's 88,000 settles was 28% of its
	// timing run, twenty-first round).
	settles uint16
	// An L1 is made as its SM gets its first block, the SMs in turn, and
	// its header (tick, the memo) written at every access: cacheLinePad.
	_ cacheLinePad
}

// cacheLine is one way of a cache: 32 bytes, two to a host cache line.
type cacheLine struct {
	tag   uint64 // line number + 1; 0 = invalid
	ready uint64 // cycle the line's last fill completes
	used  uint64 // last use, for LRU
	valid uint8  // sector bits
	dirty uint8
	// bytes counts, per sector, the bytes stores wrote into a sector the
	// cache does not hold whole: 32 once it is whole (filled from below,
	// or written all over). A dirty sector with fewer is partial: only a
	// byte mask's worth of it is there, and writing it back takes a read
	// of the rest first (ECC is kept per sector).
	bytes [4]uint8
	// settled is the cache's settles when ready was last brought up to
	// date (current): a line behind it holds a fill of an earlier
	// grid's clock, complete (ready 0).
	settled uint16
}

// freshShare bounds fresh: past len(tag)/freshShare ways, clearing the
// whole arrays is as cheap as clearing way by way.
const freshShare = 16

const lineShift = 7 // 128-byte lines of four 32-byte sectors

func newCache(bytes, ways int) *cache {
	sets := cacheSets(bytes, ways)
	n := sets * ways
	return &cache{sets: sets, ways: ways, setM: fastmodM(uint32(sets)), lines: lineSlice[cacheLine](n)}
}

// lineSlice makes a slice of n T (a T of 1, 4, 8 or 32 bytes) whose capacity
// is whole cache lines of the host's, so that it takes a size class of
// line-aligned objects and shares no line with another object: an SM's
// arrays that the first wave makes SM after SM (a small L1's valid and
// dirty bytes, the fetch state's lines) and that each SM's thread writes
// (cacheLinePad).
func lineSlice[T uint8 | int32 | uint64 | cacheLine](n int) []T {
	var z T
	per := 64 / int(unsafe.Sizeof(z))
	return make([]T, n, (n+per-1)/per*per)
}

// cacheSets is the sets of a cache of bytes with ways lines a set.
func cacheSets(bytes, ways int) int {
	return max(max(bytes>>lineShift, ways)/ways, 1)
}

// cachePool keeps the L1s of finished grids for the SMs of the next ones: a
// grid's SMs get their L1 (and instruction fetch state) when their first
// block comes (gridState.useSM), so that a grid of one block, as device
// launches often are, sets up one SM's caches, not 132 (the nested lesson's
// 44,000 grids spent 40% of their time allocating and clearing L1s).
type cachePool struct {
	mu   sync.Mutex
	free []*cache
}

// take returns an empty cache of bytes with ways lines a set.
func (p *cachePool) take(bytes, ways int) *cache {
	sets := cacheSets(bytes, ways)
	p.mu.Lock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if c := p.free[i]; c.sets == sets && c.ways == ways {
			p.free[i] = p.free[len(p.free)-1]
			p.free = p.free[:len(p.free)-1]
			p.mu.Unlock()
			c.invalidate()
			return c
		}
	}
	p.mu.Unlock()
	return newCache(bytes, ways)
}

// put gives a grid's finished cache back; at most max are kept.
func (p *cachePool) put(c *cache, max int) {
	p.mu.Lock()
	if len(p.free) < max {
		p.free = append(p.free, c)
	}
	p.mu.Unlock()
}

// setOf hashes a line number to a set, so power-of-two strides spread:
// the hash's high 32 bits modulo the sets (computed as fastmod does).
func (c *cache) setOf(line uint64) int {
	h := line * 0x9E3779B97F4A7C15
	return int(fastmod(uint32(h>>32), c.setM, uint32(c.sets)))
}

// fastmodM and fastmod compute a % d for 32-bit a and d without a division
// (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
// 2019): with M = floor((2^64-1)/d) + 1, a % d is the high 64 bits of
// (M·a mod 2^64)·d, exactly, for every a and every d ≥ 1.
func fastmodM(d uint32) uint64 { return ^uint64(0)/uint64(max(d, 1)) + 1 }

func fastmod(a uint32, m uint64, d uint32) uint64 {
	hi, _ := bits.Mul64(m*uint64(a), uint64(d))
	return hi
}

// find returns the way holding line, or -1.
func (c *cache) find(line uint64) int {
	t := line + 1
	if t == c.memoTag {
		return c.memoWay
	}
	c.memoTag, c.memoWay = t, -1
	base := c.setOf(line) * c.ways
	for w, l := range c.lines[base : base+c.ways] {
		if l.tag == t {
			c.memoWay = base + w
			return base + w
		}
	}
	return -1
}

// lookup reports whether sector (address >> 5) is present, and when its
// data is ready; it counts as a use.
func (c *cache) lookup(sector uint64) (bool, uint64) {
	line := sector >> 2
	w := c.find(line)
	if w < 0 {
		return false, 0
	}
	l := &c.lines[w]
	if l.valid&(1<<(sector&3)) == 0 {
		return false, 0
	}
	c.current(l)
	c.tick++
	l.used = c.tick
	return true, l.ready
}

// holds reports whether sector is present (filled, or being filled),
// without counting as a use.
func (c *cache) holds(sector uint64) bool {
	w := c.find(sector >> 2)
	return w >= 0 && c.lines[w].valid&(1<<(sector&3)) != 0
}

// fill makes sector present and whole from cycle ready on, marking it
// dirty for a write, and returns the dirty sectors of the line it evicted
// and how many of those were partial.
func (c *cache) fill(sector uint64, ready uint64, dirty bool) (evictedDirty, evictedPartial int) {
	w, evictedDirty, evictedPartial := c.alloc(sector)
	c.lines[w].bytes[sector&3] = 32
	c.mark(w, sector, ready, dirty)
	return evictedDirty, evictedPartial
}

// write is a store of n bytes (1..32) into sector at the L2: the sector
// becomes dirty; it stays partial until it was fetched or written whole.
// It returns what fill returns.
func (c *cache) write(sector, ready uint64, n int) (evictedDirty, evictedPartial int) {
	w, evictedDirty, evictedPartial := c.alloc(sector)
	b := &c.lines[w].bytes[sector&3]
	if c.lines[w].valid&(1<<(sector&3)) == 0 {
		*b = 0
	}
	*b = uint8(min(int(*b)+n, 32))
	c.mark(w, sector, ready, true)
	return evictedDirty, evictedPartial
}

// whole reports whether the cache holds all 32 bytes of sector (fetched
// from below, or written all over).
func (c *cache) whole(sector uint64) bool {
	w := c.find(sector >> 2)
	return w >= 0 && c.lines[w].valid&(1<<(sector&3)) != 0 && c.lines[w].bytes[sector&3] == 32
}

// partial reports whether sector is present, dirty and not whole.
func (c *cache) partial(sector uint64) bool {
	w := c.find(sector >> 2)
	bit := uint8(1) << (sector & 3)
	return w >= 0 && c.lines[w].valid&c.lines[w].dirty&bit != 0 && c.lines[w].bytes[sector&3] < 32
}

// alloc finds sector's line or allocates it (evicting the least recently
// used line of its set), returning its way and the victim's dirty and
// partial sectors.
func (c *cache) alloc(sector uint64) (w, evictedDirty, evictedPartial int) {
	line := sector >> 2
	w = c.find(line)
	if w < 0 {
		base := c.setOf(line) * c.ways
		w = base
		clean, dirty, nd := -1, -1, 0 // the LRU clean and dirty ways, the dirty ways
		set := c.lines[base : base+c.ways]
		for i := range set {
			l, v := &set[i], base+i
			if l.tag == 0 {
				w, clean, dirty = v, -1, -1
				break
			}
			if l.used < c.lines[w].used {
				w = v
			}
			if c.dirtyWays > 0 {
				if l.dirty != 0 {
					nd++
					if dirty < 0 || l.used < c.lines[dirty].used {
						dirty = v
					}
				} else if clean < 0 || l.used < c.lines[clean].used {
					clean = v
				}
			}
		}
		switch {
		case c.dirtyWays <= 0:
		case nd >= c.dirtyWays && dirty >= 0:
			w = dirty
		case clean >= 0:
			w = clean
		}
		l := &c.lines[w]
		if l.tag != 0 {
			evictedDirty = popcount4(l.dirty)
			for k := range 4 {
				if l.dirty&(1<<k) != 0 && l.bytes[k] < 32 {
					evictedPartial++
				}
			}
		}
		if l.tag == 0 {
			c.noteFresh(w)
		}
		l.tag, l.valid, l.dirty, l.ready, l.settled = line+1, 0, 0, 0, c.settles
		c.memoTag, c.memoWay = line+1, w
	}
	return w, evictedDirty, evictedPartial
}

// mark makes sector valid in way w from cycle ready on (dirty for a
// write) and counts the use.
func (c *cache) mark(w int, sector, ready uint64, dirty bool) {
	bit := uint8(1) << (sector & 3)
	l := c.current(&c.lines[w])
	l.valid |= bit
	if dirty {
		l.dirty |= bit
	}
	if ready > l.ready {
		l.ready = ready
	}
	c.tick++
	l.used = c.tick
}

// update is a store's write to sector: a present sector stays valid and
// its new data can be read from cycle ready on; a missing one is allocated
// valid only when the store wrote all of it (full), else it stays missing
// (the L1 keeps a partly written sector's bytes but a load of it goes on to
// L2). It reports whether the sector is present afterwards.
func (c *cache) update(sector, ready uint64, full bool) bool {
	w := c.find(sector >> 2)
	if w < 0 || c.lines[w].valid&(1<<(sector&3)) == 0 {
		if !full {
			return false
		}
		c.fill(sector, ready, false)
		return true
	}
	l := c.current(&c.lines[w])
	if ready > l.ready {
		l.ready = ready
	}
	c.tick++
	l.used = c.tick
	return true
}

// readyOf is when the line holding sector is ready (0 when it is not
// present): what a fill or update of it combines its own cycle with.
func (c *cache) readyOf(sector uint64) uint64 {
	if w := c.find(sector >> 2); w >= 0 {
		return c.current(&c.lines[w]).ready
	}
	return 0
}

// readyAt is where the ready cycle of sector's line is kept, nil when the
// line is not present (a future written there is resolved in place).
func (c *cache) readyAt(sector uint64) *uint64 {
	if w := c.find(sector >> 2); w >= 0 {
		return &c.current(&c.lines[w]).ready
	}
	return nil
}

// drop invalidates one sector.
func (c *cache) drop(sector uint64) {
	if w := c.find(sector >> 2); w >= 0 {
		c.lines[w].valid &^= 1 << (sector & 3)
	}
}

// noteFresh records that way w, empty until now, holds a line.
func (c *cache) noteFresh(w int) {
	if c.overflow {
		return
	}
	if len(c.fresh) >= len(c.lines)/freshShare {
		c.overflow, c.fresh = true, c.fresh[:0]
		return
	}
	c.fresh = append(c.fresh, int32(w))
}

// settle makes every fill complete: the ready cycles of one grid's clock
// mean nothing to the next grid's.
// Each line's ready is brought up to date when it is next used
// (current); only when settles wraps are they all cleared, so that a line
// 65,536 settles behind does not pass for current.
func (c *cache) settle() {
	c.settles++
	if c.settles == 0 {
		for i := range c.lines {
			c.lines[i].ready, c.lines[i].settled = 0, 0
		}
	}
}

// current brings line l's ready cycle up to date: a fill pending at the
// last settle is complete. Every read or write of a line's ready goes
// through it.
func (c *cache) current(l *cacheLine) *cacheLine {
	if l.settled != c.settles {
		l.ready, l.settled = 0, c.settles
	}
	return l
}

// invalidate empties the cache. Only ways that held a line since it was
// last empty can be other than zero (alloc is the only way in), so when
// those are few only they are cleared.
func (c *cache) invalidate() {
	if c.overflow {
		clear(c.lines)
	} else {
		for _, w := range c.fresh {
			c.lines[w] = cacheLine{}
		}
	}
	c.fresh, c.overflow = c.fresh[:0], false
	c.tick = 0
	c.memoTag, c.memoWay = 0, -1
}

// dirtySectors counts the dirty sectors in the cache (written back to DRAM
// eventually).
func (c *cache) dirtySectors() (n int) {
	for i := range c.lines {
		n += popcount4(c.lines[i].dirty)
	}
	return n
}

// validSectors counts the sectors the cache holds.
func (c *cache) validSectors() (n int) {
	for i := range c.lines {
		n += popcount4(c.lines[i].valid)
	}
	return n
}

// sectors is the cache's capacity in sectors.
func (c *cache) sectors() int { return len(c.lines) * 4 }

func popcount4(b uint8) int {
	return int(b&1 + b>>1&1 + b>>2&1 + b>>3&1)
}
