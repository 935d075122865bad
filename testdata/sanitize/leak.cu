// memcheck --leak-check full: two allocations are never freed, one is.
#include "common.h"

__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  int *a, *b, *c;
  cudaMalloc(&a, 1000);
  cudaMalloc(&b, 24);
  cudaMalloc(&c, 4096);
  fill<<<1, 32>>>(c);
  REPORT(cudaDeviceSynchronize());
  cudaFree(c);
  return 0;
}
