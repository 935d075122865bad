package timing_test

import (
	"encoding/binary"
	"io"
	"math"
	"os"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestTensorPipeMicrobenchmarks runs the tensor-pipe loops of
// testdata/tensorlesson/pipe.ptx (mb.cu's, hand-written in PTX) on the
// simulated H100 and reads their %clock64 cycles per warp: a dependent
// chain of mma.sync m16n8k16 takes the preset's latency per instruction,
// eight independent chains its issue interval, shared by the warps of a
// sub-partition.
func TestTensorPipeMicrobenchmarks(t *testing.T) {
	src, err := os.ReadFile("../../testdata/tensorlesson/pipe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	const iters = 64
	tests := []struct {
		kernel  string
		ilp     int
		warps   uint32
		perInst float64 // cycles per instruction per warp
	}{
		{"mma_f16_ilp1", 1, 1, 32},  // latency: 8 of issue + 24
		{"mma_f16_ilp1", 1, 4, 32},  // one warp per sub-partition
		{"mma_f16_ilp8", 8, 4, 8},   // the interval
		{"mma_f16_ilp8", 8, 32, 64}, // 8 warps share a sub-partition's pipe
		{"mma_f64_ilp8", 8, 4, 8},   // m8n8k4 f64: 256 multiply-adds at 32 a cycle
	}
	for _, tc := range tests {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
		mod, err := dev.LoadModule("pipe.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel(tc.kernel)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(8 * 32)
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32 * tc.warps, Y: 1, Z: 1}},
			params(out, uint32(iters))); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8*tc.warps)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		var worst float64
		for w := uint32(0); w < tc.warps; w++ {
			worst = math.Max(worst, float64(binary.LittleEndian.Uint64(b[8*w:])))
		}
		got := worst / float64(iters*tc.ilp)
		// 15%: each loop iteration adds its increment, compare and
		// branch (a branch-resolving wait) to the MMAs.
		if math.Abs(got-tc.perInst) > 0.15*tc.perInst {
			t.Errorf("%s, %d warps: %.2f cycles per instruction per warp, want %.0f ±15%%", tc.kernel, tc.warps, got, tc.perInst)
		} else {
			t.Logf("%s, %d warps: %.2f cycles per instruction per warp (model %.0f)", tc.kernel, tc.warps, got, tc.perInst)
		}
	}
}
