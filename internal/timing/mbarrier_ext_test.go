package timing_test

import (
	"encoding/binary"
	"io"
	"os"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
	"github.com/warpsim/warpsim/internal/tmap"
	"github.com/warpsim/warpsim/launchfile"
)

// TestBulkCopyMbarrierWait runs testdata/timing/wgmma/wgmma.ptx's bulk
// kernel (thread 0: mbarrier.arrive.expect_tx, cp.async.bulk of 1 KiB to
// 64 KiB from global into shared memory, mbarrier.try_wait.parity until the
// phase completes, timed with %clock64) on the simulated H100: the wait
// returns when the copy's sectors have come through the memory system, not
// when the copy issued (before the mbarrier timing every size took 17
// cycles). The first round's source comes from DRAM (at least DRAMLatency),
// the others' from the L2 (at least L2HitLatency, the copy bypasses L1,
// plus its bytes at no more than the L1 data path's 128 a cycle), and a
// 64 KiB copy waits longer than a 1 KiB one by at least half its extra
// bytes' time. (No H100 recording of this kernel yet: see
// testdata/timing/wgmma/README.md.)
func TestBulkCopyMbarrierWait(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/wgmma/wgmma.ptx")
	if err != nil {
		t.Fatal(err)
	}
	h100 := arch.MustLookup("h100")
	p := timing.ForArch(h100, 0)
	dev := warpsim.NewDevice(h100, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("wgmma.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("bulk")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(16)
	gsrc, _ := dev.Malloc(65536)
	const iters = 8
	var first1K float64
	for _, n := range []uint32{1024, 4096, 16384, 65536} {
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}, SharedBytes: 65536},
			params(out, gsrc, uint32(iters), n)); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 16)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		first := float64(binary.LittleEndian.Uint64(b))
		steady := float64(binary.LittleEndian.Uint64(b[8:])) / (iters - 1)
		t.Logf("cp.async.bulk %5d bytes: first %.0f cycles, then %.1f", n, first, steady)
		if first < p.DRAMLatency {
			t.Errorf("%d bytes: the first copy's wait returned after %.0f cycles, before the DRAM's latency (%.0f)", n, first, p.DRAMLatency)
		}
		if steady < p.L2HitLatency {
			t.Errorf("%d bytes: a copy from the L2 waited %.1f cycles, less than its hit latency (%.0f)", n, steady, p.L2HitLatency)
		}
		if min := p.L2HitLatency + float64(n)/float64(p.L1BytesPerCycle); steady < min {
			t.Errorf("%d bytes: a copy from the L2 waited %.1f cycles, less than the L2's latency and its bytes at %d a cycle (%.1f)", n, steady, p.L1BytesPerCycle, min)
		}
		if n == 1024 {
			first1K = steady
		} else if d := float64(n-1024) / float64(p.L1BytesPerCycle) / 2; n == 65536 && steady-first1K < d {
			t.Errorf("64 KiB: %.1f cycles more than 1 KiB's, want at least %.1f (half its extra bytes' time)", steady-first1K, d)
		}
	}
}

