// memcheck: a read one element past the end of a 37-float array (148 bytes).
#include "common.h"

__global__ void scale(const float *a, float *b, int n) {
  int i = threadIdx.x;
  if (i <= n)
    b[i % 37] = 2.0f * a[i];
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 37 * sizeof(float));
  cudaMalloc(&b, 37 * sizeof(float));
  cudaMemset(a, 0, 37 * sizeof(float));
  scale<<<1, 64>>>(a, b, 37);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
