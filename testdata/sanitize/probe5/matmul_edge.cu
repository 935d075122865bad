// memcheck: a 16x16-tiled integer matmul of 20x20 matrices (not a multiple of
// the tile). The A tile's load checks the row but not the column, so in the
// last tile of row 19 threads tx 4..15 read A[19*20 + 16 + tx], past A's 400
// ints (in both blocks of the second block row: 24 errors). The B load is
// guarded, so the product itself is right.
#include "common.h"
#define T 16

__global__ void matmul(const int *A, const int *B, int *C, int n) {
  __shared__ int As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  int acc = 0;
  for (int t = 0; t < (n + T - 1) / T; t++) {
    int ka = t * T + tx, kb = t * T + ty;
    As[ty][tx] = row < n ? A[row * n + ka] : 0;  // bug: no check of ka < n
    Bs[ty][tx] = kb < n && col < n ? B[kb * n + col] : 0;
    __syncthreads();
    for (int k = 0; k < T; k++)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

int main() {
  const int n = 20;
  int hA[n * n], hB[n * n], hC[n * n] = {0};
  for (int i = 0; i < n * n; i++) {
    hA[i] = i % 7 - 3;
    hB[i] = i % 5 - 2;
  }
  int *A, *B, *C;
  cudaMalloc(&A, sizeof hA);
  cudaMalloc(&B, sizeof hB);
  cudaMalloc(&C, sizeof hC);
  cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice);
  matmul<<<dim3(2, 2), dim3(T, T)>>>(A, B, C, n);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaMemcpy(hC, C, sizeof hC, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n * n; i++)
    sum += (long)hC[i] * (i % 11);
  printf("C[0]=%d C[399]=%d checksum=%ld\n", hC[0], hC[399], sum);
  return 0;
}
