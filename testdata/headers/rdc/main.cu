// Separate compilation: main.cu calls a __device__ function and reads
// __device__ variables defined in lib.cu, and launches lib.cu's kernel.
// Built as `-rdc=true main.cu lib.cu`, or `-dc` then a link, or through
// `-dlink`, or with lib.cu in a static library: the output is the same.
#include <cstdio>
#include "shared.h"

static __device__ __noinline__ int helper(int x) { return x + 100; }

__global__ void main_kernel(int *out) {
  int t = threadIdx.x;
  out[t] = scale(t) * 10 + helper(twice(t)) + table[t % 4];
  if (t == 1) printf("main_kernel: scale(1) = %d\n", scale(1));
}

int main() {
  const int n = 8;
  int *d, h[n];
  cudaMalloc(&d, n * sizeof(int));
  main_kernel<<<1, n>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("main %d: %d\n", i, h[i]);
  int init[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(table, init, sizeof init);
  lib_kernel<<<1, n>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("lib %d: %d\n", i, h[i]);
  int c = 0;
  cudaMemcpyFromSymbol(&c, calls, sizeof c);
  printf("calls %d, %s\n", c, cudaGetErrorName(cudaGetLastError()));
  printf("Test PASSED\n");
  return 0;
}
