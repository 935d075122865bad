// racecheck: a 32x32 shared tile transpose with no barrier between the
// writes and the transposed reads (block 32x8: RAW across warps).
#include "common.h"

__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[32][33];
  int x = threadIdx.x;
  for (int y = threadIdx.y; y < 32; y += 8)
    tile[y][x] = in[y * 32 + x];
  for (int y = threadIdx.y; y < 32; y += 8)
    out[y * 32 + x] = tile[x][y];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMemset(in, 0, 1024 * sizeof(float));
  transpose<<<1, dim3(32, 8)>>>(in, out);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
