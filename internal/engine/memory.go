package engine

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"unsafe"
)

// Device address space. Global allocations live from GlobalBase up, each
// 256-byte aligned and followed by a guard gap, so an access a little past
// an allocation faults instead of landing in its neighbour. The shared and
// local windows map generic addresses onto the executing block's shared
// memory and the executing thread's local memory.
const (
	SharedWindow = 0x0000_0100_0000_0000
	LocalWindow  = 0x0000_0200_0000_0000
	WindowSize   = 1 << 32
	GlobalBase   = 0x0000_7f00_0000_0000
	allocAlign   = 256
	guardGap     = 4096
)

// Alloc is one device allocation.
type Alloc struct {
	Base, Size uint64
	Data       []byte // len Size; backed by uint64 words so atomics are aligned
}

// End is the first address past the allocation.
func (a *Alloc) End() uint64 { return a.Base + a.Size }

// Memory is the device's global memory: a sorted set of allocations.
// Allocation and free take the lock; a launch reads a snapshot.
type Memory struct {
	mu      sync.RWMutex
	allocs  []*Alloc // sorted by Base
	next    uint64
	backing Backing
}

// Backing supplies the bytes of allocations when they must live somewhere
// other than Go's heap: the CUDA runtime keeps them in memory shared with
// the program, mapped there at the device addresses.
type Backing interface {
	// Bytes returns size zeroed bytes for the allocation at base (8-byte
	// aligned, for atomics), or an error when the host cannot back them.
	Bytes(base, size uint64) ([]byte, error)
	// Release is told that the allocation at base is freed.
	Release(base, size uint64)
}

// NewMemory returns an empty global memory.
func NewMemory() *Memory { return &Memory{next: GlobalBase} }

// NewBackedMemory returns an empty global memory whose allocations start at
// base and take their bytes from b.
func NewBackedMemory(base uint64, b Backing) *Memory { return &Memory{next: base, backing: b} }

// Alloc reserves size bytes (zero-filled).
func (m *Memory) Alloc(size uint64) (uint64, error) {
	if size > 1<<36 && m.backing == nil {
		return 0, fmt.Errorf("allocation of %d bytes is too large", size)
	}
	n := size
	if n == 0 {
		n = 1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	base := m.next
	var data []byte
	if m.backing != nil {
		b, err := m.backing.Bytes(base, size)
		if err != nil {
			return 0, err
		}
		data = b[:size:size]
	} else {
		words := make([]uint64, (n+7)/8)
		data = unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:size:size]
	}
	a := &Alloc{Base: base, Size: size, Data: data}
	m.next += (n + guardGap + allocAlign - 1) / allocAlign * allocAlign
	m.allocs = append(m.allocs, a) // bases increase, so the slice stays sorted
	return a.Base, nil
}

// ErrBadFree is returned when freeing an address that is not an allocation's base.
var ErrBadFree = errors.New("not the start of an allocation")

// Free releases an allocation.
func (m *Memory) Free(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base >= addr })
	if i == len(m.allocs) || m.allocs[i].Base != addr {
		return fmt.Errorf("free of %#x: %w", addr, ErrBadFree)
	}
	// Copy: running launches may hold the old slice.
	a := m.allocs[i]
	next := make([]*Alloc, 0, len(m.allocs)-1)
	next = append(next, m.allocs[:i]...)
	m.allocs = append(next, m.allocs[i+1:]...)
	if m.backing != nil {
		m.backing.Release(a.Base, a.Size)
	}
	return nil
}

// snapshot returns the current allocation list (never modified in place).
func (m *Memory) snapshot() []*Alloc {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.allocs[:len(m.allocs):len(m.allocs)]
}

// Find returns the allocation containing [addr, addr+n).
func (m *Memory) Find(addr, n uint64) (*Alloc, bool) {
	return findAlloc(m.snapshot(), addr, n)
}

func findAlloc(allocs []*Alloc, addr, n uint64) (*Alloc, bool) {
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].End() > addr })
	if i == len(allocs) {
		return nil, false
	}
	a := allocs[i]
	if addr < a.Base || addr+n > a.End() || addr+n < addr {
		return nil, false
	}
	return a, true
}

// Bytes returns the device bytes [addr, addr+n) or an error naming the range.
func (m *Memory) Bytes(addr, n uint64) ([]byte, error) {
	a, ok := m.Find(addr, n)
	if !ok {
		return nil, fmt.Errorf("device range [%#x, %#x) is not inside one allocation", addr, addr+n)
	}
	off := addr - a.Base
	return a.Data[off : off+n], nil
}
