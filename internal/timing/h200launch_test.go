package timing_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// h200LaunchDir is the H200's launch-cost recording (testdata/timing/
// h200launch: launchcost.cu, run.sh, README.md with its split, written
// before the device call): each configuration five times under Nsight
// Compute at its base clock (h200/ncu_base.csv), and ../bench's launch and
// lat families (h200/calib/ncu_launch.csv, ncu_lat.csv).
const h200LaunchDir = "../../testdata/timing/h200launch"

// launchCostRow is one launchcost.cu configuration: the median of its five
// launches' durations and clocks.
type launchCostRow struct {
	heldOutRow
	clockHz float64
}

// launchCostRows reads h200/events.txt's configurations and ncu_base.csv's
// five launches of each.
func launchCostRows(t *testing.T) []launchCostRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h200LaunchDir, "h200", "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []launchCostRow
	for _, l := range strings.Split(string(b), "\n") {
		if w := strings.Fields(l); len(w) > 1 && w[0] == "cfg" {
			rows = append(rows, launchCostRow{heldOutRow: heldOutRow{name: strings.TrimPrefix(w[1], "name=")}})
		}
	}
	const reps = 5
	ns, hz, occ := make([][]float64, len(rows)), make([][]float64, len(rows)), make([][]float64, len(rows))
	for _, m := range ncuMetrics(t, filepath.Join(h200LaunchDir, "h200", "ncu_base.csv"), reps*len(rows)) {
		i := m.launch / reps
		switch m.name {
		case "gpu__time_duration.sum":
			ns[i] = append(ns[i], m.value)
		case "sm__cycles_elapsed.avg.per_second":
			hz[i] = append(hz[i], m.value)
		case "sm__warps_active.avg.pct_of_peak_sustained_active":
			occ[i] = append(occ[i], m.value)
		}
	}
	for i := range rows {
		if len(ns[i]) != reps || len(hz[i]) != reps {
			t.Fatalf("%s: %d durations and %d clocks, want %d", rows[i].name, len(ns[i]), len(hz[i]), reps)
		}
		rows[i].h100NS, rows[i].clockHz, rows[i].h100Occ = median(ns[i]), median(hz[i]), median(occ[i])
	}
	if len(rows) != 28 {
		t.Fatalf("%d launchcost configurations, want 28", len(rows))
	}
	return rows
}

// median is xs's median (xs is sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	return (xs[(n-1)/2] + xs[n/2]) / 2
}

