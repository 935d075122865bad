package warpsim

// The driver's virtual memory management API, for the CUDA runtime
// (internal/cudart, cuMemAddressReserve and cuMemMap/cuMemUnmap).

// Reserve takes size bytes of device address space that no allocation will
// take, backed by nothing: an access there is outside every allocation
// until a range of it is mapped (Alias).
func (d *Device) Reserve(size uint64) (uint64, error) { return d.mem.Reserve(size) }

// Unmap removes the mapping Alias made at addr; a later access to it is
// reported as a use after free naming cuMemUnmap.
func (d *Device) Unmap(addr uint64) error { return d.mem.FreeAs(addr, "cuMemUnmap") }
