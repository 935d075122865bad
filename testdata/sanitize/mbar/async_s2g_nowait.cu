// initcheck: a bulk copy shared -> global of 256 bytes into fresh
// cudaMalloc memory; thread 0 reads the destination before
// cp.async.bulk.wait_group, then waits and reads it again.
#include "mbar.h"

__global__ void storeThenRead(int *dst, int *out) {
  __shared__ alignas(16) int buf[64];
  int t = threadIdx.x;
  buf[t] = 7 * t;
  fence_async_shared();
  __syncthreads();
  if (t == 0) {
    bulk_s2g(dst, buf, sizeof(buf));
    bulk_commit();
    int early = ((volatile int *)dst)[5];  // too early
    bulk_wait0();
    out[0] = early - early + ((volatile int *)dst)[6];
  }
}

int main() {
  int *dst, *out, h = 0;
  cudaMalloc(&dst, 64 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  storeThenRead<<<1, 64>>>(dst, out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("out=%d\n", h);
  cudaFree(dst);
  cudaFree(out);
  return 0;
}
