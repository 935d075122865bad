package engine

import "fmt"

// Alias makes [base, base+size) a second device range for the bytes of the
// allocation that holds [dev, dev+size). The CUDA runtime uses it for the
// host shadow of a __managed__ variable, whose pages the program maps onto
// the device variable: a kernel handed the host's &x then reaches the same
// bytes, as with nvcc. The range must not overlap an allocation; freeing
// it releases nothing of the allocation it aliases.
func (m *Memory) Alias(base, dev, size uint64) error {
	data, err := m.Bytes(dev, size)
	if err != nil {
		return err
	}
	if size == 0 || base+size < base {
		return fmt.Errorf("alias of %d bytes at %#x", size, base)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.allocs {
		if a.Base < base+size && base < a.End() {
			return fmt.Errorf("alias [%#x, %#x) overlaps the allocation at %#x", base, base+size, a.Base)
		}
	}
	m.insert(&Alloc{Base: base, Size: size, Data: data, private: true})
	return nil
}
