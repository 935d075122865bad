package cudart

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The driver's virtual memory management API (cuMemCreate, cuMemMap, ...
// in cuda/shim/warpsim_rt_vmm.c). A physical allocation (cuMemCreate) is an
// ordinary allocation of the window that the program never sees the address
// of; a reserved range (cuMemAddressReserve) is fresh device address space
// inside the window with nothing in it; mapping a physical allocation into
// it, once access is granted (cuMemSetAccess), makes the range show the
// allocation's pages everywhere: the program maps them there itself, the
// server remaps its own view of the window (so its copies and fills see
// them), and the simulator aliases the range to the allocation's bytes (so
// kernels do). Unmapping undoes the three; a kernel touching the range
// afterwards faults, reported as a use of memory cuMemUnmap freed.

// vmmDevice is a device with the VMM primitives (warpsim.Device).
type vmmDevice interface {
	Reserve(size uint64) (uint64, error)
	Alias(addr, dev, size uint64) error
	Unmap(addr uint64) error
}

func (s *Server) vmmOp(op uint32, p *payloadReader) reply {
	d, ok := under(s.dev).(vmmDevice) // under a sanitizer too
	if !ok {
		return reply{code: ErrorNotSupported, diag: []byte("warpsim runtime: this device has no virtual memory management\n")}
	}
	switch op {
	case opVMReserve:
		size := p.u64()
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		addr, err := d.Reserve(size)
		if err != nil {
			return reply{code: ErrorMemoryAllocation, diag: fmt.Appendf(nil, "warpsim runtime: cuMemAddressReserve: %v\n", err)}
		}
		return reply{data: putU64s(addr)}
	case opVMMap:
		va, phys, size := p.u64(), p.u64(), p.u64()
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		if _, ok := s.win.find(phys, size); !ok {
			return reply{code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: cuMemMap: %d bytes at %#x are not one allocation\n", size, phys)}
		}
		if err := s.win.mapRange(va, phys, size); err != nil {
			return reply{code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: cuMemMap at %#x: %v\n", va, err)}
		}
		if err := d.Alias(va, phys, size); err != nil {
			s.win.unmapRange(va, size)
			return reply{code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: cuMemMap at %#x: %v\n", va, err)}
		}
		return reply{}
	case opVMUnmap:
		va, size := p.u64(), p.u64()
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		// A kernel on any stream may still use the range.
		s.waitFor(s.issuedSeq())
		if err := d.Unmap(va); err != nil {
			return reply{code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: cuMemUnmap at %#x: %v\n", va, err)}
		}
		s.win.unmapRange(va, size)
		return reply{}
	}
	return reply{code: ErrorInvalidValue}
}

// mapRange makes [va, va+size) of the window show the pages of
// [phys, phys+size) and a region of its own (which does not count as
// memory used: the physical allocation does).
func (w *window) mapRange(va, phys, size uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	const page = 4096
	if va < w.base || va-w.base+size > uint64(len(w.mem)) || phys < w.base || (va-w.base)%page != 0 || (phys-w.base)%page != 0 || size%page != 0 || size == 0 {
		return fmt.Errorf("%d bytes: not a page-aligned range of the window", size)
	}
	off := va - w.base
	if _, err := unix.MmapPtr(w.fd, int64(phys-w.base), unsafe.Pointer(&w.mem[off]), uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED); err != nil {
		return fmt.Errorf("remapping the window: %w", err)
	}
	w.insertRegion(region{base: va, size: size, kind: kindDevice, mapped: true})
	return nil
}

// unmapRange undoes mapRange: the window shows its own pages at va again.
func (w *window) unmapRange(va, size uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, r := range w.regions {
		if r.base == va && r.mapped {
			w.regions = append(w.regions[:i], w.regions[i+1:]...)
			break
		}
	}
	if va < w.base || va-w.base+size > uint64(len(w.mem)) {
		return
	}
	w.remapOwn(va-w.base, size)
}

// remapOwn maps the window's own file back at [off, off+size) of mem;
// w.mu held.
func (w *window) remapOwn(off, size uint64) {
	unix.MmapPtr(w.fd, int64(off), unsafe.Pointer(&w.mem[off]), uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED|unix.MAP_NORESERVE)
}

// insertRegion adds r in base order; w.mu held.
func (w *window) insertRegion(r region) {
	i := 0
	for i < len(w.regions) && w.regions[i].base < r.base {
		i++
	}
	w.regions = append(w.regions, region{})
	copy(w.regions[i+1:], w.regions[i:])
	w.regions[i] = r
}

// mappedSpan reports whether [addr, addr+n) lies in mappings that follow
// one another from region i on (a copy across two cuMemMap ranges); w.mu
// held.
func (w *window) mappedSpan(i int, addr, n uint64) bool {
	end := addr + n
	if end < addr || i >= len(w.regions) || !w.regions[i].mapped || addr < w.regions[i].base {
		return false
	}
	for at := w.regions[i].base; i < len(w.regions) && w.regions[i].mapped && w.regions[i].base == at; i++ {
		at += w.regions[i].size
		if end <= at {
			return true
		}
	}
	return false
}
