// Device code of the separate-compilation program: an extern __device__
// function and variables used from main.cu, a static helper whose name
// main.cu also uses, a template both files instantiate, and a kernel.
#include <cstdio>
#include "shared.h"

__device__ int table[4] = {100, 200, 300, 400};
__device__ int calls;
static __device__ __noinline__ int helper(int x) { return x + 1; }

__device__ int scale(int x) {
  atomicAdd(&calls, 1);
  return helper(twice(x));
}

__global__ void lib_kernel(int *out) {
  out[threadIdx.x] = scale(threadIdx.x) + table[threadIdx.x % 4];
  if (threadIdx.x == 0) printf("lib_kernel: table[3] = %d\n", table[3]);
}
