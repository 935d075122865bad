// racecheck: every thread writes the same shared word (WAW), then reads it
// after a barrier.
#include "common.h"

__global__ void lastWriter(int *out) {
  __shared__ int flag;
  flag = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = flag;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  lastWriter<<<1, 128>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
