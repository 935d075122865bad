package timing_test

import (
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/internal/testenv"
)

// aggInit is agg.cu's init_of: the buffer's starting word for op kind o.
func aggInit(o int) uint64 {
	switch o {
	case 8, 9, 10, 31, 37, 39:
		return 0x4B800000 // 2^24 as f32
	case 11:
		return 0x4340000000000000 // 2^53 as f64
	case 12, 13, 14:
		return 0x0F0F0F0F
	case 15, 16, 29, 28:
		return 50
	case 17, 18:
		return 5
	case 20:
		return 77
	}
	return 100
}

// aggInputs writes agg.cu's in[256] and fin[128] and returns their addresses.
func aggInputs(t *testing.T, m *microbench) (in, fin uint64) {
	t.Helper()
	in, _ = m.dev.Malloc(256 * 4)
	fin, _ = m.dev.Malloc(128 * 4)
	b := make([]byte, 256*4)
	for i := 0; i < 256; i++ {
		v := uint32(i) * 2654435761 >> 26
		if i == 200 {
			v = 1
		}
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	f := make([]byte, 128*4)
	for i := 0; i < 128; i++ {
		x := float32(1)
		if i&1 == 0 {
			x = float32(3.0e-8) * float32(i+1)
		}
		binary.LittleEndian.PutUint32(f[4*i:], math.Float32bits(x))
	}
	if err := m.dev.Write(in, b); err != nil {
		t.Fatal(err)
	}
	if err := m.dev.Write(fin, f); err != nil {
		t.Fatal(err)
	}
	return in, fin
}

func (m *microbench) fillWords(t *testing.T, addr uint64, n int, v uint64) {
	t.Helper()
	b := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	if err := m.dev.Write(addr, b); err != nil {
		t.Fatal(err)
	}
}

// aggLogged are agg.h100.txt's timing rows TestAtomicAggregationMicrobenchmarks
// logs and does not check, with why (A=<a> O=<o>, blocks).
var aggLogged = map[string]string{
	"A=0 O=2 132":  "red has no back-pressure in the model: its warps never wait for the L2 (601 cycles)",
	"A=0 O=5 132":  "red, as above",
	"A=0 O=10 132": "red, as above",
	"A=0 O=10 1":   "red, as above: one warp's 32 lanes of red.add.f32 on one word wait for the L2",
	"A=1 O=0 132":  "a word a block: the H100's 528 warps' updates over 1 KiB take 381 cycles (its L2 slices?), the model 96 (its device-wide atomic rate)",
	"A=5 O=0 132":  "16 words of two lanes each: not aggregated, the model's same-sector updates (pre-existing: 4,228 against 6,171)",
	"A=0 O=21 1":   "acq_rel: the model's fence and wait (1,179) against 956 here and 1,181 in testdata/timing/fences",
	"A=0 O=21 132": "acq_rel under load (1,845): the fences' loaded rows, not modelled",
	"A=0 O=24 1":   "shared memory: the PTX's consumer of each result is next to it, ptxas's SASS batches them",
	"A=0 O=24 132": "shared memory, as above",
	"A=0 O=34 1":   "shared memory, the full-warp scan's dependent SHFL.UP chain (272) not modelled",
	"A=0 O=34 132": "shared memory, as above",
}

// aggDurationLogged are the loaded launches whose grid durations are not
// checked against ncu's: the L2 slices' rate on one 1 KiB region (A=1),
// same-sector updates not aggregated (A=5), acq_rel under load, shared
// memory's latency (see aggLogged).
var aggDurationLogged = map[string]bool{"A=1 O=0": true, "A=5 O=0": true, "A=0 O=21": true, "A=0 O=24": true, "A=0 O=34": true}

// aggNCUDurations reads h100/ncu.csv: gpu__time_duration of each k_time
// kernel and grid ("k_time<0, 0> (132, 1, 1)"), the last launch's.
func aggNCUDurations(t *testing.T) map[string]float64 {
	t.Helper()
	f, err := os.Open("../../testdata/timing/atomagg/h100/ncu.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	d := map[string]float64{}
	for _, row := range rows {
		if len(row) != 15 || row[12] != "gpu__time_duration.sum" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(row[4], "void "), "(")
		v, err := strconv.ParseFloat(strings.ReplaceAll(row[14], ",", ""), 64)
		if err != nil || row[13] != "ns" {
			t.Fatalf("ncu.csv: %q", row)
		}
		d[name+" "+row[8]] = v
	}
	if len(d) != 36 {
		t.Fatalf("ncu.csv: %d kernel and grid pairs, want 36", len(d))
	}
	return d
}

// TestAtomicAggregationMicrobenchmarks runs nvcc's PTX of testdata/timing/
// atomagg/agg.cu's k_time kernels through the timing model as its main()
// does and compares the slowest warp's cycles a loop iteration with the
// H100's (h100/agg.h100.txt): one atomic a loop iteration from one warp and
// from 132 blocks of 4 warps; and the loaded grids' durations with ncu's
// (h100/ncu.csv) within 15% (red's too, whose warps the model does not
// hold back: the grid waits for the L2 all the same), but
// aggDurationLogged's. Loaded rows are checked within 10% (the
// aggregated atomics on one word: 767 cycles against 773; the unaggregated
// ones, 32 updates a warp: 24,425 against 24,676–24,681; f32, never
// aggregated, AtomicFloatNS: 59,217 against 59,230), one warp's within 15%
// or 5 cycles, but aggLogged's, which TestLongAtomicAggregationMicrobenchmarks
// runs and logs; the plain run leaves out the rows over 5,000 cycles an
// iteration (the grids of unaggregated and f32 updates on one word), which
// the long one checks.
func TestAtomicAggregationMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	checkAtomicAggregation(t, false)
}

