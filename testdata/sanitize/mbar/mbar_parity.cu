// Misuse: waiting on the wrong phase parity. Nobody arrives, so phase 0
// never completes: waiting for parity 0 times out (bounded here), while
// parity 1 (the "preceding" phase) reads as complete at once.
#include "mbar.h"

__global__ void wrongParity(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, 2);
  __syncthreads();
  if (t == 0) {
    out[0] = mb_wait_bounded(&bar, 0, 200) ? 1 : 0;
    out[1] = mb_wait_bounded(&bar, 1, 200) ? 1 : 0;
  }
}

int main() {
  int *out, h[2];
  cudaMalloc(&out, sizeof(h));
  wrongParity<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("parity0 done=%d parity1 done=%d\n", h[0], h[1]);
  cudaFree(out);
  return 0;
}
