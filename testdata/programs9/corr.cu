// PolyBench-GPU-style correlation, float: column means, standard deviations
// (sqrtf, with the suite's guard that a near-zero deviation becomes 1), the
// centred and scaled data (2D grid), then the upper triangle of the
// correlation matrix, one thread per column j1 looping over j2 > j1 (load
// imbalance by design), mirrored into the lower triangle.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 17u;
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
#define M 192
#define NOBS 256
#define EPS 0.005f

__global__ void mean_kernel(float *mean, const float *data, float float_n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    mean[j] = 0.0f;
    for (int i = 0; i < NOBS; i++) mean[j] += data[i * M + j];
    mean[j] /= float_n;
  }
}

__global__ void std_kernel(const float *mean, float *std, const float *data, float float_n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    std[j] = 0.0f;
    for (int i = 0; i < NOBS; i++) std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
    std[j] /= float_n;
    std[j] = sqrtf(std[j]);
    if (std[j] <= EPS) std[j] = 1.0f;
  }
}

__global__ void reduce_kernel(const float *mean, const float *std, float *data, float float_n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NOBS && j < M) {
    data[i * M + j] -= mean[j];
    data[i * M + j] /= sqrtf(float_n) * std[j];
  }
}

__global__ void corr_kernel(float *symmat, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M - 1) {
    symmat[j1 * M + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < M; j2++) {
      symmat[j1 * M + j2] = 0.0f;
      for (int i = 0; i < NOBS; i++) symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
      symmat[j2 * M + j1] = symmat[j1 * M + j2];
    }
  }
}

int main() {
  float *data = (float *)malloc(NOBS * M * 4), *sym = (float *)malloc(M * M * 4);
  for (int i = 0; i < NOBS; i++)
    for (int j = 0; j < M; j++) data[i * M + j] = (float)(i * j % 97) / M + frand() * (j % 5 == 3 ? 0.0f : 1.0f);
  for (int j = 0; j < M; j += 31) for (int i = 0; i < NOBS; i++) data[i * M + j] = 2.0f; // constant columns
  float *dd, *dmean, *dstd, *dsym;
  CHECK(cudaMalloc(&dd, NOBS * M * 4)); CHECK(cudaMalloc(&dmean, M * 4)); CHECK(cudaMalloc(&dstd, M * 4)); CHECK(cudaMalloc(&dsym, M * M * 4));
  CHECK(cudaMemcpy(dd, data, NOBS * M * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsym, 0, M * M * 4));
  float float_n = (float)NOBS;
  mean_kernel<<<(M + 255) / 256, 256>>>(dmean, dd, float_n);
  std_kernel<<<(M + 255) / 256, 256>>>(dmean, dstd, dd, float_n);
  reduce_kernel<<<dim3(M / 32, NOBS / 8), dim3(32, 8)>>>(dmean, dstd, dd, float_n);
  corr_kernel<<<(M + 255) / 256, 256>>>(dsym, dd);
  CHECK(cudaGetLastError());
  float mean[M], std[M];
  CHECK(cudaMemcpy(mean, dmean, M * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(std, dstd, M * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(data, dd, NOBS * M * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(sym, dsym, M * M * 4, cudaMemcpyDeviceToHost));
  sym[(M - 1) * M + M - 1] = 1.0f;
  printf("correlation M %d N %d\n", M, NOBS);
  showf("mean", mean, M);
  showf("std", std, M);
  showf("data", data, NOBS * M);
  showf("symmat", sym, M * M);
  return 0;
}
