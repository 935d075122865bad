package engine

// This file is device memory: the allocations (bounds-checked, 2 GiB apart),
// their backing, and the lookups the memory instructions make.

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/warpsim/warpsim/devmem"
	"github.com/warpsim/warpsim/internal/hostmem"
)

// Device address space. Global allocations live from GlobalBase up, each at
// the start of its own 2 GiB-aligned range of the (sparse, 64-bit) device
// address space and followed by at least OverrunGuard unmapped bytes, so an
// access up to 1 GiB past the end of an allocation (or before its start)
// faults instead of landing in a neighbour. Ranges are never reused, so a
// stale pointer to freed memory never reaches a later allocation either
// (in a backed memory, whose addresses end, only until its fresh address
// space is used up: see Limited).
// Nothing is reserved for the gaps: only the allocation's own bytes are
// backed. The shared and local windows map generic addresses onto the
// executing block's shared memory and the executing thread's local memory.
const (
	SharedWindow = 0x0000_0100_0000_0000
	LocalWindow  = 0x0000_0200_0000_0000
	WindowSize   = 1 << 32
	GlobalBase   = 0x0000_7f00_0000_0000
	// OverrunGuard is the unmapped space after every allocation.
	OverrunGuard = 1 << 30
	slotAlign    = 2 << 30
	maxAlloc     = 1 << 36
	// allocAlign is the alignment of smaller regions (device-heap blocks).
	allocAlign = 256
)

// Alloc is one device allocation.
type Alloc struct {
	Base, Size uint64
	Data       []byte // len Size; backed by uint64 words so atomics are aligned
	private    bool   // AllocPrivate's: in Go's heap even in a backed memory
}

// End is the first address past the allocation.
func (a *Alloc) End() uint64 { return a.Base + a.Size }

// Freed is an allocation that was freed: its range, and which call freed
// it when the caller said (FreeAs).
type Freed struct {
	Base, Size uint64
	By         string
}

// Memory is the device's global memory: a sorted set of allocations.
// Allocation and free take the lock; a launch reads a snapshot.
type Memory struct {
	mu      sync.RWMutex
	allocs  []*Alloc // sorted by Base
	freed   []Freed  // sorted by Base
	next    uint64
	start   uint64 // the first allocation's address
	limit   uint64 // the first address past a backing's range; 0: none
	private uint64 // AllocPrivate's next slot in a backed memory
	heap    Heap   // device malloc/free (heap.go)
	backing devmem.Backing
	// gridWorkspace is the context's grid workspace, made by its first
	// cooperative launch and read by every later launch (gridsync.go).
	gridWorkspace uint64

	// Warn, when set, receives the one warning a plain run gives when a
	// kernel reads or writes the padding around an allocation (Padding); nil
	// writes it to the process's standard error.
	Warn      func(msg string)
	padWarned atomic.Bool
	// MapPadding makes the memory around every allocation behave as the
	// GPU's (Padding): set for a CUDA program's memory (NewBackedMemory).
	// Otherwise (launch files, the Go API) only reads in the granule below
	// an allocation succeed, as the recorded stencil's did, and everything
	// else outside an allocation faults, which finds the bug at once.
	MapPadding bool
	// pad backs the padding kernels wrote (Padding), by page.
	padMu sync.Mutex
	pad   map[uint64]*[padPage]byte
}

// PaddingGranule is the GPU's allocation granule (2 MiB): the driver maps
// device memory in whole granules, and cudaMalloc packs small allocations
// (512-byte aligned) into a pool of them, so memory around an allocation
// is mapped and a kernel that strays into it does not fault. On the H100
// (testdata/hostile/memcheck_h100.txt, granule; h100.txt, stencil_before)
// around a 1000-byte first allocation every recorded read from 2 MiB + 4
// bytes below it to 4 MiB past its start succeeded and gave zeros, writes
// there succeeded and read back, 1 GiB past faulted; a 3 MiB allocation
// (a granule run of its own) read zeros up to its last granule's end and
// faulted at it. Padding maps the smallest windows that hold every such
// recorded access (paddingWindow); memcheck still reports each one.
const PaddingGranule = 2 << 20

// padPage is the unit in which written padding is backed.
const padPage = 4096

// paddingZeros backs reads of padding nothing wrote (at most a 64-byte
// access).
var paddingZeros [64]byte