// h200BenchRows are ../bench's launch and lat rows as the H200 ran them
// (one launch each, as on the H100), with the H100's launch files.
func h200BenchRows(t *testing.T) []h200Row {
	t.Helper()
	var rows []h200Row
	for _, bench := range []string{"launch", "lat"} {
		path := filepath.Join(h200LaunchDir, "h200", "calib", "ncu_"+bench+".csv")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, col := csvRows(t, path, string(b), func(l string) bool { return strings.HasPrefix(l, "\"") })
		byID := map[int]*h200Row{}
		var ids []int
		for _, r := range recs[1:] {
			id, err := strconv.Atoi(r[col["ID"]])
			if err != nil {
				t.Fatalf("%s: ID %q", path, r[col["ID"]])
			}
			row := byID[id]
			if row == nil {
				name := r[col["Kernel Name"]]
				if bench == "launch" {
					var g, bl int
					if _, err := fmt.Sscanf(r[col["Grid Size"]]+r[col["Block Size"]], "(%d, 1, 1)(%d, 1, 1)", &g, &bl); err != nil {
						t.Fatalf("%s: grid %q block %q", path, r[col["Grid Size"]], r[col["Block Size"]])
					}
					name = fmt.Sprintf("launch_empty_g%d_b%d", g, bl)
				}
				row = &h200Row{heldOutRow: heldOutRow{name: name}, path: filepath.Join(calibDir, "launch", name+".json")}
				byID[id] = row
				ids = append(ids, id)
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(r[col["Metric Value"]], ",", ""), 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			switch r[col["Metric Name"]] {
			case "gpu__time_duration.sum":
				row.h100NS = v
			case "sm__warps_active.avg.pct_of_peak_sustained_active":
				row.h100Occ = v
			case "sm__cycles_elapsed.avg.per_second":
				row.clockHz = v
			}
		}
		slices.Sort(ids)
		for _, id := range ids {
			rows = append(rows, *byID[id])
		}
	}
	if len(rows) != 19 {
		t.Fatalf("%d launch and lat rows, want 19", len(rows))
	}
	return rows
}

// launchStudyOneBlock, launchStudyGrids: the study rows the model is held
// to (README.md's split): empty kernels of one block (KernelNS was chosen
// on their median) and the H100 launch family's grids (block dispatch, the
// H100's), each within its bound of the H200's median; the one-block rows'
// mean error within launchOneBlockBias. e_g1_b32's median (1568 ns) stands
// 160 ns below its five neighbours (1728-1760 ns), hence its wider bound.
var (
	launchStudyOneBlock = map[string]float64{"e_g1_b32": 0.12, "e_g1_b64": 0.03, "e_g1_b128": 0.03,
		"e_g1_b256": 0.03, "e_g1_b512": 0.03, "e_g1_b1024": 0.03}
	launchStudyGrids = map[string]float64{"e_g132_b256": 0.05, "e_g2112_b256": 0.03, "e_g8448_b256": 0.03,
		"e_g2112_b1024": 0.03,
		// Blocks of 32, 2 to 8448 (one wave up to 4224): BlockRateFloor.
		// Without it the one-wave grids of 1056 to 4224 blocks were 21-50%
		// fast, the rest within 9%.
		"e_g2_b32": 0.05, "e_g4_b32": 0.05, "e_g8_b32": 0.05, "e_g16_b32": 0.05, "e_g33_b32": 0.06,
		"e_g66_b32": 0.05, "e_g132_b32": 0.05, "e_g264_b32": 0.07, "e_g528_b32": 0.05, "e_g1056_b32": 0.05,
		"e_g2112_b32": 0.05, "e_g4224_b32": 0.05, "e_g8448_b32": 0.05}
)

const launchOneBlockBias = 0.03

// h200LaunchHeldOutMAE bounds the held-out rows' duration MAE (README.md:
// w_g1_b64, ../bench's launch and lat rows), at what the preset measured,
// rounded up.
const h200LaunchHeldOutMAE = 0.06

// TestH200LaunchRecording times launchcost.cu's rows and ../bench's
// launch and lat rows on the h200 preset at each row's ncu clock. The
// study rows are held to their bounds; the held-out ones (README.md) to
// h200LaunchHeldOutMAE; the stores are reported: a kernel whose 132 SMs
// stored ends ~290 ns after the empty one on the H200, 87 in the model
// (open; testdata/timing/h200launch/JOURNAL.md).
func TestH200LaunchRecording(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	cost := launchCostRows(t)
	rows := make([]h200Row, 0, len(cost))
	for _, r := range cost {
		rows = append(rows, h200Row{heldOutRow: r.heldOutRow, clockHz: r.clockHz,
			path: filepath.Join(h200LaunchDir, "launch", r.name+".json")})
	}
	rows = append(rows, h200BenchRows(t)...)
	runH200(t, "h200", rows)
	if t.Failed() {
		return
	}
	var study, held, open []heldOutRow
	var bias float64
	for _, r := range rows {
		e := (r.ns - r.h100NS) / r.h100NS
		if bound, ok := launchStudyOneBlock[r.name]; ok {
			bias += e / float64(len(launchStudyOneBlock))
			study = append(study, r.heldOutRow)
			if math.Abs(e) > bound {
				t.Errorf("%s: %+.1f%% off the H200's median (at most %.0f%%)", r.name, 100*e, 100*bound)
			}
			continue
		}
		if bound, ok := launchStudyGrids[r.name]; ok {
			study = append(study, r.heldOutRow)
			if math.Abs(e) > bound {
				t.Errorf("%s: %+.1f%% off the H200's median (at most %.0f%%)", r.name, 100*e, 100*bound)
			}
			continue
		}
		if r.name == "w_g1_b64" || strings.HasPrefix(r.name, "lat_") || strings.HasPrefix(r.name, "launch_") {
			held = append(held, r.heldOutRow)
			continue
		}
		open = append(open, r.heldOutRow)
	}
	if len(study) != len(launchStudyOneBlock)+len(launchStudyGrids) || len(held) != 20 {
		t.Fatalf("%d study and %d held-out rows, want %d and 20", len(study),
			len(held), len(launchStudyOneBlock)+len(launchStudyGrids))
	}
	if math.Abs(bias) > launchOneBlockBias {
		t.Errorf("one-block empty kernels: %+.1f%% on the mean (at most %.0f%%): KernelNS is not the recording's", 100*bias, 100*launchOneBlockBias)
	}
	checkHeldOut(t, "h200launch study", study, math.Inf(1), math.Inf(1))
	checkHeldOut(t, "h200launch held out", held, math.Inf(1), h200LaunchHeldOutMAE)
	t.Logf("not modelled (reported): the end of a kernel whose SMs stored")
	checkHeldOut(t, "h200launch open", open, math.Inf(1), math.Inf(1))
}

// h200BackToBack is the range of the H200's back-to-back <<<1,32>>>
// launches in ns (1000 launches between two CUDA events, three times in
// each of launchcost.cu and ../bench/launch.cu).
func h200BackToBack(t *testing.T) (lo, hi float64) {
	t.Helper()
	lo = math.Inf(1)
	for _, f := range []string{"events.txt", "calib/launch_full.txt"} {
		b, err := os.ReadFile(filepath.Join(h200LaunchDir, "h200", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.Contains(l, "kind=back_to_back") {
				continue
			}
			for _, kv := range strings.Fields(l) {
				if v, ok := strings.CutPrefix(kv, "us_per_launch="); ok {
					us, err := strconv.ParseFloat(v, 64)
					if err != nil {
						t.Fatal(err)
					}
					lo, hi = min(lo, 1000*us), max(hi, 1000*us)
				}
			}
		}
	}
	if hi == 0 {
		t.Fatal("no back-to-back launches")
	}
	return lo, hi
}
