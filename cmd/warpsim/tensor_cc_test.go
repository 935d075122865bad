package main

import (
	"os"
	"testing"
)

// TestTensorProgramsCC builds the tensor-core and bulk-copy programs recorded
// on the H100 (testdata/tensor: a 12-line-kernel wmma GEMM through
// warpsim's mma.h, and cp.async.bulk on an mbarrier) with `warpsim cc` and
// compares what they print with what the H100 printed.
func TestTensorProgramsCC(t *testing.T) {
	needClang(t)
	for _, p := range []struct{ src, want string }{
		{"../../testdata/tensor/gemm_wmma.cu", "../../testdata/tensor/out/gemm_wmma.txt"},
		{"../../testdata/tensor/bulk_prog.cu", "../../testdata/tensor/out/bulk_prog.txt"},
	} {
		want, err := os.ReadFile(p.want)
		if err != nil {
			t.Fatal(err)
		}
		prog := buildCU(t, p.src)
		got, _ := runProgram(t, prog)
		if got != string(want) {
			t.Errorf("%s prints other than the H100:\n%.300s", p.src, got)
		}
	}
}
