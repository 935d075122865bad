// racecheck: double-buffered loads with cuda::pipeline and cuda::memcpy_async
// (16-byte aligned, so cp.async); the consumer reads the first stage with no
// pipeline.consumer_wait() before it.
#include <cuda/pipeline>
#include "common.h"

__global__ void sumStages(const int4 *in, int *out) {
  __shared__ int4 stage[2][64];
  auto pipe = cuda::make_pipeline();
  int t = threadIdx.x;
  for (int s = 0; s < 2; s++) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[s][t], &in[s * 64 + t], cuda::aligned_size_t<16>(sizeof(int4)), pipe);
    pipe.producer_commit();
  }
  __syncthreads();
  int acc = stage[0][63 - t].x;  // bug: no pipe.consumer_wait() first
  pipe.consumer_release();
  pipe.consumer_wait();
  acc += stage[1][63 - t].x;
  pipe.consumer_release();
  out[t] = acc;
}

int main() {
  int h[512], *out;
  int4 *in;
  for (int i = 0; i < 512; i++)
    h[i] = i;
  cudaMalloc(&in, 128 * sizeof(int4));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sumStages<<<1, 64>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
