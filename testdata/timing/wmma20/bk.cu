// bk.cu: programs3's wmma_bf16 kernel (bf16_gemm: 16 warps, one 16x16 tile
// a warp, A row-major, B column-major, C loaded) with K a template
// constant, and the same kernel with f16 fragments, to time a k step of
// straight code (nvcc unrolls the constant-count loop fully). Each launch
// prints a hash of D.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

constexpr int M = 64, N = 64, KMAX = 384;

template <class T, int K>
__global__ void bk(const T* A, const T* B, const float* C, float* D) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tileM = (warp / (N / 16)) * 16;
  int tileN = (warp % (N / 16)) * 16;
  if (tileM >= M) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
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

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

static float *dC, *dD;
static unsigned hashD() {
  static float h[M * N];
  CK(cudaMemcpy(h, dD, sizeof h, cudaMemcpyDeviceToHost));
  unsigned x = 2166136261u;
  for (int i = 0; i < M * N; i++) { unsigned u; memcpy(&u, &h[i], 4); x = (x ^ u) * 16777619u; }
  return x;
}

template <class T, int K> static void launch(const char* ty, const T* A, const T* B) {
  bk<T, K><<<(M / 16) * (N / 16) / 4, 128>>>(A, B, dC, dD);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("bk_%s_k%d hash %08x\n", ty, K, hashD());
}

template <class T> static void family(const char* ty) {
  static T hA[M * KMAX], hB[N * KMAX];
  uint32_t s = 12345;
  for (int i = 0; i < M * KMAX; i++) { s = s * 1664525u + 1013904223u; hA[i] = T((float)((int)(s >> 8) % 2001 - 1000) / 313.0f); }
  for (int i = 0; i < N * KMAX; i++) { s = s * 1664525u + 1013904223u; hB[i] = T((float)((int)(s >> 8) % 2001 - 1000) / 97.0f); }
  T *A, *B;
  CK(cudaMalloc(&A, sizeof hA)); CK(cudaMalloc(&B, sizeof hB));
  CK(cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice));
  launch<T, 16>(ty, A, B);
  launch<T, 32>(ty, A, B);
  launch<T, 64>(ty, A, B);
  launch<T, 96>(ty, A, B);
  launch<T, 192>(ty, A, B);
  launch<T, 384>(ty, A, B);
  CK(cudaFree(A)); CK(cudaFree(B));
}

int main() {
  static float hC[M * N];
  uint32_t s = 777;
  for (int i = 0; i < M * N; i++) { s = s * 1664525u + 1013904223u; hC[i] = (float)((int)(s >> 8) % 2001 - 1000) / 7.0f; }
  CK(cudaMalloc(&dC, sizeof hC)); CK(cudaMalloc(&dD, sizeof hC));
  CK(cudaMemcpy(dC, hC, sizeof hC, cudaMemcpyHostToDevice));
  family<__nv_bfloat16>("bf16");
  family<half>("f16");
  return 0;
}
