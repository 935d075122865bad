package ptx

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"testing"
)

// bigModule builds a PTX module of about size bytes from the reduce
// lesson's nvcc output: its kernels repeated under new names, as a big
// generated module (template instantiations, unrolled code) would be.
func bigModule(t testing.TB, size int) []byte {
	t.Helper()
	src, err := os.ReadFile("../examples/lessons/reduce.sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`(?m)^\.visible \.entry `).FindIndex(src)
	if first == nil {
		t.Fatal("no kernel in reduce.sm90.ptx")
	}
	head, body := src[:first[0]], src[first[0]:]
	names := regexp.MustCompile(`(?m)^\.visible \.entry (\w+)\(`).FindAllSubmatch(body, -1)
	var b bytes.Buffer
	b.Write(head)
	for n := 0; b.Len() < size; n++ {
		x := body
		for _, nm := range names {
			x = bytes.ReplaceAll(x, nm[1], fmt.Appendf(nil, "%s_%d", nm[1], n))
		}
		b.Write(x)
	}
	return b.Bytes()
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// astBytesPerSourceByte bounds the parsed tree's memory. A big module's
// tree was 13.5 times its text (50 MB of PTX took 675 MB); packing
// Operand and Instr and keeping the rare statement fields out of
// instruction statements made it 9.9 times.
const astBytesPerSourceByte = 11

// TestASTMemoryBound parses a generated module of a few MiB and bounds the
// memory its tree keeps live.
func TestASTMemoryBound(t *testing.T) {
	size := 4 << 20
	if testing.Short() {
		size = 1 << 20
	}
	src := bigModule(t, size)
	before := liveHeap()
	m, err := Parse("big.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	live := liveHeap() - before
	runtime.KeepAlive(m)
	t.Logf("%d bytes of PTX: the tree keeps %d bytes (%.1f per byte)", len(src), live, float64(live)/float64(len(src)))
	if live > uint64(astBytesPerSourceByte*len(src)) {
		t.Errorf("the tree of %d bytes of PTX keeps %d bytes live: more than %d per byte", len(src), live, astBytesPerSourceByte)
	}
}
