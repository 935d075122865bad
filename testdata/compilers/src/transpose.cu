// Matrix transpose through a padded shared-memory tile (the CUDA samples'
// transpose, coalesced variant).
#include "check.h"
#define TILE 32
#define ROWS 8
__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
int main() {
  const int w = 200, h = 136;
  size_t bytes = w * h * sizeof(float);
  float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
  for (int i = 0; i < w * h; i++) in[i] = (float)i;
  float *din, *dout;
  CHECK(cudaMalloc(&din, bytes)); CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice));
  transpose<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(dout, din, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (out[x * h + y] != in[y * w + x]) { printf("FAILED at (%d,%d)\n", x, y); return 1; }
  printf("transpose %dx%d\n", w, h);
  printf("Test PASSED\n");
  return 0;
}
