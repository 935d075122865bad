// synccheck: __syncthreads reached by whole warps 0 and 1 and half of warp 2
// (96 threads; threads 0..79 take the branch).
#include "common.h"

__global__ void part(int *out) {
  __shared__ int s[96];
  int t = threadIdx.x;
  s[t] = t;
  if (t < 80)
    __syncthreads();
  out[t] = s[95 - t];
}

int main() {
  int *out;
  cudaMalloc(&out, 96 * sizeof(int));
  part<<<1, 96>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
