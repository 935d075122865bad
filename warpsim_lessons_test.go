package warpsim_test

import (
	"encoding/binary"
	"math"
	"os"
	"time"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

const lessonDir = "/work/shared/lessons/ptx/"

func loadLesson(t testing.TB, dev *warpsim.Device, name string) *warpsim.Module {
	t.Helper()
	src, err := os.ReadFile(lessonDir + name)
	if err != nil {
		t.Skipf("lesson PTX not available: %v", err)
	}
	m, err := dev.LoadModule(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

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

// TestLessonDivergence runs the divergence lesson's kernels with the
// shapes of groundtruth/h100_seed_runs.txt and checks their sums and first
// elements against the H100's output.
func TestLessonDivergence(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m := loadLesson(t, dev, "divergence.sm90.ptx")
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
			res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{64, 1, 1}}, params(buf))
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

// TestLessonReduce runs the reduce lesson on 2^24 ints (i & 0xff) with the
// H100's block sizes: every kernel's block sums must add to 2139095040.
func TestLessonReduce(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m := loadLesson(t, dev, "reduce.sm90.ptx")
	const n = 1 << 24
	host := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(host[4*i:], uint32(i&0xff))
	}
	in, _ := dev.Malloc(4 * n)
	for _, block := range []uint32{512} {
		grid := uint32(n) / block
		out, _ := dev.Malloc(uint64(4 * grid))
		for _, name := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
			t.Run(name, func(t *testing.T) {
				dev.Write(in, host)
				k, err := m.Kernel(name)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{grid, 1, 1}, Block: warpsim.Dim3{block, 1, 1}}, params(in, out, uint32(n)))
				t.Logf("launch took %v", time.Since(start))
				if err != nil {
					t.Fatal(err)
				}
				o := make([]byte, 4*grid)
				dev.Read(out, o)
				var sum uint64
				for i := uint32(0); i < grid; i++ {
					sum += uint64(binary.LittleEndian.Uint32(o[4*i:]))
				}
				if sum != 2139095040 {
					t.Errorf("gpu_sum = %d, want 2139095040", sum)
				}
				c := res.Counters
				t.Logf("%+v ratio %.2f branch eff %.2f", c, float64(c.ThreadInstExecuted)/float64(c.InstExecuted), 100*float64(c.Branch-c.DivergentBranch)/float64(c.Branch))
			})
		}
	}
}
