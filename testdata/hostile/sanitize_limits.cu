// Issue 16 #13: 200 out-of-bounds writes, for compute-sanitizer's
// --print-limit 0 and --error-exitcode 256 / 300.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void oob(int *p) { p[64 + threadIdx.x] = 1; }
int main() {
  int *p;
  cudaMalloc(&p, 256);
  oob<<<1, 200>>>(p);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
