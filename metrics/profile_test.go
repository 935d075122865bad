package metrics

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func metric(t *testing.T, ms []Metric, name string) Metric {
	t.Helper()
	d, ok := Lookup(name)
	if !ok {
		t.Fatalf("no metric %s", name)
	}
	m, ok := find(ms, d)
	if !ok {
		t.Fatalf("Compute returned no %s", name)
	}
	return m
}

// TestFormulas checks each formula on counts worked out by hand.
func TestFormulas(t *testing.T) {
	// One 64-thread block (2 warps); each warp runs 10 instructions, one of
	// them a branch on which warp 0 diverges (16 lanes each way: 8 of its
	// instructions run 32 lanes, 2 run 16) and warp 1 does not. Each warp
	// loads 32 consecutive floats (128 bytes, 4 sectors) and stores 32
	// floats with a stride of 2 (128 bytes over 8 sectors).
	c := Counters{
		InstExecuted:       20,
		ThreadInstExecuted: 8*32 + 2*16 + 10*32, // 608
		Branch:             2,
		DivergentBranch:    1,
		GldRequests:        2, GldTransactions: 8, GldBytes: 256,
		GstRequests: 2, GstTransactions: 16, GstBytes: 256,
		SharedLoadRequests: 4, SharedLoadTransactions: 10, SharedLdBankConflict: 6,
		WarpsLaunched: 2, BlocksLaunched: 1,
	}
	ms := Compute(c, nil)
	tests := []struct {
		name string
		want float64
	}{
		{"inst_executed", 20},
		{"thread_inst_executed", 608},
		{"warp_execution_efficiency", 95}, // 608 / (20·32) = 0.95
		{"inst_per_warp", 10},
		{"branch", 2},
		{"divergent_branch", 1},
		{"branch_efficiency", 50},
		{"gld_requests", 2},
		{"gld_transactions", 8},
		{"gld_efficiency", 100}, // 256 / (8·32)
		{"gst_transactions", 16},
		{"gst_efficiency", 50}, // 256 / (16·32)
		{"shared_load_transactions", 10},
		{"shared_ld_bank_conflict", 6},
		{"shared_store_transactions", 0},
		{"warps_launched", 2},
		{"blocks_launched", 1},
		{"device_launches", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := metric(t, ms, tt.name)
			if !m.Available || math.Abs(m.Value-tt.want) > 1e-9 {
				t.Errorf("got %v (available %v), want %v", m.Value, m.Available, tt.want)
			}
		})
	}
}

// TestEmptyCounts checks the conventions for launches that did nothing of a
// kind: branch efficiency 100 with no branch (nvprof's convention), the
// efficiencies 0 with no memory access, no division by zero anywhere.
func TestEmptyCounts(t *testing.T) {
	ms := Compute(Counters{}, arch.MustLookup("h100"))
	for name, want := range map[string]float64{
		"branch_efficiency": 100, "warp_execution_efficiency": 0, "gld_efficiency": 0,
		"gst_efficiency": 0, "inst_per_warp": 0,
	} {
		if m := metric(t, ms, name); m.Value != want || !m.Available {
			t.Errorf("%s = %v (available %v), want %v", name, m.Value, m.Available, want)
		}
	}
	for _, m := range ms {
		if m.Available && (math.IsNaN(m.Value) || math.IsInf(m.Value, 0)) {
			t.Errorf("%s = %v", m.Name, m.Value)
		}
	}
}

// TestTimingMetricsUnavailable checks that the timing driver's metrics are
// reported as unavailable with the reason, never as zero.
func TestTimingMetricsUnavailable(t *testing.T) {
	ms := Compute(Counters{InstExecuted: 5}, arch.MustLookup("h100"))
	for _, name := range []string{"elapsed_cycles", "duration_ns", "achieved_occupancy", "sm_efficiency", "ipc",
		"gld_throughput", "gst_throughput", "dram_read_bytes", "dram_write_bytes"} {
		m := metric(t, ms, name)
		if m.Available || !strings.Contains(m.Reason, "--mode timing") {
			t.Errorf("%s: available %v, reason %q", name, m.Available, m.Reason)
		}
	}
}

