// synccheck: __syncthreads inside a branch only half of each warp takes.
#include "common.h"

__global__ void halfSync(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  if (t % 32 < 16)
    __syncthreads();
  out[t] = s[63 - t];
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  halfSync<<<1, 64>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
