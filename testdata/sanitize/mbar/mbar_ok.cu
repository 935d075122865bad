// Correct use: thread 0 initializes, every thread arrives and waits, two
// phases, then a bulk copy on a second barrier with arrive.expect_tx; both
// invalidated at the end. Clean under every tool.
#include "mbar.h"

__global__ void good(const int *in, int *out) {
  __shared__ uint64_t bar, bar2;
  __shared__ alignas(16) int buf[64];
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  for (int ph = 0; ph < 2; ph++) {
    mb_arrive(&bar);
    while (!mb_try_parity(&bar, ph)) {}
  }
  __syncthreads();
  if (t == 0) {
    mb_init(&bar2, 1);
    mb_arrive_tx(&bar2, sizeof(buf));
    bulk_g2s(buf, in, sizeof(buf), &bar2);
  }
  __syncthreads();
  while (!mb_try_parity(&bar2, 0)) {}
  out[blockIdx.x * 64 + t] = buf[t] + 1;
  __syncthreads();
  if (t == 0) {
    mb_inval(&bar);
    mb_inval(&bar2);
  }
}

int main() {
  int h[128], *in, *out;
  for (int i = 0; i < 64; i++) h[i] = i * 3;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&out, sizeof(h));
  cudaMemcpy(in, h, 64 * sizeof(int), cudaMemcpyHostToDevice);
  good<<<2, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("out[0]=%d out[63]=%d out[127]=%d\n", h[0], h[63], h[127]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
