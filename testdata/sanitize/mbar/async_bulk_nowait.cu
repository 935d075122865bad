// racecheck: thread 0 starts a bulk copy into shared memory; after a
// __syncthreads every thread waits on the mbarrier that tracks the copy and reads the buffer (the early
// read below is dead, early - early: clang drops it, nvcc most likely too; pending/async_bulk_early.cu keeps it).
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
  int early = buf[t];  // too early
  while (!mb_try_parity(&bar, 0)) {}
  out[t] = early - early + buf[63 - t];
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