// TestLongAtomicAggregationMicrobenchmarks is
// TestAtomicAggregationMicrobenchmarks with aggLogged's rows run and logged.
func TestLongAtomicAggregationMicrobenchmarks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkAtomicAggregation(t, true)
}

// aggTimeRow is one "time" line of agg.h100.txt: a k_time kernel, its
// grid, and the H100's cycles a loop iteration.
type aggTimeRow struct {
	line                 string
	a, o, blocks, warps  int
	want                 float64
	why                  string // aggLogged's reason; "" for a checked row
	unchecked, durChecks bool   // in aggLogged; the grid's duration checked against ncu's
}

// plainAggRow picks the rows the plain test runs: the checked rows, or
// those whose grid duration is checked, up to 5,000 cycles an iteration.
func plainAggRow(r aggTimeRow) bool {
	return !(r.unchecked && !r.durChecks || r.want > 5000)
}

// aggResult is a k_time row's simulation: the slowest warp's cycles an
// iteration and the second launch's duration.
type aggResult struct {
	cycles, ns float64
}

// checkAtomicAggregation checks the rows and durations above; with logged
// it also runs and logs aggLogged's rows. The plain test's rows are its
// simulation when both tests run in one process (simulateRowsShared).
func checkAtomicAggregation(t *testing.T, logged bool) {
	m := loadMicrobench(t, "../../testdata/timing/atomagg/", "agg")
	ncu := aggNCUDurations(t)
	var rows []aggTimeRow
	for _, line := range m.lines {
		if !strings.HasPrefix(line, "time ") {
			continue
		}
		r := aggTimeRow{line: line}
		if n, _ := fmt.Sscanf(line, "time A=%d O=%d blocks=%d warps=%d cycles_per=%f", &r.a, &r.o, &r.blocks, &r.warps, &r.want); n != 5 {
			t.Fatalf("cannot read %q", line)
		}
		r.why, r.unchecked = aggLogged[fmt.Sprintf("A=%d O=%d %d", r.a, r.o, r.blocks)]
		r.durChecks = r.blocks > 1 && !aggDurationLogged[fmt.Sprintf("A=%d O=%d", r.a, r.o)]
		if !plainAggRow(r) && !logged {
			continue // long-only: logged rows, and the grids of 32 or 64 updates a warp on one word (minutes of cycles)
		}
		rows = append(rows, r)
	}
	res := simulateRowsShared(t, "atomic aggregation", rows, plainAggRow, simulateAgg)
	checked := 0
	for i, r := range rows {
		got, line, want := res[i].cycles, r.line, r.want
		msg := fmt.Sprintf("%s: model %.2f (%+.1f%%)", line, got, 100*(got-want)/want)
		if r.blocks > 1 {
			// The grid's duration against ncu's (the second launch).
			ncuNS := ncu[fmt.Sprintf("k_time<%d, %d> (%d, 1, 1)", r.a, r.o, r.blocks)]
			ns := res[i].ns
			msg += fmt.Sprintf("; grid %.1f us, ncu %.1f (%+.1f%%)", ns/1000, ncuNS/1000, 100*(ns-ncuNS)/ncuNS)
			if r.durChecks && math.Abs(ns-ncuNS) > 0.15*ncuNS {
				t.Errorf("%s: the grid's duration more than 15%% off ncu's", msg)
			}
		}
		switch {
		case r.unchecked:
			t.Logf("%s; not checked: %s", msg, r.why)
			continue
		case r.blocks == 1 && math.Abs(got-want) > math.Max(0.15*want, 5):
			t.Errorf("%s: more than 15%% (and 5 cycles) off", msg)
		case r.blocks > 1 && math.Abs(got-want) > 0.10*want:
			t.Errorf("%s: more than 10%% off", msg)
		default:
			t.Log(msg)
		}
		checked++
	}
	if want := 24; logged && checked != want || !logged && checked < want/2 {
		t.Errorf("%d rows checked, want 24 (36 recorded, %d logged; the plain run leaves out those over 5,000 cycles an iteration)", checked, len(aggLogged))
	}
}

