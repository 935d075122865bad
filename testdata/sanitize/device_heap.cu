// memcheck: a thread writes past the end of its device-heap allocation.
#include "common.h"

__global__ void heap(int *out) {
  int t = threadIdx.x;
  int *p = (int *)malloc(4 * sizeof(int));
  if (p == NULL)
    return;
  p[t == 2 ? 4 : 0] = t;
  out[t] = p[0];
  free(p);
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  heap<<<1, 4>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
