// Misuse: arrive on an mbarrier after it was invalidated.
#include "mbar.h"

__global__ void arriveAfterInval(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) {
    mb_init(&bar, 1);
    mb_inval(&bar);
  }
  __syncthreads();
  if (t == 0) mb_arrive(&bar);
  out[t] = t;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  arriveAfterInval<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaFree(out);
  return 0;
}
