// Package lessons embeds the classic CUDA lessons that `warpsim demo` runs
// (warp divergence, parallel reduction, thread coarsening, nested launches,
// tensor cores): their .cu programs and the PTX that nvcc 13.0 emitted for
// them (`nvcc -O3 -arch=sm_90 -ptx`; nested with -rdc=true). The tensor-core
// lesson's (tensor.sm90.ptx) was recorded with its times by
// testdata/tensorlesson/run.sh; tensor.clang22.sm90.ptx is clang-22's
// (`warpsim compile tensor.cu`).
// h100/ holds what an NVIDIA H100 printed for them (h100_seed_runs.txt;
// h100_tensor_runs.txt) and what Nsight Compute measured
// (h100_ncu_seed_kernels.csv; h100_ncu_tensor_256.csv), copied from the
// team's ground truth and testdata/tensorlesson/h100; the demo prints those
// figures beside warpsim's.
package lessons

import "embed"

// FS holds the lesson sources (*.cu, common.h), their PTX (*.sm90.ptx;
// nested4.sm35.ptx, the lesson's four reductions with CDP1's device-side
// cudaDeviceSynchronize, is clang-22's: `warpsim compile --arch sm_35 --rdc`)
// and the H100's results (h100/).
//
//go:embed *.cu *.h *.ptx h100/*
var FS embed.FS

// PTX returns the embedded PTX of a lesson ("divergence", "reduce",
// "coarsen", "nested").
func PTX(lesson string) ([]byte, error) { return FS.ReadFile(lesson + ".sm90.ptx") }

// H100NcuCSV returns Nsight Compute's measurements of the lesson kernels on
// an H100: one row per (program, launch, metric).
func H100NcuCSV() []byte {
	b, err := FS.ReadFile("h100/h100_ncu_seed_kernels.csv")
	if err != nil {
		panic("warpsim internal error: " + err.Error())
	}
	return b
}
