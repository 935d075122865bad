// wmma integer GEMMs: signed 8-bit m16n16k16 and unsigned 8-bit m32n8k16,
// int32 accumulators, compared with a host GEMM (exact in integers).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <mma.h>
using namespace nvcuda;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s failed: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

template <int MM, int NN, int KK, typename T>
__global__ void igemm(const T* A, const T* B, int* C, int Mdim, int Ndim, int Kdim) {
  int warpM = blockIdx.y, warpN = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (warpN * NN >= Ndim) return;
  wmma::fragment<wmma::matrix_a, MM, NN, KK, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, MM, NN, KK, T, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, MM, NN, KK, int> acc;
  wmma::fill_fragment(acc, 7);
  for (int k = 0; k < Kdim; k += KK) {
    wmma::load_matrix_sync(fa, A + warpM * MM * Kdim + k, Kdim);
    wmma::load_matrix_sync(fb, B + k * Ndim + warpN * NN, Ndim);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + warpM * MM * Ndim + warpN * NN, acc, Ndim, wmma::mem_row_major);
}

template <typename T>
int run(const char* name, int M, int N, int K, void (*kern)(const T*, const T*, int*, int, int, int), int mm, int nn) {
  T* hA = (T*)malloc(M * K); T* hB = (T*)malloc(K * N);
  int* hC = (int*)malloc(M * N * 4);
  srand(42);
  for (int i = 0; i < M * K; i++) hA[i] = (T)(rand() & 0xff);
  for (int i = 0; i < K * N; i++) hB[i] = (T)(rand() & 0xff);
  T *dA, *dB; int* dC;
  CK(cudaMalloc(&dA, M * K)); CK(cudaMalloc(&dB, K * N)); CK(cudaMalloc(&dC, M * N * 4));
  CK(cudaMemcpy(dA, hA, M * K, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, hB, K * N, cudaMemcpyHostToDevice));
  kern<<<dim3(N / nn / 2, M / mm), 64>>>(dA, dB, dC, M, N, K);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(hC, dC, M * N * 4, cudaMemcpyDeviceToHost));
  int bad = 0; long long sum = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int r = 7;
      for (int k = 0; k < K; k++) r += (int)hA[i * K + k] * (int)hB[k * N + j];
      if (r != hC[i * N + j]) bad++;
      sum += hC[i * N + j];
    }
  printf("%s: %dx%dx%d mismatches=%d sum=%lld C[0]=%d C[last]=%d\n", name, M, N, K, bad, sum, hC[0], hC[M * N - 1]);
  cudaFree(dA); cudaFree(dB); cudaFree(dC); free(hA); free(hB); free(hC);
  return bad;
}

int main() {
  int bad = run<signed char>("s8 m16n16k16", 64, 64, 128, igemm<16, 16, 16, signed char>, 16, 16);
  bad += run<unsigned char>("u8 m32n8k16", 64, 32, 64, igemm<32, 8, 16, unsigned char>, 32, 8);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
