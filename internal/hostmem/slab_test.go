package hostmem

import (
	"sync"
	"testing"
	"unsafe"
)

// TestSlabWords: the buffers a Slab hands out, from several goroutines at
// once, are zeroed, have the length and capacity asked for, start on a
// cache line, never overlap (nor reach into each other through their
// capacity), and a slab starts on a huge page; a buffer larger than a
// quarter of a slab gets memory of its own.
func TestSlabWords(t *testing.T) {
	var s Slab
	type span struct{ lo, hi uintptr }
	var mu sync.Mutex
	var spans []span
	var keep [][]uint64 // (alive to the end, so that no memory is reused)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				n := 1 + (i*7919+g*104729)%20000
				if i == 50 {
					n = slabBytes/8/4 + 1 // its own slab
				}
				b := s.Words(n, n+n/8)
				if len(b) != n || cap(b) < n+n/8 {
					t.Errorf("asked for %d words, capacity %d: got %d, %d", n, n+n/8, len(b), cap(b))
					return
				}
				p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
				if p%64 != 0 {
					t.Errorf("a buffer at %#x, not on a cache line", p)
				}
				if n > slabBytes/8/4 && p%hugePage != 0 {
					t.Errorf("a buffer of its own at %#x, not on a huge page", p)
				}
				for j, v := range b[:cap(b)] {
					if v != 0 {
						t.Errorf("word %d of a new buffer is %#x", j, v)
						return
					}
				}
				for j := range b[:cap(b)] {
					b[:cap(b)][j] = uint64(g + 1)
				}
				mu.Lock()
				spans = append(spans, span{p, p + uintptr(cap(b))*8})
				keep = append(keep, b)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(keep) != len(spans) {
		t.Fatal("a buffer was not kept")
	}
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.lo < b.hi && b.lo < a.hi {
				t.Fatalf("buffers [%#x, %#x) and [%#x, %#x) overlap", a.lo, a.hi, b.lo, b.hi)
			}
		}
	}
	var fresh Slab
	fresh.Words(1, 1)
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(fresh.free))) - 64; p%hugePage != 0 {
		t.Errorf("a slab starts at %#x, not on a huge page", p)
	}
}
