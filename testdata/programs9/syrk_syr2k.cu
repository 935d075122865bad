// PolyBench-GPU-style syrk in double (C = alpha*A*A^T + beta*C) and syr2k in
// float (C = alpha*A*B^T + alpha*B*A^T + beta*C): one thread per element of
// the full square C on 32x8 blocks, both operands walked along rows.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 16u;
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
#define N 160
#define M 96

__global__ void syrk_kernel(double alpha, double beta, const double *a, double *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    c[i * N + j] *= beta;
    for (int k = 0; k < M; k++) c[i * N + j] += alpha * a[i * M + k] * a[j * M + k];
  }
}

__global__ void syr2k_kernel(float alpha, float beta, const float *a, const float *b, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    c[i * N + j] *= beta;
    for (int k = 0; k < M; k++) c[i * N + j] += alpha * a[i * M + k] * b[j * M + k] + alpha * b[i * M + k] * a[j * M + k];
  }
}

int main() {
  double *a = (double *)malloc(N * M * 8), *c = (double *)malloc(N * N * 8);
  float *fa = (float *)malloc(N * M * 4), *fb = (float *)malloc(N * M * 4), *fc = (float *)malloc(N * N * 4);
  for (int i = 0; i < N * M; i++) { a[i] = ((double)(lcg() % 4096) - 2048.0) / 3.0; fa[i] = frand() - 0.5f; fb[i] = frand(); }
  for (int i = 0; i < N * N; i++) { c[i] = (double)frand(); fc[i] = frand() * 2.0f; }
  double *da, *dc;
  float *dfa, *dfb, *dfc;
  CHECK(cudaMalloc(&da, N * M * 8)); CHECK(cudaMalloc(&dc, N * N * 8));
  CHECK(cudaMalloc(&dfa, N * M * 4)); CHECK(cudaMalloc(&dfb, N * M * 4)); CHECK(cudaMalloc(&dfc, N * N * 4));
  CHECK(cudaMemcpy(da, a, N * M * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dc, c, N * N * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfa, fa, N * M * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dfb, fb, N * M * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfc, fc, N * N * 4, cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid(N / 32, N / 8);
  syrk_kernel<<<grid, block>>>(12435.0, 4546.0, da, dc);
  syr2k_kernel<<<grid, block>>>(1.25f, 0.75f, dfa, dfb, dfc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, N * N * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(fc, dfc, N * N * 4, cudaMemcpyDeviceToHost));
  printf("syrk/syr2k N %d M %d\n", N, M);
  showd("syrk.C", c, N * N);
  showf("syr2k.C", fc, N * N);
  return 0;
}
