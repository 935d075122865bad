package timing_test

import (
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
	"sync"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// shortoccDir is the recording of shortocc.cu (issue 19: why short
// streaming blocks are emptier on the H100 than in the model; its
// README.md): microbenchmarks (m_*) and the fresh2 held-out set (g_*,
// FRESH2.md), one device call.
const shortoccDir = "../../testdata/timing/shortocc"

// stampedWarp is one warp's stamps in shortocc.cu's format: its SM,
// clock64 at entry and exit, and after each iteration (k_cpi).
type stampedWarp struct {
	warp, sm int
	c0, c1   int64
	it       []int64
}

// readShortoccStamps reads the H100's stamps of the configurations named
// (h100/stamps_ncu.tar.gz: Nsight Compute's last replay, at its base
// clock).
func readShortoccStamps(t *testing.T, names map[string]bool) map[string][]stampedWarp {
	t.Helper()
	out := map[string][]stampedWarp{}
	eachTarGzFile(t, filepath.Join(shortoccDir, "h100", "stamps_ncu.tar.gz"), func(path string, r io.Reader) {
		name := strings.TrimSuffix(filepath.Base(path), ".csv")
		if !names[name] {
			return
		}
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		recs, err := cr.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var ws []stampedWarp
		for _, rec := range recs[1:] {
			v := make([]int64, len(rec))
			for i := range rec {
				if v[i], err = strconv.ParseInt(rec[i], 10, 64); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
			}
			ws = append(ws, stampedWarp{warp: int(v[0]), sm: int(v[1]), c0: v[2], c1: v[3], it: v[6:]})
		}
		out[name] = ws
	})
	for n := range names {
		if out[n] == nil {
			t.Fatalf("%s: no stamps in h100/stamps_ncu.tar.gz", n)
		}
	}
	return out
}

// stampedRun is one stamped configuration's simulation, made once per
// package run (stampedRuns): TestShortOccFarPartition's two configurations
// are among TestLongShortOccStamps', which CI's WARPSIM_LONG=1 step runs in
// the same process. Only the results are kept, never the device.
type stampedRun struct {
	once    sync.Once
	ok      bool
	ns, occ float64
	ws      []stampedWarp
}

var (
	stampedMu   sync.Mutex
	stampedRuns = map[string]*stampedRun{}
)

// simulateStamped runs a stamped configuration of shortocc.cu in timing
// mode at ncu's clock and returns its duration, achieved occupancy and
// the stamps the kernel wrote (clock64 is the model's cycle; the SM is the
// one the grid's block spans give), iterations per warp L (0: none). The
// simulation is made once per package run for every test asking for the
// same launch file, clock and L (a launch file's result does not depend on
// what ran before it in the process); callers must not change ws.
func simulateStamped(t *testing.T, r *sboccRow, L int) (ns, occ float64, ws []stampedWarp) {
	t.Helper()
	path := filepath.Join(r.dir, "launch", r.name+".json")
	key := fmt.Sprintf("%s@%g L%d", filepath.Clean(path), r.clockHz, L)
	stampedMu.Lock()
	s := stampedRuns[key]
	if s == nil {
		s = &stampedRun{}
		stampedRuns[key] = s
	}
	stampedMu.Unlock()
	s.once.Do(func() {
		s.ns, s.occ, s.ws = simulateStampedOnce(t, r, L)
		s.ok = true
	})
	if !s.ok {
		t.Fatalf("%s: the shared simulation failed in the test that made it", r.name)
	}
	return s.ns, s.occ, s.ws
}

// simulateStampedOnce is simulateStamped's simulation.
func simulateStampedOnce(t *testing.T, r *sboccRow, L int) (ns, occ float64, ws []stampedWarp) {
	t.Helper()
	out := timeLaunchFile(t, filepath.Join(r.dir, "launch", r.name+".json"), r.clockHz)
	tm := out.Launches[0].Grids[0].Timing
	occ = achievedOcc(tm)
	if tm.Sampling != "" {
		// Blocks not timed in detail have no stamps worth reading.
		return out.Launches[0].DurationNS, occ, nil
	}
	b, err := out.Buffer("stamps")
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	var it []byte
	if L > 0 {
		if it, err = out.Buffer("iters"); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
	}
	sm := map[int]int{}
	for _, s := range tm.Blocks {
		sm[s.Block] = s.SM
	}
	for w := range len(b) / 40 {
		rec := b[w*40:]
		s := stampedWarp{warp: w, sm: sm[w/r.warpsPerBlock],
			c0: int64(binary.LittleEndian.Uint64(rec)), c1: int64(binary.LittleEndian.Uint64(rec[8:]))}
		for j := range L {
			s.it = append(s.it, int64(binary.LittleEndian.Uint64(it[(w*L+j)*8:])))
		}
		ws = append(ws, s)
	}
	return out.Launches[0].DurationNS, occ, ws
}

// lifeSplit is how a grid's blocks' lifetimes split: the median lifetime
// (first warp's entry to last warp's exit, cycles) of the shorter-lived
// half of the blocks and of the longer-lived half. The H100's blocks that
// each copy one 4 KiB page (m_w_b64_l16) are two kinds, those whose page
// is homed in the L2 partition near their SM and the others: 11 500 and
// 15 000 cycles.
func lifeSplit(ws []stampedWarp, warpsPerBlock int) (short, long float64) {
	type span struct{ c0, c1 int64 }
	blocks := map[int]*span{}
	for _, w := range ws {
		b := blocks[w.warp/warpsPerBlock]
		if b == nil {
			b = &span{w.c0, w.c1}
			blocks[w.warp/warpsPerBlock] = b
		}
		b.c0, b.c1 = min(b.c0, w.c0), max(b.c1, w.c1)
	}
	if len(blocks) == 0 {
		return 0, 0
	}
	var life []float64
	for _, b := range blocks {
		life = append(life, float64(b.c1-b.c0))
	}
	slices.Sort(life)
	n := len(life)
	return life[n/4], life[3*n/4]
}

// iterQuantiles are the 25th, 50th and 75th percentiles of the time a
// load-store iteration takes (k_cpi's stamps: one iteration's stamp to the
// next, the first left out: it holds the warp's start).
func iterQuantiles(ws []stampedWarp) [3]float64 {
	var d []float64
	for _, w := range ws {
		for j := 1; j < len(w.it); j++ {
			d = append(d, float64(w.it[j]-w.it[j-1]))
		}
	}
	slices.Sort(d)
	if len(d) == 0 {
		return [3]float64{}
	}
	return [3]float64{d[len(d)/4], d[len(d)/2], d[3*len(d)/4]}
}

// dumpStamps writes the model's stamps as shortocc.cu writes the H100's
// (clocks relative to the SM's earliest entry), to compare them with
// analyze.py, when WARPSIM_SHORTOCC_DUMP names a folder.
func dumpStamps(t *testing.T, name string, ws []stampedWarp) {
	dir := os.Getenv("WARPSIM_SHORTOCC_DUMP")
	if dir == "" {
		return
	}
	base := map[int]int64{}
	for _, w := range ws {
		if b, ok := base[w.sm]; !ok || w.c0 < b {
			base[w.sm] = w.c0
		}
	}
	var b strings.Builder
	b.WriteString("warp,sm,c0,c1,g0,g1\n")
	for _, w := range ws {
		o := base[w.sm]
		fmt.Fprintf(&b, "%d,%d,%d,%d,0,0", w.warp, w.sm, w.c0-o, w.c1-o)
		for _, x := range w.it {
			fmt.Fprintf(&b, ",%d", x-o)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name+".csv"), []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

// shortoccRows reads shortocc's device run: every configuration, by name.
func shortoccRows(t *testing.T) ([]*sboccRow, map[string]*sboccRow) {
	t.Helper()
	return readCfgRun(t, shortoccDir, "events.txt", "ncu.csv")
}

// shortOccStampedError bounds the stamped copies' (m_w_*) achieved
// occupancy error on average (at the change that added the L2's far
// partition: 3.5 points; before it 4.4).
const shortOccStampedError = 4.0

// TestLongShortOccStamps runs stamped microbenchmarks of shortocc.cu through
// the timing model (WARPSIM_SHORTOCC_FILTER=prefix picks some) and reports
// how their blocks' lifetimes split and their iterations spread against
// the H100's; the stamped copies' occupancy error is held within
// shortOccStampedError (the per-iteration copies, k_cpi, are reported
// only: the model's register estimate for k_cpi, above ptxas's 32, halves
// their warps an SM at 8 blocks of 256 and more).
func TestLongShortOccStamps(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	order, _ := shortoccRows(t)
	want := map[string]bool{}
	var rows []*sboccRow
	for _, r := range order {
		if strings.HasPrefix(r.name, "m_w_") || strings.HasPrefix(r.name, "m_i_") {
			if f := os.Getenv("WARPSIM_SHORTOCC_FILTER"); f != "" && !strings.HasPrefix(r.name, f) {
				continue
			}
			want[r.name] = true
			rows = append(rows, r)
		}
	}
	h := readShortoccStamps(t, want)
	type result struct {
		ns, occ     float64
		short, long float64
		q           [3]float64
	}
	res := make([]result, len(rows))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				L := 0
				if strings.HasPrefix(r.name, "m_i_") {
					L = 16
				}
				ns, occ, ws := simulateStamped(t, r, L)
				dumpStamps(t, r.name, ws)
				s, l := lifeSplit(ws, r.warpsPerBlock)
				res[i] = result{ns, occ, s, l, iterQuantiles(ws)}
			})
		}
	})
	if t.Failed() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 ns | warpsim | H100 occupancy | warpsim | H100 block life p25 / p75 | warpsim | H100 iteration p25 / p50 / p75 | warpsim |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	occErr, nw := 0.0, 0
	for i, r := range rows {
		hs, hl := lifeSplit(h[r.name], r.warpsPerBlock)
		hq, m := iterQuantiles(h[r.name]), res[i]
		if strings.HasPrefix(r.name, "m_w_") {
			occErr += math.Abs(m.occ - r.occ)
			nw++
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.1f%% | %.1f%% | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f / %.0f | %.0f / %.0f / %.0f |\n",
			r.name, r.durationNS, m.ns, r.occ, m.occ, hs, hl, m.short, m.long, hq[0], hq[1], hq[2], m.q[0], m.q[1], m.q[2])
	}
	t.Logf("\n%s", b.String())
	if nw > 0 && os.Getenv("WARPSIM_SHORTOCC_FILTER") == "" {
		t.Logf("%d stamped copies: achieved occupancy %.1f points off on average", nw, occErr/float64(nw))
		if occErr/float64(nw) > shortOccStampedError {
			t.Errorf("the stamped copies' achieved occupancy is %.1f points off on average (at most %.1f)", occErr/float64(nw), shortOccStampedError)
		}
	}
}

