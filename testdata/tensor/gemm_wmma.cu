// A small wmma GEMM as a user writes it: C = A*B for 64x64 half matrices,
// one warp per 16x16 tile of C, f32 accumulation. Prints C bit for bit.
#include <cstdio>
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define N 64
__global__ void gemm(const half* a, const half* b, float* c) {
  int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * N + k, N);
    wmma::load_matrix_sync(fb, b + tn * N + k, N);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + tm * N + tn, fc, N, wmma::mem_row_major);
}

int main() {
  static half ha[N * N], hb[N * N];
  static float hc[N * N];
  for (int i = 0; i < N * N; i++) {
    ha[i] = __float2half(((i * 7919) % 1000) / 337.0f - 1.3f);
    hb[i] = __float2half(((i * 104729) % 997) / 211.0f - 2.2f);
  }
  half *da, *db;
  float* dc;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dc, sizeof hc);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  gemm<<<dim3(N / 16, N / 16), 32>>>(da, db, dc);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error: %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N * N; i++) printf("%.9g%c", hc[i], i % 8 == 7 ? '\n' : ' ');
  return 0;
}
