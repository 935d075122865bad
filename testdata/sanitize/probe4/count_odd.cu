// Named barrier misuse: a thread count that is not a multiple of 32
// (bar.sync 1, 48 from a register, for all 64 threads of the block).
#include "common.h"

__global__ void odd(int *out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t + 1;
  barSync(1, n);
  out[t] = s[63 - t];
}

int main() {
  int *out, h[64];
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  odd<<<1, 64>>>(out, 48);
  waitLaunch("odd");
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[0] %d out[31] %d out[32] %d out[63] %d\n", h[0], h[31], h[32], h[63]);
  return 0;
}
