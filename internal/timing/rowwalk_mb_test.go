package timing_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

const rowwalkDir = "../../testdata/timing/rowwalk/"

// rowwalkRow is one line of testdata/timing/rowwalk/h200/rows.tsv: a
// configuration of rowwalk_mb.cu as Nsight Compute timed it on the H200
// (base clock, caches flushed), with its counters.
type rowwalkRow struct {
	cfg  string
	kern string
	arg  map[string]int
	ns   float64 // gpu__time_duration
	cyc  float64 // sm__cycles_elapsed.max
	col  map[string]float64
}

func readRowwalk(t *testing.T) []rowwalkRow {
	t.Helper()
	b, err := os.ReadFile(rowwalkDir + "h200/rows.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], "\t")
	var rows []rowwalkRow
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t")
		r := rowwalkRow{cfg: f[0], arg: map[string]int{}, col: map[string]float64{}}
		for _, kv := range strings.Fields(f[0]) {
			k, v, _ := strings.Cut(kv, "=")
			if k == "kern" {
				r.kern = v
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("rows.tsv: %q", line)
			}
			r.arg[k] = n
		}
		for i, h := range head[1:] {
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				t.Fatalf("rows.tsv %s: %q", h, f[i+1])
			}
			r.col[h] = v
		}
		r.ns, r.cyc = r.col["ns"], r.col["cyc"]
		rows = append(rows, r)
	}
	return rows
}

// simulateRowwalk launches row r as rowwalk_mb.cu's main does on an h200
// timing device at ncu's clock and returns the model's duration in ns.
func simulateRowwalk(t *testing.T, r rowwalkRow) float64 {
	t.Helper()
	mhz := r.cyc / r.ns * 1000
	a0 := *arch.MustLookup("h200")
	if v := os.Getenv("RW_SET"); v != "" {
		a0.Base, a0.Timing = "h200", map[string]float64{}
		for _, kv := range strings.Split(v, ",") {
			k, x, _ := strings.Cut(kv, "=")
			f, _ := strconv.ParseFloat(x, 64)
			a0.Timing[k] = f
		}
	}
	dev := warpsim.NewDevice(&a0, warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: math.Round(mhz)}})
	mod, err := dev.LoadModule("rowwalk_mb.ptx", bytes.TrimSpace(gunzipFile(t, rowwalkDir+"h200/rowwalk_mb.nvcc.ptx.gz")))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel(r.kern)
	if err != nil {
		t.Fatal(err)
	}
	alloc := func(n uint64) uint64 {
		p, err := dev.Malloc(n)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := r.arg
	dim := func(x, y int) warpsim.Dim3 { return warpsim.Dim3{X: uint32(x), Y: uint32(y), Z: 1} }
	cfg := warpsim.LaunchConfig{}
	var p []byte
	switch {
	case strings.HasPrefix(r.kern, "rw_"):
		cfg.Grid, cfg.Block = dim(a["blocks"], 1), dim(a["threads"], 1)
		rows := uint64(a["blocks"] * a["threads"])
		buf := alloc(rows * uint64(a["S"]))
		if r.kern == "rw_ld" {
			p = params(buf, alloc(uint64(4*a["K"])), alloc(4*rows), uint32(a["S"]/4), uint32(a["K"]), uint32(a["reps"]))
		} else {
			p = params(buf, uint32(a["S"]/4), uint32(a["K"]), uint32(a["reps"]))
		}
	case strings.HasPrefix(r.kern, "mm_"):
		n := a["N"]
		cfg.Grid, cfg.Block = dim(n/32, n/8), dim(32, 8)
		sz := uint64(n * n * 8)
		p = params(alloc(sz), alloc(sz), alloc(sz), uint32(n))
	case strings.HasPrefix(r.kern, "dchain"):
		cfg.Grid, cfg.Block = dim(a["blocks"], 1), dim(a["threads"], 1)
		p = params(alloc(uint64(8*a["blocks"]*a["threads"])), uint32(a["n"]))
	case r.kern == "dsm_atom":
		cfg.Grid, cfg.Block, cfg.SharedBytes, cfg.Cluster = dim(a["blocks"], 1), dim(256, 1), 512, warpsim.Dim3{X: 4, Y: 1, Z: 1}
		p = params(alloc(4*128*4), uint32(a["M"]), uint32(a["dst"]), uint32(a["off"]))
	case r.kern == "sm_atom":
		cfg.Grid, cfg.Block = dim(a["blocks"], 1), dim(256, 1)
		p = params(alloc(4*128*4), uint32(a["M"]), uint32(a["off"]))
	default:
		t.Fatalf("no launch for %s", r.kern)
	}
	res, err := dev.Launch(k, cfg, p)
	if err != nil {
		t.Fatalf("%s: %v", r.cfg, err)
	}
	return res.DurationNS
}

func TestRowwalkExplore(t *testing.T) {
	for _, r := range readRowwalk(t) {
		if strings.HasPrefix(r.kern, "cluster_hist") {
			continue
		}
		if !strings.Contains(r.cfg, os.Getenv("RW_ONLY")) {
			continue
		}
		if os.Getenv("RW_ALL") == "" && (r.arg["blocks"] > 12 || r.arg["N"] > 256 || r.arg["threads"] == 1024 || r.arg["K"] > 128) {
			continue
		}
		got := simulateRowwalk(t, r)
		t.Logf("%-55s H200 %9.0f ns model %9.0f (%+6.1f%%)", r.cfg, r.ns, got, 100*(got-r.ns)/r.ns)
	}
	fmt.Print()
}
