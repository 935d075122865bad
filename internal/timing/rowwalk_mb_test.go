package timing_test

import (
	"bytes"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
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
	dev := warpsim.NewDevice(arch.MustLookup("h200"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming,
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

// rowwalkCheck is how a row of rows.tsv is held: within tol each (and
// within meanTol on the mean of its group), or reported only.
type rowwalkCheck struct {
	group        string
	tol, meanTol float64
	long         bool // run only with WARPSIM_LONG
}

// rowwalkPlan sorts rows.tsv's rows (README.md's split, written before the
// device call: the 132-block dsm_atom rows are held out) into what the
// model has and what it does not:
//   - dsm remote (study): a remote atomic's sectors and same-word lanes
//     (DSMEMAtomSectorCycles, DSMEMAtomCycles, chosen on these rows):
//     within 20% each, 10% on the mean (2026-11-29: mean 6.7%, worst
//     dst=1 off=1 +17.3%, whose kernel is short enough that the model's
//     +0.9 us on the local rows is most of it; before: 3.4 cycles every
//     remote lane, +85%, +476%, +15%, +10%, +114%, +17%, +14%);
//   - dsm remote 132 (held out): 33 clusters on the whole GPU, placed over
//     the GPCs (placeCluster), within 40% each and on the mean (-23% to
//     -35%: the H200 slows 2.3-3x from 12 SMs to 132, a GPC-wide limit on
//     its DSMEM traffic the model does not have; before: +204% to +1658%,
//     every cluster packed on the first GPC);
//   - rows one SM (study): a lane a row, 0.5-8 KB apart, one pass, the
//     L1's rows pattern (32 data-stage wavefronts a request): within 6%
//     each, every stride alike (-3.1% to -5.1%; the H200 25.3-25.8 us);
//   - stores (known off): the same rows written, 4 bytes a line, take the
//     H200 2.03 cycles a line (one SM, 8 warps) where the model's port
//     takes 1.25 a partial sector: -37% on one SM, -11% on the whole GPU.
//     StorePartialLineCycles 2 (measured by testdata/timing/l2store, held
//     back for blocks' ss32x1) brings the one-SM rows within 1.4%; held
//     under 45% on the mean against getting worse;
//   - local (known off): atomics through the cluster window on the
//     block's own shared memory, and plain shared atomics: +15% to +29%
//     (the H200's short kernels), and one word a warp through the window
//     -69% (35 cycles a warp instruction on the H200, the model's shared
//     atomic unit one pass); each within 75%;
//   - DFMA chains (WARPSIM_LONG, one SM, 1 and 4 warps): a chain -3.8% to
//     -2.6%, four chains a warp +5.1% to +7.2% since ptxas's unrolling of
//     load-free loops (UnrollFree, UnrollOverhead: ptxas's body of 16
//     steps has one counter step, compare and branch; +1.1% to +2.5% and
//     +27% to +30% before, with HoistFixed alone; +21% to +23% and +77% to
//     +81% before that); each within 10%.
func rowwalkPlan(r rowwalkRow) (rowwalkCheck, bool) {
	a := r.arg
	switch {
	case r.kern == "dsm_atom" && a["dst"] != 0 && a["blocks"] == 12:
		return rowwalkCheck{group: "dsm remote", tol: 0.20, meanTol: 0.10}, true
	case r.kern == "dsm_atom" && a["dst"] != 0:
		return rowwalkCheck{group: "dsm remote 132 (held out)", tol: 0.40, meanTol: 0.40, long: true}, true
	case r.kern == "dsm_atom" || r.kern == "sm_atom":
		return rowwalkCheck{group: "local (known off)", tol: 0.75, meanTol: 0.75, long: a["blocks"] > 12}, true
	case r.kern == "rw_ld" && a["blocks"] == 1 && a["threads"] == 256 && a["K"] == 128 && a["reps"] == 1:
		return rowwalkCheck{group: "rows one SM", tol: 0.06, meanTol: 0.06}, true
	case r.kern == "rw_st" && a["blocks"] == 1 && a["threads"] == 256 && a["K"] == 128 && a["reps"] == 1 && a["S"] == 5120:
		return rowwalkCheck{group: "stores (known off)", tol: 0.45, meanTol: 0.45}, true
	case strings.HasPrefix(r.kern, "dchain") && a["blocks"] == 1 && a["threads"] <= 128:
		return rowwalkCheck{group: "DFMA chains", tol: 0.10, meanTol: 0.10, long: true}, true
	}
	// Not run: cluster_hist's kernels (programs3's test runs them); the
	// other row walks, the products and the larger chains cost 40 CPU-s
	// together (README.md has what they showed, 2026-11-29: the loads within
	// 8.4%, the stores -38% to +3%, mm_reg_f64 +8.4%, mm_reg_f32 -38%,
	// mm_mem_f64 +1.2%, mm_mem_f32 +6.5%, the chains at 16 and 32 warps
	// +10% to +33%).
	return rowwalkCheck{}, false
}

// TestRowwalkMicrobenchmarks runs nvcc's PTX of testdata/timing/rowwalk/
// rowwalk_mb.cu through the timing model (h200 preset at Nsight Compute's
// clock of each row) as its main() does and compares each duration with
// the H200's (h200/rows.tsv), by rowwalkPlan's groups: the 12-block DSMEM
// rows, the one-SM loads and one store row (7.6 CPU-s);
// TestLongRowwalkMicrobenchmarks the 132-block DSMEM rows and the DFMA
// chains (6 CPU-s).
func TestRowwalkMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	rowwalkMicrobenchmarks(t, false)
}

func TestLongRowwalkMicrobenchmarks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	rowwalkMicrobenchmarks(t, true)
}

func rowwalkMicrobenchmarks(t *testing.T, long bool) {
	rows := readRowwalk(t)
	if len(rows) != 97 {
		t.Fatalf("%d rows in h200/rows.tsv, want 97", len(rows))
	}
	type acc struct{ sum, n float64 }
	groups := map[string]*acc{}
	var order []string
	var checks []rowwalkCheck
	for _, r := range rows {
		c, ok := rowwalkPlan(r)
		if !ok || c.long != long {
			continue // the long test runs only what the plain one does not
		}
		got := simulateRowwalk(t, r)
		e := (got - r.ns) / r.ns
		t.Logf("%-32s %-55s H200 %8.0f ns, model %8.0f (%+6.1f%%)", c.group, r.cfg, r.ns, got, 100*e)
		if math.Abs(e) > c.tol {
			t.Errorf("%s: %+.1f%%, want within %.0f%%", r.cfg, 100*e, 100*c.tol)
		}
		g := groups[c.group]
		if g == nil {
			g = &acc{}
			groups[c.group] = g
			order = append(order, c.group)
			checks = append(checks, c)
		}
		g.sum += math.Abs(e)
		g.n++
	}
	for i, name := range order {
		g := groups[name]
		t.Logf("%s: %d rows, mean |error| %.1f%%", name, int(g.n), 100*g.sum/g.n)
		if g.sum/g.n > checks[i].meanTol {
			t.Errorf("%s: mean |error| %.1f%%, want under %.0f%%", name, 100*g.sum/g.n, 100*checks[i].meanTol)
		}
	}
}
