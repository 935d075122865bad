// initcheck --track-unused-memory: a 1000-byte allocation of which a kernel
// writes only the first 64 ints; a second one fully written.
#include "common.h"

__global__ void part(int *a, int *b) {
  int t = threadIdx.x;
  a[t] = t;
  b[t] = t;
}

int main() {
  int *a, *b;
  cudaMalloc(&a, 1000);
  cudaMalloc(&b, 64 * sizeof(int));
  part<<<1, 64>>>(a, b);
  REPORT(cudaDeviceSynchronize());
  cudaFree(a);
  cudaFree(b);
  return 0;
}
