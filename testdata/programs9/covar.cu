// PolyBench-GPU-style covariance in double: column means, centring on a 2D
// grid, then the upper triangle of the covariance matrix one column per
// thread (j2 >= j1, so threads do unequal work), mirrored.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 18u;
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
#define M 160
#define NOBS 224

__global__ void mean_kernel(double *mean, const double *data, double float_n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < M) {
    mean[j] = 0.0;
    for (int i = 0; i < NOBS; i++) mean[j] += data[i * M + j];
    mean[j] /= float_n;
  }
}

__global__ void reduce_kernel(const double *mean, double *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NOBS && j < M) data[i * M + j] -= mean[j];
}

__global__ void covar_kernel(double *symmat, const double *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M) {
    for (int j2 = j1; j2 < M; j2++) {
      double s = 0.0;
      for (int i = 0; i < NOBS; i++) s += data[i * M + j1] * data[i * M + j2];
      symmat[j1 * M + j2] = s / (NOBS - 1);
      symmat[j2 * M + j1] = symmat[j1 * M + j2];
    }
  }
}

int main() {
  double *data = (double *)malloc(NOBS * M * 8), *sym = (double *)malloc(M * M * 8);
  for (int i = 0; i < NOBS * M; i++) data[i] = (double)(lcg() % 10000) / 3.0 + (i % M) * 0.125;
  double *dd, *dmean, *dsym;
  CHECK(cudaMalloc(&dd, NOBS * M * 8)); CHECK(cudaMalloc(&dmean, M * 8)); CHECK(cudaMalloc(&dsym, M * M * 8));
  CHECK(cudaMemcpy(dd, data, NOBS * M * 8, cudaMemcpyHostToDevice));
  mean_kernel<<<(M + 127) / 128, 128>>>(dmean, dd, (double)NOBS);
  reduce_kernel<<<dim3(M / 32, NOBS / 8), dim3(32, 8)>>>(dmean, dd);
  covar_kernel<<<(M + 127) / 128, 128>>>(dsym, dd);
  CHECK(cudaGetLastError());
  double mean[M];
  CHECK(cudaMemcpy(mean, dmean, M * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(sym, dsym, M * M * 8, cudaMemcpyDeviceToHost));
  printf("covariance M %d N %d (double)\n", M, NOBS);
  showd("mean", mean, M);
  showd("symmat", sym, M * M);
  return 0;
}
