package main

import (
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// programs8Dir holds the eighth batch of CUDA 13 programs, written in the
// style of the classic GPU benchmark suites simulators are judged on
// (Rodinia's BFS, hotspot, SRAD, pathfinder, Needleman-Wunsch, LU,
// backprop, gaussian, nearest neighbour and B+ tree; Parboil's MRI-Q,
// TPACF, LBM and stencil; SHOC's FFT and MD) and recorded on an H100 with
// nvcc 13 (testdata/programs8/record.sh, record2.sh).
const programs8Dir = "../../testdata/programs8"

// programs8 are the batch's programs, all of which warpsim runs bit for
// bit. lbm is in the plain run: it differed until the engine contracted a
// multiply into subtractions in other blocks, as ptxas does
// (internal/ir/contract.go; the folder's README). A cheap few run in plain
// go test, the rest under WARPSIM_LONG.
var programs8 = []recordedProgram{
	{name: "bfs_csr"},
	{name: "bptree"},
	{name: "lbm"},
	{name: "needle"},
	{name: "backprop", long: true},
	{name: "gaussian", long: true},
	{name: "hotspot", long: true},
	{name: "lud", long: true},
	{name: "mriq", long: true},
	{name: "nearest", long: true},
	{name: "pathfinder", long: true},
	{name: "shoc_fft", long: true},
	{name: "shoc_md", long: true},
	{name: "srad", long: true},
	{name: "stencil3d", long: true},
	{name: "tpacf", long: true},
}

var programs8Base = []string{"-O3", "-arch=sm_90", "-std=c++17"}

// TestCCPrograms8MatchH100 builds the cheap programs of testdata/programs8
// unchanged with warpsim cc and compares their stdout, stderr and exit
// status with the H100's, under the functional driver, in parallel.
func TestCCPrograms8MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs8Dir, programs8Base, programs8, false)
}

// TestLongCCPrograms8MatchH100 is TestCCPrograms8MatchH100 for the rest of
// the batch.
func TestLongCCPrograms8MatchH100(t *testing.T) {
	testenv.Long(t)
	checkRecordedBatch(t, programs8Dir, programs8Base, programs8, true)
}

// TestLongPrograms8TimesAgainstH100 compares each kernel launch of the
// programs8 batch that Nsight Compute timed on the H100 (the first 12 of
// each program, testdata/programs8/times.tsv: nvcc's build, base clock,
// caches flushed) with `warpsim prof --print-gpu-trace` at the H100's base
// clock, twice: built by `warpsim cc` with clang's device code (what a
// user sees) and with nvcc 13's PTX linked in its place (`--device-ptx
// testdata/programs8/nvcc/ptx/P.nvcc.ptx`: the H100's own program, so the
// difference is the model's). The whole batch is held out
// (testdata/programs8/SPLIT.md): nothing in the timing model was chosen on
// it, and the bounds below are what the model measured when the batch was
// recorded (2026-11-28, README), so a failure is a regression alarm, not a
// target to fit. It reports the mean |error|, how many launches are within
// 15%, each program's mean and the worst launches.
func TestLongPrograms8TimesAgainstH100(t *testing.T) {
	testenv.Long(t)
	checkRecordedTimes(t, programs8Dir, programs8Base, programs8, batchTimeBounds{
		clangMean: programs8ClangMean, clangOnClangMean: programs8ClangOnClangMean,
		nvccMean: programs8NvccMean, worst: programs8WorstBound,
	})
}

// The bounds of TestLongPrograms8TimesAgainstH100: what the model measured
// on the held-out batch when it was recorded (2026-11-28: clang's code
// 10.9% against nvcc's build, 8.6% against the H100 running clang's code;
// nvcc's PTX 9.9%; the worst launch -34.9%), with a margin of about two
// points; a launch more than 50% off fails. After the fourteenth round's
// IEEE sequences held one at a time (testdata/triton3/JOURNAL.md, "Held out,
// measured again"): 10.0%, 7.9%, 8.7%. Nineteenth round (a libdevice call
// held as ptxas's CALL of the routine, LibcallCycles): clang's code 9.8% ->
// 9.2% (mriq's ComputeQ -34.8% -> +14.9%), 7.7%; nvcc's PTX 8.3%.
// Twentieth round (libm20: each libdevice call its routine's measured
// slots, pipes and latency, a call of constants folded): clang's code 9.2%
// -> 9.2% (backprop's layer_forward +8.5% -> -3.3%, mriq's ComputeQ
// +14.9% -> +19.5%), 7.7%.
const (
	programs8ClangMean        = 0.12
	programs8ClangOnClangMean = 0.10
	programs8NvccMean         = 0.11
	programs8WorstBound       = 0.50
)
