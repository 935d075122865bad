// memcheck: a kernel calls free() on a cudaMalloc'd pointer (not the heap's).
#include "common.h"

__global__ void wrongFree(int *a) {
  a[threadIdx.x] = 1;
  if (threadIdx.x == 0)
    free(a);
}

int main() {
  int *a;
  cudaMalloc(&a, 32 * sizeof(int));
  wrongFree<<<1, 32>>>(a);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
