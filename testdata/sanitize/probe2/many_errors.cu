// memcheck: every thread of 4 blocks of 64 writes past the end (256 errors:
// more than the print limit of 100).
#include "common.h"

__global__ void past(int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i + 64] = i;
}

int main() {
  int *a;
  cudaMalloc(&a, 64 * sizeof(int));
  past<<<4, 64>>>(a);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
