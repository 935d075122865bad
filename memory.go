// Device memory: allocations, aliases, and reading, writing and filling global memory.

package warpsim

import "fmt"

// Malloc allocates size bytes of zeroed global memory. The address is
// 256-byte aligned and never 0.
func (d *Device) Malloc(size uint64) (uint64, error) {
	addr, err := d.mem.Alloc(size)
	if s := d.sanitizer(); s != nil && err == nil {
		s.hostAlloc(addr, size)
	}
	return addr, err
}

// sanitizer is the device's public sanitizer, or nil.
func (d *Device) sanitizer() *Sanitizer { return d.san.Load() }

// Alias makes the device addresses [addr, addr+size) reach the bytes of the
// allocation at [dev, dev+size) too: the CUDA runtime's host shadow of a
// __managed__ variable, so a kernel given the host's &x reaches the
// variable. The range must not overlap an allocation.
func (d *Device) Alias(addr, dev, size uint64) error { return d.mem.Alias(addr, dev, size) }

// Unalias removes the alias made at addr: a later access there is an
// access to freed memory. The allocation it aliased stays.
func (d *Device) Unalias(addr uint64) error { return d.mem.FreeAs(addr, "cudaHostUnregister") }

// Free releases an allocation made by Malloc. A later access to it is
// reported as a use after free naming this call ("cudaFree #N").
func (d *Device) Free(addr uint64) error {
	err := d.mem.FreeAs(addr, fmt.Sprintf("cudaFree #%d", d.frees.Load()+1))
	if err == nil {
		d.frees.Add(1)
		if s := d.sanitizer(); s != nil {
			s.hostFree(addr)
		}
	}
	return err
}

// Write copies src to device memory at addr.
func (d *Device) Write(addr uint64, src []byte) error {
	b, err := d.mem.Bytes(addr, uint64(len(src)))
	if err != nil {
		return fmt.Errorf("write of %d bytes: %w", len(src), err)
	}
	copy(b, src)
	if s := d.sanitizer(); s != nil {
		s.hostWrite(d.mem, addr, uint64(len(src)))
	}
	return nil
}

// Read copies device memory at addr into dst.
func (d *Device) Read(addr uint64, dst []byte) error {
	b, err := d.mem.Bytes(addr, uint64(len(dst)))
	if err != nil {
		return fmt.Errorf("read of %d bytes: %w", len(dst), err)
	}
	copy(dst, b)
	return nil
}

// Memset fills n bytes at addr with v.
func (d *Device) Memset(addr uint64, v byte, n uint64) error {
	b, err := d.mem.Bytes(addr, n)
	if err != nil {
		return fmt.Errorf("memset of %d bytes: %w", n, err)
	}
	for i := range b {
		b[i] = v
	}
	if s := d.sanitizer(); s != nil {
		s.hostWrite(d.mem, addr, n)
	}
	return nil
}
