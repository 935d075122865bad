package timing_test

import (
	"io"
	"sort"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// nestedRun times one of nested4.cu's reductions over nblk blocks of ones
// on the K40 preset and returns the launch and the sum it computed.
func nestedRun(t *testing.T, kernel string, nblk uint32) (*warpsim.LaunchResult, uint64) {
	t.Helper()
	dev := warpsim.NewDevice(arch.MustLookup("k40"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("nested4.sm35.ptx", lessonPTX(t, "nested4.sm35.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	n := 512 * nblk
	ones := make([]byte, 4*n)
	for i := 0; i < len(ones); i += 4 {
		ones[i] = 1
	}
	in, _ := dev.Malloc(uint64(len(ones)))
	out, _ := dev.Malloc(4 * uint64(nblk))
	if err := dev.Write(in, ones); err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: nblk, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 512, Y: 1, Z: 1}},
		params(in, out, uint32(512)))
	if err != nil {
		t.Fatal(err)
	}
	o := make([]byte, 4*nblk)
	if err := dev.Read(out, o); err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for i := 0; i < len(o); i += 4 {
		sum += uint64(o[i]) | uint64(o[i+1])<<8 | uint64(o[i+2])<<16 | uint64(o[i+3])<<24
	}
	return res, sum
}

// TestCDPConcurrentChildren: device-launched grids of different parents
// run concurrently on the timeline, up to the K40's 32 resident grids, one
// started every ChildLaunchNS by the grid management unit; a CDP1
// synchronization waits for its subtree; the placement is the same on
// every run.
func TestCDPConcurrentChildren(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	const nblk = 128
	for _, kernel := range []string{"gpuRecursiveReduceNosync", "gpuRecursiveReduce"} {
		res, sum := nestedRun(t, kernel, nblk)
		if sum != 512*nblk {
			t.Errorf("%s: sum %d, want %d", kernel, sum, 512*nblk)
		}
		if len(res.Grids) != 1+8*nblk {
			t.Fatalf("%s: %d grids, want %d", kernel, len(res.Grids), 1+8*nblk)
		}
		// The children's spans: concurrency at each start, and the sum of
		// their durations against the launch's.
		type span struct{ start, end uint64 }
		var kids []span
		var serial uint64
		for _, g := range res.Grids[1:] {
			tm := g.Timing
			kids = append(kids, span{tm.StartCycle, tm.StartCycle + tm.Cycles})
			serial += tm.Cycles
		}
		sort.Slice(kids, func(i, j int) bool { return kids[i].start < kids[j].start })
		most, gap := 0, ^uint64(0)
		for i, k := range kids {
			n := 0
			for _, o := range kids[:i+1] {
				if o.end > k.start {
					n++
				}
			}
			most = max(most, n)
			if i > 0 {
				gap = min(gap, k.start-kids[i-1].start)
			}
		}
		clk := res.Grids[0].Timing.ClockHz
		dur := res.DurationNS
		t.Logf("%s over %d blocks: %.3f ms; the children alone one after another: %.3f ms; at most %d children at once; starts at least %.2f µs apart",
			kernel, nblk, dur/1e6, float64(serial)/clk*1e3, most, float64(gap)/clk*1e6)
		if most < 2 {
			t.Errorf("%s: the children never overlap", kernel)
		}
		// ChildLaunchNS on the K40: 2819 ns (2100 cycles at 745 MHz).
		if g := float64(gap) / clk * 1e9; g < 2800 {
			t.Errorf("%s: two children started %.0f ns apart, less than the grid management unit's 2819", kernel, g)
		}
		if dur >= float64(serial)/clk*1e9 {
			t.Errorf("%s: %.3f ms, no shorter than its children run one after another (%.3f ms)", kernel, dur/1e6, float64(serial)/clk*1e3)
		}
		if kernel == "gpuRecursiveReduceNosync" && most > 32 {
			t.Errorf("%s: %d children at once, more than the K40's 32 resident grids", kernel, most)
		}
		again, _ := nestedRun(t, kernel, nblk)
		if again.DurationNS != dur {
			t.Errorf("%s: %.0f ns, then %.0f ns on the second run", kernel, dur, again.DurationNS)
		}
		for i := range res.Grids {
			if a, b := res.Grids[i].Timing, again.Grids[i].Timing; a.StartCycle != b.StartCycle || a.Cycles != b.Cycles {
				t.Errorf("%s: grid %d at %d for %d cycles, then at %d for %d", kernel, i, a.StartCycle, a.Cycles, b.StartCycle, b.Cycles)
				break
			}
		}
	}
}

// TestK40NestedReduceRanking: on the K40 preset the lesson's chain of 8
// device launches (gpuRecursiveReduce2, 2^20 ones, 2048 blocks of 256) is
// slower than reduceNeighbored over the same ones, as the lesson's K40 run
// had it (0.797 ms against 0.532 ms under nvprof; the demo prints both):
// the K40's device-launch latency (ChildStartNS) is what makes it so.
func TestK40NestedReduceRanking(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	dev := warpsim.NewDevice(arch.MustLookup("k40"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("nested4.sm35.ptx", lessonPTX(t, "nested4.sm35.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	const n, nblk = 1 << 20, 2048
	ones := make([]byte, 4*n)
	for i := 0; i < len(ones); i += 4 {
		ones[i] = 1
	}
	in, _ := dev.Malloc(uint64(len(ones)))
	out, _ := dev.Malloc(4 * nblk)
	time := map[string]float64{}
	for _, c := range []struct {
		kernel string
		block  uint32
		params []byte
	}{
		{"reduceNeighbored", 512, params(in, out, uint32(n))},
		{"gpuRecursiveReduce2", 256, params(in, out, uint32(256), uint32(512))},
	} {
		if err := dev.Write(in, ones); err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel(c.kernel)
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: nblk, Y: 1, Z: 1}, Block: warpsim.Dim3{X: c.block, Y: 1, Z: 1}}, c.params)
		if err != nil {
			t.Fatal(err)
		}
		time[c.kernel] = res.DurationNS
	}
	t.Logf("K40 model: reduceNeighbored %.1f µs, gpuRecursiveReduce2 %.1f µs (the K40: 532, 797 µs)", time["reduceNeighbored"]/1e3, time["gpuRecursiveReduce2"]/1e3)
	if time["gpuRecursiveReduce2"] <= time["reduceNeighbored"] {
		t.Errorf("gpuRecursiveReduce2 (%.1f µs) is not slower than reduceNeighbored (%.1f µs), as it was on the K40",
			time["gpuRecursiveReduce2"]/1e3, time["reduceNeighbored"]/1e3)
	}
}
