package timing_test

import (
	"bufio"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

const sboccDir = "../../testdata/timing/sbocc"

// warpStamp is one warp's stamps: its block, SM and clock64 at entry and
// exit (sbocc.cu's k_cpw).
type warpStamp struct {
	block, sm int
	c0, c1    int64
}

// warpSpread is what a grid's warp stamps say about how its warps end: the
// median spread between the first and the last warp of a block to exit
// (cycles), and the share of a block's residence its warps are active
// (their lifetimes over the block's warps times its lifetime), averaged
// over the blocks.
type warpSpread struct {
	endSpread, activeShare float64
}

func spreadOf(ws []warpStamp) warpSpread {
	type acc struct {
		first, last, c0 int64
		life            float64
		n               int
	}
	blocks := map[int]*acc{}
	for _, w := range ws {
		a := blocks[w.block]
		if a == nil {
			a = &acc{first: w.c1, last: w.c1, c0: w.c0}
			blocks[w.block] = a
		}
		a.first, a.last, a.c0 = min(a.first, w.c1), max(a.last, w.c1), min(a.c0, w.c0)
		a.life += float64(w.c1 - w.c0)
		a.n++
	}
	var spreads []float64
	share := 0.0
	for _, a := range blocks {
		spreads = append(spreads, float64(a.last-a.first))
		share += a.life / float64(a.n) / float64(max(a.last-a.c0, 1))
	}
	slices.Sort(spreads)
	return warpSpread{endSpread: spreads[len(spreads)/2], activeShare: share / float64(len(blocks))}
}

// sboccRow is one configuration of sbocc.cu as Nsight Compute recorded it.
type sboccRow struct {
	name                     string
	dir                      string // the recording's folder (launch/ and h100/ in it)
	warpsPerBlock            int
	durationNS, occ, clockHz float64
	endSpread, activeShare   float64 // from the warps' stamps (ncu's last replay)
	recorded                 bool
}

// readSboccRun reads one device run's configurations (events, in launch
// order) and Nsight Compute's metrics for them (ncu: one profiled launch
// each, in the same order).
func readSboccRun(t *testing.T, events, ncu string) ([]*sboccRow, map[string]*sboccRow) {
	t.Helper()
	return readCfgRun(t, sboccDir, events, ncu)
}

// readCfgRun reads the device run of folder dir as readSboccRun does
// (h100/<events>: "cfg name=… kernel=… grid=… block=…" lines in launch
// order; h100/<ncu>: Nsight Compute's metrics, one profiled launch each).
func readCfgRun(t *testing.T, dir, events, ncu string) ([]*sboccRow, map[string]*sboccRow) {
	t.Helper()
	ev, err := os.Open(filepath.Join(dir, "h100", events))
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	var order []*sboccRow
	rows := map[string]*sboccRow{}
	sc := bufio.NewScanner(ev)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[0] != "cfg" {
			continue
		}
		r := &sboccRow{name: strings.TrimPrefix(f[1], "name="), dir: dir}
		block, err := strconv.Atoi(strings.TrimPrefix(f[4], "block="))
		if err != nil {
			t.Fatalf("%s: %q: %v", events, sc.Text(), err)
		}
		r.warpsPerBlock = block / 32
		order = append(order, r)
		rows[r.name] = r
	}
	for _, m := range ncuMetrics(t, filepath.Join(dir, "h100", ncu), len(order)) {
		switch m.name {
		case "gpu__time_duration.sum":
			order[m.launch].durationNS = m.value
		case "sm__warps_active.avg.pct_of_peak_sustained_active":
			order[m.launch].occ = m.value
		case "sm__cycles_elapsed.avg.per_second":
			order[m.launch].clockHz = m.value
		}
	}
	for _, r := range order {
		if r.durationNS == 0 || r.clockHz == 0 {
			t.Fatalf("%s: no ncu duration or clock", r.name)
		}
	}
	return order, rows
}

