// PolyBench-GPU-style jacobi-2d, float: per step a 5-point average into B
// and a copy back into A (two launches), interior points only, in a host
// loop.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 20u;
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
#define N 384
#define STEPS 16

__global__ void jacobi_kernel1(const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1)
    B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (j + 1)] + A[(i + 1) * N + j] + A[(i - 1) * N + j]);
}

__global__ void jacobi_kernel2(float *A, const float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < N - 1 && j >= 1 && j < N - 1) A[i * N + j] = B[i * N + j];
}

int main() {
  float *A = (float *)malloc(N * N * 4);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i * N + j] = ((float)i * (j + 2) + 2) / N + frand();
  float *dA, *dB;
  CHECK(cudaMalloc(&dA, N * N * 4)); CHECK(cudaMalloc(&dB, N * N * 4));
  CHECK(cudaMemcpy(dA, A, N * N * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, A, N * N * 4, cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid(N / 32, N / 8);
  for (int t = 0; t < STEPS; t++) {
    jacobi_kernel1<<<grid, block>>>(dA, dB);
    jacobi_kernel2<<<grid, block>>>(dA, dB);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(A, dA, N * N * 4, cudaMemcpyDeviceToHost));
  printf("jacobi-2d N %d steps %d\n", N, STEPS);
  showf("A", A, N * N);
  return 0;
}
