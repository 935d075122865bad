package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// wmmagemmDir holds issue 19's wmma study family (wg.cu: tiled wmma GEMMs
// of f16, bf16, tf32 and s8 from global and from shared memory, and
// wmma.mma chains), recorded on an H100 with nvcc 13 (record.sh).
const wmmagemmDir = "../../testdata/programs3/wmmagemm"

// TestLongWmmaGemmTimesAgainstH100 runs wg.cu built by warpsim cc with
// nvcc 13's PTX of it (h100/wg.nvcc.ptx.gz: the H100's own program) under
// `warpsim prof --print-gpu-trace` at the base clock, checks every launch's
// printed hash against the H100's (h100/wg.h100.txt), and compares each
// launch's time with Nsight Compute's (times.tsv), over the README's study
// and held-out halves (a launch is held out when the first hex digit of the
// SHA-256 of its name is 8-f, decided before the recording). On 2026-11-28
// (thirteenth round): study 20.2%, held out 19.5% before an s8 operand
// stored the other way round was read a byte an element (ir.WmmaAccesses);
// 19.8% and 19.5% after. The s8 GEMMs from global memory are the worst
// GEMMs (-37% to -48%), then tf32's (-22% to -29%): ptxas issues part of a
// k step's loads only after the step's first MMAs or PRMTs have their
// data, two memory round trips a step where the model has one. The
// ch_*_ind rows of f16 and s8 are ptxas's: the four chains have the same
// operands, and ptxas computes one (+167%, +183%). Fifteenth round, ptxas's
// order inside a k step modelled (ir.WmmaAccess.Rounds) and ConstBankLive
// on: study 15.0%, held out 17.5% (gg tf32 -2% to -9%, s8 -18% to -24%).
// Sixteenth round, a k loop's fragment loads after the step before's MMAs
// (ir.WmmaAccess.Reuse, WmmaReuse): study 15.0%, held out 16.5% (15.6%,
// 16.9% without). Seventeenth round, an 8-bit fragment's second half of
// byte loads sent when the first half's data is back (WmmaGroupRounds),
// and the rounds a loop's only (WmmaRoundsLoopOnly: ch's straight code
// loads every fragment before its first MMA), each byte load reading one
// row of every group of four (ir.WmmaAccess.Interleaved: gs's LDS.U8 bank
// conflicts): study 12.0% (gg s8 -13% to -22% -> -4% to +5%, gs s8 -9% to
// -20% -> -5% to -13%), held out 16.2%. Nineteenth round, an MMA's
// accumulator forwarded to the next wmma.mma of its block
// (TensorPipe.ChainLatency, from testdata/timing/imma): study 10.7%
// (ch_s8_dep_w1 +37.7% -> -4.8%, ch_bf16_dep_w1 +20.9% -> -1.7%), held
// out 14.4%. Twenty-first round, a wmma.mma repeating an earlier one's
// value in straight code not issued (ir.TensorOperands.RepeatOf,
// WmmaRepeats; chosen on testdata/timing/wmmacse and the study row
// ch_f16_ind_w16's SASS, whose four chains on the same fragments ptxas
// computes once after unrolling the loop): study 10.6% -> 6.2%
// (ch_f16_ind_w16 +183.1% -> -8.6%), held out 14.2% -> 4.7%
// (ch_s8_ind_w16 +167.1% -> -7.4%, ch_f16_ind_w1 +42.1% -> -8.2%,
// ch_s8_ind_w1 +38.9% -> -5.9%); the bounds moved from 11.0% and 14.7% to
// 7.0% and 6.0%. It fails when a launch is more than 200% off or the study
// half's mean passes 7.0%, the held-out half's 6.0%.
func TestLongWmmaGemmTimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	rows, ns := timeWmmaGemmFamily(t, wmmagemmDir, "wg")
	compareWmmaHalves(t, rows, ns, "H100", hashHeldOut, 2, 0.070, 0.060)
}