// simulateAgg runs rows of agg.cu's k_time one after another on a fresh
// H100 as its main() does (each launched twice, the second timed).
func simulateAgg(t *testing.T, rows []aggTimeRow) []aggResult {
	m := loadMicrobench(t, "../../testdata/timing/atomagg/", "agg")
	cyc, _ := m.dev.Malloc(132 * 4 * 8)
	// k_time<1,*> of 132 blocks reach word 131: the H100 run's buffer of
	// 128 words let blocks 128-131 write 32 bytes past its end, within
	// cudaMalloc's granularity (README.md).
	buf, _ := m.dev.Malloc(256 * 8)
	sink, _ := m.dev.Malloc(8)
	in, fin := aggInputs(t, m)
	const iters = 256
	var out []aggResult
	for _, r := range rows {
		m.fillWords(t, buf, 128, aggInit(r.o))
		kernel := fmt.Sprintf("_Z6k_timeILi%dELi%dEEvPxPyPKjPKfjS1_", r.a, r.o)
		args := params(cyc, buf, in, fin, uint32(0x33), sink)
		got := m.slowest(t, kernel, r.blocks, 32*r.warps, 0, 0, args, cyc, r.blocks*r.warps, 2) / iters
		out = append(out, aggResult{got, m.lastNS})
	}
	return out
}

// aggFnLine is one "fn A=<a> O=<o> final=<128 words> old=<128 words>" line
// of agg.h100.txt.
type aggFnLine struct {
	a, o       int
	final, old []uint64
}

func parseAggFn(t *testing.T, line string) aggFnLine {
	t.Helper()
	var l aggFnLine
	words := func(s string) []uint64 {
		var w []uint64
		for _, x := range strings.Split(s, ",") {
			var v uint64
			if _, err := fmt.Sscanf(x, "%x", &v); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			w = append(w, v)
		}
		return w
	}
	f := strings.Fields(line)
	if len(f) != 5 || !strings.HasPrefix(f[3], "final=") || !strings.HasPrefix(f[4], "old=") {
		t.Fatalf("cannot read %q", line)
	}
	fmt.Sscanf(f[1], "A=%d", &l.a)
	fmt.Sscanf(f[2], "O=%d", &l.o)
	l.final, l.old = words(f[3][6:]), words(f[4][4:])
	if len(l.final) != 128 || len(l.old) != 128 {
		t.Fatalf("%q: %d and %d words", line, len(l.final), len(l.old))
	}
	return l
}

// warpPatterns is, per warp of 32 threads, each lane's old value less the
// warp's first lane's (the order of the lanes' updates within the warp),
// sorted across warps (the order the warps reached the word in is the
// hardware's scheduling, not the atomic's semantics).
func warpPatterns(old []uint64) []string {
	var p []string
	for w := 0; w < len(old)/32; w++ {
		var b strings.Builder
		for l := 0; l < 32; l++ {
			fmt.Fprintf(&b, "%x,", old[32*w+l]-old[32*w])
		}
		p = append(p, b.String())
	}
	slices.Sort(p)
	return p
}

