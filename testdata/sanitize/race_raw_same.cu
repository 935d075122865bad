// racecheck: the shared word holds 5 (barrier); then thread 0 writes 5 again
// while warps 1-3 read it with no barrier between (RAW where the write does
// not change the value), and thread 32 writes 6 to another word that warp 2
// reads (RAW of a changed value).
#include "common.h"

__global__ void rawSame(int *out) {
  __shared__ int a, b;
  if (threadIdx.x == 0) { a = 5; b = 1; }
  __syncthreads();
  if (threadIdx.x == 0) a = 5;
  if (threadIdx.x == 32) b = 6;
  int v = 0;
  if (threadIdx.x >= 32) v = a;
  if (threadIdx.x >= 64 && threadIdx.x < 96) v += b;
  out[threadIdx.x] = v;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  rawSame<<<1, 128>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
