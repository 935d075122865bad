// Misuse: more arrivals than the phase expects. init(4), then one thread
// arrives with a count of 8, and 32 threads arrive once each on a second
// barrier initialized for 16.
#include "mbar.h"

__global__ void tooManyArrivals(int *out) {
  __shared__ uint64_t a, b;
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&a, 4);
    mb_init(&b, 16);
  }
  __syncthreads();
  if (t == 0) mb_arrive_n(&a, 8);
  mb_arrive(&b);
  __syncthreads();
  if (t == 0) {
    out[0] = mb_test_parity(&a, 0);
    out[1] = mb_test_parity(&a, 1);
    out[2] = mb_test_parity(&b, 0);
    out[3] = mb_test_parity(&b, 1);
  }
}

int main() {
  int *out, h[4];
  cudaMalloc(&out, sizeof(h));
  tooManyArrivals<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("a: %d %d  b: %d %d\n", h[0], h[1], h[2], h[3]);
  cudaFree(out);
  return 0;
}
