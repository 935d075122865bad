package ptx

import (
	"os"
	"testing"
)

// BenchmarkParse parses nvcc's 70 KB coarsen.sm90.ptx; -benchmem and the
// MB/s column show the parser's throughput.
func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("testdata/nvcc/coarsen.sm90.ptx")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("coarsen.sm90.ptx", src); err != nil {
			b.Fatal(err)
		}
	}
}
