// __trap() ends the kernel: the next synchronizing call returns
// cudaErrorLaunchFailure, and the error is sticky.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void stopper(int *out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x == 5) __trap();
}
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  stopper<<<1, 32>>>(d);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("later malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
  printf(e == cudaErrorLaunchFailure ? "Test PASSED\n" : "Test FAILED\n");
  return 0;
}
