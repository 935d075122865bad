// memcheck: thread 1 frees its device-heap block twice; the block's address
// is kept in a global variable, so no compiler can delete the malloc/free.
#include "common.h"

__device__ int *keep[4];

__global__ void twice(int *out) {
  int *p = (int *)malloc(16);
  if (p == NULL)
    return;
  keep[threadIdx.x] = p;
  p[0] = threadIdx.x;
  out[threadIdx.x] = p[0];
  free(p);
  if (threadIdx.x == 1)
    free(keep[1]);
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  twice<<<1, 4>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
