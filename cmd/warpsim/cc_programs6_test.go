package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// programs6Dir holds the sixth batch of CUDA 13 programs, written in the
// style of popular open-source CUDA code (llm.c's training kernels,
// FlashAttention-minimal, CUB and Thrust pipelines, k-means, n-body,
// bitonic and radix sorts, CSR SpMV, a decoupled look-back scan, texture
// convolution, warp-aggregated histograms, a half2 GEMV) and recorded on an
// H100 with nvcc 13 (testdata/programs6/record.sh, record2.sh).
const programs6Dir = "../../testdata/programs6"

// programs6 are the batch's programs that warpsim runs bit for bit (none
// needs flags beyond -O3 -arch=sm_90 -std=c++17); the one that differs
// (nbody_tile: the host compilers draw its inputs in different orders), and
// why, is in the folder's README. llmc_softmax_gelu matches since warpsim cc
// contracts multiplies into adds as nvcc does (cuda/cc/cc.go). A cheap few run in plain go test, the
// rest (CUB and Thrust take many CPU seconds of clang) under WARPSIM_LONG.
var programs6 = []recordedProgram{
	{name: "conv_tex"},
	{name: "hist_warp_agg"},
	{name: "llmc_layernorm"},
	{name: "scan_lookback"},
	{name: "llmc_softmax_gelu"},
	{name: "bitonic_sort", long: true},
	{name: "cub_pipeline", long: true},
	{name: "flash_attn_min", long: true},
	{name: "hgemv_half2", long: true},
	{name: "kmeans_step", long: true},
	{name: "llmc_adamw_bf16", long: true},
	{name: "llmc_matmul", long: true},
	{name: "nbody_tile_seq", long: true},
	{name: "radix_sort_hand", long: true},
	{name: "spmv_csr", long: true},
	{name: "thrust_structs", long: true},
	{name: "video_insns", long: true},
}

var programs6Base = []string{"-O3", "-arch=sm_90", "-std=c++17"}

// TestCCPrograms6MatchH100 builds the cheap programs of testdata/programs6
// unchanged with warpsim cc and compares their stdout, stderr and exit
// status with the H100's, under the functional driver, in parallel.
func TestCCPrograms6MatchH100(t *testing.T) {
	checkRecordedBatch(t, programs6Dir, programs6Base, programs6, false)
}

// TestLongCCPrograms6MatchH100 is TestCCPrograms6MatchH100 for the rest of
// the batch.
func TestLongCCPrograms6MatchH100(t *testing.T) {
	testenv.Long(t)
	checkRecordedBatch(t, programs6Dir, programs6Base, programs6, true)
}

// TestCCUninitializedAggregatedAtomic: the CUDA programming guide's
// warp-aggregated atomic leaves prev uninitialized in all lanes but the
// leader (int prev; if (g.thread_rank() == 0) prev = atomicAdd(p,
// g.size()); prev = g.shfl(prev, 0)). clang's noundef analysis took the
// uninitialized read for undefined behaviour and made the atomicAdd
// unconditional, so every lane added the group's size; nvcc adds it once
// per group (testdata/programs6/hist_warp_agg). 100 threads in 4 warps,
// the lanes with i % 3 != 0 active: 66 of them, and every slot 0..65
// written once (the slots add up to 0 + 1 + … + 65 = 2145).
func TestCCUninitializedAggregatedAtomic(t *testing.T) {
	needClang(t)
	src := filepath.Join(t.TempDir(), "agg.cu")
	const code = `#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *counter, int *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int prev;
    if (g.thread_rank() == 0) prev = atomicAdd(counter, g.size());
    prev = g.thread_rank() + g.shfl(prev, 0);
    slots[prev] = prev;
  }
}
int main() {
  int *c, *s, h[200], hc;
  cudaMalloc(&c, 4); cudaMalloc(&s, sizeof h);
  cudaMemset(c, 0, 4); cudaMemset(s, 0, sizeof h);
  k<<<1, 128>>>(c, s, 100);
  cudaMemcpy(&hc, c, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h, s, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0; for (int i = 0; i < 200; i++) sum += h[i];
  printf("%d %d\n", hc, sum);
  return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := buildCU(t, src, "-O3", "-std=c++17") // keyed by the source's content
	out, stderr, err := runProgramEnv(prog, []string{"WARPSIM_MODE=functional"})
	if want := "66 2145\n"; err != nil || out != want {
		t.Errorf("got %q (%v), want %q\n%s", out, err, want, stderr)
	}
}
