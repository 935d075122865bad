package timing_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// coldcpStamps runs coldcp_mb.cu's k_stage<mode, stages> as its main()
// does and returns the mean over the grid's warps of each stamp minus the
// first (the issue, each stage's wait, the closing bar.sync).
func coldcpStamps(t *testing.T, m *microbench, mode, pat, threads, chunks, stages, grid int) []float64 {
	t.Helper()
	const nst = 8
	out, _ := m.dev.Malloc(4 * 8 * nst * 8)
	src, _ := m.dev.Malloc(16 << 20)
	k, err := m.mod.Kernel(fmt.Sprintf("_Z7k_stageILi%dELi%dEEvPxPKcii", mode, stages))
	if err != nil {
		t.Fatal(err)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(grid), Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(threads), Y: 1, Z: 1},
		SharedBytes: uint32(stages * chunks * threads * 16)}
	if _, err := m.dev.Launch(k, cfg, params(out, src, uint32(chunks), uint32(pat))); err != nil {
		t.Fatal(err)
	}
	nw := grid * threads / 32
	b := make([]byte, 8*nst*nw)
	if err := m.dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 2+stages)
	for w := 0; w < nw; w++ {
		t0 := int64(binary.LittleEndian.Uint64(b[8*nst*w:]))
		for i := 1; i <= 2+stages; i++ {
			got[i-1] += float64(int64(binary.LittleEndian.Uint64(b[8*(nst*w+i):]))-t0) / float64(nw)
		}
	}
	return got
}

// TestColdCopyMicrobenchmarks runs nvcc's PTX of testdata/timing/f16mm/
// coldcp_mb.cu through the timing model as its main() does and compares
// each copy stage's completion, with the L2 flushed before the launch (as
// the model's launches start), with the H100's (h100/coldcp_mb.h100.txt):
// Triton's f16 matmuls' copy stages (16-byte cp.async.cg, .ca, or
// ld.global.v4 and st.shared.v4; 8 KiB a stage on 4 warps, 32 KiB on 8;
// one stage or three; one block or four). Every wait within 45%, their
// mean |error| under 16% (14.9% measured over the 96 waits, 79 of them
// short; 15.3% before CpAsyncWarpCycles and CpAsyncQueueCycles): the model
// is fast on the cold stages, most on the first one of a launch (ld.global:
// 280-530 cycles short where the later stages are 50-400 short) and on
// single 32 KiB stages (.ca in 64-byte rows: -40%), which is not modelled
// yet (testdata/timing/f16mm/JOURNAL.md).
func TestColdCopyMicrobenchmarks(t *testing.T) {
	m := loadMicrobench(t, "../../testdata/timing/f16mm/", "coldcp_mb")
	c := rowChecker{t: t}
	rows, n, sum := 0, 0, 0.0
	for _, line := range m.lines {
		var mode, pat, threads, chunks, stages, grid, cold int
		if n, _ := fmt.Sscanf(line, "coldcp mode=%d pat=%d threads=%d chunks=%d stages=%d grid=%d cold=%d", &mode, &pat, &threads, &chunks, &stages, &grid, &cold); n != 7 || cold != 1 {
			continue
		}
		want := make([]float64, 2+stages)
		for i, f := range strings.Fields(line)[8:] {
			var a, b float64
			if _, err := fmt.Sscanf(f[strings.IndexByte(f, '=')+1:], "%f/%f", &a, &b); err != nil || i >= len(want) {
				t.Fatalf("bad line %q", line)
			}
			want[i] = a
		}
		got := coldcpStamps(t, m, mode, pat, threads, chunks, stages, grid)
		rows++
		name := fmt.Sprintf("mode=%d pat=%d threads=%d stages=%d grid=%d", mode, pat, threads, stages, grid)
		for i := 1; i < len(want)-1; i++ {
			c.check(fmt.Sprintf("%s wait %d", name, i-1), got[i], want[i], 0.45)
			sum += math.Abs(got[i]-want[i]) / want[i]
			n++
		}
	}
	if rows != 48 {
		t.Errorf("%d cold rows, the recording has 48", rows)
	}
	if mean := sum / float64(max(n, 1)); mean > 0.16 {
		t.Errorf("mean |error| %.1f%% over %d waits, want under 16%%", 100*mean, n)
	} else {
		t.Logf("mean |error| %.1f%% over %d waits", 100*mean, n)
	}
}
