// racecheck: thread 0 starts a bulk copy into shared memory; after a
// __syncthreads every thread reads the buffer before waiting on the
// mbarrier that tracks the copy (a volatile read, which the compiler keeps;
// async_bulk_nowait.cu's was dropped), then waits and reads again.
#include "mbar.h"

__global__ void bulkReadEarly(const int *in, int *out) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) int buf[64];
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&bar, 1);
    mb_arrive_tx(&bar, sizeof(buf));
    bulk_g2s(buf, in, sizeof(buf), &bar);
  }
  __syncthreads();
  int early = ((volatile int *)buf)[t];  // too early
  while (!mb_try_parity(&bar, 0)) {}
  out[t] = (early & 0) + buf[63 - t];
}

int main() {
  int h[64], *in, *out;
  for (int i = 0; i < 64; i++) h[i] = 5 * i;
  cudaMalloc(&in, sizeof(h));
  cudaMalloc(&out, sizeof(h));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  bulkReadEarly<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("out[0]=%d out[63]=%d\n", h[0], h[63]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
