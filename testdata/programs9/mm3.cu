// PolyBench-GPU-style 3mm in double: E = A*B, F = C*D, G = E*F, three
// launches of one naive kernel shape (a 2D grid of 32x8 blocks, one output
// element per thread, the dot product in a register).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 12u;
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
#define NI 96
#define NJ 112
#define NK 80
#define NL 104
#define NM 88

__global__ void mm3_kernel(int ni, int nj, int nk, const double *A, const double *B, double *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    double s = 0;
    for (int k = 0; k < nk; k++) s += A[i * nk + k] * B[k * nj + j];
    E[i * nj + j] = s;
  }
}

int main() {
  int nA = NI * NK, nB = NK * NJ, nC = NJ * NM, nD = NM * NL;
  double *A = (double *)malloc(nA * 8), *B = (double *)malloc(nB * 8), *C = (double *)malloc(nC * 8), *D = (double *)malloc(nD * 8);
  for (int i = 0; i < nA; i++) A[i] = (double)frand() - 0.5;
  for (int i = 0; i < nB; i++) B[i] = (double)frand() * 0.25;
  for (int i = 0; i < nC; i++) C[i] = (double)frand() - 0.25;
  for (int i = 0; i < nD; i++) D[i] = 1.0 / (1.0 + lcg() % 97);
  double *dA, *dB, *dC, *dD, *dE, *dF, *dG;
  CHECK(cudaMalloc(&dA, nA * 8)); CHECK(cudaMalloc(&dB, nB * 8)); CHECK(cudaMalloc(&dC, nC * 8)); CHECK(cudaMalloc(&dD, nD * 8));
  CHECK(cudaMalloc(&dE, NI * NJ * 8)); CHECK(cudaMalloc(&dF, NJ * NL * 8)); CHECK(cudaMalloc(&dG, NI * NL * 8));
  CHECK(cudaMemcpy(dA, A, nA * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B, nB * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, C, nC * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dD, D, nD * 8, cudaMemcpyHostToDevice));
  dim3 block(32, 8);
  mm3_kernel<<<dim3((NJ + 31) / 32, (NI + 7) / 8), block>>>(NI, NJ, NK, dA, dB, dE);
  mm3_kernel<<<dim3((NL + 31) / 32, (NJ + 7) / 8), block>>>(NJ, NL, NM, dC, dD, dF);
  mm3_kernel<<<dim3((NL + 31) / 32, (NI + 7) / 8), block>>>(NI, NL, NJ, dE, dF, dG);
  CHECK(cudaGetLastError());
  double *G = (double *)malloc(NI * NL * 8), *F = (double *)malloc(NJ * NL * 8);
  CHECK(cudaMemcpy(G, dG, NI * NL * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(F, dF, NJ * NL * 8, cudaMemcpyDeviceToHost));
  printf("3mm NI %d NJ %d NK %d NL %d NM %d (double)\n", NI, NJ, NK, NL, NM);
  showd("F", F, NJ * NL);
  showd("G", G, NI * NL);
  return 0;
}
