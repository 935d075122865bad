// Named barrier misuse: warps 0-1 wait at barrier 1 for 96 threads, warps
// 2-3 for 64 (probe2/named_barrier with the counts swapped).
#include "common.h"

__global__ void swapped(int *out) {
  int t = threadIdx.x;
  if (t < 64)
    asm volatile("bar.sync 1, 96;");
  else
    asm volatile("bar.sync 1, 64;");
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 128 * sizeof(int));
  swapped<<<1, 128>>>(out);
  waitLaunch("swapped");
  return 0;
}
