// vectorAdd, as in the CUDA samples: C = A + B over 50000 floats.
#include "check.h"
__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] + 0.0f;
}
int main() {
  const int n = 50000;
  size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) { a[i] = (i % 97) / 7.0f; b[i] = (i % 89) / 3.0f; }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes)); CHECK(cudaMalloc(&db, bytes)); CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (n + threads - 1) / threads;
  printf("[Vector addition of %d elements]\n", n);
  printf("CUDA kernel launch with %d blocks of %d threads\n", blocks, threads);
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) { printf("FAILED at %d: %f != %f\n", i, c[i], a[i] + b[i]); return 1; }
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc));
  free(a); free(b); free(c);
  printf("Test PASSED\n");
  return 0;
}
