// initcheck: cudaMemset given the element count (50) instead of the bytes
// (200): ints 0..11 are set, int 12 only in its first two bytes, the rest
// not at all; 50 threads read one int each.
#include "common.h"

__global__ void scale(const int *in, int *out) {
  int t = threadIdx.x;
  out[t] = 2 * in[t];
}

int main() {
  const int n = 50;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(in, 0, n);  // bug: n bytes, not n * sizeof(int)
  scale<<<1, n>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
