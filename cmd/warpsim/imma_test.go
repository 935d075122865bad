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
// -2..+1% at 64 and 256 steps, of f16/bf16 +15..+24% -> -2..+5%. With
// the scheduler's starvation bound (Params.IssueStarveCycles, twenty-
// second round) 14.1% and 15.1%: see studyBoundImma. It fails when a
// counted launch is more than 60% off or a half's mean passes its bound.
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

// The halves' bounds: after the nineteenth round 12.8% and 14.8% (without
// the forwarding the study half is 16.8%, over its bound). The study bound
// moved from 13.5% to 14.5% in the twenty-second round, when the warp
// scheduler's starvation bound (Params.IssueStarveCycles) moved the study
// half from 13.4% to 14.1% (held out 14.8% -> 15.1%). The rows that moved
// are the 16-warp straight-code chains (four warps a sub-partition, each
// its own chain, all waiting on the tensor pipe): ch_s8_d1_s256_w16,
// ch_u8_d1_s256_w16, ch_bf16_d1_s256_w16 +2.7%, +1.9%, +1.6% -> -6.8%,
// -7.4%, -11.1%; ch_s8_d1_s64_w16 -12.3% -> -8.2%, ch_f16_d1_s64_w16
// -11.6% -> -14.3%. Their old times were right for a wrong reason. The
// H200's clock64 stamps of the 256-step rows (im.h100.stderr) have every
// warp's timed region span nearly the whole, the mean 0.97 of the longest
// (the pipe taken in turn by all four warps); greedy-then-oldest without
// the bound gave 0.68 and a longest region 28-29% over the H200's (the two
// oldest warps of a sub-partition held the pipe and the two youngest
// waited for them to finish), and that excess made up for the rest of the
// launch, which the model makes 800-1,600 cycles shorter than the H200
// for a block of 16 warps (the launch's time less its longest region:
// about 4,550 cycles against 5,347, 5,445, 6,137; within 300 for one
// warp). With the bound the stamps are right (0.99; the longest +6..+8%,
// the pipe's rate with four warps) and the launch's time shows that
// shortfall. TestWmmaChainMicrobenchmarks holds the stamps.
const studyBoundImma, heldBoundImma = 0.145, 0.155
