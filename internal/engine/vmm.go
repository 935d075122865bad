package engine

import "fmt"

// This file is the device side of the driver's virtual memory management
// API (cuMemAddressReserve, cuMemMap, cuMemUnmap): a reserved range is
// address space no allocation will take, with nothing in it (an access
// there is outside every allocation); a mapping is an Alias of a physical
// allocation's bytes placed in it; an unmapping frees the alias, so a
// later access is reported as one to memory cuMemUnmap freed.

// Reserve takes size bytes of fresh device address space, aligned to the
// allocation slots (2 GiB), without backing any of it. Later allocations
// do not take it (until a backed memory has used up its fresh address
// space and reuses gaps).
func (m *Memory) Reserve(size uint64) (uint64, error) {
	if size == 0 || size > maxAlloc {
		return 0, fmt.Errorf("reservation of %d bytes", size)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	base := m.next
	span := (size + OverrunGuard + slotAlign - 1) / slotAlign * slotAlign
	if m.limit != 0 && (base+span > m.limit || base+span < base) {
		return 0, fmt.Errorf("reservation of %d bytes: out of device address space", size)
	}
	m.next += span
	return base, nil
}
