// memcheck: a 16-byte vector load from an address that is 8 bytes aligned.
#include "common.h"

__global__ void load4(const float *a, float *out) {
  int t = threadIdx.x;
  const float4 *p = (const float4 *)(a + 2 + 4 * t);
  float4 v = *p;
  out[t] = v.x + v.y + v.z + v.w;
}

int main() {
  float *a, *out;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemset(a, 0, 1024 * sizeof(float));
  load4<<<1, 2>>>(a, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
