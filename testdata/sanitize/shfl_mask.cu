// synccheck: half a warp calls __shfl_sync with a mask naming the whole warp.
#include "common.h"

__global__ void halfShuffle(int *out) {
  int t = threadIdx.x;
  int v = t;
  if (t < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  out[t] = v;
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  halfShuffle<<<1, 32>>>(out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
