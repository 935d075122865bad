package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// microbench is one of testdata/timing's H100 microbenchmarks as the model
// runs it: nvcc's PTX loaded on a timing-mode H100, and the lines the H100
// printed.
type microbench struct {
	dev   *warpsim.Device
	mod   *warpsim.Module
	lines []string
	// lastNS is the simulated duration of slowest's last launch.
	lastNS float64
}

// loadMicrobench loads dir's h100/<name>.nvcc.ptx and h100/<name>.h100.txt.
func loadMicrobench(t *testing.T, dir, name string) *microbench {
	t.Helper()
	rec, err := os.ReadFile(dir + "h100/" + name + ".h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	dev, mod := timingModule(t, dir+"h100/"+name+".nvcc.ptx")
	var lines []string
	for _, l := range strings.Split(string(rec), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return &microbench{dev: dev, mod: mod, lines: lines}
}

// timingModule loads the PTX file at path on a timing-mode H100.
func timingModule(t *testing.T, path string) (*warpsim.Device, *warpsim.Module) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	return dev, mod
}

// wgmmaKernel loads testdata/timing/wgmma/wgmma.ptx (the wgmma and copy
// microbenchmarks) on a timing-mode H100 and returns its kernel name.
func wgmmaKernel(t *testing.T, name string) (*warpsim.Device, *warpsim.Kernel) {
	t.Helper()
	dev, mod := timingModule(t, "../../testdata/timing/wgmma/wgmma.ptx")
	k, err := mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return dev, k
}

// slowest launches kernel name (1-D grid and block, cluster when not 0)
// launches times and returns the largest of the n int64 cycle counts the
// kernel wrote at out.
func (m *microbench) slowest(t *testing.T, name string, blocks, threads, cluster, smem int, args []byte, out uint64, n, launches int) float64 {
	t.Helper()
	k, err := m.mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: uint32(blocks), Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(threads), Y: 1, Z: 1},
		SharedBytes: uint32(smem)}
	if cluster > 0 {
		cfg.Cluster = warpsim.Dim3{X: uint32(cluster), Y: 1, Z: 1}
	}
	for i := 0; i < launches; i++ {
		r, err := m.dev.Launch(k, cfg, args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m.lastNS = r.DurationNS
	}
	b := make([]byte, 8*n)
	if err := m.dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	var worst float64
	for i := 0; i < n; i++ {
		worst = math.Max(worst, float64(int64(binary.LittleEndian.Uint64(b[8*i:]))))
	}
	return worst
}

// rowChecker compares a model's figure with the H100's within a tolerance
// (a fraction of the H100's), failing the test or logging the row, and
// counts the rows compared.
type rowChecker struct {
	t    *testing.T
	rows int
}

func (c *rowChecker) check(what string, got, want, tol float64) {
	c.t.Helper()
	c.rows++
	e := (got - want) / want
	msg := fmt.Sprintf("%s: model %.0f, H100 %.0f (%+.1f%%)", what, got, want, 100*e)
	if math.Abs(e) > tol {
		c.t.Errorf("%s: more than %.0f%% off", msg, 100*tol)
	} else {
		c.t.Log(msg)
	}
}

// addMeans adds a recording line's comma-separated means (one a step) to
// sum, element by element; a mean that does not parse, or more of them
// than sum has room for, fails the test.
func addMeans(t *testing.T, line, means string, sum []float64) {
	t.Helper()
	for i, v := range strings.Split(means, ",") {
		var x float64
		if _, err := fmt.Sscanf(v, "%g", &x); err != nil || i >= len(sum) {
			t.Fatalf("bad line %q", line)
		}
		sum[i] += x
	}
}
