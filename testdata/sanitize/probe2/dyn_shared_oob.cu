// memcheck: dynamic shared memory of 200 bytes (50 ints); thread 50 writes
// s[50], one past its end.
#include "common.h"

__global__ void dyn(int *out) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  if (t <= 50)
    s[t] = t;
  __syncthreads();
  if (t < 50)
    out[t] = s[t];
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  dyn<<<1, 64, 50 * sizeof(int)>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
