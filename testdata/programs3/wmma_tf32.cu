// wmma TF32 GEMM (m16n16k8): inputs rounded with __float_to_tf32 into
// precision::tf32 fragments, f32 accumulation, both A and B column-major.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define CHECK(call) do { cudaError_t e = call; if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

const int M = 32, N = 48, K = 64;

__global__ void tf32_gemm(const float* A, const float* B, float* C, int lda, int ldb, int ldc) {
  int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(a, A + k * lda + tm, lda);   // A col-major M x K
    wmma::load_matrix_sync(b, B + tn * ldb + k, ldb);   // B col-major K x N
#pragma unroll
    for (int t = 0; t < a.num_elements; t++) a.x[t] = wmma::__float_to_tf32(a.x[t]);
#pragma unroll
    for (int t = 0; t < b.num_elements; t++) b.x[t] = wmma::__float_to_tf32(b.x[t]);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tn * ldc + tm, c, ldc, wmma::mem_col_major);
}

__global__ void round_only(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = wmma::__float_to_tf32(in[i]);
}

static unsigned fb(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

int main() {
  float *hA = new float[M * K], *hB = new float[K * N], *hC = new float[M * N];
  for (int i = 0; i < M * K; i++) hA[i] = sinf(i * 0.37f) * 3.3f + 1e-3f * (i % 7);
  for (int i = 0; i < K * N; i++) hB[i] = cosf(i * 0.11f) / (1 + (i % 5));
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, M * K * 4)); CHECK(cudaMalloc(&dB, K * N * 4)); CHECK(cudaMalloc(&dC, M * N * 4));
  CHECK(cudaMemcpy(dA, hA, M * K * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, K * N * 4, cudaMemcpyHostToDevice));
  tf32_gemm<<<dim3(N / 16, M / 16), 32>>>(dA, dB, dC, M, K, M);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hC, dC, M * N * 4, cudaMemcpyDeviceToHost));
  unsigned sum = 0;
  for (int i = 0; i < M * N; i++) sum = sum * 31 + fb(hC[i]);
  printf("tf32 gemm checksum %08x\n", sum);
  for (int i = 0; i < 6; i++) printf("C[%d] = %.8e (%08x)\n", i * 97, hC[i * 97], fb(hC[i * 97]));
  // rounding of special and tie values
  float probe[12] = {1.0f, 1.00048828125f, 1.000732421875f, 1.0009765625f, -3.14159265f, 3.4028235e38f,
                     1e-40f, -0.0f, INFINITY, NAN, 1.00036621f, 65504.5f};
  float *dp, *dq, q[12];
  CHECK(cudaMalloc(&dp, sizeof probe)); CHECK(cudaMalloc(&dq, sizeof probe));
  CHECK(cudaMemcpy(dp, probe, sizeof probe, cudaMemcpyHostToDevice));
  round_only<<<1, 32>>>(dp, dq, 12);
  CHECK(cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 12; i++) printf("tf32(%08x) = %08x\n", fb(probe[i]), fb(q[i]));
  delete[] hA; delete[] hB; delete[] hC;
  return 0;
}
