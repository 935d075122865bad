// racecheck: every thread of four warps writes the SAME value to one shared
// word (WAW of equal values), then reads it after a barrier.
#include "common.h"

__global__ void sameWriter(int *out) {
  __shared__ int flag;
  flag = 7;
  __syncthreads();
  out[threadIdx.x] = flag;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  sameWriter<<<1, 128>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