// paddingWindow is the memory the GPU maps around allocation a: below, the
// granule under its first granule (two for a pooled allocation, smaller
// than a granule), up to the end of its last granule (two more for a
// pooled one).
func paddingWindow(a *Alloc) (lo, hi uint64) {
	const g = PaddingGranule
	below, above := uint64(g), uint64(0)
	if a.Size < g {
		below, above = 2*g, 2*g
	}
	first := a.Base &^ (g - 1)
	lo = first
	if first >= below+g {
		lo = first - below
	}
	return lo, (a.End()+g-1)&^(g-1) + above
}

// Padding returns the n bytes at addr, outside every live allocation of
// the launch's sorted snapshot allocs, when they lie in the memory the GPU
// maps around one (paddingWindow; without MapPadding, only a read in the
// granule below one) and not in freed memory: zeros where
// nothing was written (the H100's driver hands out zeroed memory), else
// what a kernel wrote there; a write gets backing of its own. The first
// such access warns (when warn: not under a sanitizer, which reports it).
func (m *Memory) Padding(allocs []*Alloc, addr, n uint64, write, warn bool) ([]byte, bool) {
	if n == 0 || n > uint64(len(paddingZeros)) || addr+n < addr || addr&^(padPage-1) != (addr+n-1)&^(padPage-1) {
		return nil, false
	}
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].Base >= addr+n })
	var a *Alloc
	if i < len(allocs) {
		if lo, _ := paddingWindow(allocs[i]); addr >= lo {
			a = allocs[i]
		}
	}
	if i > 0 {
		p := allocs[i-1]
		if p.End() > addr {
			return nil, false // (partly) inside it: not padding
		}
		if _, hi := paddingWindow(p); a == nil && addr+n <= hi {
			a = p
		}
	}
	if a == nil || !m.MapPadding && (write || addr >= a.Base || addr < a.Base&^(PaddingGranule-1)-PaddingGranule) {
		return nil, false
	}
	if _, freed := m.FreedAt(addr); freed {
		return nil, false
	}
	if warn && m.padWarned.CompareAndSwap(false, true) {
		verb, where := "read", fmt.Sprintf("%d bytes before", a.Base-addr)
		if write {
			verb = "wrote"
		}
		if addr >= a.End() {
			where = fmt.Sprintf("%d bytes past the end of", addr-a.End())
		}
		msg := fmt.Sprintf("warpsim: warning: a kernel %s %d bytes at %#x, outside every allocation (%s the %d-byte allocation at %#x); "+
			"the GPU maps the memory around an allocation in 2 MiB granules, so the access succeeds (reading zeros where nothing was written). "+
			"Run it under `warpsim sanitize` (memcheck) to find the access.", verb, n, addr, where, a.Size, a.Base)
		if m.Warn != nil {
			m.Warn(msg)
		} else {
			fmt.Fprintln(os.Stderr, msg)
		}
	}
	pg := addr &^ (padPage - 1)
	m.padMu.Lock()
	p := m.pad[pg]
	if p == nil && write {
		if m.pad == nil {
			m.pad = map[uint64]*[padPage]byte{}
		}
		p = new([padPage]byte)
		m.pad[pg] = p
	}
	m.padMu.Unlock()
	if p == nil {
		return paddingZeros[:n:n], true
	}
	off := addr - pg
	return p[off : off+n : off+n], true
}

// Straddling returns, copied into buf, the n bytes at addr of an access
// that begins inside a live allocation of the launch's sorted snapshot
// allocs and ends past it, in the memory the GPU maps around it (Padding):
// the H100 let a 16-byte cp.async read 4 bytes past a 396-byte allocation
// through (testdata/sanitize/probe5, cp_async_tail), and plain 8- and
// 16-byte loads and stores straddling the ends of allocations of 396,
// 4,100 and 2 MiB + 12 bytes: a load read the allocation's bytes and
// zeros past them, a store wrote both parts, and a load of the same
// address read it back (testdata/sanitize/probe6, straddle). A store
// writes buf back with WriteStraddling.
func (m *Memory) Straddling(allocs []*Alloc, addr, n uint64, buf []byte, warn bool) ([]byte, bool) {
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].Base > addr }) - 1
	if i < 0 || n > uint64(len(buf)) {
		return nil, false
	}
	a := allocs[i]
	end := a.End()
	if addr >= end || addr+n <= end || addr+n < addr {
		return nil, false
	}
	in := end - addr
	rest, ok := m.Padding(allocs, end, n-in, false, warn)
	if !ok {
		return nil, false
	}
	copy(buf, a.Data[addr-a.Base:])
	copy(buf[in:n], rest)
	return buf[:n:n], true
}

