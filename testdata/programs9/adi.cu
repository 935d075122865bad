// PolyBench-GPU-style ADI (alternating direction implicit), float: per time
// step a row sweep (forward elimination along each row, one thread per row,
// then the last column, then back substitution) and a column sweep (the
// same down each column, one thread per column): six launches per step,
// divisions in every inner iteration.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 21u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)
static void showf(const char *name, const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(float)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
static void showd(const char *name, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(double)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
#define N 512
#define TSTEPS 3

__global__ void adi_kernel1(const float *A, float *B, float *X) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 < N)
    for (int i2 = 1; i2 < N; i2++) {
      X[i1 * N + i2] = X[i1 * N + i2] - X[i1 * N + (i2 - 1)] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
      B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
    }
}

__global__ void adi_kernel2(const float *B, float *X) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 < N) X[i1 * N + (N - 1)] = X[i1 * N + (N - 1)] / B[i1 * N + (N - 1)];
}

__global__ void adi_kernel3(const float *A, const float *B, float *X) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 < N)
    for (int i2 = 0; i2 < N - 2; i2++)
      X[i1 * N + (N - i2 - 2)] = (X[i1 * N + (N - 2 - i2)] - X[i1 * N + (N - 2 - i2 - 1)] * A[i1 * N + (N - i2 - 3)]) / B[i1 * N + (N - 3 - i2)];
}

__global__ void adi_kernel4(const float *A, float *B, float *X, int i1) {
  int i2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i2 < N) {
    X[i1 * N + i2] = X[i1 * N + i2] - X[(i1 - 1) * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
    B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
  }
}

__global__ void adi_kernel5(const float *B, float *X) {
  int i2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i2 < N) X[(N - 1) * N + i2] = X[(N - 1) * N + i2] / B[(N - 1) * N + i2];
}

__global__ void adi_kernel6(const float *A, const float *B, float *X) {
  int i2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i2 < N)
    for (int i1 = 0; i1 < N - 2; i1++)
      X[(N - 2 - i1) * N + i2] = (X[(N - 2 - i1) * N + i2] - X[(N - i1 - 3) * N + i2] * A[(N - 3 - i1) * N + i2]) / B[(N - 2 - i1) * N + i2];
}

int main() {
  float *A = (float *)malloc(N * N * 4), *B = (float *)malloc(N * N * 4), *X = (float *)malloc(N * N * 4);
  for (int i = 0; i < N * N; i++) { A[i] = frand() * 0.5f; B[i] = 2.0f + frand(); X[i] = frand() * 4.0f; }
  float *dA, *dB, *dX;
  CHECK(cudaMalloc(&dA, N * N * 4)); CHECK(cudaMalloc(&dB, N * N * 4)); CHECK(cudaMalloc(&dX, N * N * 4));
  CHECK(cudaMemcpy(dA, A, N * N * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B, N * N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dX, X, N * N * 4, cudaMemcpyHostToDevice));
  int launches = 0;
  for (int t = 0; t < TSTEPS; t++) {
    adi_kernel1<<<N / 128, 128>>>(dA, dB, dX);
    adi_kernel2<<<N / 128, 128>>>(dB, dX);
    adi_kernel3<<<N / 128, 128>>>(dA, dB, dX);
    launches += 3;
    for (int i1 = 1; i1 < N; i1 += i1 < 4 ? 1 : 127) { // the suite's launch per row, shortened: rows 1-4, then every 127th
      adi_kernel4<<<N / 128, 128>>>(dA, dB, dX, i1);
      launches++;
    }
    adi_kernel5<<<N / 128, 128>>>(dB, dX);
    adi_kernel6<<<N / 128, 128>>>(dA, dB, dX);
    launches += 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(B, dB, N * N * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(X, dX, N * N * 4, cudaMemcpyDeviceToHost));
  printf("adi N %d tsteps %d launches %d\n", N, TSTEPS, launches);
  showf("B", B, N * N);
  showf("X", X, N * N);
  return 0;
}