// readSbocc reads h100/events.txt (the configurations, in launch order),
// h100/ncu.csv and, for the configurations named, their warps' stamps in
// h100/stamps_ncu.tar.gz.
func readSbocc(t *testing.T, names map[string]bool) map[string]*sboccRow {
	t.Helper()
	_, rows := readSboccRun(t, "events.txt", "ncu.csv")
	eachTarGzFile(t, filepath.Join(sboccDir, "h100", "stamps_ncu.tar.gz"), func(path string, in io.Reader) {
		name := strings.TrimSuffix(filepath.Base(path), ".csv")
		r := rows[name]
		if r == nil || !names[name] {
			return
		}
		recs, err := csv.NewReader(in).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var ws []warpStamp
		for _, rec := range recs[1:] {
			var v [4]int64
			for i := range v {
				if v[i], err = strconv.ParseInt(rec[i], 10, 64); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
			}
			ws = append(ws, warpStamp{block: int(v[0]) / r.warpsPerBlock, sm: int(v[1]), c0: v[2], c1: v[3]})
		}
		sp := spreadOf(ws)
		r.endSpread, r.activeShare, r.recorded = sp.endSpread, sp.activeShare, true
	})
	for name := range names {
		if r := rows[name]; r == nil || !r.recorded || r.durationNS == 0 || r.clockHz == 0 {
			t.Fatalf("%s: not recorded (events.txt, ncu.csv, stamps_ncu.tar.gz)", name)
		}
	}
	return rows
}

// simulateSbocc runs one stamped configuration in timing mode at ncu's
// clock and returns its duration, achieved occupancy and warp stamps (the
// kernel's own, read back from its stamps buffer: clock64 is the model's
// cycle).
func simulateSbocc(t *testing.T, r *sboccRow) (ns, occ float64, ws []warpStamp) {
	t.Helper()
	out := timeLaunchFile(t, filepath.Join(r.dir, "launch", r.name+".json"), r.clockHz)
	tm := out.Launches[0].Grids[0].Timing
	occ = achievedOcc(tm)
	b, err := out.Buffer("stamps")
	if err != nil {
		return out.Launches[0].DurationNS, occ, nil // an unstamped configuration
	}
	if tm.Sampling != "" {
		t.Fatalf("%s: sampled (%s): the stamps of blocks not timed in detail mean nothing", r.name, tm.Sampling)
	}
	// %smid under the timing driver is not the SM the block ran on: take
	// it from the grid's block spans.
	sm := map[int]int{}
	for _, s := range tm.Blocks {
		sm[s.Block] = s.SM
	}
	for w := range len(b) / 40 {
		rec := b[w*40:]
		blk := w / r.warpsPerBlock
		ws = append(ws, warpStamp{block: blk, sm: sm[blk],
			c0: int64(binary.LittleEndian.Uint64(rec)), c1: int64(binary.LittleEndian.Uint64(rec[8:]))})
	}
	return out.Launches[0].DurationNS, occ, ws
}

// Bounds of TestShortBlockWarpSpread (at the change that added
// DRAMWaitSpread: w_b256_l16's warps of a block end a median 1529 cycles
// apart against the H100's 1070, active 0.956 of their block's residence
// against 0.952; without the spread 94 cycles and 0.996; at 4 and 8 floats
// a thread 501 and 799 cycles against 418 and 732, 0.926 and 0.949 against
// 0.926 and 0.937).
const sboccSpreadRatio, sboccShareError = 2.0, 0.03

// TestShortBlockWarpSpread checks the DRAM's service order
// (DRAMWaitSpread) against sbocc.cu's recording: in a wave of streaming
// blocks (1024 blocks of 256 threads copying 16 floats each, one load and
// one store an iteration) the H100's warps of one block end apart, a
// median 1070 cycles between the first and the last, because each
// request's wait behind the others is spread (one iteration takes 900
// cycles on average, 300 the standard deviation); the block's warps are
// active 95% of its residence, which is what its achieved occupancy
// lacks. The model's median spread must be within a factor
// sboccSpreadRatio of the H100's and the active share within
// sboccShareError. TestLongShortBlockWarpSpread adds the grids of 4 and 8
// floats a thread (several waves, blocks replaced), and reports the grid of
// 64 (a quarter of a wave, DRAM far from busy) unjudged: its warps' spread,
// a median 1796 cycles on the H100, is the load-independent part of the
// DRAM's latency spread, which the model does not have (164 cycles).
func TestShortBlockWarpSpread(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	checkWarpSpread(t, []string{"w_b256_l16"}, nil)
}

// TestLongShortBlockWarpSpread is TestShortBlockWarpSpread's check over
// the other stamped copies (CI's long step runs both: the one-wave copy is
// not simulated twice).
func TestLongShortBlockWarpSpread(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkWarpSpread(t, []string{"w_b256_l4", "w_b256_l8", "w_b256_l64"}, map[string]bool{"w_b256_l64": true})
}

