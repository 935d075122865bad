// racecheck: warps 0 and 1 write 7, warps 2 and 3 write 9 to one shared word
// (WAW: equal values within each pair, different across), then read it.
#include "common.h"

__global__ void mixedWriter(int *out) {
  __shared__ int flag;
  flag = threadIdx.x < 64 ? 7 : 9;
  __syncthreads();
  out[threadIdx.x] = flag;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  mixedWriter<<<1, 128>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
