// memcheck: a launch with 2048 threads per block fails; the program then
// asks cudaPeekAtLastError and cudaGetLastError.
#include "common.h"

__global__ void k(int *a) { a[threadIdx.x] = 1; }

int main() {
  int *a;
  cudaMalloc(&a, 4096);
  k<<<1, 2048>>>(a);
  REPORT(cudaPeekAtLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaGetLastError());
  REPORT(cudaDeviceSynchronize());
  return 0;
}
