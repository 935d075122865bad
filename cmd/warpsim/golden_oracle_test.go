package main

// The golden files under testdata/run and testdata/occupancy are written by
// warpsim itself (go test -update), so a wrong number could be written into
// them and then "match" for ever. These tests hold each golden file against a
// source of truth that does not come from warpsim: values derived by hand from
// the PTX (the derivation is written beside each value) and what the H100's
// driver answered (arch/testdata/h100_occupancy_driver.txt).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goldenMetrics reads an nvprof-style metric table (warpsim run --metrics)
// into kernel → metric → the Avg column as printed.
func goldenMetrics(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]string{}
	var kernel string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if k, ok := strings.CutPrefix(strings.TrimSpace(line), "Kernel: "); ok {
			kernel = k
			out[kernel] = map[string]string{}
			continue
		}
		fields := strings.Fields(line)
		if kernel == "" || len(fields) < 5 {
			continue
		}
		if _, err := strconv.Atoi(fields[0]); err != nil {
			continue
		}
		out[kernel][fields[1]] = fields[len(fields)-1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// handDerived is one metric value derived by hand from the kernel's PTX.
type handDerived struct {
	kernel, metric, want, why string
}

func checkHandDerived(t *testing.T, golden string, cases []handDerived) {
	t.Helper()
	got := goldenMetrics(t, filepath.Join(runDir, golden))
	for _, c := range cases {
		v, ok := got[c.kernel][c.metric]
		if !ok {
			t.Errorf("%s: no %s for %s", golden, c.metric, c.kernel)
			continue
		}
		if v != c.want {
			t.Errorf("%s: %s %s = %s, derived by hand %s (%s)", golden, c.kernel, c.metric, v, c.want, c.why)
		}
	}
}

// TestRunGoldensHandDerived: vecadd.json runs vecAdd (1 block of 32 threads,
// n = 8) and scale (2 blocks of 4 threads, n = 8) from kernels.ptx; poly.json
// runs poly (1 block of 4 threads, n = 4).
func TestRunGoldensHandDerived(t *testing.T) {
	vecAdd := []handDerived{
		// 12 instructions before the bra (4 ld.param, 3 cvta, 3 mov, mad, setp) + bra = 13 for the warp;
		// lanes 0-7 run the 8 of %bb.1 (mul.wide, 3 add.s64, 2 ld, add.f32, st); then ret: 13 + 8 + 1.
		{"vecAdd", "inst_executed", "22", "13 + 8 + 1"},
		{"vecAdd", "thread_inst_executed", "512", "13·32 + 8·8 + 1·32"},
		{"vecAdd", "warp_execution_efficiency", "72.73%", "512 / (22·32)"},
		{"vecAdd", "branch", "1", "one bra, one warp"},
		{"vecAdd", "divergent_branch", "1", "8 lanes fall through, 24 jump"},
		{"vecAdd", "branch_efficiency", "0.00%", "(1 - 1) / 1"},
		{"vecAdd", "gld_requests", "2", "a[i] and b[i]"},
		{"vecAdd", "gld_transactions", "2", "8 floats = 32 bytes = one sector per load"},
		{"vecAdd", "gld_efficiency", "100.00%", "32 bytes asked of 32 moved"},
		{"vecAdd", "gst_transactions", "1", "c[i]: one sector"},
		{"vecAdd", "gst_efficiency", "100.00%", "32 of 32"},
		{"vecAdd", "warps_launched", "1", "32 threads"},
		{"vecAdd", "blocks_launched", "1", "grid 1"},
		// 1 warp per block, at most 32 blocks per SM on sm_90: 32 of 64 warps.
		{"vecAdd", "theoretical_occupancy", "50.00%", "32 blocks × 1 warp / 64"},
		// scale: 9 instructions through the bra (ld.param, cvta, ld.param, 3 mov, mad, setp, bra), all 4
		// lanes (i < 8) run the 6 of %bb.1 (ld.param, mul.wide, add, ld, mul, st), then ret: 16 per warp.
		{"scale(float*, float, int)", "inst_executed", "32", "2 warps × (9 + 6 + 1)"},
		{"scale(float*, float, int)", "thread_inst_executed", "128", "32 · 4 lanes"},
		{"scale(float*, float, int)", "warp_execution_efficiency", "12.50%", "4 of 32 lanes"},
		{"scale(float*, float, int)", "branch", "2", "one bra per warp"},
		{"scale(float*, float, int)", "divergent_branch", "0", "all 4 lanes fall through"},
		{"scale(float*, float, int)", "branch_efficiency", "100.00%", "no divergence"},
		{"scale(float*, float, int)", "gld_requests", "2", "one load per warp"},
		{"scale(float*, float, int)", "gld_transactions", "2", "4 floats = 16 bytes in one sector, per warp"},
		{"scale(float*, float, int)", "gld_efficiency", "50.00%", "16 bytes of a 32-byte sector"},
		{"scale(float*, float, int)", "gst_transactions", "2", "as the loads"},
		{"scale(float*, float, int)", "gst_efficiency", "50.00%", "as the loads"},
		{"scale(float*, float, int)", "warps_launched", "2", "2 blocks of 1 warp"},
		{"scale(float*, float, int)", "theoretical_occupancy", "50.00%", "32 blocks × 1 warp / 64"},
	}
	checkHandDerived(t, "vecadd.table.golden", vecAdd)
	checkHandDerived(t, "poly.table.golden", []handDerived{
		// 9 through the first bra, 7 in %bb.1 (2 ld.const, mul.wide, add, ld, fma, st), setp + bra, then
		// only lane 0 (i == 0) runs %bb.3's 2 (ld.global target, st), then ret: 9 + 7 + 2 + 2 + 1.
		{"poly", "inst_executed", "21", "9 + 7 + 2 + 2 + 1"},
	})

	// The CSV and JSON forms print the same launches' values.
	csv, err := os.ReadFile(filepath.Join(runDir, "vecadd.csv.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"vecAdd",1,"branch_efficiency","Branch Efficiency",0.000000%,0.000000%,0.000000%`,
		`"vecAdd",1,"inst_executed","Instructions Executed",22,22,22`,
		`"scale(float*, float, int)",1,"branch_efficiency","Branch Efficiency",100.000000%,100.000000%,100.000000%`,
		`"scale(float*, float, int)",1,"inst_executed","Instructions Executed",32,32,32`,
	} {
		if !strings.Contains(string(csv), want) {
			t.Errorf("vecadd.csv.golden lacks the hand-derived row %s", want)
		}
	}
	var doc struct {
		Launches []struct {
			Kernel  string
			Metrics map[string]*float64
		}
	}
	data, err := os.ReadFile(filepath.Join(runDir, "vecadd.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"vecAdd":                    {"branch_efficiency": 0, "inst_executed": 22, "gld_efficiency": 100},
		"scale(float*, float, int)": {"branch_efficiency": 100, "inst_executed": 32, "gld_efficiency": 50},
	}
	if len(doc.Launches) != 2 {
		t.Fatalf("vecadd.json.golden: %d launches, want 2", len(doc.Launches))
	}
	for _, l := range doc.Launches {
		for m, w := range want[l.Kernel] {
			if v := l.Metrics[m]; v == nil || *v != w {
				t.Errorf("vecadd.json.golden: %s %s = %v, derived by hand %v", l.Kernel, m, v, w)
			}
		}
	}
}

// TestReduceGoldenHandDerived: example_reduce.golden is the reduce lesson's
// launch file (examples/lessons/reduce.json): 8 blocks of 512 threads (16
// warps) over 4096 ints, each kernel with the lesson's loop and a final
// `if (tid == 0)` store of idata[0].
func TestReduceGoldenHandDerived(t *testing.T) {
	checkHandDerived(t, "example_reduce.golden", []handDerived{
		// `if ((tid % (2*stride)) == 0)`: strides 1-16 split every warp (5 × 16 warps); stride 32, 64,
		// 128, 256 split only the warps holding a multiple of 2·stride (8 + 4 + 2 + 1); `tid == 0` splits
		// warp 0: per block 80 + 15 + 1 = 96, × 8 blocks.
		{"reduceNeighbored", "divergent_branch", "768", "8 × (5·16 + 15 + 1)"},
		// `if (2*stride*tid < blockDim.x)`: only warp 0 splits, for strides 16…256 (tid < 16, 8, 4, 2, 1),
		// plus `tid == 0`: 6 per block.
		{"reduceNeighboredLess", "divergent_branch", "48", "8 × (5 + 1)"},
		// `if (tid < stride)`: strides 256…32 are whole warps; 16…1 split warp 0; plus `tid == 0`.
		{"reduceInterleaved", "divergent_branch", "48", "8 × (5 + 1)"},
		// idata[tid] and idata[tid+stride] per active warp, in sectors: strides 256, 128, 64, 32 load 4
		// sectors each for 8, 4, 2, 1 warps (64 + 32 + 16 + 8); 16 lanes: 2 + 2; 8, 4, 2, 1 lanes: 1 + 1
		// each; the final idata[0]: 1. 133 per block.
		{"reduceInterleaved", "gld_transactions", "1064", "8 × 133"},
		// 4092 bytes asked per block (2·4·(256+128+…+1) + 4) of 133·32 moved.
		{"reduceInterleaved", "gld_efficiency", "96.15%", "4092 / 4256"},
		// Neighbored: strides 1, 2, 4 touch all 4 sectors of each warp's 128 bytes, twice, for 16 warps
		// (3 × 128); stride 8: 2 + 2 sectors × 16 warps; 16: 1 + 1 × 16; 32, 64, 128, 256: 2 × 8, 4, 2,
		// 1 warps; the final idata[0]: 1. 511 per block.
		{"reduceNeighbored", "gld_transactions", "4088", "8 × 511"},
		{"reduceNeighboredLess", "gld_transactions", "4088", "8 × 511: the same loads, by other lanes"},
	})
}

// TestDivergenceGoldenHandDerived: example_divergence.golden is the
// divergence lesson's launch file (examples/lessons/divergence.json): each
// of its five kernels on one block of 64 threads (two full warps). nvcc
// made every if/else of divergence.cu a selp (divergence.sm90.ptx), so each
// kernel is straight-line code: no bra, no global load, one store.
func TestDivergenceGoldenHandDerived(t *testing.T) {
	var cases []handDerived
	for _, k := range []struct {
		name, insts, why string
	}{
		// ld.param, cvta, 3 mov (ctaid, ntid, tid), mad, mov WARP_SZ, div.s32, and, setp, selp,
		// mul.wide, add, st, ret.
		{"warmingup", "15.000000", "15 instructions, (tid/warpSize)%2 by div.s32"},
		// as warmingup without the mov WARP_SZ and the div: tid%2 is an and.
		{"mathKernel1", "13.000000", "15 - 2"},
		{"mathKernel2", "15.000000", "warmingup's 15"},
		{"mathKernel3", "13.000000", "mathKernel1's 13: the two ifs fold into one selp"},
		// `itid & 0x01 == 0` is `itid & 0`, always false: c[tid] = 200 as a constant (mov 1128792064,
		// 0x43480000 = 200.0f); ld.param, cvta, 3 mov, mad, mul.wide, add, mov, st, ret.
		{"mathKernel4", "11.000000", "11 instructions, no select at all"},
	} {
		cases = append(cases,
			handDerived{k.name, "inst_per_warp", k.insts, k.why},
			handDerived{k.name, "branch_efficiency", "100.00%", "no bra: nothing can diverge"},
			handDerived{k.name, "divergent_branch", "0", "no bra"},
			handDerived{k.name, "warp_execution_efficiency", "100.00%", "64 threads: both warps full, no predicated instruction"},
			handDerived{k.name, "gld_transactions", "0", "no ld.global (the parameter is ld.param)"},
			handDerived{k.name, "gld_efficiency", "0.00%", "no global load requested"})
	}
	checkHandDerived(t, "example_divergence.golden", cases)
}

// driverActiveBlocks reads the H100 driver's answers: kernel's registers and
// block size → dynamic shared bytes → active blocks per SM.
func driverActiveBlocks(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "arch", "testdata", "h100_occupancy_driver.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "OCC" {
			continue
		}
		key := f[2] + " " + f[3] // "regs=R bs=B"
		out[key] = map[string]string{}
		for _, kv := range f[4:] {
			if smem, blocks, ok := strings.Cut(kv, ":"); ok {
				out[key][smem] = blocks
			}
		}
	}
	return out
}

var activeRE = regexp.MustCompile(`(?m)^active\s+(\d+) blocks?`)

// TestOccupancyGoldensAgainstDriver: the H100 golden files' active blocks
// are what the H100's driver answered for the same registers, block size
// and dynamic shared memory; the other archs' are derived by hand with the
// CUDA occupancy calculator's rules (the derivation beside each).
func TestOccupancyGoldensAgainstDriver(t *testing.T) {
	driver := driverActiveBlocks(t)
	activeIn := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "occupancy", name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if m := activeRE.FindSubmatch(data); m != nil {
			return string(m[1])
		}
		var doc struct {
			BlocksPerSM int `json:"blocks_per_sm"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: no active line and not JSON: %v", name, err)
		}
		return fmt.Sprint(doc.BlocksPerSM)
	}
	for _, c := range []struct {
		golden, driverKey, smem string // driverKey "" when the value is derived by hand
		want, why               string
	}{
		{"h100_json", "regs=19 bs=96", "12288", "", "the driver's heavy4 (19 registers), 96 threads, 12288 dynamic bytes"},
		{"h100_potential_48", "regs=48 bs=640", "0", "", "the driver's heavy32 (48 registers) at its potential block size 640"},
		// 32 registers × 256 threads = 8192 per block: 65536 / 8192 = 8 blocks = 64 warps, the SM's limit.
		{"h100_256_32", "", "", "8", "65536 / (32·256) registers, = 64 warps / 8"},
		// G80: 8192 registers per SM, 16 × 256 = 4096 per block → 2 blocks (768 threads allow 3).
		{"g80_256_16", "", "", "2", "8192 / 4096 registers"},
		// A100 with a 50% carveout: 100 KiB configured; 8192 + 50000 + 1024 reserved = 59264 → 1 block.
		{"a100_smem_carveout", "", "", "1", "102400 / 59264 bytes of shared memory"},
		// V100, the PTX estimate's 8 registers (TestOccupancyPTXRegistersNearPtxas holds the estimator to
		// ptxas): 256 per warp, 1024 per block → 64 blocks by registers; 64 warps / 4 per block → 16.
		{"ptx_stencil", "", "", "16", "64 warps per SM / 4 per block"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			want := c.want
			if c.driverKey != "" {
				var ok bool
				if want, ok = driver[c.driverKey][c.smem]; !ok {
					t.Fatalf("the driver file has no %s with %s bytes", c.driverKey, c.smem)
				}
			}
			if got := activeIn(c.golden); got != want {
				t.Errorf("%s.golden: %s active blocks per SM; the oracle says %s (%s)", c.golden, got, want, c.why)
			}
		})
	}
}

// TestArchsGoldenAgainstSpecs: each preset's per-SM limits in archs.golden
// are those of the CUDA C++ Programming Guide's table "Technical
// Specifications per Compute Capability" (threads, warps, blocks, 32-bit
// registers and shared memory per SM), and the H100 row is what the H100's
// driver reported (the DEVICE line of arch/testdata/h100_occupancy_driver.txt:
// 132 SMs, 233472 bytes = 228 KiB per SM, 232448 = 227 KiB opt-in per block,
// a 52428800-byte = 50 MiB L2, 1980000 kHz).
func TestArchsGoldenAgainstSpecs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "occupancy", "archs.golden"))
	if err != nil {
		t.Fatal(err)
	}
	rows, byName := map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 2 {
			byName[f[0]] = f
			if rows[f[1]] == nil {
				rows[f[1]] = f // by compute capability, the first preset of each
			}
		}
	}
	// cc: threads/SM, warps/SM, blocks/SM, regs/SM, smem/SM.
	spec := map[string][5]string{
		"1.0": {"768", "24", "8", "8192", "16"},
		"1.3": {"1024", "32", "8", "16384", "16"},
		"2.0": {"1536", "48", "8", "32768", "48"},
		"3.5": {"2048", "64", "16", "65536", "48"},
		"5.2": {"2048", "64", "32", "65536", "96"},
		"6.0": {"2048", "64", "32", "65536", "64"},
		"7.0": {"2048", "64", "32", "65536", "96"},
		"7.5": {"1024", "32", "16", "65536", "64"},
		"8.0": {"2048", "64", "32", "65536", "164"},
		"8.6": {"1536", "48", "16", "65536", "100"},
		"8.9": {"1536", "48", "24", "65536", "100"},
		"9.0": {"2048", "64", "32", "65536", "228"},
	}
	for cc, want := range spec {
		f, ok := rows[cc]
		if !ok {
			t.Errorf("archs.golden has no compute capability %s", cc)
			continue
		}
		// After NAME CC and the GPU's name (one or more words) come SMs, threads/SM, warps/SM,
		// blocks/SM, regs/SM, the register unit and smem/SM with its unit.
		i := len(f) - 1
		for f[i] != "KiB" || !strings.Contains(f[i-2], "/") { // smem/SM's "KiB" follows the reg unit
			i--
		}
		got := [5]string{f[i-6], f[i-5], f[i-4], f[i-3], f[i-1]}
		if got != want {
			t.Errorf("cc %s: threads, warps, blocks, registers, KiB of shared memory per SM = %v, the guide says %v", cc, got, want)
		}
	}
	// The H200's row, beside the H100's: its driver's DEVICE line
	// (arch/testdata/h200_occupancy_driver.txt) says the same SM, 60 MiB of
	// L2 (62914560 bytes), and 2 × 3201 MHz × 6016 bits = 4814 GB/s.
	for name, wants := range map[string][]string{
		"h100": {" 132 ", " 228 KiB ", "(227 KiB)", " 50 MiB ", " 1980 "},
		"h200": {" 132 ", " 228 KiB ", "(227 KiB)", " 60 MiB ", " 1980 ", " 4814"},
	} {
		h := strings.Join(byName[name], " ")
		for _, w := range wants {
			if !strings.Contains(h, w) {
				t.Errorf("the %s row %q lacks the driver's %q", name, h, w)
			}
		}
	}
}
