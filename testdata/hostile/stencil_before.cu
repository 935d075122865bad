// Held-out gap: a 1D stencil reading in[i-1] at i=0, one element before the
// program's first allocation. Run plain, under memcheck and under initcheck.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i - 1] + in[i];
}
int main() {
  const int n = 256;
  float *in, *out, h[n];
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  stencil<<<1, n>>>(in, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(e));
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[1] = %g out[255] = %g\n", h[1], h[255]);
  printf("in %% 2MiB = %zu\n", (size_t)in % (2 << 20));
  return 0;
}
