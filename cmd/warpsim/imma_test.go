package main

import (
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
// held-out halves (the hash rule, written before the recording).
func TestLongImmaTimesAgainstH200(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	rows, ns := timeWmmaGemmFamily(t, immaDir, "im")
	compareWmmaHalves(t, rows, ns, "H200", 0.6, studyBoundImma, heldBoundImma)
}

const studyBoundImma, heldBoundImma = 1, 1
