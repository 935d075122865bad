// synccheck: warps 0-1 wait at named barrier 1 for 64 threads, warps 2-3
// at the same barrier for 96.
#include "common.h"

__global__ void named(int *out) {
  int t = threadIdx.x;
  if (t < 64)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.sync 1, 96;");
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  named<<<1, 128>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
