// memcheck: a stream-ordered buffer is freed with cudaFreeAsync, and a later
// cudaMemcpyAsync on the same stream copies the result out of it.
#include "common.h"

__global__ void fill(int *d) { d[threadIdx.x] = 3 * threadIdx.x; }

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *d, h[64] = {0};
  REPORT(cudaMallocAsync(&d, sizeof h, s));
  fill<<<1, 64, 0, s>>>(d);
  REPORT(cudaFreeAsync(d, s));
  REPORT(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));  // bug: d was freed
  REPORT(cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  return 0;
}
