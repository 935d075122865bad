package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/timing"
)

// chaseSteps are a k_chase row's 32 step times (cycles).
type chaseSteps [32]float64

// parts are a row's first step, the mean of steps 1-15 (new pages or
// regions at strides of 2 MiB and 32 MiB) and of steps 16-31 (another
// line of the pages steps 0-15 read).
func (c chaseSteps) parts() (first, new, again float64) {
	for j := 1; j < 16; j++ {
		new += c[j] / 15
	}
	for j := 16; j < 32; j++ {
		again += c[j] / 16
	}
	return c[0], new, again
}

// readChase reads the k_chase rows of a coldlines_mb recording:
// "stride cold" -> its steps.
func readChase(t *testing.T, path string) map[string]chaseSteps {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]chaseSteps{}
	for _, line := range strings.Split(string(b), "\n") {
		var stride uint64
		var cold int
		var lat string
		if n, _ := fmt.Sscanf(line, "chase stride=%d cold=%d lat=%s", &stride, &cold, &lat); n != 3 {
			continue
		}
		f := strings.Split(lat, ",")
		if len(f) != 32 {
			t.Fatalf("%s: %d steps", line, len(f))
		}
		var c chaseSteps
		for j, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			c[j] = v
		}
		rows[fmt.Sprintf("%d %d", stride, cold)] = c
	}
	return rows
}

// TestTLBMicrobenchmarks runs nvcc's PTX of coldlines_mb.cu's k_chase
// (testdata/timing/coldlines: one lane, 32 dependent ld.global.cg,
// steps 0-15 at a stride, 16-31 another line of the same pages) through
// the timing model at Nsight Compute's clock and compares it with the
// H100's run under Nsight Compute (h100/coldlines_mb.ncu.txt: the L2
// flushed before every launch; cold=1 a region no launch read just before,
// cold=0 the region the launch before read). Address translation: the
// cold rows' first step walks (the H100 1,219-1,584 cycles where the warm
// rows take 582-720), and at 32 MiB steps every one of steps 0-15 does
// (1,333 on the mean; steps 16-31, the same regions again, 552), where 2
// MiB steps pay once (a region is 32 MiB). The plain runs' cold launches
// pay no walk, as the preset's default (tlb.cold 0) has it.
func TestTLBMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	dir := "../../testdata/timing/coldlines/"
	want := readChase(t, dir+"h100/coldlines_mb.ncu.txt")
	if len(want) != 10 {
		t.Fatalf("%d chase rows in the recording, want 10", len(want))
	}
	src, err := os.ReadFile(dir + "h100/coldlines_mb.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	// Translations as Nsight Compute leaves them (tlb.cold), at its clock.
	a, err := arch.Override(arch.MustLookup("h100"), []string{"tlb.cold=1"})
	if err != nil {
		t.Fatal(err)
	}
	c := &rowChecker{t: t}
	// What translation adds: a cold row's first step over the warm row's
	// (every stride), and at 32 MiB steps a new region's step over a step
	// back in a region read (steps 1-15 over 16-31).
	var walkGot, walkWant, regionGot, regionWant float64
	for _, stride := range []uint64{128, 8192, 65536, 2 << 20, 32 << 20} {
		for _, cold := range []int{1, 0} {
			// A device of its own: the first launch on a buffer no launch
			// touched (cold); for a warm row, the same launch again.
			got := chaseOnDevice(t, a, 1589, src, stride, 2-cold)
			h := want[fmt.Sprintf("%d %d", stride, cold)]
			g0, g1, g2 := got.parts()
			h0, h1, h2 := h.parts()
			t.Logf("stride %8d cold=%d: first %4.0f (H100 %4.0f), steps 1-15 %4.0f (%4.0f), 16-31 %4.0f (%4.0f)",
				stride, cold, g0, h0, g1, h1, g2, h2)
			name := fmt.Sprintf("stride %d cold=%d", stride, cold)
			c.check(name+" first step", g0, h0, 0.25)
			c.check(name+" steps 1-15", g1, h1, 0.25)
			sign := float64(2*cold-1) / 5
			walkGot, walkWant = walkGot+sign*g0, walkWant+sign*h0
			if stride == 32<<20 && cold == 1 {
				regionGot, regionWant = g1-g2, h1-h2
			}
		}
	}
	// Plain runs (h100/coldlines_mb.h100.txt and .repeats.txt: the boost
	// clock, the L2 flushed by a memset) pay no walk: the preset's
	// default (tlb.cold 0: no translation cost) on a fresh device, its
	// first step against the cold rows' (the mean of the two runs and the
	// five strides: the H100's 801 cycles against 1,700 with a walk).
	plain := [2]map[string]chaseSteps{readChase(t, dir+"h100/coldlines_mb.h100.txt"), readChase(t, dir+"h100/coldlines_mb.repeats.txt")}
	var plainGot, plainWant float64
	for _, stride := range []uint64{128, 8192, 65536, 2 << 20, 32 << 20} {
		plainGot += chaseOnDevice(t, arch.MustLookup("h100"), 0, src, stride, 1)[0] / 5
		for _, r := range plain {
			plainWant += r[fmt.Sprintf("%d 1", stride)][0] / 10
		}
	}
	// A lone block on SM 0 reads its buffer's first page, which the L2's
	// far partition homes on SM 0's side (farPage): the model's read is a
	// near one, half DRAMFarNS under the DRAM latency, the mean of near and
	// far. Which side the H100 run's page had is not known (its physical
	// frame's), so the H100's read is held to the model's side-free one.
	half := timing.ForArch(arch.MustLookup("h100"), 0).DRAMFarCycles / 2
	c.check("plain runs: a cold launch's first read (side-free: near plus half the far partition's), mean of 5 strides", plainGot+half, plainWant, 0.15)
	c.check("a cold region's first read over a warm one's, mean of 5 strides", walkGot, walkWant, 0.15)
	c.check("a new region's read over a read region's, 32 MiB steps", regionGot, regionWant, 0.15)
	if c.rows != 23 {
		t.Errorf("%d rows compared, want 23", c.rows)
	}
}

