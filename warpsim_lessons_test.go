package warpsim_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// TestLessonDivergence runs the divergence lesson's kernels with the
// shapes of groundtruth/h100_seed_runs.txt and checks their sums and first
// elements against the H100's output.
func TestLessonDivergence(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m := loadLessonModule(t, dev, "divergence.sm90.ptx")
	cases := []struct {
		kernel string
		sum    float64
		first8 [8]float32
	}{
		{"warmingup", 9600, [8]float32{100, 100, 100, 100, 100, 100, 100, 100}},
		{"mathKernel1", 9600, [8]float32{100, 200, 100, 200, 100, 200, 100, 200}},
		{"mathKernel2", 9600, [8]float32{100, 100, 100, 100, 100, 100, 100, 100}},
		{"mathKernel3", 9600, [8]float32{100, 200, 100, 200, 100, 200, 100, 200}},
		{"mathKernel4", 12800, [8]float32{200, 200, 200, 200, 200, 200, 200, 200}},
	}
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			k, err := m.Kernel(c.kernel)
			if err != nil {
				t.Fatal(err)
			}
			buf, _ := dev.Malloc(64 * 4)
			res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{64, 1, 1}}, lessonParams(buf))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]byte, 64*4)
			dev.Read(buf, out)
			var sum float64
			for i := 0; i < 64; i++ {
				f := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
				sum += float64(f)
				if i < 8 && f != c.first8[i] {
					t.Errorf("out[%d] = %v, want %v", i, f, c.first8[i])
				}
			}
			if sum != c.sum {
				t.Errorf("sum = %v, want %v", sum, c.sum)
			}
			t.Logf("%+v", res.Counters)
		})
	}
}

// TestLessonCoarsen runs every tiled, coarsened matmul kernel of the
// coarsen lesson on 128×128 matrices of small integers, where every fp32
// product and partial sum is exact, so the result must equal the integer
// matrix product exactly. Kernels are found by their bare demangled names.
func TestLessonCoarsen(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m := loadLessonModule(t, dev, "coarsen.sm90.ptx")
	const n = 128
	mh, nh := make([]byte, 4*n*n), make([]byte, 4*n*n)
	mi, ni := make([]int64, n*n), make([]int64, n*n)
	for i := 0; i < n*n; i++ {
		mi[i], ni[i] = int64(i%7)-3, int64(i%5)-2
		binary.LittleEndian.PutUint32(mh[4*i:], math.Float32bits(float32(mi[i])))
		binary.LittleEndian.PutUint32(nh[4*i:], math.Float32bits(float32(ni[i])))
	}
	want := make([]float32, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			var s int64
			for k := 0; k < n; k++ {
				s += mi[r*n+k] * ni[k*n+c]
			}
			want[r*n+c] = float32(s)
		}
	}
	dm, _ := dev.Malloc(4 * n * n)
	dn, _ := dev.Malloc(4 * n * n)
	dp, _ := dev.Malloc(4 * n * n)
	dev.Write(dm, mh)
	dev.Write(dn, nh)
	for _, c := range []struct{ tile, cf uint32 }{{16, 1}, {16, 2}, {16, 4}, {16, 8}, {32, 1}, {32, 2}, {32, 4}} {
		name := fmt.Sprintf("matmulCoarse<%d, %d>", c.tile, c.cf)
		t.Run(name, func(t *testing.T) {
			k, err := m.Kernel(name)
			if err != nil {
				t.Fatal(err)
			}
			dev.Memset(dp, 0, 4*n*n)
			cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{n / (c.tile * c.cf), n / c.tile, 1}, Block: warpsim.Dim3{c.tile, c.tile, 1}}
			res, err := dev.Launch(k, cfg, lessonParams(dm, dn, dp, uint32(n)))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]byte, 4*n*n)
			dev.Read(dp, out)
			for i := 0; i < n*n; i++ {
				if g := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])); g != want[i] {
					t.Fatalf("P[%d][%d] = %v, want %v", i/n, i%n, g, want[i])
				}
			}
			if res.Counters.SharedLdBankConflict != 0 && c.tile == 16 {
				t.Logf("shared load bank conflicts: %d", res.Counters.SharedLdBankConflict)
			}
		})
	}
}

