// initcheck: a cudaMallocAsync allocation read before anything is written.
#include "common.h"

__global__ void twice(const float *in, float *out) {
  int t = threadIdx.x;
  if (t == 7)
    out[t] = 2.0f * in[t];
}

int main() {
  float *in, *out;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocAsync(&in, 32 * sizeof(float), s);
  cudaMallocAsync(&out, 32 * sizeof(float), s);
  twice<<<1, 32, 0, s>>>(in, out);
  REPORT(cudaStreamSynchronize(s));
  cudaFreeAsync(in, s);
  cudaFreeAsync(out, s);
  REPORT(cudaStreamSynchronize(s));
  return 0;
}
