package warpsim_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// Memory bounds of loading a big module, in bytes per byte of PTX text.
// Measured on a 50 MB module of the reduce lesson's kernels repeated: the
// loaded module kept 7.1 times its text and loading it allocated 42 times
// (peak RSS of warpsim run 1.77 GB); after the parser's tree was packed and
// lowering sized each function's code once, 4.3 and 30 times (1.26 GB).
// The register estimate's scheduling of each function (2026-11-27: ptxas's
// order, internal/ir/regsched.go) allocates working copies it drops: 29.1
// -> 35.1 per byte of a 4 MiB module (30.8 -> 37.6 under the race
// detector, whose allocations differ).
const (
	moduleBytesPerSourceByte    = 6
	allocatedBytesPerSourceByte = 42
)

// TestModuleMemoryBound loads a generated module of a few MiB and bounds
// what the loaded module keeps live and what loading it allocates.
func TestModuleMemoryBound(t *testing.T) {
	size := 4 << 20
	if testing.Short() {
		size = 1 << 20
	}
	src, err := os.ReadFile("examples/lessons/reduce.sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`(?m)^\.visible \.entry `).FindIndex(src)
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
	big := b.Bytes()
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := dev.LoadModule("big.ptx", big)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	live, allocated := after.HeapAlloc-before.HeapAlloc, after.TotalAlloc-before.TotalAlloc
	n := uint64(len(big))
	t.Logf("%d bytes of PTX: the module keeps %d bytes (%.1f per byte); loading allocated %d (%.1f per byte)",
		n, live, float64(live)/float64(n), allocated, float64(allocated)/float64(n))
	if live > moduleBytesPerSourceByte*n {
		t.Errorf("the loaded module keeps %d bytes: more than %d per byte of its %d bytes of PTX", live, moduleBytesPerSourceByte, n)
	}
	if allocated > allocatedBytesPerSourceByte*n {
		t.Errorf("loading allocated %d bytes: more than %d per byte of its %d bytes of PTX", allocated, allocatedBytesPerSourceByte, n)
	}
}
