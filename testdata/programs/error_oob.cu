// An out-of-bounds store: the launch succeeds, the next synchronizing call
// returns cudaErrorIllegalAddress, and the error is sticky.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void bad(int *p) {
  if (threadIdx.x == 3) p[1ll << 34] = 42;  // 64 GiB past a 256-byte allocation
}
int main() {
  int *d;
  cudaMalloc(&d, 256);
  bad<<<1, 32>>>(d);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("later malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("last error again: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf(e == cudaErrorIllegalAddress ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
