// memcheck: a kernel stages n = 99 floats into shared memory in 16-byte
// cp.async chunks, rounding the count up to whole chunks: the 25th chunk
// reads 4 bytes past the 396-byte input.
#include <cuda_pipeline.h>
#include "common.h"

__global__ void stage(const float *in, float *out, int n) {
  __shared__ __align__(16) float buf[128];
  int chunks = (n + 3) / 4;  // bug: the tail is read as a whole chunk
  int t = threadIdx.x;
  if (t < chunks)
    __pipeline_memcpy_async(&buf[4 * t], &in[4 * t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  if (t < n)
    out[t] = 2 * buf[t];
}

int main() {
  const int n = 99;
  float h[n], *in, *out;
  for (int i = 0; i < n; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<1, 128>>>(in, out, n);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
