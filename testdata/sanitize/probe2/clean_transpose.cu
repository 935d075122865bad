// clean: the tile transpose with its barrier, dynamic shared memory, and
// every allocation written before read and freed.
#include "common.h"

__global__ void transpose(const float *in, float *out) {
  extern __shared__ float tile[];
  int x = threadIdx.x;
  for (int y = threadIdx.y; y < 32; y += 8)
    tile[y * 33 + x] = in[y * 32 + x];
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += 8)
    out[y * 32 + x] = tile[x * 33 + y];
}

int main() {
  float *in, *out, h[1024];
  for (int i = 0; i < 1024; i++)
    h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  transpose<<<1, dim3(32, 8), 32 * 33 * sizeof(float)>>>(in, out);
  REPORT(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("out[1] = %g, out[32] = %g\n", h[1], h[32]);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
