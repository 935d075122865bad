package engine

import "testing"

// TestReserve: a reservation is fresh address space with nothing in it: an
// access there is outside every allocation, later allocations land past
// it, and an Alias placed in it is reachable; zero or huge sizes fail.
func TestReserve(t *testing.T) {
	m := NewMemory()
	a, err := m.Alloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Reserve(4 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if r <= a {
		t.Errorf("reservation at %#x is not past the allocation at %#x", r, a)
	}
	if _, ok := m.Find(r, 4); ok {
		t.Error("an access to a reservation found an allocation")
	}
	b, err := m.Alloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	if b < r+4<<20 {
		t.Errorf("an allocation at %#x is inside the reservation at %#x", b, r)
	}
	if err := m.Alias(r+2<<20, a, 4096); err != nil {
		t.Fatal(err)
	}
	d, _ := m.Bytes(a, 1)
	d[0] = 42
	if got, err := m.Bytes(r+2<<20, 1); err != nil || got[0] != 42 {
		t.Errorf("the alias in the reservation reads %v, %v", got, err)
	}
	for _, size := range []uint64{0, maxAlloc + 1} {
		if _, err := m.Reserve(size); err == nil {
			t.Errorf("Reserve(%d) succeeded", size)
		}
	}
}
