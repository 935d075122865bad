// Matrix multiply with shared-memory tiles (the CUDA samples' matrixMul),
// integer-valued floats so the result is exact.
#include "check.h"
#define TILE 16
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n / TILE; t++) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
int main() {
  const int n = 128;
  size_t bytes = n * n * sizeof(float);
  float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes), *C = (float *)malloc(bytes);
  for (int i = 0; i < n * n; i++) { A[i] = (float)(i % 7) - 3; B[i] = (float)(i % 5) - 2; }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, bytes)); CHECK(cudaMalloc(&dB, bytes)); CHECK(cudaMalloc(&dC, bytes));
  CHECK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));
  matmul<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(dA, dB, dC, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float ref = 0;
      for (int k = 0; k < n; k++) ref += A[i * n + k] * B[k * n + j];
      if (ref != C[i * n + j]) { printf("FAILED at (%d,%d): %f != %f\n", i, j, C[i * n + j], ref); return 1; }
      sum += C[i * n + j];
    }
  printf("MatrixA(%d,%d), MatrixB(%d,%d) checksum %.1f\n", n, n, n, n, sum);
  printf("Test PASSED\n");
  return 0;
}
