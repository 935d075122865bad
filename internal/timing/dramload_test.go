package timing_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// dramLoadDir is the recording of dramload.cu (issue 19): one warp's DRAM
// latency (a pointer chase over random lines of a 64 MiB table) while the
// other 131 SMs stream at a controlled rate, reads or copies, sequential or
// random; SPLIT.md, written before the device call, says which rows are
// studied and which held out.
const dramLoadDir = "../../testdata/timing/dramload"

// dramLoadStudy says whether a row is one of SPLIT.md's study rows.
func dramLoadStudy(name string) bool {
	return strings.HasPrefix(name, "rseq_") || strings.HasPrefix(name, "cseq_w4_") || strings.HasPrefix(name, "cseq_w16_")
}

// dramLoadRow is one configuration: the H100's chase latency a step (mean
// and sd in cycles at ncu's clock, the first interval, the first load's
// issue alone, left out) and the model's.
type dramLoadRow struct {
	name                   string
	clockHz                float64
	h100Mean, h100SD       float64
	mean, sd               float64
	streamGBs, h100DRAMGBs float64
}

// latencyStats is the mean and sd of a chase's intervals.
func latencyStats(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)))
}

// readDRAMLoad reads the configurations (events_ncu.txt, in ncu's order),
// their clock and DRAM bytes (ncu.csv) and their chase stamps
// (stamps_ncu.tar.gz).
func readDRAMLoad(t *testing.T) []dramLoadRow {
	t.Helper()
	h := filepath.Join(dramLoadDir, "h100")
	b, err := os.ReadFile(filepath.Join(h, "events_ncu.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []dramLoadRow
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.Contains(f[1], "=") {
			continue
		}
		r := dramLoadRow{name: f[0]}
		for _, kv := range f[1:] {
			if k, v, _ := strings.Cut(kv, "="); k == "stream_gbs" {
				r.streamGBs, _ = strconv.ParseFloat(v, 64)
			}
		}
		rows = append(rows, r)
	}
	var ns []float64
	rd := make([]float64, len(rows))
	ns = make([]float64, len(rows))
	for _, m := range ncuMetrics(t, filepath.Join(h, "ncu.csv"), len(rows)) {
		switch m.name {
		case "sm__cycles_elapsed.avg.per_second":
			rows[m.launch].clockHz = m.value
		case "gpu__time_duration.sum":
			ns[m.launch] = m.value
		case "dram__bytes_read.sum", "dram__bytes_write.sum":
			rd[m.launch] += m.value
		}
	}
	stamps := map[string][]float64{}
	eachTarGzFile(t, filepath.Join(h, "stamps_ncu.tar.gz"), func(name string, r io.Reader) {
		if !strings.HasSuffix(name, ".csv") {
			return
		}
		body, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		var v []float64
		for i, l := range strings.Split(string(body), "\n") {
			if i == 0 || l == "" || l[0] == '#' {
				continue
			}
			_, c, _ := strings.Cut(l, ",")
			x, err := strconv.ParseFloat(c, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			v = append(v, x)
		}
		stamps[strings.TrimSuffix(filepath.Base(name), ".csv")] = v[1:]
	})
	for i := range rows {
		r := &rows[i]
		v, ok := stamps[r.name]
		if !ok || r.clockHz == 0 || ns[i] == 0 {
			t.Fatalf("%s: no stamps or no ncu metrics", r.name)
		}
		r.h100Mean, r.h100SD = latencyStats(v)
		r.h100DRAMGBs = rd[i] / ns[i]
	}
	return rows
}

// simulateDRAMLoad runs a row's launch file (init_chain, then ld_probe)
// and returns the model's chase intervals (the first left out, as the
// H100's).
func simulateDRAMLoad(t *testing.T, r dramLoadRow) []float64 {
	t.Helper()
	out := timeLaunchFile(t, filepath.Join(dramLoadDir, "launch", r.name+".json"), r.clockHz)
	b, err := out.Buffer("S")
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := strconv.Atoi(r.name[strings.LastIndex(r.name, "_s")+2:])
	var v []float64
	for s := 1; s < steps; s++ {
		v = append(v, float64(int64(binary.LittleEndian.Uint64(b[8*(s+1):])-binary.LittleEndian.Uint64(b[8*s:]))))
	}
	return v
}

// runDRAMLoad simulates the rows keep accepts and logs them against the
// H100's: the chase's mean latency a step and its sd, the streamers' rate.
func runDRAMLoad(t *testing.T, keep func(dramLoadRow) bool) []dramLoadRow {
	t.Helper()
	var rows []dramLoadRow
	for _, r := range readDRAMLoad(t) {
		if keep(r) {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no dramload configuration selected")
	}
	t.Run("configurations", func(t *testing.T) {
		for i := range rows {
			r := &rows[i]
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				r.mean, r.sd = latencyStats(simulateDRAMLoad(t, *r))
			})
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 stream GB/s | H100 DRAM GB/s | H100 mean | warpsim mean | error | H100 sd | warpsim sd |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.0f | %.0f | %+.1f%% | %.0f | %.0f |\n", r.name, r.streamGBs, r.h100DRAMGBs,
			r.h100Mean, r.mean, 100*(r.mean-r.h100Mean)/r.h100Mean, r.h100SD, r.sd)
	}
	t.Logf("\n%s", b.String())
	return rows
}

// dramLoadMAE bounds TestLongDRAMLoadedLatency's latency MAE on each half,
// judged on the rows whose streamers moved at most dramLoadJudgedGBs on the
// H100 (W up to 3): the preset's DRAM is 2.1 TB/s, so a heavier stream
// fills its bus where the H100's is at 60-90% (rseq_w8 +46%, the chase
// waiting behind a full queue), and those rows are reported, not judged,
// until the preset takes the measured 3.0 TB/s (testdata/timing/dramload/JOURNAL.md,
// fourteenth round). The bound is the 25% a family (at the change:
// study 6.5%, held out 7.0%).
const (
	dramLoadMAE       = 0.25
	dramLoadJudgedGBs = 1900
)

// latencyMAE is the rows' mean absolute error of the chase's mean latency.
func latencyMAE(rows []dramLoadRow) float64 {
	e := 0.0
	for _, r := range rows {
		e += math.Abs(r.mean-r.h100Mean) / r.h100Mean
	}
	return e / float64(len(rows))
}

// TestLongDRAMLoadedLatency runs dramload's short rows with up to 16
// streaming warps an SM (WARPSIM_DRAMLOAD_FILTER=regexp: those it matches)
// and reports the chase's latency a step against the H100's, the study and
// held-out rows apart (SPLIT.md); each half's MAE must stay within
// dramLoadMAE.
func TestLongDRAMLoadedLatency(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	filter := os.Getenv("WARPSIM_DRAMLOAD_FILTER")
	re, err := regexp.Compile(filter)
	if err != nil {
		t.Fatal(err)
	}
	// Only the judged rows are simulated (the H100's stream rate is known
	// before the run): the busier rows cost minutes of simulation each and
	// judge nothing. WARPSIM_DRAMLOAD_ALL=1 simulates and reports them too.
	all := os.Getenv("WARPSIM_DRAMLOAD_ALL") == "1"
	rows := runDRAMLoad(t, func(r dramLoadRow) bool {
		return strings.HasSuffix(r.name, "_s48") && !strings.Contains(r.name, "_w32_") && re.MatchString(r.name) &&
			(all || r.streamGBs <= dramLoadJudgedGBs)
	})
	if t.Failed() {
		return
	}
	var study, held []dramLoadRow
	for _, r := range rows {
		if r.streamGBs > dramLoadJudgedGBs {
			continue // reported above, not judged
		}
		if dramLoadStudy(r.name) {
			study = append(study, r)
		} else {
			held = append(held, r)
		}
	}
	for _, h := range []struct {
		label string
		rows  []dramLoadRow
	}{{"study", study}, {"held out", held}} {
		if len(h.rows) == 0 {
			continue
		}
		e := latencyMAE(h.rows)
		t.Logf("%s, %d rows: latency MAE %.1f%%", h.label, len(h.rows), 100*e)
		if e > dramLoadMAE {
			t.Errorf("%s: the chase's latency %.1f%% off the H100's on average (at most %.0f%%)", h.label, 100*e, 100*dramLoadMAE)
		}
	}
}
