package timing_test

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
	"github.com/warpsim/warpsim/metrics"
)

const mechDir = "../../testdata/timing/mechanisms"

// mechRow is one configuration of testdata/timing/mechanisms/h100/mech.csv
// (mech.cu run on the H100 by run.sh, converted by convert.py).
type mechRow struct {
	name, family string
	heldOut      bool
	durationNS   float64 // ncu's gpu__time_duration.sum
	occupancy    float64 // ncu's sm__warps_active.avg.pct_of_peak_sustained_active
	clockHz      float64 // the SM clock ncu locked
	dramWrite    float64
}

// readSplit reads SPLIT.md's table: family -> calibration and held-out
// configuration names, as written down before the recordings were fitted.
func readSplit(t *testing.T) map[string]struct {
	family  string
	heldOut bool
} {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mechDir, "SPLIT.md"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile("`([a-z0-9_]+)`")
	out := map[string]struct {
		family  string
		heldOut bool
	}{}
	for _, line := range strings.Split(string(b), "\n") {
		cols := strings.Split(line, "|")
		if len(cols) != 5 || !strings.Contains(cols[1], "(`") {
			continue
		}
		fam := name.FindStringSubmatch(cols[1])[1]
		for i, col := range cols[2:4] {
			for _, m := range name.FindAllStringSubmatch(col, -1) {
				out[m[1]] = struct {
					family  string
					heldOut bool
				}{fam, i == 1}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("SPLIT.md: no split table")
	}
	return out
}

func readMech(t *testing.T) []mechRow {
	t.Helper()
	split := readSplit(t)
	f, err := os.Open(filepath.Join(mechDir, "h100", "mech.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(r []string, k string) float64 {
		v, err := strconv.ParseFloat(r[col[k]], 64)
		if err != nil {
			t.Fatalf("mech.csv: %s %s: %v", r[0], k, err)
		}
		return v
	}
	var rows []mechRow
	for _, r := range recs[1:] {
		s, ok := split[r[0]]
		if !ok {
			t.Fatalf("%s is in neither set of SPLIT.md", r[0])
		}
		rows = append(rows, mechRow{name: r[0], family: s.family, heldOut: s.heldOut,
			durationNS: num(r, "duration_ns"), occupancy: num(r, "achieved_occupancy_pct"),
			clockHz: num(r, "sm_clock_hz"), dramWrite: num(r, "dram_write_bytes")})
	}
	if len(rows) != len(split) {
		t.Fatalf("mech.csv has %d configurations, SPLIT.md %d", len(rows), len(split))
	}
	return rows
}

// simulateMech runs one configuration's launch file in timing mode at the
// H100's recorded clock.
func simulateMech(t *testing.T, r mechRow) (ns, occ float64) {
	t.Helper()
	res := timeLaunchFileShared(t, filepath.Join(mechDir, "launch", r.name+".json"), r.clockHz)[0]
	return res.ns, achievedOcc(&res.timing)
}

// timeLaunchFile runs a launch file on the H100 preset in timing mode at
// clockHz (to the MHz, as the recordings give ncu's clock).
func timeLaunchFile(t testing.TB, path string, clockHz float64) *launchfile.Outcome {
	t.Helper()
	lf, err := launchfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
		Timing: warpsim.TimingOptions{ClockMHz: math.Round(clockHz / 1e6)}})
	out, err := lf.Execute(dev, launchfile.ExecOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// achievedOcc is a grid's achieved occupancy in percent, as ncu's
// sm__warps_active.avg.pct_of_peak_sustained_active counts it.
func achievedOcc(tm *metrics.Timing) float64 {
	return 100 * float64(tm.WarpCycles) / float64(max(tm.ActiveSMCycles, 1)) / float64(tm.MaxWarpsPerSM)
}

// heldOutMAE is the duration error each family's held-out configurations
// must stay within: the 25% (no family worse). The L1 family was
// held to 40% until the model had ptxas's load hoisting (HoistLoads) and
// the L1's data-stage wavefronts (L1Wavefronts); it is at 9% now
// (testdata/timing/mechanisms2/JOURNAL.md).
var heldOutMAE = map[string]float64{"st": 0.25, "sb": 0.25, "l1": 0.25}

// TestMechanisms compares warpsim with the H100 on the mechanisms
// microbenchmarks (strided and partial-sector stores, L1 reuse of global
// loads, short blocks), family by family, the calibration and the held-out
// configurations of SPLIT.md reported separately; each family's held-out
// duration MAE must be within heldOutMAE. Only held-out configurations run
// here, the ones the check is on, and of those the seven of plainMechanisms
// (each family's mechanisms at the cheaper sizes);
// TestLongMechanisms runs all twenty held-out ones, judged as a whole, and
// the calibration ones, whose errors are reported, not checked.
// WARPSIM_MECH_FILTER=name-substring runs some.
func TestMechanisms(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	heldOut := map[string]bool{}
	for _, r := range readMech(t) {
		heldOut[r.name] = r.heldOut
	}
	for name := range plainMechanisms {
		if !heldOut[name] {
			t.Fatalf("plainMechanisms: %s is not a held-out configuration of SPLIT.md", name)
		}
	}
	checkMechanisms(t, func(r mechRow) bool { return r.heldOut && plainMechanisms[r.name] })
}

// plainMechanisms are the held-out configurations TestMechanisms runs: for
// the stores, strides 2 and 8 and full lines at strides 4 and 32; for L1
// reuse, a row reused through the non-coherent path at K = 32 and a 32 KB
// reread; for short blocks, blocks of 1024 threads running 1 iteration. The
// row reused through the L1-bypassing path at K = 128 (a third of this
// test's CPU), blocks of 256 running 2 and of 128 running 1, 8,192 and
// 32,768 blocks, are TestLongMechanisms'.
var plainMechanisms = map[string]bool{
	"st_stride_s2": true, "st_stride_s8": true, "st_full_s4": true, "st_full_s32": true,
	"l1_rowreuse_nc_k32": true, "l1_reread_f32k": true,
	"sb_b1024_l1": true,
}

// TestLongMechanisms is TestMechanisms over every configuration, the
// calibration ones too (CI's long step runs it).
func TestLongMechanisms(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkMechanisms(t, func(mechRow) bool { return true })
}

// checkMechanisms simulates the configurations of mech.csv that pick
// chooses and holds each family's held-out duration MAE (over the held-out
// configurations chosen) to heldOutMAE.
func checkMechanisms(t *testing.T, pick func(mechRow) bool) {
	rows := readMech(t)
	type acc struct {
		n       [2]int
		dur     [2]float64
		occ     [2]float64
		members [2][]string
	}
	fams := map[string]*acc{}
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | set | H100 ns | warpsim ns | error | H100 occupancy | warpsim occupancy |\n|---|---|---:|---:|---:|---:|---:|\n")
	filter := os.Getenv("WARPSIM_MECH_FILTER") // a name substring, to study one family
	var run []mechRow
	for _, r := range rows {
		if pick(r) && strings.Contains(r.name, filter) {
			run = append(run, r)
		}
	}
	// Independent configurations: parallel subtests, each result in its
	// row's place, summed below in mech.csv's order.
	type result struct{ ns, occ float64 }
	res := make([]result, len(run))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range run {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				ns, occ := simulateMech(t, r)
				res[i] = result{ns, occ}
			})
		}
	})
	if t.Failed() {
		return
	}
	for i, r := range run {
		ns, occ := res[i].ns, res[i].occ
		e := (ns - r.durationNS) / r.durationNS
		set := 0
		if r.heldOut {
			set = 1
		}
		a := fams[r.family]
		if a == nil {
			a = &acc{}
			fams[r.family] = a
		}
		a.n[set]++
		a.dur[set] += math.Abs(e)
		a.occ[set] += math.Abs(occ - r.occupancy)
		a.members[set] = append(a.members[set], r.name)
		fmt.Fprintf(&b, "| %s | %s | %.0f | %.0f | %+.1f%% | %.1f%% | %.1f%% |\n", r.name, [2]string{"calibration", "held out"}[set],
			r.durationNS, ns, 100*e, r.occupancy, occ)
	}
	t.Logf("\n%s", b.String())
	var names []string
	for f := range fams {
		names = append(names, f)
	}
	sort.Strings(names)
	var all [2]float64
	var alln [2]int
	for _, f := range names {
		a := fams[f]
		for set := range 2 {
			if a.n[set] == 0 {
				continue
			}
			all[set] += a.dur[set]
			alln[set] += a.n[set]
			t.Logf("%-3s %-11s %2d configurations: duration MAE %5.1f%%, occupancy error %4.1f points",
				f, [2]string{"calibration", "held out"}[set], a.n[set], 100*a.dur[set]/float64(a.n[set]), a.occ[set]/float64(a.n[set]))
		}
		lim, ok := heldOutMAE[f]
		if !ok {
			t.Errorf("family %s has no held-out threshold", f)
		}
		// The threshold holds for the held-out configurations picked: a
		// subset filtered by WARPSIM_MECH_FILTER is reported, not judged.
		if whole := filter == ""; whole && a.n[1] > 0 && a.dur[1]/float64(a.n[1]) > lim {
			t.Errorf("family %s: held-out duration MAE %.1f%% exceeds %.0f%% (%v)", f, 100*a.dur[1]/float64(a.n[1]), 100*lim, a.members[1])
		}
	}
	for set := range 2 {
		if alln[set] > 0 {
			t.Logf("all %-11s %2d configurations: duration MAE %5.1f%%", [2]string{"calibration", "held out"}[set], alln[set], 100*all[set]/float64(alln[set]))
		}
	}
}
