// PolyBench-GPU-style atax and bicg, float. atax: tmp = A*x (one thread per
// row, walking the row: uncoalesced across a warp), y = A^T*tmp (one thread
// per column: coalesced). bicg: s = A^T*r and q = A*p, the same two access
// patterns on the same rectangular matrix.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 13u;
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
#define NX 1280
#define NY 1536

__global__ void atax_kernel1(const float *A, const float *x, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < NX) {
    tmp[i] = 0;
    for (int j = 0; j < NY; j++) tmp[i] += A[i * NY + j] * x[j];
  }
}

__global__ void atax_kernel2(const float *A, const float *tmp, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < NY) {
    y[j] = 0;
    for (int i = 0; i < NX; i++) y[j] += A[i * NY + j] * tmp[i];
  }
}

__global__ void bicg_kernel1(const float *A, const float *r, float *s) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < NY) {
    float acc = 0.0f;
    for (int i = 0; i < NX; i++) acc += r[i] * A[i * NY + j];
    s[j] = acc;
  }
}

__global__ void bicg_kernel2(const float *A, const float *p, float *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < NX) {
    float acc = 0.0f;
    for (int j = 0; j < NY; j++) acc += A[i * NY + j] * p[j];
    q[i] = acc;
  }
}

int main() {
  float *A = (float *)malloc(NX * NY * 4), *x = (float *)malloc(NY * 4), *p = (float *)malloc(NY * 4), *r = (float *)malloc(NX * 4);
  for (int i = 0; i < NX * NY; i++) A[i] = (float)((int)(lcg() % 2001) - 1000) / 1024.0f;
  for (int j = 0; j < NY; j++) { x[j] = frand() * 3.14159f; p[j] = frand() - 0.25f; }
  for (int i = 0; i < NX; i++) r[i] = frand() - 0.5f;
  float *dA, *dx, *dp, *dtmp, *dy, *dr, *ds, *dq;
  CHECK(cudaMalloc(&dA, NX * NY * 4)); CHECK(cudaMalloc(&dx, NY * 4)); CHECK(cudaMalloc(&dtmp, NX * 4)); CHECK(cudaMalloc(&dy, NY * 4));
  CHECK(cudaMalloc(&dp, NY * 4)); CHECK(cudaMalloc(&dr, NX * 4)); CHECK(cudaMalloc(&ds, NY * 4)); CHECK(cudaMalloc(&dq, NX * 4));
  CHECK(cudaMemcpy(dA, A, NX * NY * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dx, x, NY * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dr, r, NX * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dp, p, NY * 4, cudaMemcpyHostToDevice));
  atax_kernel1<<<(NX + 255) / 256, 256>>>(dA, dx, dtmp);
  atax_kernel2<<<(NY + 255) / 256, 256>>>(dA, dtmp, dy);
  bicg_kernel1<<<(NY + 255) / 256, 256>>>(dA, dr, ds);
  bicg_kernel2<<<(NX + 255) / 256, 256>>>(dA, dp, dq);
  CHECK(cudaGetLastError());
  float *tmp = (float *)malloc(NX * 4), *y = (float *)malloc(NY * 4), *s = (float *)malloc(NY * 4), *q = (float *)malloc(NX * 4);
  CHECK(cudaMemcpy(tmp, dtmp, NX * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(y, dy, NY * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s, ds, NY * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(q, dq, NX * 4, cudaMemcpyDeviceToHost));
  printf("atax/bicg NX %d NY %d\n", NX, NY);
  showf("atax.tmp", tmp, NX);
  showf("atax.y", y, NY);
  showf("bicg.s", s, NY);
  showf("bicg.q", q, NX);
  return 0;
}
