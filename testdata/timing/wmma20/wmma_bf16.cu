// wmma bf16 GEMM: D = A*B + C with 16x16x16 bf16 fragments and f32
// accumulators, A row-major, B column-major, C loaded from memory.
// Each warp computes one 16x16 tile; 4 warps per block.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define CUDA_CHECK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); return 1; } } while (0)

constexpr int M = 64, N = 64, K = 96;

__global__ void bf16_gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, const float* C, float* D) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tileM = (warp / (N / 16)) * 16;
  int tileN = (warp % (N / 16)) * 16;
  if (tileM >= M) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, C + tileM * N + tileN, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tileM * K + k, K);
    wmma::load_matrix_sync(b, B + tileN * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = acc.x[i] * 0.5f;
  wmma::store_matrix_sync(D + tileM * N + tileN, acc, N, wmma::mem_row_major);
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main() {
  static __nv_bfloat16 hA[M * K], hB[N * K];
  static float hC[M * N], hD[M * N];
  uint32_t s = 12345;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return (int)(s >> 8) % 2001 - 1000; };
  for (int i = 0; i < M * K; i++) hA[i] = __float2bfloat16(rnd() / 313.0f);
  for (int i = 0; i < N * K; i++) hB[i] = __float2bfloat16(rnd() / 97.0f);
  for (int i = 0; i < M * N; i++) hC[i] = rnd() / 7.0f;
  hA[5] = __float2bfloat16(3.0e38f);  // a large product in one row
  hB[5] = __float2bfloat16(1.0e-30f);
  __nv_bfloat16 *dA, *dB; float *dC, *dD;
  CUDA_CHECK(cudaMalloc(&dA, sizeof hA)); CUDA_CHECK(cudaMalloc(&dB, sizeof hB));
  CUDA_CHECK(cudaMalloc(&dC, sizeof hC)); CUDA_CHECK(cudaMalloc(&dD, sizeof hD));
  CUDA_CHECK(cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dC, hC, sizeof hC, cudaMemcpyHostToDevice));
  bf16_gemm<<<(M / 16) * (N / 16) / 4, 128>>>(dA, dB, dC, dD);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(hD, dD, sizeof hD, cudaMemcpyDeviceToHost));
  // host reference in double, to report the largest deviation
  double maxerr = 0;
  uint32_t h = 2166136261u;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double r = hC[i * N + j];
      for (int k = 0; k < K; k++) r += (double)__bfloat162float(hA[i * K + k]) * (double)__bfloat162float(hB[j * K + k]);
      r *= 0.5;
      double e = fabs(r - hD[i * N + j]) / (fabs(r) + 1.0);
      if (e > maxerr) maxerr = e;
      h = (h ^ bits(hD[i * N + j])) * 16777619u;
    }
  printf("bf16 wmma gemm %dx%dx%d\n", M, N, K);
  printf("D[0][0]=%08x D[0][5]=%08x D[17][33]=%08x D[63][63]=%08x\n", bits(hD[0]), bits(hD[5]), bits(hD[17 * N + 33]), bits(hD[M * N - 1]));
  printf("checksum %08x\n", h);
  printf("max rel err vs double: %s\n", maxerr < 1e-3 ? "< 1e-3" : "LARGE");
  cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
  return 0;
}
