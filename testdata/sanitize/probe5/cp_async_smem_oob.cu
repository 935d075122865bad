// memcheck: a block stages 64 ints of each row into dynamic shared memory with
// __pipeline_memcpy_async (cp.async, 16 bytes per thread), but the launch
// gives 240 bytes of dynamic shared memory, not 256: thread 15's copy lands
// past it.
#include <cuda_pipeline.h>
#include "common.h"

__global__ void stage(const int4 *in, int *out) {
  extern __shared__ int4 buf[];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[t], &in[t], sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = buf[15 - t].x;
}

int main() {
  int4 *in;
  int *out, h[64];
  for (int i = 0; i < 64; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 16 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<1, 16, 15 * sizeof(int4)>>>(in, out);  // bug: 16 int4s are copied
  REPORT(cudaDeviceSynchronize());
  return 0;
}
