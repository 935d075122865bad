package timing_test

import (
	"bufio"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/internal/timing"
)

// h200Dir is the H200's run of the H100's own microbenchmarks
// (testdata/timing/h200: record.sh, SPLIT.md written before the call): the
// DRAM family (dram/), the loaded-latency probe (dramload/) and four
// calibration benchmarks (calib/calibration.csv, made by
// make_calibration.py h200), each under Nsight Compute at its base clock.
const h200Dir = "../../testdata/timing/h200/h200"

// h200Row is one configuration the H200 ran: its time and occupancy beside
// the model's on the h200 preset, the launch file (the H100's: the same
// code) and ncu's clock; study rows are SPLIT.md's.
type h200Row struct {
	heldOutRow
	path    string
	index   int
	clockHz float64
	study   bool
}

// h200DRAMRows are dram.cu's rows on the H200, in launch order.
func h200DRAMRows(t *testing.T) []h200Row {
	t.Helper()
	f, err := os.Open(filepath.Join(h200Dir, "dram", "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []h200Row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 2 || w[0] != "cfg" {
			continue
		}
		name := strings.TrimPrefix(w[1], "name=")
		rows = append(rows, h200Row{heldOutRow: heldOutRow{name: name}, study: dramStudy[name],
			path: filepath.Join(dramDir, "launch", name+".json")})
	}
	for _, m := range ncuMetrics(t, filepath.Join(h200Dir, "dram", "ncu.csv"), len(rows)) {
		r := &rows[m.launch]
		switch m.name {
		case "gpu__time_duration.sum":
			r.h100NS = m.value
		case "sm__warps_active.avg.pct_of_peak_sustained_active":
			r.h100Occ = m.value
		case "sm__cycles_elapsed.avg.per_second":
			r.clockHz = m.value
		}
	}
	if len(rows) != 20 {
		t.Fatalf("%d dram rows on the H200, want 20", len(rows))
	}
	return rows
}

// h200CalibRows are the calibration rows the H200 recorded (every one held
// out), in calibration.csv's order.
func h200CalibRows(t *testing.T) []h200Row {
	t.Helper()
	f, err := os.Open(filepath.Join(h200Dir, "calib", "calibration.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("calibration.csv: %v", err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(r []string, k string) float64 {
		v, err := strconv.ParseFloat(r[col[k]], 64)
		if err != nil {
			t.Fatalf("calibration.csv %s: %q", k, r[col[k]])
		}
		return v
	}
	var rows []h200Row
	for _, r := range recs[1:] {
		rows = append(rows, h200Row{heldOutRow: heldOutRow{name: r[col["name"]], h100NS: num(r, "duration_ns"),
			h100Occ: num(r, "achieved_occupancy_pct")}, path: filepath.Join(calibDir, r[col["launchfile"]]),
			index: int(num(r, "launch_index")), clockHz: num(r, "sm_clock_hz")})
	}
	return rows
}

// runH200 times rows on preset at each row's ncu clock.
func runH200(t *testing.T, preset string, rows []h200Row) {
	t.Helper()
	t.Run("configurations", func(t *testing.T) {
		for i := range rows {
			r := &rows[i]
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				l := simulateSharedOn(t, preset, r.path, r.clockHz, 0)[r.index]
				r.ns, r.occ = l.ns, achievedOcc(&l.timing)
			})
		}
	})
}

// h200Plain are the rows the plain run times on the h200 preset, both held
// out and cheap (lessons of one block), each within its bound of the
// H200's time: what the preset measured, rounded up. Before the preset had
// the H200's own fixed cost (KernelNS 1640, ../h200launch) they were 25-34%
// slow on the H100's 2200 ns.
var h200Plain = map[string]float64{"lesson_warmingup_n64_b64": 0.05, "lesson_mathKernel4_n64_b64": 0.05}

