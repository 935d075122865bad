package cudart

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/warpsim/warpsim/internal/hostmem"
	"golang.org/x/sys/unix"
)

// window is the device memory the program and the simulator share: one
// memory file (memfd) that the program maps at the device addresses, so a
// device pointer is also a valid host pointer there (unified addressing),
// and that the simulator maps at mem. Every allocation (device, pinned
// host, managed, a module's variables) lives in it, so host↔device copies
// are memory copies on one side or the other and never cross the pipe.
type window struct {
	base uint64 // the device address of mem[0]
	mem  []byte
	fd   int

	mu       sync.Mutex
	regions  []region // sorted by base
	used     uint64   // bytes allocated
	capacity uint64   // the simulated device's memory
	nextKind allocKind
	// freeing holds the allocations (by base) that cudaFreeAsync freed and
	// whose stream has not reached the free yet: the program may not name
	// them in a later call (live).
	freeing map[uint64]bool
	// avail answers how many more bytes the host can back now (hostmem.go);
	// tests replace it.
	avail func() uint64
	// shared: another process may write some of the window (CUDA IPC:
	// ipc.go), as the program may write pinned memory.
	shared bool
}

// allocKind is what an allocation is for, as the program asked for it.
type allocKind uint32

const (
	kindDevice  allocKind = iota // cudaMalloc, a module's variables
	kindHost                     // cudaMallocHost, cudaHostAlloc: pinned host memory
	kindManaged                  // cudaMallocManaged
)

type region struct {
	base, size uint64
	kind       allocKind
	mapped     bool // a cuMemMap range: its pages are another region's (vmm.go)
	foreign    bool // an opened IPC handle: its pages are another process's (ipc.go)
}

// errHostMemory is an allocation the host cannot back.
var errHostMemory = errors.New("the host cannot back it")

// newWindow maps size bytes of the memory file fd (one is made when fd is
// negative, for tests and programs that did not send one) for device
// addresses [base, base+size).
func newWindow(fd int, base, size, capacity uint64) (*window, error) {
	if fd < 0 {
		var err error
		fd, err = unix.MemfdCreate("warpsim-device", unix.MFD_CLOEXEC)
		if err != nil {
			return nil, fmt.Errorf("memfd_create: %w", err)
		}
		if err := unix.Ftruncate(fd, int64(size)); err != nil {
			return nil, fmt.Errorf("sizing the device memory file: %w", err)
		}
	}
	mem, err := unix.Mmap(fd, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("mapping the device memory file: %w", err)
	}
	return &window{base: base, mem: mem, fd: fd, capacity: capacity, avail: hostmem.Available}, nil
}

// residentBytes is how much of the memory file holds pages now.
func (w *window) residentBytes() uint64 {
	var st unix.Stat_t
	if unix.Fstat(w.fd, &st) != nil {
		return 0
	}
	return uint64(st.Blocks) * 512
}

// free is what a new allocation may take: the device's memory not yet
// allocated, and no more than the host can back once every allocation is
// touched (allocated bytes not yet touched hold no pages yet, but will).
func (w *window) free() uint64 {
	f := uint64(0)
	if w.capacity > w.used {
		f = w.capacity - w.used
	}
	untouched := uint64(0)
	if r := w.residentBytes(); w.used > r {
		untouched = w.used - r
	}
	host := w.avail()
	if host > untouched {
		host -= untouched
	} else {
		host = 0
	}
	return min(f, host)
}

// memInfo is cudaMemGetInfo's answer: the simulated device's memory not
// yet allocated, and its size. It is the device's figure, as on a GPU,
// never the host's: the host's available memory moves with whatever else
// runs there, so a program that checks that its own allocation lowered
// free (testdata/programs/memory_info.cu, as the H100 answers) would see
// another process's frees instead. Whether the host can back an
// allocation is decided when it is made (Bytes), where it fails with
// cudaErrorMemoryAllocation.
func (w *window) memInfo() (free, total uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.capacity > w.used {
		free = w.capacity - w.used
	}
	return free, w.capacity
}

