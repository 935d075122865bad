package main

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/examples/lessons"
	"github.com/warpsim/warpsim/metrics"
)

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var reportDir string
	var only []string
	var full bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the classic CUDA lessons from embedded PTX and show what an H100 would show",
		Long: `demo runs the lessons on warp divergence, parallel reduction and thread
coarsening from the PTX nvcc emitted for them (embedded: no clang, no GPU),
checks each kernel's result, and prints nvprof-style metrics beside what
Nsight Compute measured on a real H100; then dynamic parallelism, time,
tensor cores and occupancy. The lessons run at the same time, one per core,
and print in order.
--full adds what takes the timing model longest: the K40's nested
reductions (Lesson 4b: 32,776 device-launched grids) and the coarsening
lesson at 256×256 (about twice the tour's CPU time).
--lesson NAME runs only the lessons named (` + "`" + `--lesson time,tensor` + "`" + `; the names:
` + demoLessonNames() + `).
With --report DIR it writes instead one HTML report per lesson (timing
mode, per-line counts; docs/report.md) and its profile JSON.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if reportDir != "" {
				return runDemoReports(stdout, reportDir)
			}
			chosen, err := pickDemoLessons(only, full)
			if err != nil {
				return err
			}
			return runDemo(stdout, chosen, demoScope{full: full, tour: len(only) == 0})
		},
	}
	cmd.Flags().StringVar(&reportDir, "report", "", "write one HTML report per lesson (and its profile JSON) into DIR instead of the tables")
	cmd.Flags().StringSliceVar(&only, "lesson", nil, "run only these lessons (comma-separated or repeated): "+demoLessonNames())
	cmd.Flags().BoolVar(&full, "full", false, "every lesson in full: the K40's nested reductions and the 256×256 coarsening rows too")
	return cmd
}

// demoScope is how much of each lesson a demo runs: full is --full; tour
// is the default run (no --lesson), which says at its end what --full adds.
type demoScope struct {
	full, tour bool
}

// demoLesson is one lesson of `warpsim demo`, in the order it prints.
// A fullOnly lesson runs with --full or when --lesson names it, not in the
// default tour; full tells a lesson to run its --full rows too.
type demoLesson struct {
	name     string
	fullOnly bool
	run      func(w io.Writer, a *arch.Arch, ncu ncuData, full bool) error
}

// sameInFull adapts a lesson that runs the same rows with and without --full.
func sameInFull(run func(io.Writer, *arch.Arch, ncuData) error) func(io.Writer, *arch.Arch, ncuData, bool) error {
	return func(w io.Writer, a *arch.Arch, ncu ncuData, _ bool) error { return run(w, a, ncu) }
}

// demoLessons are the demo's lessons; --lesson picks among them by name.
var demoLessons = []demoLesson{
	{"divergence", false, sameInFull(demoDivergence)},
	{"reduce", false, sameInFull(demoReduce)},
	{"coarsen", false, sameInFull(demoCoarsen)},
	{"nested", false, sameInFull(demoNested)},
	{"nested-reduce", true, func(w io.Writer, a *arch.Arch, _ ncuData, _ bool) error { return demoNestedReduce(w, a) }},
	{"time", false, demoTiming},
	{"tensor", false, sameInFull(demoTensor)},
	{"occupancy", false, func(w io.Writer, _ *arch.Arch, _ ncuData, _ bool) error { return demoOccupancy(w) }},
}

func demoLessonNames() string {
	names := make([]string, len(demoLessons))
	for i, l := range demoLessons {
		names[i] = l.name
	}
	return strings.Join(names, ", ")
}

// pickDemoLessons returns the lessons --lesson names, in the demo's order
// (with none named, the tour's, or every lesson with --full), or a
// bad-input error naming an unknown one.
func pickDemoLessons(names []string, full bool) ([]demoLesson, error) {
	if len(names) == 0 {
		var chosen []demoLesson
		for _, l := range demoLessons {
			if full || !l.fullOnly {
				chosen = append(chosen, l)
			}
		}
		return chosen, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !slices.ContainsFunc(demoLessons, func(l demoLesson) bool { return l.name == n }) {
			return nil, badInputf("--lesson %q: no such lesson (the lessons: %s)", n, demoLessonNames())
		}
		want[n] = true
	}
	var chosen []demoLesson
	for _, l := range demoLessons {
		if want[l.name] {
			chosen = append(chosen, l)
		}
	}
	return chosen, nil
}

// demoMetrics are the metrics the lessons are about, in table order.
var demoMetrics = []string{
	"branch_efficiency", "divergent_branch", "warp_execution_efficiency", "inst_per_warp",
	"gld_efficiency", "gld_transactions",
}

// gridTotals are the demo metrics that are totals over the whole grid: the
// H100's figure is comparable only when it ran the same size.
var gridTotals = map[string]bool{"divergent_branch": true, "gld_transactions": true}

func runDemo(w io.Writer, chosen []demoLesson, scope demoScope) error {
	h100 := arch.MustLookup("h100")
	ncu, err := parseNcu(lessons.H100NcuCSV())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "warpsim demo: CUDA lessons run from the PTX nvcc 13 emitted for them (-O3, sm_90),\n")
	fmt.Fprintf(w, "simulated as an %s. The H100 column is what Nsight Compute measured on the real GPU.\n", h100.FullName)
	fmt.Fprintf(w, "warpsim counts PTX instructions, the H100 SASS ones: compare ratios, not raw counts.\n\n")
	// Each lesson runs on devices of its own, so they run at the same time,
	// at most one per core, each into its own buffer; the buffers print in
	// the lessons' order as soon as every lesson before has printed.
	type result struct {
		out bytes.Buffer
		err error
	}
	results := make([]result, len(chosen))
	done := make([]chan struct{}, len(chosen))
	for i := range done {
		done[i] = make(chan struct{})
	}
	go func() { // starts the lessons in order, as cores come free
		sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
		for i, l := range chosen {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; close(done[i]) }()
				results[i].err = l.run(&results[i].out, h100, ncu, scope.full)
			}()
		}
	}()
	for i := range chosen {
		<-done[i]
		if results[i].err != nil {
			for _, d := range done[i+1:] { // let the others finish before returning
				<-d
			}
			return results[i].err
		}
		if _, err := w.Write(results[i].out.Bytes()); err != nil {
			return err
		}
	}
	if scope.tour && !scope.full {
		_, err = fmt.Fprintf(w, "\nThis was the tour. `warpsim demo --full` adds what takes the timing model longest: Lesson 4b, the\n"+
			"K40's nested reductions (32,776 device-launched grids), and the coarsening lesson at 256×256.\n")
	}
	return err
}

// demoDevice loads a lesson's embedded PTX on a fresh simulated H100.
func demoDevice(w io.Writer, a *arch.Arch, lesson string) (*warpsim.Device, *warpsim.Module, error) {
	src, err := lessons.PTX(lesson)
	if err != nil {
		return nil, nil, err
	}
	dev := warpsim.NewDevice(a, warpsim.Options{Stdout: w})
	mod, err := dev.LoadModule(lesson+".sm90.ptx", src)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the %s lesson: %w", lesson, err)
	}
	return dev, mod, nil
}

// demoLaunch runs one kernel; params are the arguments' bytes in order.
func demoLaunch(dev *warpsim.Device, mod *warpsim.Module, kernel string, grid, block uint32, params ...[]byte) (*warpsim.LaunchResult, error) {
	k, err := mod.Kernel(kernel)
	if err != nil {
		return nil, err
	}
	ps := k.Params()
	if len(ps) != len(params) {
		return nil, fmt.Errorf("warpsim internal error: %s takes %d parameters, the demo passes %d", kernel, len(ps), len(params))
	}
	buf := make([]byte, k.ParamBytes())
	for i, p := range ps {
		copy(buf[p.Offset:], params[i])
	}
	res, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: grid, Y: 1, Z: 1}, Block: warpsim.Dim3{X: block, Y: 1, Z: 1}}, buf)
	if err != nil {
		var fault *warpsim.Fault
		if errors.As(err, &fault) {
			return nil, kernelFault(err)
		}
		return nil, err
	}
	return res, nil
}

func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// demoRow is one kernel of a lesson table.
type demoRow struct {
	kernel string
	result string // the lesson program's own check
	ours   []metrics.Metric
	theirs []metrics.Metric // the H100's, nil when not measured
	// notComparable names the metrics whose H100 figure is left out because
	// the H100 ran another problem size.
	notComparable map[string]bool
}

// writeDemoTable prints kernels in the layout of nvprof --metrics, with a
// warpsim and an H100 column.
func writeDemoTable(w io.Writer, rows []demoRow) {
	fmt.Fprintf(w, "%30s%32s%12s%12s\n", "Metric Name", "Metric Description", "warpsim", "H100")
	for _, r := range rows {
		fmt.Fprintf(w, "    Kernel: %s    %s\n", r.kernel, r.result)
		for i, m := range r.ours {
			theirs := "-"
			if r.theirs != nil && !r.notComparable[m.Name] {
				theirs = demoValue(r.theirs[i])
			}
			fmt.Fprintf(w, "%30s%32s%12s%12s\n", m.Name, m.Description, demoValue(m), theirs)
		}
	}
}

func demoValue(m metrics.Metric) string {
	if m.Kind == metrics.Ratio {
		return strconv.FormatFloat(m.Value, 'f', 2, 64)
	}
	return metrics.FormatValue(m.Kind, m.Value)
}

// demoCompute evaluates the demo's metrics for a launch.
func demoCompute(c metrics.Counters, a *arch.Arch) []metrics.Metric {
	defs, err := metrics.ParseList(strings.Join(demoMetrics, ","))
	if err != nil {
		panic("warpsim internal error: " + err.Error())
	}
	return metrics.Select(metrics.Compute(c, a), defs)
}

// ncuData is Nsight Compute's measurements: program → launch → metric → value.
type ncuData map[string]map[string]map[string]float64

func parseNcu(data []byte) (ncuData, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("warpsim internal error: the embedded H100 measurements: %v", err)
	}
	d := ncuData{}
	for _, r := range rows[1:] {
		if len(r) < 8 {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[7], ",", ""), 64)
		if err != nil {
			continue
		}
		if d[r[0]] == nil {
			d[r[0]] = map[string]map[string]float64{}
		}
		if d[r[0]][r[1]] == nil {
			d[r[0]][r[1]] = map[string]float64{}
		}
		d[r[0]][r[1]][r[5]] = v
	}
	return d, nil
}

// metrics computes the demo metrics from the H100's SASS counts with the
// same formulas; global load efficiency is ncu's own (it measures the bytes
// per sector that the formula needs).
func (d ncuData) metrics(program, launch string, a *arch.Arch) []metrics.Metric {
	m := d[program][launch]
	if m == nil {
		return nil
	}
	c := metrics.Counters{
		InstExecuted:       uint64(m["smsp__inst_executed.sum"]),
		ThreadInstExecuted: uint64(m["smsp__thread_inst_executed.sum"]),
		Branch:             uint64(m["smsp__sass_branch_targets.sum"]),
		DivergentBranch:    uint64(m["smsp__sass_branch_targets_threads_divergent.sum"]),
		GldRequests:        uint64(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]),
		GldTransactions:    uint64(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]),
		WarpsLaunched:      uint64(m["smsp__warps_launched.sum"]),
	}
	ms := demoCompute(c, a)
	for i := range ms {
		if ms[i].Name == "gld_efficiency" {
			ms[i].Value = m["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"]
		}
	}
	return ms
}

// demoDivergence is the divergence lesson as `divergence 64 64` ran on the
// H100 (h100_seed_runs.txt): each kernel fills 64 floats with 100 or 200.
func demoDivergence(w io.Writer, a *arch.Arch, ncu ncuData) error {
	const size, block = 64, 64
	// What the H100 printed for `divergence 64 64`.
	h100 := []struct {
		kernel string
		sum    float64
		first8 string
	}{
		{"warmingup", 9600, "100 100 100 100 100 100 100 100"},
		{"mathKernel1", 9600, "100 200 100 200 100 200 100 200"},
		{"mathKernel2", 9600, "100 100 100 100 100 100 100 100"},
		{"mathKernel3", 9600, "100 200 100 200 100 200 100 200"},
		{"mathKernel4", 12800, "200 200 200 200 200 200 200 200"},
	}
	fmt.Fprintf(w, "== Lesson 1: warp divergence (divergence.cu), %d threads in blocks of %d ==\n", size, block)
	dev, mod, err := demoDevice(w, a, "divergence")
	if err != nil {
		return err
	}
	d, err := dev.Malloc(size * 4)
	if err != nil {
		return err
	}
	var rows []demoRow
	for i, want := range h100 {
		if err := dev.Memset(d, 0xff, size*4); err != nil {
			return err
		}
		res, err := demoLaunch(dev, mod, want.kernel, (size+block-1)/block, block, u64(d))
		if err != nil {
			return err
		}
		out := make([]byte, size*4)
		if err := dev.Read(d, out); err != nil {
			return err
		}
		sum := 0.0
		var first8 []string
		for j := 0; j < size; j++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(out[4*j:]))
			sum += float64(v)
			if j < 8 {
				first8 = append(first8, strconv.FormatFloat(float64(v), 'g', 6, 32))
			}
		}
		got := strings.Join(first8, " ")
		check := "OK, as on the H100"
		if sum != want.sum || got != want.first8 {
			check = fmt.Sprintf("MISMATCH: the H100 printed sum %.1f first8: %s", want.sum, want.first8)
		}
		rows = append(rows, demoRow{
			kernel: want.kernel,
			result: fmt.Sprintf("sum %.1f first8: %s  %s", sum, got, check),
			ours:   demoCompute(res.Counters, a),
			theirs: ncu.metrics("divergence_64", strconv.Itoa(i), a),
		})
	}
	writeDemoTable(w, rows)
	fmt.Fprintf(w, "Lesson: nvcc -O3 turned every if/else into a predicated select (selp), so no warp branches and\n"+
		"none diverges, even in mathKernel1 where even and odd threads take different sides.\n\n")
	return nil
}

// demoReduceLog2 is the reduction lesson's array size, 2^20 ints (the H100
// ran 2^24; the per-warp ratios do not depend on the size).
const demoReduceLog2 = 20

// demoReduce is the reduction lesson, `reduce 512 20`: three ways to sum
// blocks of 512 ints in global memory.
func demoReduce(w io.Writer, a *arch.Arch, ncu ncuData) error {
	const block = 512
	size := 1 << demoReduceLog2
	grid := size / block
	host := make([]byte, 4*size)
	cpu := int64(0)
	for i := 0; i < size; i++ {
		binary.LittleEndian.PutUint32(host[4*i:], uint32(i&0xff))
		cpu += int64(i & 0xff)
	}
	fmt.Fprintf(w, "== Lesson 2: parallel reduction (reduce.cu), 2^%d ints, blocks of %d ==\n", demoReduceLog2, block)
	fmt.Fprintf(w, "array %d grid %d block %d cpu_sum %d\n", size, grid, block, cpu)
	dev, mod, err := demoDevice(w, a, "reduce")
	if err != nil {
		return err
	}
	in, err := dev.Malloc(uint64(4 * size))
	if err != nil {
		return err
	}
	out, err := dev.Malloc(uint64(4 * grid))
	if err != nil {
		return err
	}
	var rows []demoRow
	// ncu's launch numbers in reduce_512: 0 is the warm-up.
	for i, kernel := range []string{"reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"} {
		if err := dev.Write(in, host); err != nil {
			return err
		}
		res, err := demoLaunch(dev, mod, kernel, uint32(grid), block, u64(in), u64(out), u32(uint32(size)))
		if err != nil {
			return err
		}
		partial := make([]byte, 4*grid)
		if err := dev.Read(out, partial); err != nil {
			return err
		}
		gpu := int64(0)
		for j := 0; j < grid; j++ {
			gpu += int64(int32(binary.LittleEndian.Uint32(partial[4*j:])))
		}
		check := "OK"
		if gpu != cpu {
			check = "MISMATCH"
		}
		rows = append(rows, demoRow{
			kernel: kernel,
			result: fmt.Sprintf("gpu_sum %d %s", gpu, check),
			ours:   demoCompute(res.Counters, a),
			theirs: ncu.metrics("reduce_512", strconv.Itoa(i+1), a),
			// The H100 ran 2^24 ints: per-warp figures compare, grid totals do not.
			notComparable: gridTotals,
		})
	}
	writeDemoTable(w, rows)
	fmt.Fprintf(w, "Lesson: reduceNeighbored leaves threads of every warp idle (tid %% (2*stride)), so its branches diverge\n"+
		"and its warps run part-empty; reduceNeighboredLess packs the working threads into whole warps, and\n"+
		"reduceInterleaved also reads contiguous addresses: fewer instructions per warp, higher efficiencies.\n"+
		"(reduceNeighbored's warp execution efficiency is higher on the H100: its SASS computes tid %% (2*stride)\n"+
		"with ~18 full-warp instructions per loop iteration, where the PTX has one rem.u32.)\n\n")
	return nil
}

// demoCoarsenN is the matrix size of the coarsening lesson (the H100 ran 1024 under ncu).
const demoCoarsenN = 128

// demoCoarsen is the thread-coarsening lesson: the same tiled matrix
// product with each thread computing CF = 1, 2, 4 outputs.
func demoCoarsen(w io.Writer, a *arch.Arch, ncu ncuData) error {
	const n, tile = demoCoarsenN, 16
	fmt.Fprintf(w, "== Lesson 3: thread coarsening (coarsen.cu), %d×%d matrices, %d×%d tiles ==\n", n, n, tile, tile)
	// The lesson's inputs: xs32 from seed 12345, (x % 1000) / 500.0f - 1.0f.
	m := make([]float32, n*n)
	nn := make([]float32, n*n)
	s := uint32(12345)
	xs32 := func() uint32 { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s }
	for i := range m {
		m[i] = float32(xs32()%1000)/500 - 1
	}
	for i := range nn {
		nn[i] = float32(xs32()%1000)/500 - 1
	}
	dev, mod, err := demoDevice(w, a, "coarsen")
	if err != nil {
		return err
	}
	bufs := make([]uint64, 3)
	for i := range bufs {
		if bufs[i], err = dev.Malloc(4 * n * n); err != nil {
			return err
		}
	}
	if err := dev.Write(bufs[0], floatBytes(m)); err != nil {
		return err
	}
	if err := dev.Write(bufs[1], floatBytes(nn)); err != nil {
		return err
	}
	var rows []demoRow
	for _, cf := range []int{1, 2, 4} {
		kernel := fmt.Sprintf("_Z12matmulCoarseILi%dELi%dEEvPKfS1_Pfi", tile, cf)
		k, err := mod.Kernel(kernel)
		if err != nil {
			return err
		}
		params := make([]byte, k.ParamBytes())
		vals := [][]byte{u64(bufs[0]), u64(bufs[1]), u64(bufs[2]), u32(n)}
		for i, p := range k.Params() {
			copy(params[p.Offset:], vals[i])
		}
		cfg := warpsim.LaunchConfig{
			Grid:  warpsim.Dim3{X: uint32(n / (tile * cf)), Y: n / tile, Z: 1},
			Block: warpsim.Dim3{X: tile, Y: tile, Z: 1},
		}
		res, err := dev.Launch(k, cfg, params)
		if err != nil {
			var fault *warpsim.Fault
			if errors.As(err, &fault) {
				return kernelFault(err)
			}
			return err
		}
		p := make([]byte, 4*n*n)
		if err := dev.Read(bufs[2], p); err != nil {
			return err
		}
		maxErr := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				ref := 0.0
				for x := 0; x < n; x++ {
					ref += float64(m[i*n+x]) * float64(nn[x*n+j])
				}
				got := float64(math.Float32frombits(binary.LittleEndian.Uint32(p[4*(i*n+j):])))
				maxErr = math.Max(maxErr, math.Abs(ref-got))
			}
		}
		check := "OK"
		if !(maxErr < 1e-3) {
			check = "MISMATCH"
		}
		row := demoRow{
			kernel: fmt.Sprintf("matmulCoarse<%d, %d>", tile, cf),
			result: fmt.Sprintf("maxabs_err_vs_fp64 %.3g %s", maxErr, check),
			ours:   demoCompute(res.Counters, a),
		}
		if cf == 1 {
			// The H100 ran 1024×1024: each thread looped over 8× more
			// tiles, so only the ratios compare.
			row.theirs = ncu.metrics("coarsen_1024", "0", a)
			row.notComparable = map[string]bool{"divergent_branch": true, "gld_transactions": true, "inst_per_warp": true}
		}
		rows = append(rows, row)
	}
	writeDemoTable(w, rows)
	fmt.Fprintf(w, "Lesson: a thread that computes CF outputs loads its row of M once for all of them: global load\n"+
		"transactions fall as CF grows, while each warp does more work (instructions per warp rise).\n\n")
	return nil
}

func floatBytes(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// sameLines reports whether a and b hold the same lines, in any order
// (the order of lines from different grids is the scheduler's).
func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		count[l]--
		if count[l] < 0 {
			return false
		}
	}
	return true
}
