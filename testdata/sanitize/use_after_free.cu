// memcheck: a kernel writes through a pointer the program has freed.
#include "common.h"

__global__ void touch(int *a) {
  if (threadIdx.x == 0)
    a[10] = 42;
}

int main() {
  int *keep, *a;
  cudaMalloc(&keep, 4096);
  cudaMalloc(&a, 1024);
  cudaFree(a);
  touch<<<1, 32>>>(a);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
