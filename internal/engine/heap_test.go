package engine

import "testing"

// TestHeapHas checks the sanitizer's view of the device heap: only bytes
// inside a live malloc'd block are in it; past the end, before a block,
// across two blocks, after free, and outside the heap are not.
func TestHeapHas(t *testing.T) {
	m := NewMemory()
	a := m.heap.malloc(16)
	b := m.heap.malloc(8)
	c := m.heap.malloc(4)
	if a == 0 || b == 0 || c == 0 {
		t.Fatalf("malloc: %#x %#x %#x", a, b, c)
	}
	if m.heap.free(c) != freeOK {
		t.Fatal("free of a live block failed")
	}
	tests := []struct {
		name    string
		addr, n uint64
		want    bool
	}{
		{"first word", a, 4, true},
		{"last word", a + 12, 4, true},
		{"whole block", a, 16, true},
		{"just past the end", a + 16, 4, false},
		{"straddles the end", a + 14, 4, false},
		{"one before the start", a - 1, 1, false},
		{"second block", b + 4, 4, true},
		{"past the second block", b + 8, 1, false},
		{"freed block", c, 4, false},
		{"below the heap", HeapBase - 4, 4, false},
		{"a cudaMalloc address", GlobalBase, 4, false},
		{"wraps around", a + 8, ^uint64(0) - 4, false},
	}
	for _, tc := range tests {
		if got := m.HeapHas(tc.addr, tc.n); got != tc.want {
			t.Errorf("%s: HeapHas(%#x, %d) = %v, want %v", tc.name, tc.addr, tc.n, got, tc.want)
		}
	}
	if NewMemory().HeapHas(HeapBase, 4) {
		t.Error("HeapHas on a memory that never malloc'd: true")
	}
}