// checkWarpSpread compares the configurations named, holding all but those
// reportOnly names to the bounds.
func checkWarpSpread(t *testing.T, names []string, reportOnly map[string]bool) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	rows := readSbocc(t, want)
	type result struct {
		ns, occ float64
		sp      warpSpread
	}
	res := make([]result, len(names))
	t.Run("configurations", func(t *testing.T) {
		for i, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				ns, occ, ws := simulateSbocc(t, rows[name])
				res[i] = result{ns, occ, spreadOf(ws)}
			})
		}
	})
	if t.Failed() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 ns | warpsim ns | H100 occupancy | warpsim | H100 end spread | warpsim | H100 active share | warpsim |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, name := range names {
		r, m := rows[name], res[i]
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.1f%% | %.1f%% | %.0f | %.0f | %.3f | %.3f |\n", name, r.durationNS, m.ns, r.occ, m.occ,
			r.endSpread, m.sp.endSpread, r.activeShare, m.sp.activeShare)
		if reportOnly[name] {
			continue
		}
		if ratio := m.sp.endSpread / r.endSpread; ratio > sboccSpreadRatio || ratio < 1/sboccSpreadRatio {
			t.Errorf("%s: a block's warps end a median %.0f cycles apart, the H100's %.0f (more than %.0f× off)", name, m.sp.endSpread, r.endSpread, sboccSpreadRatio)
		}
		if d := math.Abs(m.sp.activeShare - r.activeShare); d > sboccShareError {
			t.Errorf("%s: a block's warps active %.3f of its residence, the H100's %.3f (at most %.2f off)", name, m.sp.activeShare, r.activeShare, sboccShareError)
		}
	}
	t.Logf("\n%s", b.String())
}

// The fresh set's bounds (FRESH.md; at the change that added the DRAM's
// service order: occupancy 4.1 points off on average, duration MAE 7.3%;
// before it 7.3 points and 6.5%). Blocks of 128 threads copying 8 floats
// and of 64 copying 16 were then 10 and 14 points too full; with the L2's
// far partition (testdata/timing/shortocc) the set is 2.3 points off,
// within the 3, and its duration MAE 8.5% (testdata/timing/shortocc/JOURNAL.md).
// With the DRAM at its measured 3.0 TB/s (nineteenth round) 10.5% and 2.7
// points, every copy too fast (-4.9% to -22.3%).
const freshOccupancyError, freshDurationMAE = 3.0, 0.25

// TestLongFreshShortBlocks runs the fresh held-out set of FRESH.md
// (shortcopy at block sizes and lengths no recording had, recorded after
// DRAMWaitSpread was chosen) through the timing model at ncu's clock and
// holds its achieved-occupancy error and duration MAE.
func TestLongFreshShortBlocks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	order, _ := readSboccRun(t, "events2.txt", "ncu2.csv")
	type result struct{ ns, occ float64 }
	res := make([]result, len(order))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range order {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				ns, occ, _ := simulateSbocc(t, r)
				res[i] = result{ns, occ}
			})
		}
	})
	if t.Failed() {
		return
	}
	held := make([]heldOutRow, len(order))
	for i, r := range order {
		held[i] = heldOutRow{r.name, r.durationNS, r.occ, res[i].ns, res[i].occ}
	}
	checkHeldOut(t, "fresh set", held, freshOccupancyError, freshDurationMAE)
}

// heldOutRow is one held-out configuration: the H100's duration and
// achieved occupancy beside warpsim's.
type heldOutRow struct {
	name            string
	h100NS, h100Occ float64
	ns, occ         float64
}

// checkHeldOut logs rows as a table with their duration MAE and mean
// occupancy error, and holds those to maxOcc points and maxMAE.
func checkHeldOut(t *testing.T, label string, rows []heldOutRow, maxOcc, maxMAE float64) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 ns | warpsim ns | error | H100 occupancy | warpsim occupancy |\n|---|---:|---:|---:|---:|---:|\n")
	var dur, occ float64
	for _, r := range rows {
		e := (r.ns - r.h100NS) / r.h100NS
		dur += math.Abs(e)
		occ += math.Abs(r.occ - r.h100Occ)
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %+.1f%% | %.1f%% | %.1f%% |\n", r.name, r.h100NS, r.ns, 100*e, r.h100Occ, r.occ)
	}
	n := float64(len(rows))
	t.Logf("\n%s%d held-out configurations: duration MAE %.1f%%, occupancy error %.1f points", b.String(), len(rows), 100*dur/n, occ/n)
	if occ/n > maxOcc {
		t.Errorf("%s: achieved occupancy %.1f points off on average (at most %.1f)", label, occ/n, maxOcc)
	}
	if dur/n > maxMAE {
		t.Errorf("%s: duration MAE %.1f%% (at most %.0f%%)", label, 100*dur/n, 100*maxMAE)
	}
}