// TestTheoreticalOccupancy checks theoretical_occupancy against the H100
// driver's cudaOccupancyMaxActiveBlocksPerMultiprocessor answers for the
// kernel heavy4 (19 registers per thread) in h100_occupancy_driver.txt:
// blocks per SM × warps per block ÷ 64.
func TestTheoreticalOccupancy(t *testing.T) {
	h100 := arch.MustLookup("h100")
	tests := []struct {
		block, dynamic int
		want           float64
	}{
		{96, 0, 21 * 3 * 100 / 64.0},     // OCC heavy4 regs=19 bs=96 0:21
		{96, 12288, 17 * 3 * 100 / 64.0}, // bs=96 12288:17
		{352, 0, 5 * 11 * 100 / 64.0},    // bs=352 0:5
		{256, 65536, 3 * 8 * 100 / 64.0}, // bs=256 65536:3
	}
	for _, tt := range tests {
		m := metric(t, Compute(Counters{}, h100, Launch{BlockThreads: tt.block, RegsPerThread: 19, DynamicShared: tt.dynamic}), "theoretical_occupancy")
		if !m.Available || math.Abs(m.Value-tt.want) > 1e-9 {
			t.Errorf("block %d, %d dynamic bytes: %v (available %v), want %v", tt.block, tt.dynamic, m.Value, m.Available, tt.want)
		}
	}
	if m := metric(t, Compute(Counters{}, h100), "theoretical_occupancy"); m.Available {
		t.Errorf("without a launch theoretical_occupancy should be unavailable")
	}
}

func TestLookup(t *testing.T) {
	tests := []struct{ name, want string }{
		{"branch_efficiency", "branch_efficiency"},
		{"smsp__sass_average_branch_targets_threads_uniform.pct", "branch_efficiency"},
		{"smsp__thread_inst_executed_per_inst_executed.ratio", "warp_execution_efficiency"},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_transactions"},
		{"smsp__warps_launched.sum", "warps_launched"},
		{"elapsed_cycles_sm", "elapsed_cycles"},
		{" gld_efficiency ", "gld_efficiency"},
	}
	for _, tt := range tests {
		d, ok := Lookup(tt.name)
		if !ok || d.Name != tt.want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", tt.name, d, ok, tt.want)
		}
	}
	if _, ok := Lookup("no_such_metric"); ok {
		t.Error("Lookup found no_such_metric")
	}
}

func TestParseList(t *testing.T) {
	all, err := ParseList("all")
	if err != nil || len(all) != len(defs) {
		t.Fatalf("all: %d metrics, %v", len(all), err)
	}
	got, err := ParseList("branch_efficiency, smsp__warps_launched.sum,branch_efficiency")
	if err != nil || len(got) != 2 || got[0].Name != "branch_efficiency" || got[1].Name != "warps_launched" {
		t.Fatalf("got %v, %v", got, err)
	}
	_, err = ParseList("branch_efficiency,bogus")
	if err == nil || !strings.Contains(err.Error(), `unknown metric "bogus"`) {
		t.Fatalf("err = %v", err)
	}
}

// TestAgainstH100 feeds the SASS counts Nsight Compute measured on an H100
// (examples/lessons/h100/h100_ncu_seed_kernels.csv, the committed copy of the
// team's ground truth)
// into the formulas and compares with the ratios ncu itself derived from
// them, to two decimals as ncu prints them.
func TestAgainstH100(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "examples", "lessons", "h100", "h100_ncu_seed_kernels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ program, launch string }
	launches := map[key]map[string]float64{}
	var order []key
	for _, r := range rows[1:] {
		k := key{r[0], r[1]}
		if launches[k] == nil {
			launches[k] = map[string]float64{}
			order = append(order, k)
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[7], ",", ""), 64)
		if err != nil {
			t.Fatalf("%v: %v", r, err)
		}
		launches[k][r[5]] = v
	}
	for _, k := range order {
		m := launches[k]
		t.Run(k.program+"/"+k.launch, func(t *testing.T) {
			c := Counters{
				InstExecuted:       uint64(m["smsp__inst_executed.sum"]),
				ThreadInstExecuted: uint64(m["smsp__thread_inst_executed.sum"]),
				Branch:             uint64(m["smsp__sass_branch_targets.sum"]),
				DivergentBranch:    uint64(m["smsp__sass_branch_targets_threads_divergent.sum"]),
				WarpsLaunched:      uint64(m["smsp__warps_launched.sum"]),
			}
			ms := Compute(c, arch.MustLookup("h100"))
			// ncu's ratio is thread instructions per warp instruction.
			wantWEE := m["smsp__thread_inst_executed_per_inst_executed.ratio"] / 32 * 100
			if got := metric(t, ms, "warp_execution_efficiency").Value; math.Abs(got-wantWEE) > 0.005/32*100+1e-9 {
				t.Errorf("warp_execution_efficiency %.4f, ncu %.4f", got, wantWEE)
			}
			if c.Branch > 0 { // ncu prints 0 for no branches; nvprof (and warpsim) 100
				want := m["smsp__sass_average_branch_targets_threads_uniform.pct"]
				if got := metric(t, ms, "branch_efficiency").Value; math.Abs(got-want) > 0.005 {
					t.Errorf("branch_efficiency %.4f, ncu %.2f", got, want)
				}
			}
			if got, want := metric(t, ms, "inst_per_warp").Value, m["smsp__inst_executed.sum"]/m["smsp__warps_launched.sum"]; got != want {
				t.Errorf("inst_per_warp %v, want %v", got, want)
			}
		})
	}
}

