// A thread count below the number of threads arriving: all 128 threads
// reach bar.sync 1, 64 (each two warps complete one instance), and all 64
// of a second block reach bar.sync 1, 32.
#include "common.h"

__global__ void below(int *out, int n) {
  int t = threadIdx.x;
  barSync(1, n);
  out[t] = 1;
}

int main() {
  int *out, h[256];
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemset(out, 0, 256 * sizeof(int));
  below<<<1, 128>>>(out, 64);
  waitLaunch("below 128 threads, count 64");
  below<<<1, 64>>>(out + 128, 32);
  waitLaunch("below 64 threads, count 32");
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("ran %d %d %d %d / %d %d\n", h[0], h[32], h[64], h[96], h[128], h[160]);
  return 0;
}