// h200Long are the rows TestLongH200Recordings times, within a CPU budget
// of about 10 s (no row past 16 MiB: the 64 and 256 MiB rows cost 5 to 20
// CPU-s each and ran once, for testdata/timing/h200/JOURNAL.md): a study copy, held-out
// DRAM rows and held-out calibration rows of one wave or less.
var h200Long = map[string]bool{
	"d_copy8_b256_m16": true, "d_write8_b256_m16": true, "d_copy8_b256_m8": true,
	"lesson_warmingup_n64_b64": true, "lesson_mathKernel1_n64_b64": true, "lesson_mathKernel4_n64_b64": true,
	"lesson_reduceInterleaved_n65536_b256": true, "lesson_reduceNeighbored_n65536_b256": true,
}

// h200LongStudyMAE and h200LongHeldOutMAE bound TestLongH200Recordings'
// duration MAE on each half at what the preset measured, rounded up
// (testdata/timing/h200/JOURNAL.md; 0.30 and 0.25 before the H200's own
// KernelNS: 26.2% and 22.0% measured then, 20.5% and 9.8% now).
const h200LongStudyMAE, h200LongHeldOutMAE = 0.21, 0.10

// TestH200Recordings times h200Plain's rows on the h200 preset.
func TestH200Recordings(t *testing.T) {
	var rows []h200Row
	for _, r := range append(h200DRAMRows(t), h200CalibRows(t)...) {
		if h200Plain[r.name] > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) != len(h200Plain) {
		t.Fatalf("%d rows, want %d", len(rows), len(h200Plain))
	}
	runH200(t, "h200", rows)
	if t.Failed() {
		return
	}
	held := make([]heldOutRow, len(rows))
	for i, r := range rows {
		held[i] = r.heldOutRow
		if e := (r.ns - r.h100NS) / r.h100NS; math.Abs(e) > h200Plain[r.name] {
			t.Errorf("%s: %+.1f%% off the H200's time (at most %.0f%%)", r.name, 100*e, 100*h200Plain[r.name])
		}
	}
	checkHeldOut(t, "h200 plain", held, math.Inf(1), math.Inf(1))
}

// TestLongH200Recordings times h200Long's rows (WARPSIM_H200_ALL=1: every
// recorded row, reported unchecked; WARPSIM_H200_PRESET=h100 runs them on
// the H100 preset instead, what the H200 got before it had a preset) and
// reports the study and held-out halves apart.
func TestLongH200Recordings(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	all := os.Getenv("WARPSIM_H200_ALL") != ""
	preset := "h200"
	if p := os.Getenv("WARPSIM_H200_PRESET"); p != "" {
		preset = p
	}
	var rows []h200Row
	for _, r := range append(h200DRAMRows(t), h200CalibRows(t)...) {
		if all || h200Long[r.name] {
			rows = append(rows, r)
		}
	}
	runH200(t, preset, rows)
	if t.Failed() {
		return
	}
	var study, held []heldOutRow
	for _, r := range rows {
		if r.study {
			study = append(study, r.heldOutRow)
		} else {
			held = append(held, r.heldOutRow)
		}
	}
	if all || preset != "h200" {
		t.Logf("every row or another preset (%s): not checked", preset)
		checkHeldOut(t, "h200 study", study, math.Inf(1), math.Inf(1))
		checkHeldOut(t, "h200 held out", held, math.Inf(1), math.Inf(1))
		return
	}
	checkHeldOut(t, "h200 study", study, math.Inf(1), h200LongStudyMAE)
	checkHeldOut(t, "h200 held out", held, math.Inf(1), h200LongHeldOutMAE)
}

