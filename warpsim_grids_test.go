package warpsim_test

import (
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
)

// TestLaunchResultGrids checks LaunchResult.Grids on the nested lesson's
// nestedHelloWorld<<<1, 8>>>(8, 0): thread 0 of each grid launches one
// child of half the size, so the launch runs blocks of 8, 4, 2 and 1
// threads, a chain of grids each launched by the one before.
func TestLaunchResultGrids(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}})
	m := loadLessonModule(t, dev, "nested.sm90.ptx")
	k, err := m.Kernel("nestedHelloWorld")
	if err != nil {
		t.Fatal(err)
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{1, 1, 1}, Block: warpsim.Dim3{8, 1, 1}}, lessonParams(uint32(8), uint32(0)))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Grids) != 4 {
		t.Fatalf("%d grids, want 4", len(res.Grids))
	}
	var sum metrics.Counters
	for i, g := range res.Grids {
		if g.Kernel != k {
			t.Errorf("grid %d: kernel %v, want nestedHelloWorld", i, g.Kernel.Name())
		}
		threads := uint32(8 >> i)
		if g.Config.Block != (warpsim.Dim3{threads, 1, 1}) || g.Config.Grid != (warpsim.Dim3{1, 1, 1}) {
			t.Errorf("grid %d: <<<%v, %v>>>, want <<<(1,1,1), (%d,1,1)>>>", i, g.Config.Grid, g.Config.Block, threads)
		}
		if g.FromDevice != (i > 0) || g.Parent != i-1 || g.Depth != i {
			t.Errorf("grid %d: from device %v, parent %d, depth %d; want %v, %d, %d", i, g.FromDevice, g.Parent, g.Depth, i > 0, i-1, i)
		}
		wantLaunches := uint64(1)
		if i == 3 {
			wantLaunches = 0
		}
		if g.Counters.DeviceLaunches != wantLaunches || g.Counters.WarpsLaunched != 1 || g.Counters.BlocksLaunched != 1 {
			t.Errorf("grid %d: device launches %d, warps %d, blocks %d; want %d, 1, 1", i, g.Counters.DeviceLaunches,
				g.Counters.WarpsLaunched, g.Counters.BlocksLaunched, wantLaunches)
		}
		sum.Add(&g.Counters)
	}
	if sum != res.Counters {
		t.Errorf("grids' counters sum to %+v; the launch's are %+v", sum, res.Counters)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
