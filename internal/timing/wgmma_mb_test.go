package timing_test

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// wgmmaRow is one line of testdata/timing/wgmma/h100/mb_stdout.txt: a
// kernel of wgmma.ptx run on the H100 with wgs warpgroups for iters
// iterations, the slowest warp's cycles per iteration.
type wgmmaRow struct {
	kernel     string
	wgs, iters int
	perIter    float64
}

func readWgmmaMB(t *testing.T) []wgmmaRow {
	t.Helper()
	f, err := os.Open("../../testdata/timing/wgmma/h100/mb_stdout.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []wgmmaRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r wgmmaRow
		var cycles int
		line := strings.Join(strings.Fields(sc.Text()), " ")
		if n, _ := fmt.Sscanf(line, "wg %s wgs=%d iters=%d cycles=%d per_iter=%f", &r.kernel, &r.wgs, &r.iters, &cycles, &r.perIter); n == 5 {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no rows in mb_stdout.txt")
	}
	return rows
}

// TestWgmmaMicrobenchmarks runs wgmma.ptx's kernels (testdata/timing/wgmma,
// gen_wgmma.py: wgmma.mma_async m64nNk16 f16 → f32 chained through
// wait_group 0 ("lat") or four to a group with wait_group 1 ("thr"), one or
// four warpgroups on one SM) through the timing model and compares the
// slowest warp's cycles per iteration with the H100's (the recording's 26
// rows; the program stopped at N=256 with four warpgroups, out of registers).
// Each row within 40%, the mean under 12% (8.5% measured). The worst rows
// are four warpgroups each running a dependent chain (N = 8 and 64: +40% and
// +37%): the H100 overlaps their latencies until the pipe bounds them, the
// model less; not understood yet.
func TestWgmmaMicrobenchmarks(t *testing.T) {
	src, err := os.ReadFile("../../testdata/timing/wgmma/wgmma.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("wgmma.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := dev.Malloc(8 * 16)
	var sum float64
	var n int
	for _, r := range readWgmmaMB(t) {
		k, err := mod.Kernel(r.kernel)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(128 * r.wgs), Y: 1, Z: 1}},
			params(out, uint32(r.iters))); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8*4*r.wgs)
		if err := dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		var worst float64
		for w := 0; w < 4*r.wgs; w++ {
			worst = math.Max(worst, float64(binary.LittleEndian.Uint64(b[8*w:])))
		}
		got := worst / float64(r.iters)
		e := (got - r.perIter) / r.perIter
		sum += math.Abs(e)
		n++
		msg := fmt.Sprintf("%-16s wgs=%d iters=%3d: %7.2f cycles per iteration, H100 %7.2f (%+.1f%%)", r.kernel, r.wgs, r.iters, got, r.perIter, 100*e)
		if math.Abs(e) > 0.40 {
			t.Errorf("%s: more than 40%% off", msg)
		} else {
			t.Log(msg)
		}
	}
	if mean := sum / float64(n); mean > 0.12 {
		t.Errorf("mean |error| %.1f%% over %d rows, want under 12%%", 100*mean, n)
	} else {
		t.Logf("mean |error| %.1f%% over %d rows", 100*mean, n)
	}
}
