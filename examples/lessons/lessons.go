// Package lessons embeds the classic CUDA lessons that `warpsim demo` runs
// (warp divergence, parallel reduction, thread coarsening, nested launches):
// their .cu programs and the PTX that nvcc 13.0 emitted for them
// (`nvcc -O3 -arch=sm_90 -ptx`; nested with -rdc=true).
// What an H100 printed and measured for them is in the team's ground truth
// (h100_seed_runs.txt, h100_ncu_seed_kernels.csv); the demo quotes it.
package lessons

import "embed"

// FS holds the lesson sources (*.cu, common.h) and their PTX (*.sm90.ptx).
//
//go:embed *.cu *.h *.ptx
var FS embed.FS

// PTX returns the embedded PTX of a lesson ("divergence", "reduce",
// "coarsen", "nested").
func PTX(lesson string) ([]byte, error) { return FS.ReadFile(lesson + ".sm90.ptx") }