// Bounds of TestShortOccFarPartition (at the change that added the L2's
// far partition, DRAMFarNS and FarBytesPerNS: m_w_b64_l16's blocks live
// 12 653 and 16 269 cycles (p25, p75) against the H100's 11 763 and
// 15 301, achieved occupancy 82.0% against 78.4%; one block an SM, an
// iteration takes 544 / 698 cycles (p25 / p75) against 532 / 696; without
// the partition 13 577 / 15 812, 88.7%, and 621 / 776).
const farSplitError, farOccupancyError, farIterError = 0.05, 5.0, 0.06

// TestShortOccFarPartition checks the L2's far partition (DRAMFarNS,
// FarBytesPerNS, farPage, smSide) against shortocc.cu's stamps. With one
// block an SM (m_i_b256_l16_g132) a load-store iteration takes 532 or 687
// cycles (medians) as its line is homed in the L2 partition near its SM or
// far from it, so its p25 and p75 are 532 and 696; the model's must be
// within farIterError. In a wave of 4096 blocks each copying its own 4 KiB
// page (m_w_b64_l16) a block's page is near or far for all its 16
// iterations, so the blocks live 11 763 or 15 301 cycles (p25, p75; the
// far ones slowed more under load, the link between the partitions busy)
// and the SMs' last warps trickle out: 78.4% achieved occupancy where the
// model without the partition said 88.7%. The model's ratio p75/p25 must
// be within farSplitError of the H100's and its occupancy within
// farOccupancyError points.
func TestShortOccFarPartition(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	_, rows := shortoccRows(t)
	names := []string{"m_i_b256_l16_g132", "m_w_b64_l16"}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	h := readShortoccStamps(t, want)
	type result struct {
		occ float64
		ws  []stampedWarp
	}
	res := make([]result, len(names))
	t.Run("configurations", func(t *testing.T) {
		for i, n := range names {
			t.Run(n, func(t *testing.T) {
				t.Parallel()
				L := 0
				if strings.HasPrefix(n, "m_i_") {
					L = 16
				}
				_, occ, ws := simulateStamped(t, rows[n], L)
				res[i] = result{occ, ws}
			})
		}
	})
	if t.Failed() {
		return
	}
	hq, mq := iterQuantiles(h[names[0]]), iterQuantiles(res[0].ws)
	t.Logf("%s: an iteration's p25 / p50 / p75 %.0f / %.0f / %.0f cycles, the H100's %.0f / %.0f / %.0f", names[0], mq[0], mq[1], mq[2], hq[0], hq[1], hq[2])
	for _, k := range []int{0, 2} {
		if e := math.Abs(mq[k]-hq[k]) / hq[k]; e > farIterError {
			t.Errorf("%s: an iteration's p%d %.0f cycles, the H100's %.0f (more than %.0f%% off)", names[0], 25*(k+1), mq[k], hq[k], 100*farIterError)
		}
	}
	r := rows[names[1]]
	hs, hl := lifeSplit(h[names[1]], r.warpsPerBlock)
	ms, ml := lifeSplit(res[1].ws, r.warpsPerBlock)
	t.Logf("%s: blocks live %.0f / %.0f cycles (p25 / p75), the H100's %.0f / %.0f; achieved occupancy %.1f%%, the H100's %.1f%%", names[1], ms, ml, hs, hl, res[1].occ, r.occ)
	if e := math.Abs(ml/ms-hl/hs) / (hl / hs); e > farSplitError {
		t.Errorf("%s: the long-lived blocks live %.2f× the short-lived ones, on the H100 %.2f× (more than %.0f%% off)", names[1], ml/ms, hl/hs, 100*farSplitError)
	}
	if d := math.Abs(res[1].occ - r.occ); d > farOccupancyError {
		t.Errorf("%s: achieved occupancy %.1f%%, the H100's %.1f%% (more than %.0f points off)", names[1], res[1].occ, r.occ, farOccupancyError)
	}
}

