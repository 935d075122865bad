// memcheck: thread 5 reads the int just before a buffer.
#include "common.h"

__global__ void readBefore(const int *a, int *out) {
  int t = threadIdx.x;
  int k = t == 5 ? -1 : t;
  out[t] = a[k];
}

int main() {
  int *a, *out;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(a, 0, 64 * sizeof(int));
  readBefore<<<1, 64>>>(a, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
