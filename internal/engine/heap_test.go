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

// TestHeapLimitClamp: a huge heap limit is clamped as the H100 clamps it
// (2^62 and 200 GiB read back as 17681179680: testdata/hostile/h100.txt,
// heap_limit), and a 100 GiB malloc then returns NULL instead of asking Go
// for 100 GiB (which killed the simulator).
func TestHeapLimitClamp(t *testing.T) {
	for _, n := range []uint64{1 << 62, 200 << 30, ^uint64(0)} {
		var h Heap
		if !h.SetLimit(n) {
			t.Fatal("SetLimit refused")
		}
		if got := h.Limit(); got != 17681179680 {
			t.Errorf("SetLimit(%d): Limit() = %d, want 17681179680", n, got)
		}
		if p := h.malloc(100 << 30); p != 0 {
			t.Errorf("limit %d: malloc(100 GiB) = %#x, want NULL", n, p)
		}
		if p := h.malloc(1 << 20); p == 0 {
			t.Errorf("limit %d: malloc(1 MiB) = NULL", n)
		}
	}
	var h Heap
	h.SetLimit(1 << 30)
	if got := h.Limit(); got != 1<<30 {
		t.Errorf("SetLimit(1 GiB): Limit() = %d", got)
	}
}