// TestTensorCopyMbarrierWait is TestBulkCopyMbarrierWait for wgmma.ptx's
// tile kernel: cp.async.bulk.tensor.2d of one box (16x16 to 128x64 f16) of
// a 1024x1024 f16 tensor map, then mbarrier.try_wait.parity.
func TestTensorCopyMbarrierWait(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/wgmma/wgmma.ptx")
	if err != nil {
		t.Fatal(err)
	}
	h100 := arch.MustLookup("h100")
	p := timing.ForArch(h100, 0)
	dev := warpsim.NewDevice(h100, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("wgmma.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("tile")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(16)
	tensor, _ := dev.Malloc(2 << 20)
	const iters = 8
	for _, box := range [][2]uint32{{16, 16}, {32, 32}, {64, 64}, {128, 64}} {
		m, code, why := tmap.EncodeTiled(tmap.Tiled{DType: tmap.F16, Rank: 2, Addr: uint64(tensor), Dim: []uint64{1024, 1024},
			Stride: []uint64{2048}, Box: box[:], EStride: []uint32{1, 1}})
		if code != 0 {
			t.Fatalf("box %v: %s", box, why)
		}
		n := box[0] * box[1] * 2
		prm := make([]byte, 200) // p_out, p_map (64-byte aligned, 128 bytes), p_iters, p_bytes
		binary.LittleEndian.PutUint64(prm, uint64(out))
		m.Encode(prm[64:192])
		binary.LittleEndian.PutUint32(prm[192:], iters)
		binary.LittleEndian.PutUint32(prm[196:], n)
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}, SharedBytes: 65536}, prm); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 16)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		first := float64(binary.LittleEndian.Uint64(b))
		steady := float64(binary.LittleEndian.Uint64(b[8:])) / (iters - 1)
		t.Logf("cp.async.bulk.tensor.2d box %dx%d (%5d bytes): first %.0f cycles, then %.1f", box[0], box[1], n, first, steady)
		if first < p.DRAMLatency {
			t.Errorf("box %v: the first copy's wait returned after %.0f cycles, before the DRAM's latency (%.0f)", box, first, p.DRAMLatency)
		}
		if min := p.L2HitLatency + float64(n)/float64(p.L1BytesPerCycle); steady < min {
			t.Errorf("box %v: a copy from the L2 waited %.1f cycles, less than the L2's latency and its bytes at %d a cycle (%.1f)", box, steady, p.L1BytesPerCycle, min)
		}
	}
}

// TestCpAsyncMbarrierWait runs wgmma.ptx's cpmbar kernel: each of 32
// threads copies 16 bytes with cp.async.cg, cp.async.mbarrier.arrive.noinc
// completes them on a barrier of 32 arrivals, and mbarrier.try_wait.parity
// waits for the phase. The wait returns once the copies have arrived: the
// first round's from DRAM (at least DRAMLatency), the others' at least an
// L1 hit's latency after the copies issued.
func TestCpAsyncMbarrierWait(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/wgmma/wgmma.ptx")
	if err != nil {
		t.Fatal(err)
	}
	h100 := arch.MustLookup("h100")
	p := timing.ForArch(h100, 0)
	dev := warpsim.NewDevice(h100, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("wgmma.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("cpmbar")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(16)
	gsrc, _ := dev.Malloc(512)
	const iters = 8
	if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}, SharedBytes: 1024},
		params(out, gsrc, uint32(iters))); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	if err := dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	first := float64(binary.LittleEndian.Uint64(b))
	steady := float64(binary.LittleEndian.Uint64(b[8:])) / (iters - 1)
	t.Logf("cp.async.cg x32 + cp.async.mbarrier.arrive.noinc: first %.0f cycles, then %.1f", first, steady)
	if first < p.DRAMLatency {
		t.Errorf("the first round's wait returned after %.0f cycles, before the DRAM's latency (%.0f)", first, p.DRAMLatency)
	}
	if steady < float64(p.L1HitLatency) {
		t.Errorf("a round took %.1f cycles, less than an L1 hit's latency (%d)", steady, p.L1HitLatency)
	}
}

// TestTMAMbarrierTimingWorkers: Triton's tma_matmul_f16 (four blocks, each
// a TMA descriptor-load pipeline of 3 stages on mbarriers feeding wgmma)
// takes the same cycles with 1 and with 4 workers: the mbarrier
// completions are per SM state, futures resolved as any memory answer.
func TestTMAMbarrierTimingWorkers(t *testing.T) {
	var cycles [2]uint64
	for i, workers := range []int{1, 4} {
		lf, err := launchfile.Load("../../testdata/triton/tma_matmul_f16/launch.json")
		if err != nil {
			t.Fatal(err)
		}
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming, Workers: workers})
		out, err := lf.Execute(dev, launchfile.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cycles[i] = out.Launches[0].Grids[0].Timing.Cycles
	}
	if cycles[0] != cycles[1] || cycles[0] == 0 {
		t.Errorf("tma_matmul_f16: %d cycles with 1 worker, %d with 4", cycles[0], cycles[1])
	}
}