// TestLessonNestedHello runs the nested lesson's recursive kernel, which
// launches itself from the device, and compares its printf output with
// the H100's (groundtruth/h100_seed_runs.txt, "nestedHelloWorld grid 1
// block 8").
func TestLessonNestedHello(t *testing.T) {
	var out strings.Builder
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: &out})
	m := loadLessonModule(t, dev, "nested.sm90.ptx")
	k, err := m.Kernel("nestedHelloWorld")
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{8, 1, 1}}, lessonParams(uint32(8), uint32(0)))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for depth, n := 0, 8; n >= 1; depth, n = depth+1, n/2 {
		if depth > 0 {
			fmt.Fprintf(&want, "-------> nested execution depth: %d\n", depth)
		}
		for i := 0; i < n; i++ {
			fmt.Fprintf(&want, "Recursion=%d: Hello World from thread %d block 0\n", depth, i)
		}
	}
	if out.String() != want.String() {
		t.Errorf("output:\n%s\nwant (H100):\n%s", out.String(), want.String())
	}
	if res.Counters.DeviceLaunches != 3 {
		t.Errorf("device launches %d, want 3", res.Counters.DeviceLaunches)
	}
}

// TestLessonNestedReduce runs the nested lesson's recursive reductions on
// 2^20 ones, as the H100 did: every one sums to 1048576
// (groundtruth/h100_seed_runs.txt). With -short (the race detector's run in
// .ci/run) on 2^16 ones, the H100's sum divided exactly by the grid ratio, as
// lessons_test.go's reductions: 128 parent blocks' recursions instead of
// 2,048, still device-side launches from every worker (12 of the root
// package's 140 CPU-s under the detector at 2^20, 2026-11-29).
func TestLessonNestedReduce(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m := loadLessonModule(t, dev, "nested.sm90.ptx")
	const bs = 512
	size, wantSum := uint32(1<<20), uint64(1048576)
	if testing.Short() {
		size, wantSum = 1<<16, 1048576/16
	}
	ones := make([]byte, 4*size)
	for i := uint32(0); i < size; i++ {
		ones[4*i] = 1
	}
	in, _ := dev.Malloc(4 * uint64(size))
	out, _ := dev.Malloc(4 * uint64(size) / bs)
	for _, c := range []struct {
		name   string
		block  uint32
		params []byte
	}{
		{"gpuRecursiveReduceNosync", bs, lessonParams(in, out, uint32(bs))},
		{"gpuRecursiveReduce2", bs / 2, lessonParams(in, out, uint32(bs/2), uint32(bs))},
	} {
		t.Run(c.name, func(t *testing.T) {
			dev.Write(in, ones)
			dev.Memset(out, 0, 4*uint64(size)/bs)
			k, err := m.Kernel(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{size / bs, 1, 1}, Block: warpsim.Dim3{c.block, 1, 1}}, c.params); err != nil {
				t.Fatal(err)
			}
			o := make([]byte, 4*size/bs)
			dev.Read(out, o)
			var sum uint64
			for i := uint32(0); i < size/bs; i++ {
				sum += uint64(binary.LittleEndian.Uint32(o[4*i:]))
			}
			if sum != wantSum {
				t.Errorf("gpu_sum %d, want %d", sum, wantSum)
			}
		})
	}
	t.Run("fanOut", func(t *testing.T) {
		ctr, _ := dev.Malloc(4)
		k, err := m.Kernel("fanOut")
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{1, 1, 1}}, lessonParams(uint32(1000), ctr))
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4)
		dev.Read(ctr, b)
		if n := binary.LittleEndian.Uint32(b); n != 1000 || res.Counters.DeviceLaunches != 1000 {
			t.Errorf("children ran %d, device launches %d; want 1000", n, res.Counters.DeviceLaunches)
		}
	})
}
