// Named barrier misuse: warps 0 and 2 wait at barrier 1 for 64 threads,
// warps 1 and 3 for 128.
#include "common.h"

__global__ void interleaved(int *out) {
  int t = threadIdx.x;
  if ((t / 32) % 2 == 0)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.sync 1, 128;");
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  interleaved<<<1, 128>>>(out);
  waitLaunch("interleaved");
  return 0;
}
