// PolyBench-GPU-style gemver, float: A += u1*v1^T + u2*v2^T (2D grid),
// x += beta*A^T*y (column walk), x += z, w += alpha*A*x (row walk): four
// launches, each reading what the one before wrote.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 15u;
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
#define N 768

__global__ void gemver_kernel1(float *A, const float *u1, const float *v1, const float *u2, const float *v2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) A[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

__global__ void gemver_kernel2(float beta, const float *A, float *x, const float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    for (int j = 0; j < N; j++) x[i] += beta * A[j * N + i] * y[j];
}

__global__ void gemver_kernel3(float *x, const float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) x[i] += z[i];
}

__global__ void gemver_kernel4(float alpha, const float *A, const float *x, float *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    for (int j = 0; j < N; j++) w[i] += alpha * A[i * N + j] * x[j];
}

int main() {
  float *A = (float *)malloc(N * N * 4), *v[8];
  for (int k = 0; k < 8; k++) v[k] = (float *)malloc(N * 4);
  for (int i = 0; i < N * N; i++) A[i] = (float)(lcg() % N) / N;
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < N; i++) v[k][i] = (k == 4 || k == 7) ? 0.0f : frand() - 0.25f * k;
  // v: u1 v1 u2 v2 w x y z
  float *dA, *dv[8];
  CHECK(cudaMalloc(&dA, N * N * 4));
  CHECK(cudaMemcpy(dA, A, N * N * 4, cudaMemcpyHostToDevice));
  for (int k = 0; k < 8; k++) { CHECK(cudaMalloc(&dv[k], N * 4)); CHECK(cudaMemcpy(dv[k], v[k], N * 4, cudaMemcpyHostToDevice)); }
  float alpha = 43532.0f, beta = 12313.0f;
  gemver_kernel1<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(dA, dv[0], dv[1], dv[2], dv[3]);
  gemver_kernel2<<<N / 256, 256>>>(beta, dA, dv[5], dv[6]);
  gemver_kernel3<<<N / 256, 256>>>(dv[5], dv[7]);
  gemver_kernel4<<<N / 256, 256>>>(alpha, dA, dv[5], dv[4]);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(A, dA, N * N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v[5], dv[5], N * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v[4], dv[4], N * 4, cudaMemcpyDeviceToHost));
  printf("gemver N %d\n", N);
  showf("A", A, N * N);
  showf("x", v[5], N);
  showf("w", v[4], N);
  return 0;
}
