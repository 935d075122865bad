package hostmem

import "testing"

// TestPopulateKeepsContents populates buffers of many sizes and offsets
// (whole pages inside them only) and checks that no byte of them, nor of
// the memory around them, changed: populating maps pages, never writes.
func TestPopulateKeepsContents(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, off int // the slice populated: [off, off+size) of a larger buffer
	}{
		{"empty", 0, 0},
		{"under the threshold", populateMin - 1, 3},
		{"the threshold, unaligned", populateMin, 5},
		{"a megabyte, unaligned", 1<<20 + 13, 4095},
		{"four megabytes, aligned start", 4 << 20, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			buf := make([]byte, c.size+c.off+4096)
			for i := range buf {
				buf[i] = byte(i*7 + 1)
			}
			Populate(buf[c.off : c.off+c.size])
			for i := range buf {
				if buf[i] != byte(i*7+1) {
					t.Fatalf("byte %d changed to %d", i, buf[i])
				}
			}
		})
	}
	words := make([]uint64, 1<<16)
	for i := range words {
		words[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	Populate(words)
	for i := range words {
		if words[i] != uint64(i)*0x9e3779b97f4a7c15 {
			t.Fatalf("word %d changed", i)
		}
	}
}
