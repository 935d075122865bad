// racecheck: two races found in this order: on a[] by 16 threads (64
// hazards), then on b[] by 64 threads (256 hazards).
#include "common.h"

__global__ void two(int *out) {
  __shared__ int a[64];
  __shared__ int b[64];
  int t = threadIdx.x;
  if (t < 8 || t >= 56)
    a[t] = t + 1;
  b[t] = t + 2;
  int v = 0;
  if (t < 8 || t >= 56)
    v = a[63 - t];
  out[t] = v + b[63 - t];
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  two<<<1, 64>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