// TestH200PresetFigures checks the h200 timing preset against both GPUs'
// recordings without simulating: every figure but the memory's is the
// H100's (the same chip); the model's L2 is the same share of the driver's
// L2 on both; the DRAM's bandwidth grows from the H100's by no less and no
// more than the same kernels' DRAM traffic did at 256 MiB (reads, writes,
// copies: ../dram/h100/ncu.csv and h200/dram/ncu.csv); a DRAM line's latency
// falls by what a lone warp's chase measured (dramload's rseq_w0 rows,
// their events_ncu.txt mean at ncu's clock, less the 134 cycles both
// presets keep) within 3 ns; the launch gap is the H200's back-to-back
// launches'; KernelNS falls by what an empty one-block kernel's duration
// fell (TestH200LaunchRecording simulates them).
func TestH200PresetFigures(t *testing.T) {
	a1, a2 := arch.MustLookup("h100"), arch.MustLookup("h200")
	p1, p2 := timing.ForArch(a1, 0), timing.ForArch(a2, 0)
	c := *p2
	c.L2Bytes, c.DRAMBytesPerNS, c.DRAMNS, c.Source = p1.L2Bytes, p1.DRAMBytesPerNS, p1.DRAMNS, p1.Source
	c.DRAMLatency, c.DRAMBytesPerCycle = p1.DRAMLatency, p1.DRAMBytesPerCycle
	c.KernelNS, c.KernelLaunch, c.LaunchGapNS = p1.KernelNS, p1.KernelLaunch, p1.LaunchGapNS
	if !reflect.DeepEqual(&c, p1) {
		t.Errorf("the h200 preset differs from the h100's in more than its L2, DRAM bandwidth and latency and launch costs")
	}
	// The gap between back-to-back launches is the host's (the launch call
	// alone takes as long): within what the H200's two programs measured
	// (../h200launch/h200: events.txt, calib/launch_full.txt).
	lo, hi := h200BackToBack(t)
	if p2.LaunchGapNS < lo || p2.LaunchGapNS > hi {
		t.Errorf("LaunchGapNS %.0f, the H200's back-to-back launches %.0f-%.0f ns", p2.LaunchGapNS, lo, hi)
	}
	// The fixed cost falls from the H100's by what an empty kernel of one
	// block did: the median of the H200's six one-block rows (e_g1_b32 to
	// e_g1_b1024, each its five launches' median) against the H100's one
	// launch of launch_empty_g1_b32 (../h100/calibration.csv), within 80
	// ns (the H100's figure is one launch, ncu's durations 32-ns steps).
	var one []float64
	for _, r := range launchCostRows(t) {
		if strings.HasPrefix(r.name, "e_g1_b") {
			one = append(one, r.h100NS)
		}
	}
	h100Empty := h100CalibrationNS(t, "launch_empty_g1_b32")
	if len(one) != 6 {
		t.Fatalf("%d one-block rows, want 6", len(one))
	}
	if d, want := p2.KernelNS-p1.KernelNS, median(one)-h100Empty; math.Abs(d-want) > 80 {
		t.Errorf("KernelNS changes %+.0f ns from the h100's; an empty one-block kernel %+.0f ns", d, want)
	}
	if s1, s2 := float64(p1.L2Bytes)/float64(a1.L2Bytes), float64(p2.L2Bytes)/float64(a2.L2Bytes); math.Abs(s2-s1) > 0.01 {
		t.Errorf("the model's L2 is %.3f of the driver's on the h200, %.3f on the h100", s2, s1)
	}

	// DRAM bytes (read + written) a ns at 256 MiB, per kernel, on each GPU.
	rate := func(dir string) map[string]float64 {
		rows := h200DRAMRowsIn(t, dir)
		out := map[string]float64{}
		for _, r := range rows {
			if strings.HasSuffix(r.name, "_b256_m256") {
				out[r.name] = (r.rd + r.wr) / r.ns
			}
		}
		if len(out) != 3 {
			t.Fatalf("%s: %d rows at 256 MiB, want 3", dir, len(out))
		}
		return out
	}
	r1, r2 := rate(filepath.Join(dramDir, "h100")), rate(filepath.Join(h200Dir, "dram"))
	lo, hi = math.Inf(1), 0.0
	for k, v := range r2 {
		lo, hi = min(lo, v/r1[k]), max(hi, v/r1[k])
	}
	if g := p2.DRAMBytesPerNS / p1.DRAMBytesPerNS; g < lo || g > hi {
		t.Errorf("the DRAM's bandwidth grows ×%.3f from the h100's; the recordings ×%.3f to ×%.3f", g, lo, hi)
	}

	lone := func(dir string) float64 {
		var sum float64
		for _, name := range []string{"rseq_w0_s200", "rseq_w0_s48"} {
			mean, ghz := dramloadLone(t, dir, name)
			sum += (mean - 134) / ghz
		}
		return sum / 2
	}
	if d, want := p2.DRAMNS-p1.DRAMNS, lone(filepath.Join(h200Dir, "dramload"))-lone(filepath.Join(dramloadDirH200Ref, "h100")); math.Abs(d-want) > 3 {
		t.Errorf("a DRAM line's latency changes %+.1f ns from the h100's; the lone chase %+.1f ns", d, want)
	}
}

