// initcheck --track-unused-memory: a 1024-byte allocation with two gaps a
// kernel leaves, one that cudaMemset fills in part, one never written.
#include "common.h"

__global__ void two(int *a) {
  int t = threadIdx.x;
  a[t < 16 ? t : t + 16] = t;
}

int main() {
  int *a, *b, *c;
  cudaMalloc(&a, 1024);
  cudaMalloc(&b, 512);
  cudaMalloc(&c, 300);
  two<<<1, 32>>>(a);
  cudaMemset(b, 0, 100);
  REPORT(cudaDeviceSynchronize());
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
