package hostmem

import (
	"sync"
	"unsafe"
)

// hugePage is the size of a transparent huge page (x86-64 and arm64 with
// 4 KiB pages), the alignment of a Slab's slabs.
const hugePage = 2 << 20

// slabBytes is a slab's usable size: eight huge pages.
const slabBytes = 8 * hugePage

// Slab hands out zeroed word buffers for a process's large, long-lived
// state (the engine's register files), carved one after another from slabs
// of huge-page-aligned memory that the kernel is asked to back with huge
// pages (MADV_HUGEPAGE) as they are first touched or populated (Populate):
// threads that first touch such buffers at once then take a fault per
// 2 MiB instead of one per 4 KiB, which contend in the kernel. Buffers are
// never given back one by one: a slab's memory is the Go heap's, freed by
// the collector once no buffer carved from it is referenced. It is safe
// for concurrent use.
type Slab struct {
	mu   sync.Mutex
	free []uint64 // the current slab's memory not handed out yet
}

// Words returns a zeroed buffer of n words with capacity c (c ≥ n), its
// first word on a cache line's start. Buffers of more than a quarter of a
// slab get a slab of their own.
func (s *Slab) Words(n, c int) []uint64 {
	c = (c + 7) &^ 7 // whole cache lines, so the next buffer starts on one
	if c*8 > slabBytes/4 {
		b := alignedWords((c*8 + hugePage - 1) &^ (hugePage - 1))
		return b[:n:c]
	}
	s.mu.Lock()
	if len(s.free) < c {
		s.free = alignedWords(slabBytes)
	}
	b := s.free[:n:c]
	s.free = s.free[c:]
	s.mu.Unlock()
	return b
}

// alignedWords allocates size bytes (a multiple of hugePage) of zeroed
// words starting at a huge page's boundary, advised for huge pages.
func alignedWords(size int) []uint64 {
	raw := make([]uint64, (size+hugePage)/8)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := int(((p+hugePage-1)&^(hugePage-1) - p) / 8)
	b := raw[off : off+size/8 : off+size/8]
	adviseHuge(b)
	return b
}