// ptxasForms reads classify.txt (the H100 machine's SASS, classify.py):
// per kernel, the aggregation forms ptxas made of its atomics.
func ptxasForms(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/timing/atomagg/classify.txt")
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[1], "agg=") {
			forms[f[0]] = f[1][4:]
		}
	}
	return forms
}

// TestAtomicAggregationResults runs agg.cu's k_fn kernels (nvcc's PTX: one
// atomic of each kind on each address form, <<<2, 64>>>) and compares with
// what the H100 returned, bit for bit: the buffer's final words, and, where
// ptxas made the warp's atomic one update (classify.txt: elect, hw, and
// full with every lane active), each warp's lanes' old values relative to
// its first lane's (lane l gets the elected lane's result plus the
// operands of the lanes below l; the engine performs the lanes in lane
// order), the warps' patterns compared as a set (the order the warps
// reached the word in is the hardware's scheduling). Where ptxas left the
// lanes' atomics apart, the H100 interleaves two warps' lanes at the word
// (fn A=3 O=0: from lane 9 the two blocks' first warps alternate), which
// the engine, one
// warp instruction at a time, does not: any order is the atomics'
// semantics, and those kernels' final words are compared. The recorded f32
// and f64 adds of 1.0 at 2^24 and 2^53 show no pre-summation in the warp
// (ptxas never aggregates floating point): each add is lost to rounding.
func TestAtomicAggregationResults(t *testing.T) {
	m := loadMicrobench(t, "../../testdata/timing/atomagg/", "agg")
	forms := ptxasForms(t)
	dev := m.dev
	buf, _ := dev.Malloc(128 * 8)
	out, _ := dev.Malloc(128 * 8)
	in, fin := aggInputs(t, m)
	n, patterns := 0, 0
	for _, line := range m.lines {
		if !strings.HasPrefix(line, "fn ") {
			continue
		}
		want := parseAggFn(t, line)
		init := aggInit(want.o)
		m.fillWords(t, buf, 128, init)
		if err := dev.Memset(out, 0xee, 128*8); err != nil {
			t.Fatal(err)
		}
		kernel := fmt.Sprintf("_Z4k_fnILi%dELi%dEEvPyS0_PKjPKfjiy", want.a, want.o)
		k, err := m.mod.Kernel(kernel)
		if err != nil {
			t.Fatal(err)
		}
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 2, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 64, Y: 1, Z: 1}}
		if _, err := dev.Launch(k, cfg, params(buf, out, in, fin, uint32(0x33), uint32(2), init)); err != nil {
			t.Fatalf("%s: %v", line[:12], err)
		}
		got := aggFnLine{a: want.a, o: want.o, final: make([]uint64, 128), old: make([]uint64, 128)}
		b := make([]byte, 128*8)
		for _, x := range []struct {
			addr uint64
			w    []uint64
		}{{buf, got.final}, {out, got.old}} {
			if err := dev.Read(x.addr, b); err != nil {
				t.Fatal(err)
			}
			for i := range x.w {
				x.w[i] = binary.LittleEndian.Uint64(b[8*i:])
			}
		}
		n++
		name := fmt.Sprintf("fn A=%d O=%d (%s)", want.a, want.o, forms[kernel])
		// exch of each lane's own value (O=33) ends with the last lane's.
		if want.o != 33 && !slices.Equal(got.final, want.final) {
			t.Errorf("%s: final words differ:\n got %x\nwant %x", name, got.final, want.final)
		}
		f := forms[kernel]
		if f == "" {
			t.Errorf("%s: not in classify.txt", name)
		}
		if f == "no" || f == "full" && want.a == 4 { // A=4: half the warp
			continue
		}
		patterns++
		if g, w := warpPatterns(got.old), warpPatterns(want.old); !slices.Equal(g, w) {
			t.Errorf("%s: the lanes' old values differ:\n got %x\nwant %x", name, got.old, want.old)
		}
	}
	if n != 85 {
		t.Errorf("%d k_fn launches compared, the recording has 85", n)
	}
	t.Logf("%d launches' final words and %d aggregated ones' lane results match the H100's", n, patterns)
}
