// synccheck: every lane calls __syncwarp(0x0000ffff): lanes 16..31 are not
// in the mask.
#include "common.h"

__global__ void half(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = t;
  __syncwarp(0x0000ffff);
  out[t] = s[31 - t];
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  half<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
