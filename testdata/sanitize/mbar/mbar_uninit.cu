// Misuse: arrive on and test an mbarrier that no thread initialized.
#include "mbar.h"

__global__ void uninitArrive(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  mb_arrive(&bar);
  out[t] = mb_test_parity(&bar, 0) ? 1 : 0;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  uninitArrive<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaFree(out);
  return 0;
}
