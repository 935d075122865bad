package main

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// immaDir holds the nineteenth round's study family of tensor-core chains
// (im.cu: s8, u8, f16 and bf16 wmma.mma chains in straight code and in
// loops, one and four accumulators, one warp and sixteen; f16 and bf16
// fragments from shared and global memory; tf32 cr GEMM forms), recorded
// on an H200 with nvcc 13 (record.sh).
const immaDir = "../../testdata/timing/imma"

// TestLongImmaTimesAgainstH200 runs im.cu built by warpsim cc with nvcc
// 13's PTX of it under warpsim prof at the base clock, checks every
// launch's hash against the GPU's and compares each launch's time with
// Nsight Compute's (the median of three runs), over the README's study and
// held-out halves (the hash rule, written before the recording; gc_cr_w4,
// wt.cu's held-out gv_tf32_cr as it is, counts as held out). The gl_f16
// rows are reported, not counted: ptxas moves their loop's fragment loads
// out of the loop (the four k steps' fragments are loop-invariant: the
// study row's SASS), which the PTX's loop does not say; bf16's generic
// loads stay in the loop. Before the round (cc40de06): study 16.8%, held
// out 18.3% (21.6% and 44.1% with the gl_f16 rows); with the accumulator
// forwarded to the next MMA of a block (TensorPipe.ChainLatency) 12.8%
// and 14.8%: the straight-code one-warp chains of s8/u8 +18..+43% ->
// -2..+1% at 64 and 256 steps, of f16/bf16 +15..+24% -> -2..+5%. It
// fails when a counted launch is more than 60% off or a half's mean
// passes its bound.
func TestLongImmaTimesAgainstH200(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	rows, ns := timeWmmaGemmFamily(t, immaDir, "im")
	var counted []testenv.NCUTime
	var countedNS []float64
	for i, r := range rows {
		if strings.HasPrefix(r.Workload, "gl_f16_") {
			t.Logf("%-20s not counted %7.0f ns, H200 %7.0f (%+.1f%%)", r.Workload, ns[i], r.NS, 100*(ns[i]-r.NS)/r.NS)
			continue
		}
		counted, countedNS = append(counted, r), append(countedNS, ns[i])
	}
	if len(counted) != 62 {
		t.Errorf("%d launches counted, want 62", len(counted))
	}
	heldOut := func(w string) bool { return hashHeldOut(w) || w == "gc_cr_w4" }
	compareWmmaHalves(t, counted, countedNS, "H200", heldOut, 0.6, studyBoundImma, heldBoundImma)
}

// The halves' bounds: after the round 12.8% and 14.8% (without the
// forwarding the study half is 16.8%, over its bound).
const studyBoundImma, heldBoundImma = 0.135, 0.155
