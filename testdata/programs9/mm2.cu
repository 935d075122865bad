// PolyBench-GPU-style 2mm: D = alpha*A*B*C + beta*D in two naive kernels on
// a 2D grid of 32x8 blocks. Each thread accumulates straight into global
// memory (tmp and D), as the suite's kernels do, so every step of the k
// loop is a load, an FMA and a store. Non-square sizes, float.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 11u;
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
#define NI 128
#define NJ 160
#define NK 144
#define NL 112

__global__ void mm2_kernel1(float alpha, const float *A, const float *B, float *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NJ) {
    tmp[i * NJ + j] = 0;
    for (int k = 0; k < NK; k++) tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
  }
}

__global__ void mm2_kernel2(float beta, const float *tmp, const float *C, float *D) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < NI && j < NL) {
    D[i * NL + j] *= beta;
    for (int k = 0; k < NJ; k++) D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
  }
}

int main() {
  float *A = (float *)malloc(NI * NK * 4), *B = (float *)malloc(NK * NJ * 4), *C = (float *)malloc(NJ * NL * 4), *D = (float *)malloc(NI * NL * 4);
  for (int i = 0; i < NI * NK; i++) A[i] = frand() - 0.5f;
  for (int i = 0; i < NK * NJ; i++) B[i] = frand() - 0.5f;
  for (int i = 0; i < NJ * NL; i++) C[i] = frand() - 0.5f;
  for (int i = 0; i < NI * NL; i++) D[i] = frand();
  float alpha = 1.5f, beta = 1.2f;
  float *dA, *dB, *dC, *dD, *dT;
  CHECK(cudaMalloc(&dA, NI * NK * 4)); CHECK(cudaMalloc(&dB, NK * NJ * 4)); CHECK(cudaMalloc(&dC, NJ * NL * 4));
  CHECK(cudaMalloc(&dD, NI * NL * 4)); CHECK(cudaMalloc(&dT, NI * NJ * 4));
  CHECK(cudaMemcpy(dA, A, NI * NK * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B, NK * NJ * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, C, NJ * NL * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dD, D, NI * NL * 4, cudaMemcpyHostToDevice));
  dim3 block(32, 8);
  mm2_kernel1<<<dim3((NJ + 31) / 32, (NI + 7) / 8), block>>>(alpha, dA, dB, dT);
  mm2_kernel2<<<dim3((NL + 31) / 32, (NI + 7) / 8), block>>>(beta, dT, dC, dD);
  CHECK(cudaGetLastError());
  float *T = (float *)malloc(NI * NJ * 4);
  CHECK(cudaMemcpy(T, dT, NI * NJ * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(D, dD, NI * NL * 4, cudaMemcpyDeviceToHost));
  printf("2mm NI %d NJ %d NK %d NL %d\n", NI, NJ, NK, NL);
  showf("tmp", T, NI * NJ);
  showf("D", D, NI * NL);
  return 0;
}