// The fresh2 set's bounds (FRESH2.md's rule: the targets where the
// set meets them, else what it measured when the change went in, rounded
// up). Since the model keeps guarded loads in flight together and the
// register estimate gives g_sum ptxas's 34 (testdata/timing/mlp,
// its JOURNAL.md): achieved occupancy 2.3 points off on average
// (6.7 before), within the 3; duration MAE 11.2% (11.8%), not
// within its 10%: the sums and triads read DRAM slower than the H100.
// With the DRAM at its measured 3.0 TB/s and the partitions' link at 2190
// GB/s (nineteenth round) 8.1% and 2.2 points: the 10% and 3.
const fresh2OccupancyError, fresh2DurationMAE = 3.0, 0.10

// TestLongFresh2ShortBlocks runs the second fresh held-out set (FRESH2.md:
// streaming kernels of short blocks at other block sizes, lengths, grid
// sizes and load/store mixes, written down and committed before the H100
// recorded them, never fitted on) through the timing model at ncu's clock
// and holds its achieved-occupancy error and duration MAE.
func TestLongFresh2ShortBlocks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	order, _ := shortoccRows(t)
	var rows []*sboccRow
	for _, r := range order {
		if strings.HasPrefix(r.name, "g_") {
			rows = append(rows, r)
		}
	}
	if len(rows) != 14 {
		t.Fatalf("%d fresh2 configurations recorded, FRESH2.md has 14", len(rows))
	}
	type result struct{ ns, occ float64 }
	res := make([]result, len(rows))
	t.Run("configurations", func(t *testing.T) {
		for i, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				out := timeLaunchFile(t, filepath.Join(r.dir, "launch", r.name+".json"), r.clockHz)
				res[i] = result{out.Launches[0].DurationNS, achievedOcc(out.Launches[0].Grids[0].Timing)}
			})
		}
	})
	if t.Failed() {
		return
	}
	held := make([]heldOutRow, len(rows))
	for i, r := range rows {
		held[i] = heldOutRow{r.name, r.durationNS, r.occ, res[i].ns, res[i].occ}
	}
	checkHeldOut(t, "fresh2", held, fresh2OccupancyError, fresh2DurationMAE)
}