// dramloadDirH200Ref is the H100's dramload recording.
const dramloadDirH200Ref = "../../testdata/timing/dramload"

// dramRate is one dram.cu row's ncu duration and DRAM bytes.
type dramRate struct {
	name       string
	ns, rd, wr float64
}

// h200DRAMRowsIn reads dir's events.txt and ncu.csv (dram.cu's layout).
func h200DRAMRowsIn(t *testing.T, dir string) []dramRate {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []dramRate
	for _, l := range strings.Split(string(b), "\n") {
		if w := strings.Fields(l); len(w) > 1 && w[0] == "cfg" {
			rows = append(rows, dramRate{name: strings.TrimPrefix(w[1], "name=")})
		}
	}
	for _, m := range ncuMetrics(t, filepath.Join(dir, "ncu.csv"), len(rows)) {
		r := &rows[m.launch]
		switch m.name {
		case "gpu__time_duration.sum":
			r.ns = m.value
		case "dram__bytes_read.sum":
			r.rd = m.value
		case "dram__bytes_write.sum":
			r.wr = m.value
		}
	}
	return rows
}

// dramloadLone returns a dramload row's chase mean (cycles a step, from
// events_ncu.txt, the run ncu profiled) and ncu's clock in GHz for it.
func dramloadLone(t *testing.T, dir, name string) (mean, ghz float64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "events_ncu.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	idx := -1
	for _, l := range strings.Split(string(b), "\n") {
		w := strings.Fields(l)
		if len(w) == 0 {
			continue
		}
		if w[0] == name {
			idx = len(names)
			for _, kv := range w[1:] {
				if v, ok := strings.CutPrefix(kv, "mean="); ok {
					mean, err = strconv.ParseFloat(v, 64)
					if err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		names = append(names, w[0])
	}
	if idx < 0 || mean == 0 {
		t.Fatalf("%s: no row %s", dir, name)
	}
	for _, m := range ncuMetrics(t, filepath.Join(dir, "ncu.csv"), len(names)) {
		if m.launch == idx && m.name == "sm__cycles_elapsed.avg.per_second" {
			ghz = m.value / 1e9
		}
	}
	if ghz == 0 {
		t.Fatalf("%s: no clock for %s", dir, name)
	}
	return mean, ghz
}

// h100CalibrationNS is a row's Nsight Compute duration in the H100's
// calibration table (testdata/timing/h100/calibration.csv).
func h100CalibrationNS(t *testing.T, name string) float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(calibDir, "h100", "calibration.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("h100/calibration.csv: %v", err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, r := range recs[1:] {
		if r[col["name"]] == name {
			v, err := strconv.ParseFloat(r[col["duration_ns"]], 64)
			if err != nil {
				t.Fatalf("h100/calibration.csv %s: %v", name, err)
			}
			return v
		}
	}
	t.Fatalf("h100/calibration.csv: no row %s", name)
	return 0
}
