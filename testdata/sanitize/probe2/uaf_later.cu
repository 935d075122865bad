// memcheck: a clean launch, then cudaFree, then a second launch that reads
// through the freed pointer (a later allocation of another size lies beside).
#include "common.h"

__global__ void sum(const int *a, int *out) {
  if (threadIdx.x == 5)
    out[0] = a[100] + 1;
}

int main() {
  int *a, *out, *other;
  cudaMalloc(&a, 512 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(a, 0, 512 * sizeof(int));
  sum<<<1, 32>>>(a, out);
  REPORT(cudaDeviceSynchronize());
  cudaFree(a);
  cudaMalloc(&other, 100);
  sum<<<1, 32>>>(a, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
