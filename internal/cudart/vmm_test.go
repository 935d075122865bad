package cudart

import "testing"

// TestWindowMapRange: a cuMemMap range of the window shows the physical
// allocation's bytes (both ways), two mappings that follow one another
// make one span for a copy across them, a range not mapped is no span,
// memory used does not grow with mappings, and after unmapRange the range
// is no span and shows its own (untouched, zero) pages again.
func TestWindowMapRange(t *testing.T) {
	const mib = 1 << 20
	base := uint64(0x7000_0000_0000)
	w, err := newWindow(-1, base, 1<<32, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	p1, p2, va := base, base+16*mib, base+64*mib
	for _, p := range []uint64{p1, p2} {
		b, err := w.Bytes(p, 2*mib)
		if err != nil {
			t.Fatal(err)
		}
		b[0], b[2*mib-1] = byte(p>>20), 0x5a
	}
	used := w.used
	if err := w.mapRange(va, p1, 2*mib); err != nil {
		t.Fatal(err)
	}
	if err := w.mapRange(va+2*mib, p2, 2*mib); err != nil {
		t.Fatal(err)
	}
	if w.used != used {
		t.Errorf("used %d after mapping, want %d", w.used, used)
	}
	if err := w.mapRange(va+4*mib+1, p1, 2*mib); err == nil {
		t.Error("a mapping at an address not on a page was made")
	}
	cases := []struct {
		name    string
		addr, n uint64
		ok      bool
	}{
		{"inside the first", va + 8, 64, true},
		{"across both", va + 2*mib - 8, 16, true},
		{"all of both", va, 4 * mib, true},
		{"past both", va + 4*mib - 8, 16, false},
		{"after both", va + 4*mib, 4, false},
		{"from the first allocation into the gap", p1 + 2*mib - 8, 16, false},
	}
	for _, c := range cases {
		if _, ok := w.find(c.addr, c.n); ok != c.ok {
			t.Errorf("%s: find = %v, want %v", c.name, ok, c.ok)
		}
	}
	b, _ := w.span(va, 4*mib)
	if b[0] != byte(p1>>20) || b[2*mib-1] != 0x5a || b[2*mib] != byte(p2>>20) {
		t.Errorf("the mapping shows %#x %#x %#x, not the allocations' bytes", b[0], b[2*mib-1], b[2*mib])
	}
	b[1] = 0x77
	if pb, _ := w.span(p1, 2); pb[1] != 0x77 {
		t.Error("a write through the mapping did not reach the allocation")
	}
	w.unmapRange(va, 2*mib)
	if _, ok := w.find(va, 4); ok {
		t.Error("an unmapped range is still a span")
	}
	if off := va - base; w.mem[off] != 0 || w.mem[off+1] != 0 {
		t.Errorf("the unmapped range shows %#x %#x, not its own zero pages", w.mem[off], w.mem[off+1])
	}
	if pb, _ := w.span(p1, 2); pb[1] != 0x77 {
		t.Error("unmapping changed the allocation")
	}
	w.Release(va+2*mib, 2*mib) // cudaDeviceReset's release of a mapping
	if w.used != used {
		t.Errorf("releasing a mapping changed used to %d, want %d", w.used, used)
	}
}
