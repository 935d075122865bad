package main

import (
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// wmmaRepeatsDir holds the twenty-first round's H200 recording of
// independent wmma chains on the same operands (cx.cu: f16, bf16, tf32
// and s8, one, two or four accumulators, loops of every length and
// unroll), whose SASS has one chain wherever ptxas's code is straight.
const wmmaRepeatsDir = "../../testdata/timing/wmmacse"

// TestLongWmmaRepeatsAgainstH200 runs cx.cu built by warpsim cc with nvcc
// 13's PTX of it under warpsim prof at the base clock, checks every
// launch's hash against the H200's and compares each launch's time with
// Nsight Compute's (times.tsv; the whole family is a study set: it chose
// fullUnrollBudget's bracket in internal/ir). With every wmma.mma issued
// (ptxas.wmma_repeats=0) the mean |error| is 9.2%, the four chains of
// straight code +23% to +47% at 64 and 256 steps (cx_f16_a4_n256_u0
// +46.7%); with a repeat not issued (Params.WmmaRepeats) 5.2% (-5.8%).
// It fails when a launch is more than 20% off or the mean passes 6.5%.
func TestLongWmmaRepeatsAgainstH200(t *testing.T) {
	testenv.Long(t)
	needClang(t)
	rows, ns := timeWmmaGemmFamily(t, wmmaRepeatsDir, "cx")
	if len(rows) != 52 {
		t.Fatalf("%d launches, want 52", len(rows))
	}
	compareWmmaHalves(t, rows, ns, "H200", func(string) bool { return false }, 0.20, 0.065, 0)
}