// chaseOnDevice runs coldlines_mb's k_chase (its PTX src) launches times
// with the given stride on a new device of GPU a in timing mode (at
// clockMHz; 0: the preset's clock), one warp over a buffer of its own,
// and returns the last launch's 32 stamped steps.
func chaseOnDevice(t *testing.T, a *arch.Arch, clockMHz float64, src []byte, stride uint64, launches int) chaseSteps {
	t.Helper()
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: clockMHz}})
	mod, err := dev.LoadModule("coldlines_mb.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("_Z7k_chasePxPKcy")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(33 * 8)
	buf, err := dev.Malloc(16*stride + 8192)
	if err != nil {
		t.Fatal(err)
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
	for range launches {
		if _, err := dev.Launch(k, cfg, params(out, buf, stride)); err != nil {
			t.Fatal(err)
		}
	}
	b := make([]byte, 32*8)
	if err := dev.Read(out, b); err != nil {
		t.Fatal(err)
	}
	var got chaseSteps
	for j := range got {
		got[j] = float64(int64(binary.LittleEndian.Uint64(b[8*j:])))
	}
	return got
}

// TestTLBColdDeterminism: with walks (tlb.cold), 132 blocks reading their
// own 1 MiB of one buffer at once (coldlines_mb.cu's k_burst<4>) wait for
// one walk of the buffer's region, in the same cycles on 1 and 3 workers;
// the launch takes about the walk longer than without it.
func TestTLBColdDeterminism(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/coldlines/h100/coldlines_mb.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	cold, err := arch.Override(arch.MustLookup("h100"), []string{"tlb.cold=1"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(a *arch.Arch, workers int) uint64 {
		dev := warpsim.NewDevice(a, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming, Workers: workers})
		mod, err := dev.LoadModule("coldlines_mb.nvcc.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("_Z7k_burstILi4EEvPxPKc")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := dev.Malloc(132 * 4 * 4 * 8)
		buf, _ := dev.Malloc(132 << 20)
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 132, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 128, Y: 1, Z: 1}}
		r, err := dev.Launch(k, cfg, params(out, buf))
		if err != nil {
			t.Fatal(err)
		}
		return r.Grids[0].Timing.Cycles
	}
	one, three, plain := run(cold, 1), run(cold, 3), run(arch.MustLookup("h100"), 1)
	walk := 450 * 1.98 // TLBWalkNS at the preset's clock
	t.Logf("walks: %d cycles on 1 worker, %d on 3; no walks %d", one, three, plain)
	if one != three {
		t.Errorf("walks: %d cycles on 1 worker, %d on 3", one, three)
	}
	// The buffer's regions: 132 MiB in 5 regions of 32 MiB, walked at once.
	if d := float64(one) - float64(plain); d < 0.8*walk || d > 1.5*walk {
		t.Errorf("walks add %.0f cycles, want about one walk (%.0f)", d, walk)
	}
}
