// memcheck: one thread frees its device-heap block twice.
#include "common.h"

__global__ void twice(int *out) {
  int *p = (int *)malloc(16);
  if (p == NULL)
    return;
  p[0] = threadIdx.x;
  out[threadIdx.x] = p[0];
  free(p);
  if (threadIdx.x == 1)
    free(p);
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  twice<<<1, 4>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
