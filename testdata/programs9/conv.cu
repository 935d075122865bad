// PolyBench-GPU-style 2D and 3D convolutions, float. 2DConv: a 3x3 stencil
// with the suite's fixed coefficients on a 2D grid of 32x8 blocks, interior
// points. 3DConv: a 3x3x3 stencil (ten of its taps used, as in the suite)
// launched once per interior i-plane from a host loop, each launch a 2D
// grid over (j, k).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 22u;
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
#define NI2 512
#define NJ2 384
#define NI3 24
#define NJ3 96
#define NK3 128

__global__ void conv2d_kernel(const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if (i > 0 && i < NI2 - 1 && j > 0 && j < NJ2 - 1)
    B[i * NJ2 + j] = c11 * A[(i - 1) * NJ2 + (j - 1)] + c12 * A[i * NJ2 + (j - 1)] + c13 * A[(i + 1) * NJ2 + (j - 1)] +
                     c21 * A[(i - 1) * NJ2 + j] + c22 * A[i * NJ2 + j] + c23 * A[(i + 1) * NJ2 + j] +
                     c31 * A[(i - 1) * NJ2 + (j + 1)] + c32 * A[i * NJ2 + (j + 1)] + c33 * A[(i + 1) * NJ2 + (j + 1)];
}

__global__ void conv3d_kernel(const float *A, float *B, int i) {
  int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  float c11 = +2, c21 = +5, c31 = -8, c12 = -3, c22 = +6, c32 = -9, c13 = +4, c23 = +7, c33 = +10;
#define IX(a, b, c) (((a) * NJ3 + (b)) * NK3 + (c))
  if (i > 0 && i < NI3 - 1 && j > 0 && j < NJ3 - 1 && k > 0 && k < NK3 - 1)
    B[IX(i, j, k)] = c11 * A[IX(i - 1, j - 1, k - 1)] + c13 * A[IX(i + 1, j - 1, k - 1)] + c21 * A[IX(i - 1, j - 1, k - 1)] +
                     c23 * A[IX(i + 1, j - 1, k - 1)] + c31 * A[IX(i - 1, j - 1, k - 1)] + c33 * A[IX(i + 1, j - 1, k - 1)] +
                     c12 * A[IX(i, j - 1, k)] + c22 * A[IX(i, j, k)] + c32 * A[IX(i, j + 1, k)] +
                     c11 * A[IX(i - 1, j - 1, k + 1)] + c13 * A[IX(i + 1, j - 1, k + 1)] + c21 * A[IX(i - 1, j, k + 1)] +
                     c23 * A[IX(i + 1, j, k + 1)] + c31 * A[IX(i - 1, j + 1, k + 1)] + c33 * A[IX(i + 1, j + 1, k + 1)];
}

int main() {
  int n2 = NI2 * NJ2, n3 = NI3 * NJ3 * NK3;
  float *A2 = (float *)malloc(n2 * 4), *B2 = (float *)malloc(n2 * 4), *A3 = (float *)malloc(n3 * 4), *B3 = (float *)malloc(n3 * 4);
  for (int i = 0; i < n2; i++) A2[i] = frand();
  for (int i = 0; i < n3; i++) A3[i] = (float)(lcg() % 12) / 10.0f;
  float *dA2, *dB2, *dA3, *dB3;
  CHECK(cudaMalloc(&dA2, n2 * 4)); CHECK(cudaMalloc(&dB2, n2 * 4)); CHECK(cudaMalloc(&dA3, n3 * 4)); CHECK(cudaMalloc(&dB3, n3 * 4));
  CHECK(cudaMemcpy(dA2, A2, n2 * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dB2, 0, n2 * 4));
  CHECK(cudaMemcpy(dA3, A3, n3 * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dB3, 0, n3 * 4));
  conv2d_kernel<<<dim3(NJ2 / 32, NI2 / 8), dim3(32, 8)>>>(dA2, dB2);
  for (int i = 1; i < NI3 - 1; i++) conv3d_kernel<<<dim3(NK3 / 32, NJ3 / 8), dim3(32, 8)>>>(dA3, dB3, i);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(B2, dB2, n2 * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(B3, dB3, n3 * 4, cudaMemcpyDeviceToHost));
  printf("2DConv %dx%d, 3DConv %dx%dx%d (%d launches)\n", NI2, NJ2, NI3, NJ3, NK3, NI3 - 2);
  showf("conv2d.B", B2, n2);
  showf("conv3d.B", B3, n3);
  return 0;
}
