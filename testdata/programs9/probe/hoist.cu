// Which loop-invariant products does ptxas fuse into adds inside a loop?
// Each kernel computes p = x*y before a loop of 9..16 adds acc = acc + p.
#include <cstdio>
#include <cstdint>
__constant__ float cA, cB;
#define K(name, prod) \
  __global__ void name(const float *A, const float *B, float p1, float p2, float *o) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; float a = A[i], b = B[i]; \
    float p = prod; float acc = b; int m = 9 + (i & 7); \
    for (int k = 0; k < m; k++) acc = acc + p; o[i] = acc; }
K(reg_reg, a * b)
K(reg_square, a * a)
K(const_const, cA * cB)
K(const_square, cA * cA)
K(param_param, p1 * p2)
K(param_square, p1 * p1)
K(const_reg, cA * a)
K(param_reg, p1 * a)
K(imm_reg, 1.25f * a)
K(const_param, cA * p1)
int main() {
  const int N = 256;
  float a[N], b[N], o[N];
  uint32_t s = 1;
  for (int i = 0; i < N; i++) { s = s * 1664525u + 1013904223u; a[i] = (float)(s >> 8) / 16777216.0f + 1.0f; s = s * 1664525u + 1013904223u; b[i] = (float)(s >> 8) / 16777216.0f; }
  float ca = 1.0f + 0x1p-12f, cb = 3.0f + 0x1p-20f;
  cudaMemcpyToSymbol(cA, &ca, 4); cudaMemcpyToSymbol(cB, &cb, 4);
  float *dA, *dB, *dO;
  cudaMalloc(&dA, N * 4); cudaMalloc(&dB, N * 4); cudaMalloc(&dO, N * 4);
  cudaMemcpy(dA, a, N * 4, cudaMemcpyHostToDevice); cudaMemcpy(dB, b, N * 4, cudaMemcpyHostToDevice);
  void (*ks[])(const float *, const float *, float, float, float *) = {reg_reg, reg_square, const_const, const_square, param_param, param_square, const_reg, param_reg, imm_reg, const_param};
  const char *names[] = {"reg_reg", "reg_square", "const_const", "const_square", "param_param", "param_square", "const_reg", "param_reg", "imm_reg", "const_param"};
  for (int k = 0; k < 10; k++) {
    ks[k]<<<1, N>>>(dA, dB, 1.0f + 0x1p-13f, 5.0f + 0x1p-21f, dO);
    cudaMemcpy(o, dO, N * 4, cudaMemcpyDeviceToHost);
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < N * 4; i++) { h ^= ((unsigned char *)o)[i]; h *= 1099511628211ull; }
    printf("%s fnv %016llx o[5] %a\n", names[k], (unsigned long long)h, o[5]);
  }
  return 0;
}
