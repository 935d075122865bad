// memcheck --leak-check full: each of 3 iterations allocates a pinned host
// staging buffer and a device buffer; only the last device buffer is freed
// after the loop, and no pinned buffer is.
#include "common.h"

__global__ void inc(int *d) { d[threadIdx.x] += 1; }

int main() {
  int *d = nullptr, *h = nullptr;
  for (int it = 0; it < 3; it++) {
    REPORT(cudaMallocHost(&h, 256));
    REPORT(cudaMalloc(&d, 256 + 64 * it));  // bug: the previous d is lost
    cudaMemset(d, 0, 256);
    inc<<<1, 64>>>(d);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  REPORT(cudaDeviceSynchronize());
  printf("h[5]=%d\n", h[5]);
  cudaFree(d);
  return 0;
}
