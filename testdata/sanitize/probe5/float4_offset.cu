// memcheck: a vectorized scale writes float4s to out + 1 (the user keeps a
// header float in front): every 16-byte store is 4 bytes off its alignment.
#include "common.h"

__global__ void scale4(const float4 *in, float *out, int n4) {
  int i = threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    v.x *= 2.0f, v.y *= 2.0f, v.z *= 2.0f, v.w *= 2.0f;
    reinterpret_cast<float4 *>(out + 1)[i] = v;  // bug: out + 1 is not 16-byte aligned
  }
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, 68 * sizeof(float));
  cudaMemset(in, 0, 64 * sizeof(float));
  scale4<<<1, 32>>>((const float4 *)in, out, 4);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
