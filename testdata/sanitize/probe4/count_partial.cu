// Named barrier misuse inside one warp: lanes 0-15 of warp 0 reach
// barrier 1 with count 64, lanes 16-31 with count 96; warp 1 with 64.
#include "common.h"

__global__ void partial(int *out) {
  int t = threadIdx.x;
  if (t < 16)
    asm volatile("bar.sync 1, 64;");
  else if (t < 32)
    asm volatile("bar.sync 1, 96;");
  else
    asm volatile("bar.sync 1, 64;");
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  partial<<<1, 64>>>(out);
  waitLaunch("partial");
  return 0;
}