// sampleInvocations are two launches of one kernel and one of another.
func sampleInvocations() []Invocation {
	h100 := arch.MustLookup("h100")
	defsWanted, _ := ParseList("branch_efficiency,divergent_branch,warp_execution_efficiency,inst_per_warp,gld_efficiency,gld_transactions,achieved_occupancy")
	a := Compute(Counters{InstExecuted: 640, ThreadInstExecuted: 640 * 32, Branch: 64, DivergentBranch: 16, GldBytes: 4096, GldTransactions: 256, WarpsLaunched: 64}, h100)
	b := Compute(Counters{InstExecuted: 960, ThreadInstExecuted: 960 * 24, Branch: 64, DivergentBranch: 32, GldBytes: 4096, GldTransactions: 128, WarpsLaunched: 64}, h100)
	c := Compute(Counters{InstExecuted: 100, ThreadInstExecuted: 3200, WarpsLaunched: 4}, h100)
	return []Invocation{
		{Kernel: "reduceNeighbored", Metrics: Select(a, defsWanted)},
		{Kernel: "mathKernel1", Metrics: Select(c, defsWanted)},
		{Kernel: "reduceNeighbored", Metrics: Select(b, defsWanted)},
	}
}

func TestSummarize(t *testing.T) {
	sums := Summarize(sampleInvocations())
	if len(sums) != 2 || sums[0].Kernel != "reduceNeighbored" || sums[0].Invocations != 2 || sums[1].Invocations != 1 {
		t.Fatalf("summaries: %+v", sums)
	}
	r := sums[0].Rows[0] // branch_efficiency: 75% and 50%
	if r.Name != "branch_efficiency" || r.Min != 50 || r.Max != 75 || r.Avg != 62.5 {
		t.Errorf("branch_efficiency row %+v", r)
	}
	r = sums[0].Rows[4] // gld_efficiency: 4096/(256·32) = 50%, 4096/(128·32) = 100%
	if r.Name != "gld_efficiency" || r.Min != 50 || r.Max != 100 || r.Avg != 75 {
		t.Errorf("gld_efficiency row %+v", r)
	}
	if r := sums[0].Rows[6]; r.Available {
		t.Errorf("achieved_occupancy should be unavailable: %+v", r)
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, "NVIDIA H100 80GB HBM3", Summarize(sampleInvocations())); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "table.golden", b.Bytes())
}

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, "NVIDIA H100 80GB HBM3", Summarize(sampleInvocations())); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "metrics.csv.golden", b.Bytes())
	if _, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll(); err != nil {
		t.Errorf("not valid CSV: %v", err)
	}
}

