// synccheck: __syncwarp with a member mask that leaves out lanes that call it.
#include "common.h"

__global__ void badMask(int *out) {
  int t = threadIdx.x;
  out[t] = t;
  __syncwarp(0x0000ffff);
  out[t] += 1;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  badMask<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
