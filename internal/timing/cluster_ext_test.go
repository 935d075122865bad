package timing_test

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// spinPTX: each block's one warp runs p_n dependent FMAs and stores the
// result; its blocks take the same time wherever they run.
const spinPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 p_out, .param .u32 p_n)
{
	.reg .f32 %x;
	.reg .b32 %i, %n, %b;
	.reg .pred %p;
	.reg .b64 %o, %off;
	ld.param.u32 %n, [p_n];
	mov.f32 %x, 0f3F800000;
	mov.u32 %i, 0;
$L:
	fma.rn.f32 %x, %x, 0f3F800000, 0f3F800000;
	fma.rn.f32 %x, %x, 0f3F800000, 0f3F800000;
	fma.rn.f32 %x, %x, 0f3F800000, 0f3F800000;
	fma.rn.f32 %x, %x, 0f3F800000, 0f3F800000;
	add.u32 %i, %i, 1;
	setp.lt.u32 %p, %i, %n;
	@%p bra $L;
	mov.u32 %b, %ctaid.x;
	ld.param.u64 %o, [p_out];
	mul.wide.u32 %off, %b, 4;
	add.s64 %o, %o, %off;
	st.global.f32 [%o], %x;
	ret;
}
`

// TestClusterPlacementTiming: 128 blocks that each hold an SM (150 KiB of
// shared memory: one block per SM) take one wave on the 132 SMs without
// clusters and in clusters of 2 (66 fit at once), but two waves in
// clusters of 16: only 7 GPCs can take 16 blocks at once, so the 8th
// cluster runs after the first 7 (and in clusters of 8, the 16th after 15).
// The blocks' work is the same, so the time beyond the kernel's fixed
// overhead doubles: within 10% of that sequential expectation.
func TestClusterPlacementTiming(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	a := arch.MustLookup("h100")
	run := func(cluster uint32) float64 {
		dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
		mod, err := dev.LoadModule("spin.ptx", []byte(spinPTX))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("spin")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(4 * 128)
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 128, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}, SharedBytes: 150 << 10}
		if cluster > 0 {
			cfg.Cluster = warpsim.Dim3{X: cluster, Y: 1, Z: 1}
		}
		res, err := dev.Launch(k, cfg, params(out, uint32(500)))
		if err != nil {
			t.Fatalf("clusters of %d: %v", cluster, err)
		}
		return res.DurationNS
	}
	none := run(0)
	empty := 2200.0 // the H100 preset's KernelNS: a kernel's fixed duration
	wave := none - empty
	for _, tc := range []struct {
		cluster uint32
		waves   float64
	}{{2, 1}, {8, 2}, {16, 2}} {
		got := run(tc.cluster)
		want := empty + tc.waves*wave
		if math.Abs(got-want) > 0.1*want {
			t.Errorf("clusters of %d: %.0f ns, want %.0f (%.0f waves of %.0f ns)", tc.cluster, got, want, tc.waves, wave)
		} else {
			t.Logf("clusters of %d: %.0f ns (%.0f waves of %.0f ns: %.0f)", tc.cluster, got, tc.waves, wave, want)
		}
	}
}

// TestClusterWavesAsRecorded: cluster_time.cu's launches as an H200
// (GH100, 132 SMs, as the H100) ran them (testdata/clusters/timing/
// cluster_time.h200.txt, recorded by time.sh): blocks that each hold an
// SM's shared memory for a while, at one block per SM (128 blocks) and two
// (256), without clusters and in clusters of 2, 4, 8 and 16. The blocks
// the model starts before any ends (its first wave) are exactly the GPU's:
// 128, 128, 120, 120, 112 and 256, 256, 248, 240, 224 (as many clusters
// as cudaOccupancyMaxActiveClusters answers).
func TestClusterWavesAsRecorded(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	data, err := os.ReadFile("../../testdata/clusters/timing/cluster_time.h200.txt")
	if err != nil {
		t.Fatal(err)
	}
	a := arch.MustLookup("h100")
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "launch ") {
			continue
		}
		var k, blocks, smem, cluster, active, wave, sms int
		var us float64
		if _, err := fmt.Sscanf(line, "launch k=%d blocks=%d smem=%d cluster=%d event_us=%f max_active_clusters=%d first_wave_blocks=%d first_wave_sms=%d",
			&k, &blocks, &smem, &cluster, &us, &active, &wave, &sms); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		n++
		if cluster > 0 && a.MaxActiveClusters(k, cluster) != active {
			t.Errorf("k=%d clusters of %d: MaxActiveClusters %d, the GPU's %d", k, cluster, a.MaxActiveClusters(k, cluster), active)
		}
		dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
		mod, err := dev.LoadModule("spin.ptx", []byte(spinPTX))
		if err != nil {
			t.Fatal(err)
		}
		kern, err := mod.Kernel("spin")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(4 * uint64(blocks))
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(blocks), Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}, SharedBytes: uint32(smem)}
		if cluster > 0 {
			cfg.Cluster = warpsim.Dim3{X: uint32(cluster), Y: 1, Z: 1}
		}
		res, err := dev.Launch(kern, cfg, params(out, uint32(500)))
		if err != nil {
			t.Fatalf("k=%d clusters of %d: %v", k, cluster, err)
		}
		spans := res.Grids[0].Timing.Blocks
		if len(spans) != blocks {
			t.Fatalf("k=%d clusters of %d: %d blocks timed, want %d", k, cluster, len(spans), blocks)
		}
		firstEnd := uint64(math.MaxUint64)
		for _, b := range spans {
			firstEnd = min(firstEnd, b.End)
		}
		got := 0
		for _, b := range spans {
			if b.Start < firstEnd {
				got++
			}
		}
		if got != wave {
			t.Errorf("k=%d clusters of %d: %d blocks in the first wave, the GPU %d", k, cluster, got, wave)
		} else {
			t.Logf("k=%d clusters of %d: %d blocks in the first wave, as the GPU", k, cluster, got)
		}
	}
	if n != 10 {
		t.Errorf("%d launches recorded, want 10", n)
	}
}
