// Misuse: wait (test_wait.parity) on an mbarrier after it was invalidated.
#include "mbar.h"

__global__ void waitAfterInval(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&bar, 1);
    mb_arrive(&bar);
    mb_inval(&bar);
  }
  __syncthreads();
  if (t == 0) out[0] = mb_test_parity(&bar, 0) ? 1 : 0;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  waitAfterInval<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaFree(out);
  return 0;
}
