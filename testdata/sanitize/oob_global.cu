// memcheck: one thread writes one int past the end of a 256-int buffer.
#include "common.h"

__global__ void writeAll(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = i;
}

int main() {
  int *a;
  cudaMalloc(&a, 256 * sizeof(int));
  writeAll<<<3, 128>>>(a, 256);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
