// PolyBench-GPU-style fdtd-2d, float: per time step three launches on a 2D
// grid of 32x8 blocks -- ey (row 0 driven by the step's excitation value
// _fict_[t]), ex, then hz from both -- in a host loop of TMAX steps.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 19u;
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
#define TMAX 20
#define NX 192
#define NY 224

__global__ void fdtd_step1(const float *fict, float *ex, float *ey, const float *hz, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NX && j < NY) {
    if (i == 0) ey[i * NY + j] = fict[t];
    else ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
  }
}

__global__ void fdtd_step2(float *ex, const float *ey, const float *hz, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NX && j < NY && j > 0) ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
}

__global__ void fdtd_step3(const float *ex, const float *ey, float *hz, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NX && j < NY)
    hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
}

int main() {
  float fict[TMAX];
  size_t nex = NX * (NY + 1), ney = (NX + 1) * NY, nhz = NX * NY;
  float *ex = (float *)malloc(nex * 4), *ey = (float *)malloc(ney * 4), *hz = (float *)malloc(nhz * 4);
  for (int t = 0; t < TMAX; t++) fict[t] = (float)t;
  for (size_t i = 0; i < nex; i++) ex[i] = frand();
  for (size_t i = 0; i < ney; i++) ey[i] = frand() * 2.0f;
  for (size_t i = 0; i < nhz; i++) hz[i] = frand() * 3.0f;
  float *dfict, *dex, *dey, *dhz;
  CHECK(cudaMalloc(&dfict, TMAX * 4)); CHECK(cudaMalloc(&dex, nex * 4)); CHECK(cudaMalloc(&dey, ney * 4)); CHECK(cudaMalloc(&dhz, nhz * 4));
  CHECK(cudaMemcpy(dfict, fict, TMAX * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dex, ex, nex * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dey, ey, ney * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dhz, hz, nhz * 4, cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid((NY + 31) / 32, (NX + 7) / 8);
  for (int t = 0; t < TMAX; t++) {
    fdtd_step1<<<grid, block>>>(dfict, dex, dey, dhz, t);
    fdtd_step2<<<grid, block>>>(dex, dey, dhz, t);
    fdtd_step3<<<grid, block>>>(dex, dey, dhz, t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ex, dex, nex * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(ey, dey, ney * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hz, dhz, nhz * 4, cudaMemcpyDeviceToHost));
  printf("fdtd-2d TMAX %d NX %d NY %d launches %d\n", TMAX, NX, NY, 3 * TMAX);
  showf("ex", ex, (int)nex);
  showf("ey", ey, (int)ney);
  showf("hz", hz, (int)nhz);
  return 0;
}
