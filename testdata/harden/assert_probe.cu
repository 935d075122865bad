#line 1 "assert_probe.cu"
// Probes assert on a GPU: every thread of two blocks fails; how many
// messages, on which stream, and what printf before it shows.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void allfail(int n) {
  if (threadIdx.x == 0) printf("block %d before the assert\n", blockIdx.x);
  assert(n < 0 && "n must be negative");
  printf("after the assert, block %d thread %d\n", blockIdx.x, threadIdx.x);
}
int main() {
  allfail<<<2, 64>>>(5);
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  return 0;
}
