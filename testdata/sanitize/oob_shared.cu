// memcheck: thread 7 of block 1 writes far outside the block's shared memory.
#include "common.h"

__global__ void sharedOut(int *out, int far) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (blockIdx.x == 1 && t == 7)
    s[t + far] = 1;
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[63 - t];
}

int main() {
  int *out;
  cudaMalloc(&out, 2 * 64 * sizeof(int));
  sharedOut<<<2, 64>>>(out, 1 << 20);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
