package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// steadyRow is one "set=steady blocks=1" row of tlb_mb's recording: a
// chase over n nodes stride bytes apart, every line in the L2, and the
// H100's mean cycles a step.
type steadyRow struct {
	stride uint64
	n      int
	mean   float64
}

// readSteady reads the one-block steady rows of testdata/timing/tlb's
// recording (tlb_mb.h100.txt).
func readSteady(t *testing.T) []steadyRow {
	t.Helper()
	b, err := os.ReadFile("../../testdata/timing/tlb/h100/tlb_mb.h100.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []steadyRow
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "tlb set=steady name=steady ") {
			continue
		}
		kv := map[string]string{}
		for _, f := range strings.Fields(l) {
			if k, v, ok := strings.Cut(f, "="); ok {
				kv[k] = v
			}
		}
		if kv["blocks"] != "1" {
			continue
		}
		stride, err1 := strconv.ParseUint(kv["stride"], 10, 64)
		n, err2 := strconv.Atoi(kv["n"])
		mean, err3 := strconv.ParseFloat(kv["mean"], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("bad row %q", l)
		}
		rows = append(rows, steadyRow{stride, n, mean})
	}
	return rows
}

// TestCGLoadsReadThroughL2: the H100 serves ld.global.cg from the L2, not
// the SM's L1. tlb_mb.cu's chase (one thread, ld.global.cg of a node whose
// word is the next node's offset, clock64 around each step) over 8 to 256
// nodes takes an L2 hit's 286–294 cycles a step though its lines would fit
// the L1 many times over (testdata/timing/tlb/h100/tlb_mb.h100.txt, boost
// clock); a model that kept the lines in its L1 would answer in well under
// half that. Every small row within 12% of the H100's mean step.
func TestCGLoadsReadThroughL2(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/tlb/h100/tlb_mb.nvcc.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rows := readSteady(t)
	var picked []steadyRow
	for _, r := range rows {
		if r.n <= 256 && r.stride*uint64(r.n) <= 64<<20 {
			picked = append(picked, r)
		}
	}
	if len(picked) < 5 {
		t.Fatalf("%d small steady rows in the recording, want at least 5", len(picked))
	}
	for _, r := range picked {
		t.Run(fmt.Sprintf("stride%d_n%d", r.stride, r.n), func(t *testing.T) {
			got := steadyChase(t, src, r.stride, r.n)
			e := got/r.mean - 1
			t.Logf("stride %d n %d: warpsim %.1f cycles a step, H100 %.1f (%+.1f%%)", r.stride, r.n, got, r.mean, 100*e)
			if e < -0.12 || e > 0.12 {
				t.Errorf("stride %d n %d: %.1f cycles a step, the H100's %.1f: %+.1f%% (bound 12%%)", r.stride, r.n, got, r.mean, 100*e)
			}
		})
	}
}

// steadyChase runs tlb_mb's chase as its steady rows do (one block, 2n
// untimed steps, then max(1024, 2n) timed) at the recording's boost clock
// and returns the mean cycles a timed step.
func steadyChase(t *testing.T, src []byte, stride uint64, n int) float64 {
	t.Helper()
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: 1980}})
	mod, err := dev.LoadModule("tlb_mb.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("_Z5chasePKcPKyjjPjPy")
	if err != nil {
		t.Fatal(err)
	}
	a, err := dev.Malloc(stride*uint64(n) + 4096)
	if err != nil {
		t.Fatal(err)
	}
	// The nodes as tlb_mb.cu places them (a line offset drawn from the
	// node's index), linked in a random cycle.
	lines := min(stride, 2<<20) / 128
	off := func(i uint64) uint64 { return i*stride + (i*2654435761)%lines*128 }
	order := rand.New(rand.NewSource(int64(1234 + n))).Perm(n)
	word := make([]byte, 8)
	for i := range order {
		binary.LittleEndian.PutUint64(word, off(uint64(order[(i+1)%n])))
		if err := dev.Write(a+off(uint64(order[i])), word); err != nil {
			t.Fatal(err)
		}
	}
	starts, _ := dev.Malloc(8)
	binary.LittleEndian.PutUint64(word, off(uint64(order[0])))
	if err := dev.Write(starts, word); err != nil {
		t.Fatal(err)
	}
	lat, _ := dev.Malloc(64 * 4)
	tot, _ := dev.Malloc(8)
	steps := max(1024, 2*n)
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
	if _, err := dev.Launch(k, cfg, params(a, starts, uint32(2*n), uint32(steps), lat, tot)); err != nil {
		t.Fatal(err)
	}
	if err := dev.Read(tot, word); err != nil {
		t.Fatal(err)
	}
	return float64(binary.LittleEndian.Uint64(word)) / float64(steps)
}