func TestJSONValues(t *testing.T) {
	inv := sampleInvocations()[0]
	b, err := json.MarshalIndent(map[string]any{"metrics": JSONValues(inv.Metrics), "unavailable": Unavailable(inv.Metrics)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "metrics.json.golden", append(b, '\n'))
}

// TestGoldensHandDerived holds the golden files of the table, CSV and JSON
// writers against values derived by hand from sampleInvocations' counters,
// so a wrong number cannot be written into them by -update unnoticed.
// reduceNeighbored a: 640 warp instructions over 64 warps (10 per warp), all
// 32 lanes, 16 of 64 branches divergent (75%), 4096 bytes in 256 sectors
// (50%); b: 960 over 64 (15), 24 of 32 lanes (75%), 32 of 64 (50%), 4096 in
// 128 sectors (100%); mathKernel1: 100 over 4 warps (25), all lanes.
func TestGoldensHandDerived(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	rows := map[string][]string{
		"table.golden": {
			`Branch Efficiency      50.00%      75.00%      62.50%`,
			`Divergent Branches          16          32          24`,
			`Warp Execution Efficiency      75.00%     100.00%      87.50%`,
			`Instructions per warp   10.000000   15.000000   12.500000`,
			`Global Memory Load Efficiency      50.00%     100.00%      75.00%`,
			`Global Load Transactions         128         256         192`,
			`Instructions per warp   25.000000   25.000000   25.000000`,
		},
		"metrics.csv.golden": {
			`"reduceNeighbored",2,"branch_efficiency","Branch Efficiency",50.000000%,75.000000%,62.500000%`,
			`"reduceNeighbored",2,"divergent_branch","Divergent Branches",16,32,24`,
			`"reduceNeighbored",2,"inst_per_warp","Instructions per warp",10.000000,15.000000,12.500000`,
		},
		"metrics.json.golden": {
			`"branch_efficiency": 75,`, `"divergent_branch": 16,`, `"gld_efficiency": 50,`,
			`"gld_transactions": 256,`, `"inst_per_warp": 10,`, `"warp_execution_efficiency": 100`,
		},
	}
	for name, want := range rows {
		got := read(name)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks the hand-derived %q", name, w)
			}
		}
	}
}

// TestWriteTableWide: long names and extreme values (issue 16 #23) widen
// their columns instead of running into the next one; every cell ends where
// its header does, and splitting a row on spaces gives back its cells.
func TestWriteTableWide(t *testing.T) {
	long := &Def{Name: "stall_short_scoreboard_and_a_much_longer_suffix_x", Description: "Issue Stall Reasons (Short Scoreboard) and more words", Kind: Count}
	pct := &Def{Name: "p", Description: "Tiny", Kind: Percent}
	ratio := &Def{Name: "r", Description: "Ratio", Kind: Ratio}
	sums := []Summary{{Kernel: "k", Invocations: 123456789012345, Rows: []Row{
		{Def: long, Min: -1e300, Max: 1e300, Avg: 9.99e299, Available: true},
		{Def: pct, Min: -1e20, Max: 1e20, Avg: 0, Available: true},
		{Def: ratio, Min: 1e15, Max: 1e16, Avg: 5e15, Available: true},
		{Def: pct, Min: 12.5, Max: 50, Avg: 25, Available: true},
	}}}
	var b bytes.Buffer
	if err := WriteTable(&b, "H100", sums); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	header := lines[1]
	var ends []int
	for _, h := range []string{"Invocations", "Metric Name", "Metric Description", "Min", "Max", "Avg"} {
		i := strings.Index(header, h)
		if i < 0 {
			t.Fatalf("header %q lacks %q", header, h)
		}
		ends = append(ends, i+len(h))
	}
	rows := lines[4:]
	if len(rows) != len(sums[0].Rows) {
		t.Fatalf("%d rows:\n%s", len(rows), b.String())
	}
	for i, line := range rows {
		r := sums[0].Rows[i]
		cells := []string{"123456789012345", r.Name, r.Description, FormatValue(r.Kind, r.Min), FormatValue(r.Kind, r.Max), FormatValue(r.Kind, r.Avg)}
		f := strings.Fields(line)
		got := []string{f[0], f[1], strings.Join(f[2:len(f)-3], " "), f[len(f)-3], f[len(f)-2], f[len(f)-1]}
		if strings.Join(got, "|") != strings.Join(cells, "|") {
			t.Errorf("row %d splits into %q, want %q:\n%s", i, got, cells, b.String())
		}
		for c, cell := range cells {
			if c < len(ends) && (ends[c] > len(line) || line[ends[c]-len(cell):ends[c]] != cell) {
				t.Errorf("row %d: %q does not end under its header (column end %d):\n%s", i, cell, ends[c], b.String())
			}
			if c > 0 && line[ends[c]-len(cell)-1] != ' ' {
				t.Errorf("row %d: no space before %q", i, cell)
			}
		}
	}
}
