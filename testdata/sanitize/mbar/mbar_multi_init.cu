// Misuse: every thread initializes the same mbarrier, then all arrive.
#include "mbar.h"

__global__ void everyoneInits(int *out) {
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  mb_init(&bar, blockDim.x);
  __syncthreads();
  mb_arrive(&bar);
  out[t] = mb_wait_bounded(&bar, 0, 200);
}

int main() {
  int *out, h[64];
  cudaMalloc(&out, sizeof(h));
  everyoneInits<<<1, 64>>>(out);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("out[0]=%d out[63]=%d\n", h[0], h[63]);
  cudaFree(out);
  return 0;
}
