package timing_test

import (
	"bytes"
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

const l1reuseDir = "../../testdata/timing/l1reuse/"

// l1reuseRow is one `cfg` line of testdata/timing/l1reuse/h200/plain.txt:
// l1reuse_mb.cu's probe as the H200 ran it (5 launches, the median).
type l1reuseRow struct {
	name, op, pat, kind            string
	s, warps, stream, chase, iters int
	split, l, region               uint32
	cyc, chaseCyc                  float64 // the H200's cycles a request an SM; warp 0's a dependent load
	calibration                    bool    // README.md's split: a calibration row
}

func (r l1reuseRow) String() string {
	s := fmt.Sprintf("%s %s %dw", r.name, r.op, r.warps)
	if r.split > 0 {
		s += fmt.Sprintf(" split %d", r.split)
	}
	return s
}

// l1reuseCalibration are README.md's calibration rows (name, op, warps),
// written before the recording; every other row is held out.
var l1reuseCalibration = map[string]bool{
	"hit_rows plain 16w": true, "miss_rows_s32 plain 16w": true, "mix_rows plain 16w": true,
	"hit_line plain 16w": true, "miss_line_s32 plain 16w": true,
}

func readL1Reuse(t *testing.T) []l1reuseRow {
	t.Helper()
	b, err := os.ReadFile(l1reuseDir + "h200/plain.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []l1reuseRow
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "cfg ") {
			continue
		}
		var r l1reuseRow
		var first float64
		if n, err := fmt.Sscanf(line, "cfg name=%s op=%s pat=%s S=%d kind=%s warps=%d stream=%d chase=%d split=%d L=%d region=%d iters=%d cyc=%g chase_cyc=%g first=%g",
			&r.name, &r.op, &r.pat, &r.s, &r.kind, &r.warps, &r.stream, &r.chase, &r.split, &r.l, &r.region, &r.iters, &r.cyc, &r.chaseCyc, &first); n != 15 {
			t.Fatalf("bad line %q: %v", line, err)
		}
		r.calibration = l1reuseCalibration[r.String()]
		rows = append(rows, r)
	}
	return rows
}

// l1reuseModule loads nvcc's PTX of l1reuse_mb.cu on a timing-mode H200 at
// the plain run's clock (1980 MHz).
func l1reuseModule(t *testing.T) (*warpsim.Device, *warpsim.Module) {
	t.Helper()
	src := gunzipFile(t, l1reuseDir+"h200/l1reuse_mb.nvcc.ptx.gz")
	dev := warpsim.NewDevice(arch.MustLookup("h200"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: 1980}})
	mod, err := dev.LoadModule("l1reuse_mb.ptx", bytes.TrimSpace(src))
	if err != nil {
		t.Fatal(err)
	}
	return dev, mod
}

// l1reuseBuffers are main()'s allocations: A and B (48 MiB each, zero), C,
// the clock stamps.
type l1reuseBuffers struct{ a, b, c, cyc uint64 }

func l1reuseAlloc(t *testing.T, dev *warpsim.Device) l1reuseBuffers {
	t.Helper()
	var bufs l1reuseBuffers
	for _, x := range []struct {
		p *uint64
		n uint64
	}{{&bufs.a, 48 << 20}, {&bufs.b, 48 << 20}, {&bufs.c, 1 << 20}, {&bufs.cyc, 64 * 16}} {
		p, err := dev.Malloc(x.n)
		if err != nil {
			t.Fatal(err)
		}
		*x.p = p
	}
	return bufs
}

// simulateL1Reuse launches row r's probe as l1reuse_mb.cu's cfg() does and
// returns the model's cycles a request an SM (the loading warps' last
// stamp less their first, over their requests) and warp 0's cycles a step.
func simulateL1Reuse(t *testing.T, dev *warpsim.Device, mod *warpsim.Module, bufs l1reuseBuffers, r l1reuseRow) (cyc, chase float64) {
	t.Helper()
	name := fmt.Sprintf("probe_%s_s%d", r.op, r.s)
	if r.stream != 0 {
		name += "_stream"
	}
	k, err := mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	mask := map[string]uint32{"rows": 31, "rowsx": 31, "line": 31, "half": 15, "sector": 7, "bcast": 0}[r.pat]
	hit := r.kind == "hit"
	period, warm, l2warm := uint32(r.iters), uint32(0), uint32(1)
	if hit {
		period, warm, l2warm = 1, 1, 0
	}
	if r.kind == "part" {
		warm = 1
	}
	cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * r.warps), Y: 1, Z: 1}}
	p := params(bufs.a, bufs.b, mask, r.l, r.region, period, r.split, uint32(r.iters), warm, l2warm, uint32(r.chase), bufs.cyc, bufs.c)
	if _, err := dev.Launch(k, cfg, p); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16*r.warps)
	if err := dev.Read(bufs.cyc, b); err != nil {
		t.Fatal(err)
	}
	stamp := func(i int) int64 { return int64(binary.LittleEndian.Uint64(b[8*i:])) }
	w0 := 0
	if r.chase == 1 && r.warps > 1 {
		w0 = 1
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for w := w0; w < r.warps; w++ {
		lo, hi = min(lo, stamp(2*w)), max(hi, stamp(2*w+1))
	}
	if r.chase != 2 {
		cyc = float64(hi-lo) / float64((r.warps-w0)*r.iters*8)
	}
	return cyc, float64(stamp(1)-stamp(0)) / float64(r.iters*8)
}

