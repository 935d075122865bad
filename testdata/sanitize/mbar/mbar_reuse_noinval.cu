// Misuse: the shared memory of a live mbarrier is overwritten as data
// without mbarrier.inval first.
#include "mbar.h"

__global__ void reuseWithoutInval(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, 32);
  __syncthreads();
  mb_arrive(&bar);
  while (!mb_try_parity(&bar, 0)) {}
  __syncthreads();
  if (t == 0) bar = 12345;
  __syncthreads();
  out[t] = (int)bar;
}

int main() {
  int *out, h[32];
  cudaMalloc(&out, sizeof(h));
  reuseWithoutInval<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("out[0]=%d\n", h[0]);
  cudaFree(out);
  return 0;
}