// WriteStraddling writes b at addr, an access Straddling resolved: the
// part inside the allocation to it, the rest to the memory mapped after
// it (Padding, which backs it when the memory maps padding for writes,
// and warns when warn).
func (m *Memory) WriteStraddling(allocs []*Alloc, addr uint64, b []byte, warn bool) {
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].Base > addr }) - 1
	if i < 0 {
		return
	}
	a := allocs[i]
	in := min(a.End()-addr, uint64(len(b)))
	copy(a.Data[addr-a.Base:], b[:in])
	if rest, ok := m.Padding(allocs, a.End(), uint64(len(b))-in, true, warn); ok {
		copy(rest, b[in:])
	}
}

// Limited is a devmem.Backing whose device addresses end: Limit is the first
// address past them. Allocations keep the same 2 GiB slots and guards in
// it; when the fresh address space is used up, a new allocation takes the
// first slot-aligned gap between live allocations that leaves the guards
// intact, so freed ranges are reused only then (and their use-after-free
// records go).
type Limited interface {
	Limit() uint64
}

// NewMemory returns an empty global memory.
func NewMemory() *Memory { return &Memory{next: GlobalBase, start: GlobalBase} }

// NewBackedMemory returns an empty global memory whose allocations start at
// base and take their bytes from b.
func NewBackedMemory(base uint64, b devmem.Backing) *Memory {
	m := &Memory{next: base, start: base, backing: b, MapPadding: true}
	if l, ok := b.(Limited); ok {
		m.limit = l.Limit()
	}
	m.private = max(GlobalBase, (max(m.limit, base)+OverrunGuard+slotAlign-1)/slotAlign*slotAlign)
	return m
}

// Alloc reserves size bytes (zero-filled).
func (m *Memory) Alloc(size uint64) (uint64, error) {
	// A backed memory is limited by what its backing can hold instead.
	if size > maxAlloc && m.backing == nil {
		return 0, fmt.Errorf("allocation of %d bytes is too large", size)
	}
	if m.backing == nil && size > 1<<30 {
		// Go cannot recover from running out of memory: ask the host
		// first (a backed memory's backing does its own accounting).
		if avail := hostmem.Available(); size > avail {
			return 0, fmt.Errorf("allocation of %d bytes: the host can back only %d bytes now", size, avail)
		}
	}
	n := size
	if n == 0 {
		n = 1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	base := m.next
	fresh := true
	if m.limit != 0 && (base+n+OverrunGuard > m.limit || base+n+OverrunGuard < base) {
		var ok bool
		if base, ok = m.gap(n); !ok {
			return 0, fmt.Errorf("allocation of %d bytes: out of device address space", size)
		}
		fresh = false
	}
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
	m.insert(a)
	if fresh {
		m.next += (n + OverrunGuard + slotAlign - 1) / slotAlign * slotAlign
		return a.Base, nil
	}
	// A reused range: the freed records it covers go.
	kept := m.freed[:0]
	for _, f := range m.freed {
		if f.Base+max(f.Size, 1) <= base || f.Base >= base+n {
			kept = append(kept, f)
		}
	}
	m.freed = kept
	return a.Base, nil
}

// AllocPrivate reserves size bytes (zero-filled) that only the device
// uses: a device-side launch's parameter buffer. In a backed memory they
// live in Go's heap, in slots of their own above the backing's range, so
// that a fan-out of thousands of device launches does not use up the
// address space shared with the program; otherwise it is Alloc.
func (m *Memory) AllocPrivate(size uint64) (uint64, error) {
	if m.backing == nil {
		return m.Alloc(size)
	}
	if size > maxAlloc {
		return 0, fmt.Errorf("allocation of %d bytes is too large", size)
	}
	n := max(size, 1)
	words := make([]uint64, (n+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:size:size]
	m.mu.Lock()
	defer m.mu.Unlock()
	a := &Alloc{Base: m.private, Size: size, Data: data, private: true}
	m.private += (n + OverrunGuard + slotAlign - 1) / slotAlign * slotAlign
	m.insert(a)
	return a.Base, nil
}

// live looks [addr, addr+n) up among the allocations as they are now, not
// as a launch's snapshot has them.
func (m *Memory) live(addr, n uint64) (*Alloc, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return findAlloc(m.allocs, addr, n)
}

// insert adds a to the allocations in address order, in a new slice
// (running launches may hold the old one). m.mu held.
func (m *Memory) insert(a *Alloc) {
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > a.Base })
	if i == len(m.allocs) {
		m.allocs = append(m.allocs, a) // appending never moves what readers see
		return
	}
	next := make([]*Alloc, 0, len(m.allocs)+1)
	next = append(next, m.allocs[:i]...)
	next = append(next, a)
	m.allocs = append(next, m.allocs[i:]...)
}