// l1reuseKnownOff are the rows whose mechanism the model does not have
// (testdata/timing/l1reuse/README.md): reported with the rest, their mean
// error held under l1reuseOffMAE only. rowsx hits: the L1's tag stage on
// 32 lines 33 lines apart (15.4 tag-stage wavefronts a request by Nsight
// Compute, where 32 adjacent lines take 8.8 cycles); one SM's lines from
// the L2 with 128 of them in flight (the L2's latency under the SM's own
// load, 650 cycles where the model has about 320); repeated .cg reads of
// one sector; one warp's loads at 1 to 8 warps an SM; a dependent load
// (behind other warps' loads that wait for the L2 it waits 92 cycles on
// the H200, 524 in the model: a load waiting for its fill does not hold
// the data stage).
func l1reuseKnownOff(r l1reuseRow) bool {
	switch {
	case r.pat == "rowsx" && r.kind == "hit",
		r.kind == "miss" && r.pat != "rows" && r.pat != "rowsx",
		r.op == "cg" && r.kind == "mix",
		r.warps < 16 && r.chase == 0,
		r.chase != 0:
		return true
	}
	return false
}

const (
	l1reuseTol    = 0.05 // each row of a mechanism the model has
	l1reuseOffMAE = 0.40 // the mean of l1reuseKnownOff's rows (35.6% measured)
)

// plainL1Reuse are the rows TestL1ReuseMicrobenchmarks runs without
// WARPSIM_LONG: the rowreuse pattern hit, missed and mixed, 32 missing
// lines at 32 offsets, the coalesced stream beside it.
var plainL1Reuse = map[string]bool{
	"hit_rows plain 16w": true, "mix_rows plain 16w": true, "miss_rowsx_s32 plain 16w": true,
	"stream_mix_rows plain 16w": true, "hit_line plain 16w": true,
}

// TestL1ReuseMicrobenchmarks runs nvcc's PTX of testdata/timing/l1reuse/
// l1reuse_mb.cu through the timing model (H200 preset at the plain run's
// 1980 MHz) as its main() does and compares each probe's cycles a request
// an SM (a dependent load's for the chases) with the H200's
// (h200/plain.txt), calibration and held-out rows (README.md's split)
// reported apart: each row of a mechanism the model has within 5%, the
// rows of l1reuseKnownOff under 40% on the mean (a bound against getting
// worse, not a claim). Without WARPSIM_LONG the five rows of plainL1Reuse.
func TestL1ReuseMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	rows := readL1Reuse(t)
	if len(rows) != 76 {
		t.Fatalf("%d rows in h200/plain.txt, want 76", len(rows))
	}
	long := os.Getenv("WARPSIM_LONG") != ""
	dev, mod := l1reuseModule(t)
	bufs := l1reuseAlloc(t, dev)
	var sum, n [2][2]float64 // [calibration][known off]
	for _, r := range rows {
		if !long && !plainL1Reuse[r.String()] {
			continue
		}
		cyc, chase := simulateL1Reuse(t, dev, mod, bufs, r)
		got, want, what := cyc, r.cyc, "cycles a request"
		if r.chase != 0 {
			got, want, what = chase, r.chaseCyc, "cycles a dependent load"
		}
		e := (got - want) / want
		set, off := 0, 0
		if r.calibration {
			set = 1
		}
		if l1reuseKnownOff(r) {
			off = 1
		}
		sum[set][off] += math.Abs(e)
		n[set][off]++
		msg := fmt.Sprintf("%-32s %-11s %s: model %.2f, H200 %.2f (%+.1f%%)", r, [2]string{"held out", "calibration"}[set], what, got, want, 100*e)
		if off == 0 && math.Abs(e) > l1reuseTol {
			t.Errorf("%s: more than %.0f%% off", msg, 100*l1reuseTol)
		} else {
			t.Log(msg)
		}
	}
	if off := (sum[0][1] + sum[1][1]) / max(n[0][1]+n[1][1], 1); off > l1reuseOffMAE {
		t.Errorf("the rows of mechanisms the model lacks: mean |error| %.1f%%, 35.6%% when written", 100*off)
	}
	for set := range 2 {
		for off := range 2 {
			if n[set][off] > 0 {
				t.Logf("%-11s %-25s %2.0f rows: mean |error| %.1f%%", [2]string{"held out", "calibration"}[set],
					[2]string{"(mechanisms modelled)", "(known off)"}[off], n[set][off], 100*sum[set][off]/n[set][off])
			}
		}
	}
}
