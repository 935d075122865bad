package engine

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/internal/hostmem"
)

// The device heap: what device-side malloc and free serve. CUDA gives each
// context a heap of cudaLimitMallocHeapSize bytes (8 MiB unless the program
// sets it before the first launch of a kernel that uses malloc); malloc
// returns NULL when the heap cannot serve a request, and allocations live
// until freed, across launches.
//
// Each allocation here is a separate bounds-checked region in a window of
// its own (HeapBase up), followed by a guard gap, so an access past a
// malloc'd block faults as one past a cudaMalloc'd block does. Addresses
// are never reused, so an access after free faults too. The heap's bytes
// are counted as the requests rounded up to heapGranule; that is the whole
// of the model of the GPU allocator's overhead.
const (
	HeapBase         = 0x0000_7e00_0000_0000
	heapWindow       = 1 << 40
	heapGranule      = 16
	heapGuard        = 4096
	DefaultHeapBytes = 8 << 20
	// MaxHeapBytes is the largest heap limit: the H100 accepts any
	// cudaLimitMallocHeapSize and clamps it to this (2^62 and 200 GiB both
	// read back as 17681179680: testdata/hostile/h100.txt, heap_limit).
	MaxHeapBytes = 17681179680
	// heapHostCheck is the block size above which malloc first asks the host
	// whether it can back the block: Go cannot recover from running out of
	// memory, and malloc's answer to a heap it cannot serve is NULL.
	heapHostCheck = 1 << 30
)

// Heap is a device's malloc heap. Its methods are safe for concurrent use.
type Heap struct {
	mu     sync.Mutex
	limit  uint64
	used   uint64
	next   uint64
	frozen bool // a kernel that uses malloc has run: the limit is fixed
	// blocks is every block ever allocated, by base (bases only grow, so
	// malloc appends). Lookups load it without locking: an append writes
	// past the length readers see, and a free only clears a block's data.
	blocks atomic.Pointer[[]*heapBlock]
}

// heapBlock is one malloc'd block; data is nil once it is freed (the bytes
// go back to the Go heap, the address is never reused).
type heapBlock struct {
	base, size uint64
	data       atomic.Pointer[[]byte]
}

// What free did with a pointer; the H100's answers are recorded in
// testdata/harden/h100/badfree*.txt.
const (
	freeOK      = iota
	freeIgnored // inside the heap but not a block's start: the H100 ignores it
	freeOutside // not a heap address: the H100 faults (cudaErrorIllegalAddress)
	freeDouble  // a block freed already: the H100 stops the kernel (cudaErrorLaunchFailure)
)

func (h *Heap) init() {
	h.mu.Lock()
	if h.next == 0 {
		h.next = HeapBase
		if h.limit == 0 {
			h.limit = DefaultHeapBytes
		}
	}
	h.mu.Unlock()
}

// Limit is the heap size in bytes.
func (h *Heap) Limit() uint64 {
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.limit
}

// SetLimit sets the heap size, clamped to MaxHeapBytes as the H100 clamps
// it. As in CUDA, it fails once a kernel that uses malloc or free has been
// launched.
func (h *Heap) SetLimit(n uint64) bool {
	h.init()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.frozen {
		return false
	}
	h.limit = min(n, MaxHeapBytes)
	return true
}

// freeze fixes the limit: a kernel that uses the heap is launched.
func (h *Heap) freeze() {
	h.init()
	h.mu.Lock()
	h.frozen = true
	h.mu.Unlock()
}

func heapCost(n uint64) uint64 { return (n + heapGranule - 1) / heapGranule * heapGranule }