// gap returns the lowest slot-aligned address below the limit where n
// bytes fit with OverrunGuard free bytes before and after them, between
// the live allocations (m.mu held).
func (m *Memory) gap(n uint64) (uint64, bool) {
	c := m.start
	for _, a := range m.allocs {
		if a.private {
			continue
		}
		if c+n+OverrunGuard <= a.Base {
			return c, true
		}
		c = max(c, (a.End()+OverrunGuard+slotAlign-1)/slotAlign*slotAlign)
	}
	return c, c+n+OverrunGuard <= m.limit && c+n+OverrunGuard > c
}

// ErrBadFree is returned when freeing an address that is not an allocation's base.
var ErrBadFree = errors.New("not the start of an allocation")

// ErrDoubleFree is returned when freeing an allocation already freed.
var ErrDoubleFree = errors.New("already freed")

// Free releases an allocation.
func (m *Memory) Free(addr uint64) error { return m.FreeAs(addr, "") }

// FreeAs releases an allocation and remembers who freed it (a phrase such
// as "cudaFree call #3"), for reports of later accesses to it.
func (m *Memory) FreeAs(addr uint64, by string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base >= addr })
	if i == len(m.allocs) || m.allocs[i].Base != addr {
		if f, ok := findFreed(m.freed, addr); ok && f.Base == addr {
			return fmt.Errorf("free of %#x: %w", addr, ErrDoubleFree)
		}
		return fmt.Errorf("free of %#x: %w", addr, ErrBadFree)
	}
	a := m.allocs[i]
	j := sort.Search(len(m.freed), func(j int) bool { return m.freed[j].Base >= a.Base })
	m.freed = append(m.freed, Freed{})
	copy(m.freed[j+1:], m.freed[j:])
	m.freed[j] = Freed{Base: a.Base, Size: a.Size, By: by}
	// Copy: running launches may hold the old slice.
	next := make([]*Alloc, 0, len(m.allocs)-1)
	next = append(next, m.allocs[:i]...)
	m.allocs = append(next, m.allocs[i+1:]...)
	if m.backing != nil && !a.private {
		m.backing.Release(a.Base, a.Size)
	}
	m.dropPadding(a)
	return nil
}

// dropPadding forgets what kernels wrote around a freed allocation: memory
// the driver maps again reads zeros (testdata/hostile/memcheck_h100.txt,
// granule s).
func (m *Memory) dropPadding(a *Alloc) {
	m.padMu.Lock()
	defer m.padMu.Unlock()
	if len(m.pad) == 0 {
		return
	}
	lo, hi := paddingWindow(a)
	for pg := range m.pad {
		if pg >= lo && pg < hi {
			delete(m.pad, pg)
		}
	}
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

// unmapped describes an access of n bytes at addr that no live allocation
// holds: inside freed memory, or simply outside every allocation.
func (m *Memory) unmapped(addr, n uint64, space string) string {
	if f, ok := m.FreedAt(addr); ok {
		by := ""
		if f.By != "" {
			by = " by " + f.By
		}
		return fmt.Sprintf("%d-byte %s access at %#x is %d bytes into a %d-byte allocation at %#x that was freed%s (use after free)",
			n, space, addr, addr-f.Base, f.Size, f.Base, by)
	}
	return fmt.Sprintf("%d-byte %s access at %#x is outside every allocation", n, space, addr)
}

// FreedAt returns the freed allocation whose range holds addr (or, for a
// zero-size one, whose base it is).
func (m *Memory) FreedAt(addr uint64) (Freed, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return findFreed(m.freed, addr)
}

func findFreed(freed []Freed, addr uint64) (Freed, bool) {
	i := sort.Search(len(freed), func(i int) bool { return freed[i].Base+max(freed[i].Size, 1) > addr })
	if i < len(freed) && addr >= freed[i].Base {
		return freed[i], true
	}
	return Freed{}, false
}

// Nearest returns the live allocation closest to addr (the one holding it,
// else the nearer of its neighbours), as compute-sanitizer describes an
// address; nil when there is none.
func (m *Memory) Nearest(addr uint64) *Alloc {
	allocs := m.snapshot()
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].End() > addr })
	var after, before *Alloc
	if i < len(allocs) {
		after = allocs[i]
		if addr >= after.Base {
			return after
		}
	}
	if i > 0 {
		before = allocs[i-1]
	}
	switch {
	case after == nil:
		return before
	case before == nil:
		return after
	case addr-before.End() < after.Base-addr:
		return before
	}
	return after
}

// Live returns the allocations not yet freed, by address.
func (m *Memory) Live() []*Alloc { return m.snapshot() }
