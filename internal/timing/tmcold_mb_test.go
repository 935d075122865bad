package timing_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
)

// TestTensormapColdMicrobenchmarks runs nvcc's PTX of
// testdata/timing/tmcold/tmcold_mb.cu through the timing model as its
// main() does and compares each step's cycles (the mean of rounds 1-7, each
// round on its own global line) with the H100's (the mean of its three
// runs, h100/tmcold_mb.h100.txt and .repeats.txt) for Triton's making of a
// device-side tensor map with the map's lines not in the L2 (the H100's L2
// flushed before the launch; every launch of the model's starts with cold
// caches, as Nsight Compute's): 13 tensormap.replace, then
// tensormap.cp_fenceproxy and the fence.proxy.tensormap acquire, which
// waits for the copy's atomic exchanges to be done at the L2 (after a DRAM
// fetch: 755 cycles against 434 with the lines in the L2), then
// cp.async.bulk.commit_group and wait_group.read with nothing in flight.
// The recording's warm rows (the L2 holding the lines) and its loads
// (mode 1) are not compared: the model's launches start cold, and it lets
// a shared store issue before its data is there, which the H100 does not.
func TestTensormapColdMicrobenchmarks(t *testing.T) {
	const rounds, steps = 8, 5
	dir := "../../testdata/timing/tmcold/"
	want := map[string][]float64{} // "mode cold" -> the steps' means, summed over the runs
	runs := map[string]int{}
	for _, f := range []string{"h100/tmcold_mb.h100.txt", "h100/tmcold_mb.repeats.txt"} {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var mode, cold int
			var first, mean string
			if n, _ := fmt.Sscanf(line, "tmcold mode=%d cold=%d first=%s mean=%s", &mode, &cold, &first, &mean); n != 4 {
				continue
			}
			k := fmt.Sprintf("%d %d", mode, cold)
			if want[k] == nil {
				want[k] = make([]float64, steps)
			}
			addMeans(t, line, mean, want[k])
			runs[k]++
		}
	}
	if len(want) != 4 {
		t.Fatalf("%d (mode, cold) rows in the recordings, want 4", len(want))
	}
	c := &rowChecker{t: t}
	m := loadMicrobench(t, dir, "tmcold_mb")
	k, err := m.mod.Kernel("_Z1kILi0EEvPxPcS1_iixii")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := m.dev.Malloc(rounds * steps * 8)
	lines, _ := m.dev.Malloc(rounds * 4 * 4096)
	tensor, _ := m.dev.Malloc(4 << 20)
	args := params(out, lines, tensor, uint32(1024), uint32(1024), uint64(4096), uint32(32), uint32(1))
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
	if _, err := m.dev.Launch(k, cfg, args); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, rounds*steps*8)
	if err := m.dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, steps)
	for r := 1; r < rounds; r++ {
		for i := range got {
			got[i] += float64(int64(binary.LittleEndian.Uint64(b[8*(r*steps+i):]))) / (rounds - 1)
		}
	}
	h := want["0 1"] // mode 0, cold
	for i := range h {
		h[i] /= float64(runs["0 1"])
	}
	c.check("13 tensormap.replace", got[1], h[1], 0.15)
	c.check("tensormap.cp_fenceproxy + acquire, cold", got[2]+got[3], h[2]+h[3], 0.15)
	c.check("bulk commit + wait_group.read, nothing in flight", got[4], h[4], 0.35)
	if c.rows != 3 {
		t.Errorf("%d rows compared, want 3", c.rows)
	}
}

// TestTensormapGuardMicrobenchmarks runs nvcc's PTX of
// testdata/timing/tmcold/tmbranch_mb.cu (one block of four warps, warp 0
// making a tensor map a round as Triton does, caches cold) through the
// timing model and compares the steps with the H100's (the mean of rounds
// 1-7 and of the three runs, h100/tmbranch_mb.h100.txt and .repeats.txt):
// zeroing the map and its 13 replaces each under its own guard (mode 0,
// Triton's form, a branch region each in ptxas's code) and in one if
// (mode 1), and a second map made right after the first (mode 2: the
// zeroing, the guarded replaces, the copy, the acquire and the bulk wait).
func TestTensormapGuardMicrobenchmarks(t *testing.T) {
	const rounds, steps = 8, 4
	dir := "../../testdata/timing/tmcold/"
	want := map[int][]float64{}
	runs := map[int]int{}
	for _, f := range []string{"h100/tmbranch_mb.h100.txt", "h100/tmbranch_mb.repeats.txt"} {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var mode int
			var first, mean string
			if n, _ := fmt.Sscanf(line, "tmbranch mode=%d first=%s mean=%s", &mode, &first, &mean); n != 3 {
				continue
			}
			if want[mode] == nil {
				want[mode] = make([]float64, steps)
			}
			addMeans(t, line, mean, want[mode])
			runs[mode]++
		}
	}
	if len(want) != 3 {
		t.Fatalf("%d modes in the recordings, want 3", len(want))
	}
	c := &rowChecker{t: t}
	m := loadMicrobench(t, dir, "tmbranch_mb")
	out, _ := m.dev.Malloc(rounds * steps * 8)
	lines, _ := m.dev.Malloc(rounds * 4 * 4096)
	tensor, _ := m.dev.Malloc(4 << 20)
	args := params(out, lines, tensor, uint32(1024), uint32(1024), uint64(4096), uint32(32), uint32(1))
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 128, Y: 1, Z: 1}}
	for mode := 0; mode < 3; mode++ {
		k, err := m.mod.Kernel(fmt.Sprintf("_Z1kILi%dEEvPxPcS1_iixii", mode))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.dev.Launch(k, cfg, args); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, rounds*steps*8)
		if err := m.dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, steps)
		for r := 1; r < rounds; r++ {
			for i := range got {
				got[i] += float64(int64(binary.LittleEndian.Uint64(b[8*(r*steps+i):]))) / (rounds - 1)
			}
		}
		h := want[mode]
		for i := range h {
			h[i] /= float64(runs[mode])
		}
		switch mode {
		case 0:
			c.check("zero + 13 guarded replaces", got[0], h[0], 0.15)
			c.check("copy + acquire + bulk wait, cold", got[1], h[1], 0.15)
		case 1:
			c.check("zero + 13 replaces in one if", got[0], h[0], 0.15)
		case 2:
			c.check("a second map, cold", got[3], h[3], 0.15)
		}
	}
	if c.rows != 4 {
		t.Errorf("%d rows compared, want 4", c.rows)
	}
}
