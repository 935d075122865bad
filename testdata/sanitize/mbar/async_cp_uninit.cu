// initcheck and memcheck: cp.async reads 16 bytes per thread from global
// memory that was never written (initcheck), and, in a second launch,
// thread 63's copy reads past the end of the allocation (memcheck).
#include "mbar.h"

__global__ void copyIn(const int4 *in, int *out, int n) {
  __shared__ int4 buf[64];
  int t = threadIdx.x;
  if (t < n) cp_async16(&buf[t], &in[t]);
  cp_async_commit();
  cp_async_wait_all();
  __syncthreads();
  if (t < n) out[t] = buf[t].x;
}

int main() {
  int4 *in;
  int *out;
  cudaMalloc(&in, 63 * sizeof(int4));
  cudaMalloc(&out, 64 * sizeof(int));
  copyIn<<<1, 64>>>(in, out, 32);
  REPORT(cudaDeviceSynchronize());
  cudaMemset(in, 0, 63 * sizeof(int4));
  copyIn<<<1, 64>>>(in, out, 64);
  REPORT(cudaDeviceSynchronize());
  cudaFree(in);
  cudaFree(out);
  return 0;
}
