// Records what the SASS alone cannot tell: MUFU.SQRT's table (if ptxas uses
// it), full f16/bf16 tanh tables, and random golden values for development.
// Build: nvcc -arch=sm_90 -O3 -o rec sfu_extra_rec.cu; run ./rec DIR; gzip DIR/*.bin;
// then WARPSIM_SFU_EXTRA_RECORDING=DIR go test -run TestSFUExtraMake ./internal/libdevice
// (it also prints whether MUFU.SQRT only scales with the exponent, over every
// positive normal f32, and whether the x2 tanh forms equal two scalar ones).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
__device__ __forceinline__ float sqa(float x) { float r; asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ __forceinline__ float sqf(float x) { float r; asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ __forceinline__ float dvf(float x, float y) { float r; asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); return r; }
__device__ __forceinline__ float dvz(float x, float y) { float r; asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); return r; }
__device__ __forceinline__ float th(float x) { float r; asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ __forceinline__ uint16_t th16(uint16_t x) { uint16_t r; asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ __forceinline__ uint16_t thb16(uint16_t x) { uint16_t r; asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ __forceinline__ uint32_t th16x2(uint32_t x) { uint32_t r; asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ __forceinline__ uint32_t thb16x2(uint32_t x) { uint32_t r; asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }

// sqrt.approx.ftz over significand and exponent parity: delta to sqrt_rn.
__global__ void sqtab(int8_t *d, unsigned *over) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << 24)) return;
  unsigned p = i >> 23, m = i & 0x7fffff;
  float x = __uint_as_float(((127 + p) << 23) | m);
  int dl = (int)__float_as_uint(sqf(x)) - (int)__float_as_uint(__fsqrt_rn(x));
  if (dl < -127 || dl > 127) { atomicAdd(over, 1); dl = -128; }
  d[i] = (int8_t)dl;
}
// every positive normal: sqrt.approx.ftz(m*2^(2k+p)) == sqrt.approx.ftz(m*2^p) * 2^k ?
__global__ void sqscale(unsigned long long *bad, unsigned *samp) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i >= 0x7f000000ull) return;
  unsigned a = (unsigned)i + 0x00800000u;
  int e = (int)(a >> 23) - 127, p = e & 1, k = (e - p) / 2;
  float b = sqf(__uint_as_float(((127 + p) << 23) | (a & 0x7fffff)));
  unsigned pred = __float_as_uint(b) + (unsigned)(k << 23);
  unsigned got = __float_as_uint(sqf(__uint_as_float(a)));
  if (got != pred) { unsigned long long n = atomicAdd(bad, 1ull); if (n < 32) { samp[2 * n] = a; samp[2 * n + 1] = got; } }
}
__global__ void t16(uint16_t *h, uint16_t *b, unsigned *bad2) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  h[i] = th16(i); b[i] = thb16(i);
  unsigned j = (i * 40503u + 12345u) & 0xffff;
  uint32_t v = th16x2(i | (j << 16)), w = thb16x2(i | (j << 16));
  if (v != ((uint32_t)th16(i) | ((uint32_t)th16(j) << 16))) atomicAdd(bad2, 1);
  if (w != ((uint32_t)thb16(i) | ((uint32_t)thb16(j) << 16))) atomicAdd(bad2 + 1, 1);
}
__device__ unsigned rnd(unsigned long long &s) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (unsigned)(s >> 11); }
__device__ unsigned pick(unsigned long long &s) {
  unsigned r = rnd(s), k = r % 8, m = rnd(s);
  switch (k) {
  case 0: return m;                                           // any bits
  case 1: return (m & 0x807fffff) | ((120 + (r >> 8) % 16) << 23);  // near 1
  case 2: return (m & 0x807fffff);                             // subnormal
  case 3: return (m & 0x807fffff) | ((250 + (r >> 8) % 5) << 23);   // huge (2^123..2^127)
  case 4: return (m & 0x807fffff) | ((1 + (r >> 8) % 6) << 23);     // tiny normal
  case 5: return (m & 0x80000fff) | ((1 + (r >> 8) % 253) << 23);   // few bits
  case 6: return (m & 0x807ff000) | 0x00000fff | ((1 + (r >> 8) % 253) << 23);
  default: return (m & 0x807fffff) | ((100 + (r >> 8) % 56) << 23);
  }
}
__global__ void gold(unsigned *g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long s = 0x9e3779b97f4a7c15ull ^ (unsigned long long)(i + 1) * 0xbf58476d1ce4e5b9ull;
  for (int q = 0; q < 4; q++) rnd(s);
  unsigned a = pick(s), b = pick(s);
  float x = __uint_as_float(a), y = __uint_as_float(b);
  unsigned *o = g + 7 * i;
  o[0] = a; o[1] = b;
  o[2] = __float_as_uint(sqa(x)); o[3] = __float_as_uint(sqf(x));
  o[4] = __float_as_uint(dvf(x, y)); o[5] = __float_as_uint(dvz(x, y));
  o[6] = __float_as_uint(th(x));
}
static void wr(const char *dir, const char *name, const void *d, size_t n) {
  char p[512]; snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb"); fwrite(d, 1, n, f); fclose(f);
}
int main(int argc, char **argv) {
  const char *dir = argv[1];
  int8_t *dt; unsigned *ov; cudaMalloc(&dt, 1 << 24); cudaMalloc(&ov, 64); cudaMemset(ov, 0, 64);
  sqtab<<<(1 << 24) / 256, 256>>>(dt, ov);
  unsigned long long *bad; unsigned *samp; cudaMalloc(&bad, 8); cudaMalloc(&samp, 256); cudaMemset(bad, 0, 8); cudaMemset(samp, 0, 256);
  sqscale<<<0x7f000000u / 256, 256>>>(bad, samp);
  uint16_t *h, *b; cudaMalloc(&h, 131072); cudaMalloc(&b, 131072);
  t16<<<256, 256>>>(h, b, ov + 4);
  const int N = 1 << 18; unsigned *g; cudaMalloc(&g, (size_t)N * 28);
  gold<<<N / 256, 256>>>(g, N);
  cudaError_t err = cudaDeviceSynchronize();
  printf("cuda: %s\n", cudaGetErrorString(err));
  static int8_t hdt[1 << 24]; unsigned hov[16]; unsigned long long hbad; unsigned hs[64];
  static uint16_t hh[65536], hb[65536]; unsigned *hg = (unsigned *)malloc((size_t)N * 28);
  cudaMemcpy(hdt, dt, 1 << 24, cudaMemcpyDeviceToHost); cudaMemcpy(hov, ov, 64, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hbad, bad, 8, cudaMemcpyDeviceToHost); cudaMemcpy(hs, samp, 256, cudaMemcpyDeviceToHost);
  cudaMemcpy(hh, h, 131072, cudaMemcpyDeviceToHost); cudaMemcpy(hb, b, 131072, cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, g, (size_t)N * 28, cudaMemcpyDeviceToHost);
  printf("sqrt table: %u deltas out of int8 range\n", hov[0]);
  printf("sqrt scaling: %llu mismatches over all positive normals\n", hbad);
  for (int k = 0; k < 8 && k < (int)hbad; k++) printf("  a=%08x got=%08x\n", hs[2 * k], hs[2 * k + 1]);
  printf("tanh x2 vs scalar mismatches: f16x2 %u bf16x2 %u\n", hov[4], hov[5]);
  wr(dir, "sqrt_delta.bin", hdt, 1 << 24);
  wr(dir, "tanh_f16.bin", hh, 131072); wr(dir, "tanh_bf16.bin", hb, 131072);
  wr(dir, "gold.bin", hg, (size_t)N * 28);
  return 0;
}
