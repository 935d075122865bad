package timing_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/profile"
)

// params packs kernel parameters: device addresses as uint64, integers as
// uint32, each at its natural alignment.
func params(vals ...any) []byte {
	var b []byte
	for _, v := range vals {
		switch x := v.(type) {
		case uint64:
			for len(b)%8 != 0 {
				b = append(b, 0)
			}
			b = binary.LittleEndian.AppendUint64(b, x)
		case uint32:
			for len(b)%4 != 0 {
				b = append(b, 0)
			}
			b = binary.LittleEndian.AppendUint32(b, x)
		}
	}
	return b
}

func lessonPTX(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "lessons", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// reduceRun is one timed launch of a reduce-lesson kernel.
type reduceRun struct {
	ns   float64
	res  *warpsim.LaunchResult
	sum  uint64
	want uint64
}

// runReduce times kernel over 2^logn ints (i & 0xff, as the lesson fills
// them) in blocks of bs on a fresh device.
func runReduce(t testing.TB, archName, kernel string, logn int, bs uint32, opt warpsim.TimingOptions) reduceRun {
	t.Helper()
	dev := warpsim.NewDevice(arch.MustLookup(archName), warpsim.Options{Mode: warpsim.ModeTiming, Timing: opt})
	mod, err := dev.LoadModule("reduce.sm90.ptx", lessonPTX(t, "reduce.sm90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	size := 1 << logn
	host := make([]byte, 4*size)
	var want uint64
	for i := 0; i < size; i++ {
		binary.LittleEndian.PutUint32(host[4*i:], uint32(i&0xff))
		want += uint64(i & 0xff)
	}
	in, _ := dev.Malloc(uint64(len(host)))
	grid := uint32(size) / bs
	out, _ := dev.Malloc(4 * uint64(grid))
	if err := dev.Write(in, host); err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: grid, Y: 1, Z: 1}, Block: warpsim.Dim3{X: bs, Y: 1, Z: 1}},
		params(in, out, uint32(size)))
	if err != nil {
		t.Fatal(err)
	}
	o := make([]byte, 4*grid)
	if err := dev.Read(out, o); err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for i := uint32(0); i < grid; i++ {
		sum += uint64(binary.LittleEndian.Uint32(o[4*i:]))
	}
	if os.Getenv("WARPSIM_TIMING_DEBUG") != "" {
		tm := res.Grids[0].Timing
		ms := profile.Compute(res.Counters, dev.Arch(), profile.Launch{BlockThreads: int(bs), RegsPerThread: k.RegsPerThread(), Timing: tm})
		t.Logf("%s 2^%d bs %d: %.1f us", kernel, logn, bs, res.DurationNS/1000)
		for _, m := range ms {
			if m.Timing && m.Available && m.Value != 0 {
				t.Logf("  %-26s %12.3f", m.Name, m.Value)
			}
		}
	}
	return reduceRun{ns: res.DurationNS, res: res, sum: sum, want: want}
}

func TestDebugReduce(t *testing.T) {
	if os.Getenv("WARPSIM_TIMING_DEBUG") == "" {
		t.Skip("a debugging aid: set WARPSIM_TIMING_DEBUG=1")
	}
	for _, k := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
		runReduce(t, "h100", k, debugLogN(), 512, warpsim.TimingOptions{})
	}
}

func debugLogN() int {
	if v := os.Getenv("WARPSIM_TIMING_LOGN"); v != "" {
		n := 0
		for _, c := range v {
			n = n*10 + int(c-'0')
		}
		return n
	}
	return 18
}

// BenchmarkTimingReduce measures the timing driver's speed in warp
// instructions per second on the reduce lesson (2^20 ints, block 512),
// timed in full detail.
func BenchmarkTimingReduce(b *testing.B) {
	var inst uint64
	for i := 0; i < b.N; i++ {
		r := runReduce(b, "h100", "reduceInterleaved", 20, 512, warpsim.TimingOptions{NoSampling: true})
		inst += r.res.Counters.InstExecuted
	}
	b.ReportMetric(float64(inst)/b.Elapsed().Seconds(), "warp-inst/s")
}

// BenchmarkFunctionalReduce is the same launch under the functional
// driver, for the ratio.
func BenchmarkFunctionalReduce(b *testing.B) {
	var inst uint64
	for i := 0; i < b.N; i++ {
		dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Workers: 1})
		mod, err := dev.LoadModule("reduce.sm90.ptx", lessonPTX(b, "reduce.sm90.ptx"))
		if err != nil {
			b.Fatal(err)
		}
		size := 1 << 20
		in, _ := dev.Malloc(uint64(4 * size))
		out, _ := dev.Malloc(uint64(4 * size / 512))
		k, _ := mod.Kernel("reduceInterleaved")
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(size / 512), Y: 1, Z: 1}, Block: warpsim.Dim3{X: 512, Y: 1, Z: 1}},
			params(in, out, uint32(size)))
		if err != nil {
			b.Fatal(err)
		}
		inst += res.Counters.InstExecuted
	}
	b.ReportMetric(float64(inst)/b.Elapsed().Seconds(), "warp-inst/s")
}

// TestSamplingError compares sampled timing with full timing of the same
// grid (the reduce lesson at 2^22 ints, 15.5 waves of blocks of 512): the
// sampled time must be within 3% of the full time.
func TestSamplingError(t *testing.T) {
	if testing.Short() {
		t.Skip("times 2^22-int grids in full detail (a minute of CPU)")
	}
	for _, k := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
		full := runReduce(t, "h100", k, 22, 512, warpsim.TimingOptions{NoSampling: true})
		sampled := runReduce(t, "h100", k, 22, 512, warpsim.TimingOptions{})
		if !sampled.res.Grids[0].Timing.Sampled {
			t.Fatalf("%s: a 15-wave grid was not sampled", k)
		}
		if sampled.sum != sampled.want || full.sum != full.want {
			t.Errorf("%s: sums %d and %d, want %d", k, sampled.sum, full.sum, full.want)
		}
		e := (sampled.ns - full.ns) / full.ns
		t.Logf("%-22s full %.1f us, sampled %.1f us, error %+.2f%%", k, full.ns/1000, sampled.ns/1000, 100*e)
		if e > 0.03 || e < -0.03 {
			t.Errorf("%s: sampled %.1f us is %.1f%% off the full timing's %.1f us", k, sampled.ns/1000, 100*e, full.ns/1000)
		}
	}
}
