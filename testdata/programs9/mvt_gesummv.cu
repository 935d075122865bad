// PolyBench-GPU-style mvt in double (x1 += A*y1 row-wise, x2 += A^T*y2
// column-wise, two kernels) and gesummv in float (y = alpha*A*x + beta*B*x,
// both dot products in one row-walking kernel).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 14u;
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
#define N 1024

__global__ void mvt_kernel1(const double *a, double *x1, const double *y1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    for (int j = 0; j < N; j++) x1[i] += a[i * N + j] * y1[j];
}

__global__ void mvt_kernel2(const double *a, double *x2, const double *y2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    for (int j = 0; j < N; j++) x2[i] += a[j * N + i] * y2[j];
}

__global__ void gesummv_kernel(float alpha, float beta, const float *A, const float *B, const float *x, float *y, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    tmp[i] = 0;
    y[i] = 0;
    for (int j = 0; j < N; j++) {
      tmp[i] += A[i * N + j] * x[j];
      y[i] += B[i * N + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

int main() {
  double *a = (double *)malloc(N * N * 8), *x1 = (double *)malloc(N * 8), *x2 = (double *)malloc(N * 8);
  double *y1 = (double *)malloc(N * 8), *y2 = (double *)malloc(N * 8);
  for (int i = 0; i < N * N; i++) a[i] = (double)(lcg() % 1000) / N;
  for (int i = 0; i < N; i++) { x1[i] = frand(); x2[i] = frand(); y1[i] = (double)frand() - 0.5; y2[i] = 1.0 / (1 + i); }
  float *A = (float *)malloc(N * N * 4), *B = (float *)malloc(N * N * 4), *x = (float *)malloc(N * 4);
  for (int i = 0; i < N * N; i++) { A[i] = frand() - 0.5f; B[i] = frand() * 0.1f; }
  for (int i = 0; i < N; i++) x[i] = frand();
  double *da, *dx1, *dx2, *dy1, *dy2;
  float *dA, *dB, *dx, *dy, *dtmp;
  CHECK(cudaMalloc(&da, N * N * 8)); CHECK(cudaMalloc(&dx1, N * 8)); CHECK(cudaMalloc(&dx2, N * 8));
  CHECK(cudaMalloc(&dy1, N * 8)); CHECK(cudaMalloc(&dy2, N * 8));
  CHECK(cudaMalloc(&dA, N * N * 4)); CHECK(cudaMalloc(&dB, N * N * 4)); CHECK(cudaMalloc(&dx, N * 4));
  CHECK(cudaMalloc(&dy, N * 4)); CHECK(cudaMalloc(&dtmp, N * 4));
  CHECK(cudaMemcpy(da, a, N * N * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dx1, x1, N * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx2, x2, N * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy1, y1, N * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy2, y2, N * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dA, A, N * N * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B, N * N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x, N * 4, cudaMemcpyHostToDevice));
  mvt_kernel1<<<N / 256, 256>>>(da, dx1, dy1);
  mvt_kernel2<<<N / 256, 256>>>(da, dx2, dy2);
  gesummv_kernel<<<N / 256, 256>>>(43532.0f, 12313.0f, dA, dB, dx, dy, dtmp);
  CHECK(cudaGetLastError());
  float *y = (float *)malloc(N * 4);
  CHECK(cudaMemcpy(x1, dx1, N * 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(x2, dx2, N * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y, dy, N * 4, cudaMemcpyDeviceToHost));
  printf("mvt/gesummv N %d\n", N);
  showd("mvt.x1", x1, N);
  showd("mvt.x2", x2, N);
  showf("gesummv.y", y, N);
  return 0;
}
