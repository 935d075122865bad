// memcheck and plain: the program raises the kernel's dynamic shared memory
// limit to 64 KiB, then launches it with 96 KiB.
#include "common.h"

__global__ void big(int *out) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  REPORT(cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  big<<<1, 64, 96 * 1024>>>(out);  // bug: more than the attribute allows
  REPORT(cudaGetLastError());
  REPORT(cudaDeviceSynchronize());
  big<<<1, 64, 64 * 1024>>>(out);
  REPORT(cudaGetLastError());
  REPORT(cudaDeviceSynchronize());
  return 0;
}
