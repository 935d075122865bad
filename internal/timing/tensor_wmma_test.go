package timing_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/testenv"
)

// wmmaPipeDir holds mb2.cu's recording: the wmma forms and the mma.sync
// shapes mb.cu did not time (testdata/programs3/nvcc: record.sh ran it on
// the H100, nvcc 13's PTX of it is ptx/mb2.nvcc.ptx.gz).
const wmmaPipeDir = "../../testdata/programs3/nvcc"

// readMB2 parses h100/mb2.txt (mb.cu's format; a launch with too many
// registers for its warps is a line without cycles, left out).
func readMB2(t *testing.T) []mbRow {
	t.Helper()
	data, err := os.ReadFile(wmmaPipeDir + "/h100/mb2.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []mbRow
	for _, line := range strings.Split(string(data), "\n") {
		var r mbRow
		var cycles int
		if n, _ := fmt.Sscanf(line, "%s ilp=%d warps=%d cycles=%d cyc_per_inst_per_warp=%f smsp_issue_interval=%f",
			&r.kernel, &r.ilp, &r.warps, &cycles, &r.perInst, &r.sub); n == 6 {
			rows = append(rows, r)
		}
	}
	if len(rows) != 11*4*7-8 {
		t.Fatalf("mb2.txt: %d rows, want %d", len(rows), 11*4*7-8)
	}
	return rows
}

// TestWmmaPipeMicrobenchmarks runs nvcc's PTX of mb2.cu (wmma.mma on
// register fragments: f16 and bf16 m16n16k16, f16 accumulators m32n8k16,
// tf32 m16n16k8, s8 m16n16k16, u8 m32n8k16, f64 m8n8k4; mma.sync m16n8k16
// s8 and m16n8k4 tf32) on the simulated H100 and compares the %clock64
// cycles per MMA per warp with the H100's: one warp at ILP 1, 2, 4 and 8
// (the dependent chain's latency, then one warp's issue), and 16 warps (4
// per sub-partition) at ILP 8 (the pipe's throughput). What the rows show
// (SASS: h100/mb2.mma.sass): nvcc builds wmma tf32 m16n16k8 from four
// HMMA.1684 (17.15 cycles per wmma per sub-partition at full load, 4 ×
// 4.25) and s8/u8 m16n16k16 from two IMMA.16816 (8.42, 2 × 4.25), where
// mma.sync m16n8k8 tf32 and m16n8k32 s8 are one HMMA.1688 / IMMA.16832
// each (TensorPipe.WmmaInstMACs); and one warp's wmma loops end five
// hardware-MMA times after their last MMA where mma.sync loops end three
// (WmmaReleaseMMAs, fitted to these rows). Left out: mma.sync m8n8k4 f16
// (no tensor instruction: nvcc writes a subroutine of HFMA2/FFMA for it on
// sm_90) and m16n8k32 e4m3 (ptxas moved its two HMMA.16816 out of the
// loop: the row times the loop's FADDs). Each row within 25% and the mean
// |error| under 6% (the model: 4.4% over the plain run's 37 rows, worst
// -11.1% (wmma f64 at ILP 8, tf32 at ILP 1) and -11.0% (m32n8k16 f16→f16
// at ILP 2); 14.1% before WmmaInstMACs, ReleaseMMAs and WmmaReleaseMMAs,
// 10.0% with the first two; the long run's 45 rows 4.1%, its 16-warp
// rows within 7.5%).
func TestWmmaPipeMicrobenchmarks(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	checkWmmaPipe(t, plainWmmaPipeRow, 9*4+1)
}

// TestLongWmmaPipeMicrobenchmarks is TestWmmaPipeMicrobenchmarks with the
// 16-warp rows of every kernel (bit-exact tensor arithmetic of 512 MMAs
// per warp: most of the simulation). The plain test's rows are its
// simulation when both run in one process (simulateRowsShared).
func TestLongWmmaPipeMicrobenchmarks(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	checkWmmaPipe(t, func(mbRow) bool { return true }, 9*5)
}

// plainWmmaPipeRow picks TestWmmaPipeMicrobenchmarks' rows: one warp at
// every ILP, and f64 with 16 warps.
func plainWmmaPipeRow(r mbRow) bool {
	return r.warps == 1 || r.ilp == 8 && r.kernel == "wmma_f64_8x8x4"
}

func checkWmmaPipe(t *testing.T, pick func(mbRow) bool, want int) {
	var rows []mbRow
	for _, r := range readMB2(t) {
		if r.kernel == "mma_f16_f32_m8n8k4" || r.kernel == "mma_e4m3_f32_m16n8k32" {
			continue
		}
		if !(r.warps == 1 || r.warps == 16 && r.ilp == 8) || !pick(r) {
			continue
		}
		rows = append(rows, r)
	}
	cycles := simulateRowsShared(t, "wmma pipe", rows, plainWmmaPipeRow, simulateWmmaPipe)
	var sum float64
	var n int
	for i, r := range rows {
		got := cycles[i]
		e := (got - r.perInst) / r.perInst
		sum += math.Abs(e)
		n++
		msg := fmt.Sprintf("%-24s ilp=%d warps=%2d: %6.2f cycles per MMA per warp, H100 %6.2f (%+.1f%%)", r.kernel, r.ilp, r.warps, got, r.perInst, 100*e)
		if math.Abs(e) > 0.25 {
			t.Errorf("%s: more than 25%% off", msg)
		} else {
			t.Log(msg)
		}
	}
	if n != want {
		t.Errorf("%d rows compared, want %d", n, want)
	}
	if mean := sum / float64(n); mean > wmmaPipeMeanBound {
		t.Errorf("mean |error| %.1f%% over %d rows, want under %.0f%%", 100*mean, n, 100*wmmaPipeMeanBound)
	} else {
		t.Logf("mean |error| %.1f%% over %d rows", 100*mean, n)
	}
}

// simulateWmmaPipe runs rows of mb2.cu one after another on a fresh H100
// and returns each one's cycles per MMA per warp.
func simulateWmmaPipe(t *testing.T, rows []mbRow) []float64 {
	const iters = 256
	zr, err := os.Open(wmmaPipeDir + "/ptx/mb2.nvcc.ptx.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	gz, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Stdout: io.Discard, Mode: warpsim.ModeTiming})
	mod, err := dev.LoadModule("mb2.nvcc.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	// mb2.cu's inputs: f16 1.0 pairs for the mma.sync operands, 1 and 1
	// for the wmma fragments' fill values.
	var in bytes.Buffer
	for _, v := range []uint32{0x3c003c00, 0x3c003c00, 0x3c003c00, 0x3c003c00, 0x3c003c00, 0x3c003c00, 1, 1} {
		_ = binary.Write(&in, binary.LittleEndian, v)
	}
	din, _ := dev.Malloc(64)
	if err := dev.Write(din, in.Bytes()); err != nil {
		t.Fatal(err)
	}
	dout, _ := dev.Malloc(4096 * 4)
	dcyc, _ := dev.Malloc(32 * 8)
	var out []float64
	for _, r := range rows {
		name := fmt.Sprintf("_Z%d%sILi%dEEvPKjPjPx", len(r.kernel), r.kernel, r.ilp)
		k, err := mod.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: uint32(32 * r.warps), Y: 1, Z: 1}},
			params(din, dout, dcyc)); err != nil {
			t.Fatal(err)
		}
		out = append(out, slowestWarpCycles(t, dev, dcyc, r.warps)/float64(iters*r.ilp))
	}
	return out
}

// wmmaPipeMeanBound is the mean |error| TestWmmaPipeMicrobenchmarks allows.
const wmmaPipeMeanBound = 0.06
