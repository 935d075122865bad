// Misuse: a second init of an mbarrier whose phase is under way (one of
// its two arrivals made).
#include "mbar.h"

__global__ void reinitLive(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&bar, 2);
    mb_arrive(&bar);
    mb_init(&bar, 2);
    mb_arrive(&bar);
    out[0] = mb_test_parity(&bar, 0);
  }
}

int main() {
  int *out, h[1];
  cudaMalloc(&out, sizeof(h));
  reinitLive<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("done=%d\n", h[0]);
  cudaFree(out);
  return 0;
}
