// memcheck --leak-check full: a cudaMallocAsync and a cudaMallocManaged
// allocation never freed (a cudaMalloc one freed).
#include "common.h"

__global__ void touch(int *a, int *m) {
  a[threadIdx.x] = 1;
  m[threadIdx.x] = 2;
}

int main() {
  int *a, *m, *f;
  cudaStream_t s;
  cudaStreamCreate(&s);
  REPORT(cudaMallocAsync(&a, 96 * sizeof(int), s));
  REPORT(cudaMallocManaged(&m, 48 * sizeof(int)));
  cudaMalloc(&f, 1000);
  touch<<<1, 32, 0, s>>>(a, m);
  REPORT(cudaStreamSynchronize(s));
  cudaFree(f);
  cudaStreamDestroy(s);
  return 0;
}
