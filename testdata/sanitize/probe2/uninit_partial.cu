// initcheck: 100 ints allocated, the first 60 set by cudaMemset; each of
// 100 threads reads its own.
#include "common.h"

__global__ void copy(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = in[t];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 100 * sizeof(int));
  cudaMalloc(&out, 100 * sizeof(int));
  cudaMemset(in, 0, 60 * sizeof(int));
  copy<<<1, 100>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