// malloc returns a new block of n bytes, or 0 when the heap cannot serve
// it (malloc's NULL).
func (h *Heap) malloc(n uint64) uint64 {
	h.init()
	if n == 0 {
		return 0
	}
	cost := heapCost(n)
	h.mu.Lock()
	defer h.mu.Unlock()
	// The heap's own bookkeeping takes part of it: a block as large as
	// the whole heap is never served (8 MiB of 8 MiB: testdata/harden/h100/
	// heap_probe.txt; 1 GiB of 1 GiB: testdata/hostile/h100.txt).
	if cost < n || h.used+cost >= h.limit || h.used+cost < h.used {
		return 0
	}
	span := (n + heapGuard + allocAlign - 1) / allocAlign * allocAlign
	if h.next+span > HeapBase+heapWindow {
		return 0
	}
	if n > heapHostCheck && n > hostmem.Available() {
		return 0
	}
	words := make([]uint64, (n+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:n:n]
	b := &heapBlock{base: h.next, size: n}
	b.data.Store(&data)
	h.next += span
	h.used += cost
	var cur []*heapBlock
	if p := h.blocks.Load(); p != nil {
		cur = *p
	}
	cur = append(cur, b)
	h.blocks.Store(&cur)
	return b.base
}

// block returns the block whose base is addr, or nil.
func (h *Heap) block(addr uint64) *heapBlock {
	p := h.blocks.Load()
	if p == nil {
		return nil
	}
	cur := *p
	i := sort.Search(len(cur), func(i int) bool { return cur[i].base >= addr })
	if i == len(cur) || cur[i].base != addr {
		return nil
	}
	return cur[i]
}

// free releases the block at addr (not 0) and says how it went.
func (h *Heap) free(addr uint64) int {
	if addr < HeapBase || addr >= HeapBase+heapWindow {
		return freeOutside
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.block(addr)
	if b == nil {
		return freeIgnored
	}
	if b.data.Swap(nil) == nil {
		return freeDouble
	}
	h.used -= heapCost(b.size)
	return freeOK
}

// find returns the bytes [addr, addr+n) of a live block.
func (h *Heap) find(addr, n uint64) ([]byte, bool) {
	if addr < HeapBase || addr >= HeapBase+heapWindow {
		return nil, false
	}
	p := h.blocks.Load()
	if p == nil {
		return nil, false
	}
	cur := *p
	i := sort.Search(len(cur), func(i int) bool { return cur[i].base+cur[i].size > addr })
	if i == len(cur) {
		return nil, false
	}
	b := cur[i]
	d := b.data.Load()
	if d == nil || addr < b.base || addr+n > b.base+b.size || addr+n < addr {
		return nil, false
	}
	off := addr - b.base
	return (*d)[off : off+n : off+n], true
}

// describe explains a faulting access to a heap address: one into a block
// free() released, or past a block. ok is false outside the heap.
func (h *Heap) describe(addr, n uint64, space string) (msg string, ok bool) {
	if addr < HeapBase || addr >= HeapBase+heapWindow {
		return "", false
	}
	p := h.blocks.Load()
	if p == nil {
		return "", false
	}
	cur := *p
	// The last block starting at or below addr.
	i := sort.Search(len(cur), func(i int) bool { return cur[i].base > addr }) - 1
	if i < 0 {
		return "", false
	}
	b := cur[i]
	if addr < b.base+b.size && b.data.Load() == nil {
		return fmt.Sprintf("%d-byte %s access at %#x is %d bytes into a %d-byte device malloc block at %#x that free() in device code released (use after free)",
			n, space, addr, addr-b.base, b.size, b.base), true
	}
	return fmt.Sprintf("%d-byte %s access at %#x is outside every allocation (%d bytes past the end of the %d-byte device malloc block at %#x)",
		n, space, addr, addr+n-(b.base+b.size), b.size, b.base), true
}

// Used is the heap bytes allocated and not freed.
func (h *Heap) Used() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.used
}

// Heap is the device's malloc heap.
func (m *Memory) Heap() *Heap { return &m.heap }

// HeapHas reports whether [addr, addr+n) lies inside one live block of the
// device heap (device-side malloc), for the sanitizer's memcheck.
func (m *Memory) HeapHas(addr, n uint64) bool {
	_, ok := m.heap.find(addr, n)
	return ok
}
