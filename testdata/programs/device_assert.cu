#line 1 "device_assert.cu"
// assert in device code: a passing assert costs nothing; a failing one
// prints the GPU's message for each failing thread and the next
// synchronizing call returns cudaErrorAssert, which is sticky.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void check(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] >= 0);
}
int main() {
  int h[64];
  for (int i = 0; i < 64; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check<<<2, 32>>>(d, 64);
  printf("passing: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  h[37] = -1;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check<<<2, 32>>>(d, 64);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("later malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
  printf(e == cudaErrorAssert ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