// compareWmmaHalves compares each launch's time ns[i] with the GPU's
// (rows[i]) over a family's study and held-out halves (heldOut of the
// launch's name: the rule its README wrote down before the recording,
// hashHeldOut for most families), logs every launch, and fails when one is more than maxOff
// off or a half's mean |error| passes its bound.
func compareWmmaHalves(t *testing.T, rows []testenv.NCUTime, ns []float64, gpu string, heldOut func(workload string) bool, maxOff, studyBound, heldBound float64) {
	t.Helper()
	var sum [2]float64
	var n [2]int
	for i, r := range rows {
		d := (ns[i] - r.NS) / r.NS
		h := 0
		if heldOut(r.Workload) {
			h = 1
		}
		sum[h] += math.Abs(d)
		n[h]++
		t.Logf("%-20s %-5s %7.0f ns, %s %7.0f (%+.1f%%)", r.Workload, [2]string{"study", "held"}[h], ns[i], gpu, r.NS, 100*d)
		if math.Abs(d) > maxOff {
			t.Errorf("%s: %.0f ns, %s %.0f: more than %.0f%% off", r.Workload, ns[i], gpu, r.NS, 100*maxOff)
		}
	}
	study, held := sum[0]/float64(max(1, n[0])), sum[1]/float64(max(1, n[1]))
	t.Logf("mean |error|: study half %.1f%% (%d launches), held-out half %.1f%% (%d)", 100*study, n[0], 100*held, n[1])
	if study > studyBound || held > heldBound {
		t.Errorf("mean |error| study %.1f%%, held out %.1f%%: want under %.1f%% and %.1f%%", 100*study, 100*held, 100*studyBound, 100*heldBound)
	}
}

// hashHeldOut is the hash rule's membership (programs3HashStudy): a
// workload outside the study half is held out.
func hashHeldOut(workload string) bool { return !programs3HashStudy(workload) }

// gunzipTo writes the gzip file src's contents to dst.
func gunzipTo(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// timeWmmaGemmFamily builds dir's NAME.cu with warpsim cc, linking nvcc
// 13's PTX of it (h100/NAME.nvcc.ptx.gz: the GPU's own program), runs it
// under `warpsim prof --print-gpu-trace` at the base clock, checks every
// launch's printed hash against the GPU's output (h100/NAME.h100.txt), and
// returns Nsight Compute's times (times.tsv) and warpsim's, launch by
// launch.
func timeWmmaGemmFamily(t *testing.T, dir, name string) ([]testenv.NCUTime, []float64) {
	t.Helper()
	t.Setenv("WARPSIM_TEST_AS_CLI", "1")
	t.Setenv("WARPSIM_PROGRESS", "0")
	rows, err := testenv.ReadNCUTimes(filepath.Join(dir, "times.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	ptx := filepath.Join(t.TempDir(), name+".nvcc.ptx")
	gunzipTo(t, filepath.Join(dir, "h100", name+".nvcc.ptx.gz"), ptx)
	abs, err := filepath.Abs(filepath.Join(dir, name+".cu"))
	if err != nil {
		t.Fatal(err)
	}
	bin := buildCU(t, abs, "-O3", "-std=c++17", "--device-ptx", ptx)
	var o, e bytes.Buffer
	if code := run([]string{"prof", "--set", "clock=1589MHz", "--print-gpu-trace", "--csv", bin}, &o, &e); code != 0 {
		t.Fatalf("exit %d\n%s", code, e.String())
	}
	want, err := os.ReadFile(filepath.Join(dir, "h100", name+".h100.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if o.String() != string(want) {
		t.Errorf("output differs from the GPU's:\n%s\nwant\n%s", o.String(), want)
	}
	ns := traceDurations(e.String())
	if len(ns) != len(rows) {
		t.Fatalf("%d launches in warpsim's trace, %d recorded", len(ns), len(rows))
	}
	return rows, ns
}
