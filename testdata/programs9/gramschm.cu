// PolyBench-GPU-style Gram-Schmidt QR, float: for each column k, a
// single-thread kernel sums the column's squares and takes sqrtf into
// R[k][k], a kernel writes Q's column k = A's / R[k][k], and a kernel with a
// thread per later column j computes R[k][j] and updates A's column j in
// place: three launches per column, 3*N in all.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 23u;
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
#define N 48

__global__ void gramschmidt_kernel1(const float *a, float *r, int k) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    float nrm = 0.0f;
    for (int i = 0; i < M; i++) nrm += a[i * N + k] * a[i * N + k];
    r[k * N + k] = sqrtf(nrm);
  }
}

__global__ void gramschmidt_kernel2(const float *a, const float *r, float *q, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M) q[i * N + k] = a[i * N + k] / r[k * N + k];
}

__global__ void gramschmidt_kernel3(float *a, float *r, const float *q, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < N) {
    r[k * N + j] = 0.0f;
    for (int i = 0; i < M; i++) r[k * N + j] += q[i * N + k] * a[i * N + j];
    for (int i = 0; i < M; i++) a[i * N + j] -= q[i * N + k] * r[k * N + j];
  }
}

int main() {
  float *a = (float *)malloc(M * N * 4), *r = (float *)malloc(N * N * 4), *q = (float *)malloc(M * N * 4);
  for (int i = 0; i < M * N; i++) a[i] = frand() + ((i % N) == (i / N) % N ? 2.0f : 0.0f);
  float *da, *dr, *dq;
  CHECK(cudaMalloc(&da, M * N * 4)); CHECK(cudaMalloc(&dr, N * N * 4)); CHECK(cudaMalloc(&dq, M * N * 4));
  CHECK(cudaMemcpy(da, a, M * N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dr, 0, N * N * 4)); CHECK(cudaMemset(dq, 0, M * N * 4));
  for (int k = 0; k < N; k++) {
    gramschmidt_kernel1<<<1, 256>>>(da, dr, k);
    gramschmidt_kernel2<<<(M + 255) / 256, 256>>>(da, dr, dq, k);
    gramschmidt_kernel3<<<(N + 255) / 256, 256>>>(da, dr, dq, k);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, dr, N * N * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(q, dq, M * N * 4, cudaMemcpyDeviceToHost));
  double orth = 0; // |Q^T Q - I|, on the host in double
  for (int j1 = 0; j1 < N; j1++)
    for (int j2 = 0; j2 < N; j2++) {
      double s = 0;
      for (int i = 0; i < M; i++) s += (double)q[i * N + j1] * q[i * N + j2];
      s -= j1 == j2;
      orth += s < 0 ? -s : s;
    }
  printf("gramschmidt M %d N %d launches %d\n", M, N, 3 * N);
  showf("R", r, N * N);
  showf("Q", q, M * N);
  printf("sum |Q^T Q - I| = %a\n", orth);
  return 0;
}
