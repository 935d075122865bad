package timing_test

import (
	"bufio"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/launchfile"
)

const l2storeDir = "../../testdata/timing/l2store"

// l2storeRecorded reads testdata/timing/l2store's Nsight Compute recording
// (an H200: the H100's SMs and L2): each configuration's duration and SM
// clock, by name.
func l2storeRecorded(t *testing.T) map[string][2]float64 {
	t.Helper()
	ev, err := os.Open(filepath.Join(l2storeDir, "h200", "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	var names []string
	sc := bufio.NewScanner(ev)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "cfg" {
			names = append(names, strings.TrimPrefix(f[1], "name="))
		}
	}
	var lines []string
	for _, line := range strings.Split(string(gunzipFile(t, filepath.Join(l2storeDir, "h200", "ncu.csv.gz"))), "\n") {
		if strings.HasPrefix(line, "\"") {
			lines = append(lines, line)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("ncu.csv.gz: %v", err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	out := map[string][2]float64{}
	for _, r := range recs[1:] {
		id, err := strconv.Atoi(r[col["ID"]])
		if err != nil || id >= len(names) {
			t.Fatalf("ncu.csv.gz: launch %q is not one of the %d configurations", r[col["ID"]], len(names))
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[col["Metric Value"]], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		m := out[names[id]]
		switch r[col["Metric Name"]] {
		case "gpu__time_duration.sum":
			m[0] = v
		case "gpc__cycles_elapsed.avg.per_second":
			m[1] = v
		}
		out[names[id]] = m
	}
	return out
}

// runL2Store times rows of testdata/timing/l2store on the H200 preset (its
// L2 and SMs are the H100's) with the arch keys sets changed, at Nsight
// Compute's clock, and holds each within its bound of the recorded
// duration.
func runL2Store(t *testing.T, sets []string, bounds map[string]float64) {
	t.Helper()
	rec := l2storeRecorded(t)
	a, err := arch.Override(arch.MustLookup("h200"), sets)
	if err != nil {
		t.Fatal(err)
	}
	for name, tol := range bounds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, ok := rec[name]
			if !ok || h[0] == 0 || h[1] == 0 {
				t.Fatalf("%s: not in the recording", name)
			}
			lf, err := launchfile.Load(filepath.Join(l2storeDir, "launch", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			dev := warpsim.NewDevice(a, warpsim.Options{Stdout: discard{}, Mode: warpsim.ModeTiming,
				Timing: warpsim.TimingOptions{ClockMHz: math.Round(h[1] / 1e6)}})
			var ns float64
			if _, err := lf.Execute(dev, launchfile.ExecOptions{Discard: true, AfterLaunch: func(_ int, res *warpsim.LaunchResult) {
				ns = res.DurationNS
			}}); err != nil {
				t.Fatal(err)
			}
			check(t, name+" (ns)", ns, h[0], tol)
		})
	}
}

// TestL2StoreMicrobenchmarks: one block of 1024 threads storing its
// 128 KiB four times over, whole sectors (a sector a cycle at the SM's
// store port), a 4-byte store to each of four sectors of a line (1.25
// cycles a sector) and a 4-byte store a line (StorePartialLineCycles 2,
// held back from the preset: 2 cycles a line; the model without it is 37%
// fast).
func TestL2StoreMicrobenchmarks(t *testing.T) {
	runL2Store(t, []string{"store.partial_line=2"}, map[string]float64{"st_e16s16_g1_p4": 0.05, "st_e4s32_g1_p4": 0.05, "st_e4s128_g1_p4": 0.05})
}

// l2StoreSets is the figure the recording gives for whole sectors that
// 132 SMs store into the L2, held back from the preset (whose link
// between the partitions, 1750 GB/s, is fitted on testdata/timing/shortocc
// with the DRAM at 2.1 TB/s): half the written sectors cross to their home
// partition, 2.19 TB/s of the 4.33 TB/s the L2 takes, so the link that far
// stores and far fills share carries at least 2190 GB/s; at that rate the
// stores' far half alone holds the SMs' stores to the recorded pace (the
// near half leaves by the same ports, in order), with no cost of a write
// at the L2 beyond a read's (StoreSectorBytes 40.3 at a link of 2250 fitted
// the same rows, a second figure for one measurement).
var l2StoreSets = []string{"bandwidth.l2_link=2190GB/s"}

// TestLongL2StoreMicrobenchmarks: 132 SMs storing whole sectors into the
// L2, one pass and four, with l2StoreSets (the preset is 16% and 22% slow
// on them: its link carries the far half of the stores at 1750 GB/s). The
// one pass is held to 8%, not 5%, since the h200 preset has the H200's own
// fixed cost (KernelNS 1640, testdata/timing/h200launch; it was within 2%
// on the H100's 2200): the model gets the four passes less the one right
// (11,881 ns against 11,872) and is 7.7% fast on the one pass, where a
// kernel whose 132 SMs stored ends ~290 ns after the same empty kernel on
// the H200 (h200launch's s_g132_b32 against e_g132_b32), 87 in the model.
func TestLongL2StoreMicrobenchmarks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	runL2Store(t, l2StoreSets, map[string]float64{"st_e16s16_g132_p1": 0.08, "st_e16s16_g132_p4": 0.05})
}
