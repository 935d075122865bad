// common.h: helpers shared by the syncmem microbenchmarks (see README.md).
#pragma once
#include <cstdio>
#include <cstdlib>
#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                          \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_), cudaGetErrorString(e_));   \
      return 1;                                                                                       \
    }                                                                                                 \
  } while (0)

__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// flush writes 128 MiB (more than the 50 MiB L2) so that what a measured launch reads comes from DRAM, as under
// Nsight Compute's cache control.
__global__ void k_flush(int4 *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = make_int4((int)i, 1, 2, 3);
}
static int4 *g_flush;
static void flush() {
  if (getenv("SYNCMEM_NOFLUSH")) return;  // for trying the programs on a simulator quickly
  const size_t n = (128u << 20) / sizeof(int4);
  if (!g_flush) cudaMalloc(&g_flush, n * sizeof(int4));
  k_flush<<<264, 1024>>>(g_flush, n);
  cudaDeviceSynchronize();
}
