// memcheck: a clean kernel, then another that reads before the start.
#include "common.h"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

__global__ void prev(const int *a, int *b) {
  int t = threadIdx.x;
  b[t] = a[t - 1];
}

int main() {
  int *a, *b;
  cudaMalloc(&a, 32 * sizeof(int));
  cudaMalloc(&b, 32 * sizeof(int));
  fill<<<1, 32>>>(a);
  REPORT(cudaDeviceSynchronize());
  prev<<<1, 32>>>(a, b);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
