// Misuse: arrive.expect_tx announces 512 bytes but the bulk copy brings
// 256, so the phase never completes (the wait is bounded here).
#include "mbar.h"

__global__ void txShort(const int *in, int *out) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) int buf[128];
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&bar, 1);
    mb_arrive_tx(&bar, 512);
    bulk_g2s(buf, in, 256, &bar);
  }
  __syncthreads();
  bool done = mb_wait_bounded(&bar, 0, 200);
  if (t == 0) out[0] = done;
}

int main() {
  int *in, *out, h[128] = {0};
  cudaMalloc(&in, sizeof(h));
  cudaMalloc(&out, sizeof(h));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  txShort<<<1, 32>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("done=%d\n", h[0]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
