// racecheck: a shared-memory read of a neighbour's value with no barrier
// between the write and the read (RAW across warps and within a warp).
#include "common.h"

__global__ void shiftLeft(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + 1) % 64];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(in, 1, 64 * sizeof(int));
  shiftLeft<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
