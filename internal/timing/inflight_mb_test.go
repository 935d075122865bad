package timing_test

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// inflightStamps runs inflight_mb.cu's k_burst<zf> on one block of warps
// warps and returns the mean over its warps of each stamp minus the first
// (the issue of copies 4, 8, ..., 32, the wait_all, the bar.sync).
func inflightStamps(t *testing.T, m *microbench, zf, warps int) []float64 {
	t.Helper()
	const ns = 11
	out, _ := m.dev.Malloc(8 * 8 * ns)
	src, _ := m.dev.Malloc(1 << 20)
	k, err := m.mod.Kernel(fmt.Sprintf("_Z7k_burstILi%dEEvPxPKc", zf))
	if err != nil {
		t.Fatal(err)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * warps), Y: 1, Z: 1},
		SharedBytes: uint32(32 * 32 * warps * 16)}
	if _, err := m.dev.Launch(k, cfg, params(out, src)); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8*ns*warps)
	if err := m.dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, ns-1)
	for w := 0; w < warps; w++ {
		t0 := int64(binary.LittleEndian.Uint64(b[8*ns*w:]))
		for i := 1; i < ns; i++ {
			got[i-1] += float64(int64(binary.LittleEndian.Uint64(b[8*(ns*w+i):]))-t0) / float64(warps)
		}
	}
	return got
}

// TestCpAsyncIssueMicrobenchmarks runs nvcc's PTX of testdata/timing/f16mm/
// inflight_mb.cu through the timing model as its main() does and compares
// it with the H100's (h100/inflight_mb.h100.txt, the L2 flushed before each
// launch as the model's launches start): one block of 1, 4 or 8 warps, each
// thread issuing 32 16-byte cp.async.cg back to back (a warp instruction
// 512 contiguous bytes), reading global memory or zero-filling (src-size
// 0), stamps after every fourth. A warp issues a copy every 11.2 cycles
// (CpAsyncWarpCycles a wavefront, 4 of them, and one more), an SM no faster than its L1 data path takes them
// (CpAsyncQueueCycles of backlog at most), reading or zero-filling alike:
// the time to issue all 32 within 20% (eight warps -16% and -18%: the
// model's L1 rate for these copies, 3.1 cycles, against the H100's 3.65),
// the copies' wait_all within 25% (cold reads: eight warps' 128 KiB -18%).
// Zero fills issued behind reading copies (zf=2) wait on the H100 while
// the data of those arrives (four warps' last 16 copies 150-250 cycles
// later, eight warps' 700 with the L2 flushed): the model charges a copy's
// L1 work at its issue, not at its data's arrival, and issues them at the
// L1's rate; only their wait_all is compared, within 35% (-32%).
func TestCpAsyncIssueMicrobenchmarks(t *testing.T) {
	m := loadMicrobench(t, "../../testdata/timing/f16mm/", "inflight_mb")
	c := rowChecker{t: t}
	rows := 0
	for _, line := range m.lines {
		var zf, warps, cold int
		var at string
		var wait, bar float64
		if n, _ := fmt.Sscanf(line, "inflight zf=%d warps=%d cold=%d at=%s wait=%f bar=%f", &zf, &warps, &cold, &at, &wait, &bar); n != 6 || cold != 1 {
			continue
		}
		var want []float64
		for _, f := range strings.Split(at, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("bad line %q", line)
			}
			want = append(want, v)
		}
		got := inflightStamps(t, m, zf, warps)
		rows++
		name := fmt.Sprintf("zf=%d warps=%d", zf, warps)
		if zf == 2 {
			c.check(name+" wait_all", got[8], wait, 0.35)
			continue
		}
		c.check(name+" issue", got[7], want[7], 0.20)
		c.check(name+" wait_all", got[8], wait, 0.25)
	}
	if rows != 9 {
		t.Errorf("%d cold rows, the recording has 9", rows)
	}
}
