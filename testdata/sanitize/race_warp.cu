// racecheck: the RAW of race_raw.cu inside one warp only (32 threads).
#include "common.h"

__global__ void rotate(const int *in, int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + 1) % 32];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(in, 1, 32 * sizeof(int));
  rotate<<<1, 32>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