// Bytes backs the allocation at base (devmem.Backing).
func (w *window) Bytes(base, size uint64) ([]byte, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if base < w.base || base-w.base+size > uint64(len(w.mem)) || base-w.base+size < base-w.base {
		return nil, fmt.Errorf("allocation of %d bytes: out of device address space", size)
	}
	if size > w.free() {
		return nil, fmt.Errorf("allocation of %d bytes: %w (%d bytes free)", size, errHostMemory, w.free())
	}
	i := sort.Search(len(w.regions), func(i int) bool { return w.regions[i].base >= base })
	w.regions = append(w.regions, region{})
	copy(w.regions[i+1:], w.regions[i:])
	w.regions[i] = region{base: base, size: size, kind: w.nextKind}
	w.used += size
	off := base - w.base
	return w.mem[off : off+size : off+size], nil
}

// Limit is the first device address past the window (engine.Limited):
// the engine keeps its 2 GiB allocation slots and 1 GiB guards inside it.
func (w *window) Limit() uint64 { return w.base + uint64(len(w.mem)) }

// Release returns a freed allocation's pages to the host (devmem.Backing).
func (w *window) Release(base, size uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := sort.Search(len(w.regions), func(i int) bool { return w.regions[i].base >= base })
	if i < len(w.regions) && w.regions[i].base == base {
		if w.regions[i].mapped {
			// Another region's pages: the mapping goes, they stay.
			w.regions = append(w.regions[:i], w.regions[i+1:]...)
			return
		}
		if w.regions[i].foreign {
			// Another process's pages: the window shows its own again.
			w.remapOwn(base-w.base, size)
		}
		w.regions = append(w.regions[:i], w.regions[i+1:]...)
		w.used -= size
	}
	const page = 4096
	lo := (base - w.base + page - 1) &^ (page - 1)
	hi := (base - w.base + size) &^ (page - 1)
	if hi > lo {
		unix.Fallocate(w.fd, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, int64(lo), int64(hi-lo))
	}
}

// hostMapped reports whether the program can write some of the window
// without asking the simulator: pinned host or managed memory exists, or
// another process shares some of it (ipc.go).
func (w *window) hostMapped() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shared {
		return true
	}
	for _, r := range w.regions {
		if r.kind != kindDevice {
			return true
		}
	}
	return false
}

// find returns the allocation holding [addr, addr+n).
func (w *window) find(addr, n uint64) (region, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := sort.Search(len(w.regions), func(i int) bool { return w.regions[i].base+max(w.regions[i].size, 1) > addr })
	if i == len(w.regions) {
		return region{}, false
	}
	r := w.regions[i]
	if addr < r.base || addr+n > r.base+r.size || addr+n < addr {
		if w.mappedSpan(i, addr, n) {
			return r, true
		}
		return region{}, false
	}
	return r, true
}

// live is find for a CUDA call that names [addr, addr+n): an allocation
// cudaFreeAsync freed is gone for the calls after it, before its stream
// reaches the free (the H100 refuses a cudaMemcpyAsync from it on the same
// stream with cudaErrorInvalidValue: testdata/sanitize/probe5,
// copy_after_freeasync).
func (w *window) live(addr, n uint64) (region, bool) {
	r, ok := w.find(addr, n)
	if !ok {
		return r, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return r, !w.freeing[r.base]
}

// setFreeing marks the allocation at base as freed by cudaFreeAsync (on)
// or its free as done (off).
func (w *window) setFreeing(base uint64, on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.freeing == nil {
		w.freeing = map[uint64]bool{}
	}
	if on {
		w.freeing[base] = true
	} else {
		delete(w.freeing, base)
	}
}

// span returns the bytes [addr, addr+n) of one allocation.
func (w *window) span(addr, n uint64) ([]byte, bool) {
	if _, ok := w.find(addr, n); !ok {
		return nil, false
	}
	off := addr - w.base
	return w.mem[off : off+n], true
}

// populate maps the pages of [addr, addr+n) ahead of a large copy or
// fill: one call instead of a page fault per page (on a virtual machine
// each fault can cost tens of microseconds: 1 GiB took 10 s faulted, 0.6 s
// populated).
func (w *window) populate(addr, n uint64) {
	const page = 4096
	if n < 1<<20 || addr < w.base {
		return
	}
	off := addr - w.base
	if off+n > uint64(len(w.mem)) {
		return
	}
	unix.Madvise(w.mem[off&^(page-1):off+n], unix.MADV_POPULATE_WRITE)
}

// releaseAll forgets every allocation (cudaDeviceReset).
func (w *window) releaseAll() {
	w.mu.Lock()
	rs := w.regions
	w.mu.Unlock()
	for _, r := range rs {
		w.Release(r.base, r.size)
	}
}
