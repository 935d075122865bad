// SHOC-style FFT: batches of 512-point complex transforms, one block of 64
// threads per transform. Radix-2 decimation in time in shared memory: a
// bit-reversal load, then nine butterfly stages whose twiddles come from
// __sincosf; the inverse transform runs the same kernel with the sign
// flipped and scales by 1/512.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 1729u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define N 512
#define LOGN 9
#define THREADS 64
#define M_2PI_F 6.283185307179586f

__global__ void fft512(float2 *data, float sign, float scale) {
  __shared__ float2 s[N];
  float2 *d = data + blockIdx.x * N;
  int tid = threadIdx.x;
  for (int i = tid; i < N; i += THREADS) s[__brev(i) >> (32 - LOGN)] = d[i];
  __syncthreads();
  for (int half = 1; half < N; half <<= 1) {
    for (int b = tid; b < N / 2; b += THREADS) { // butterfly b of this stage
      int j = b & (half - 1);
      int lo = ((b - j) << 1) + j, hi = lo + half;
      float sn, cs;
      __sincosf(sign * M_2PI_F * j / (2 * half), &sn, &cs);
      float2 u = s[lo], v = s[hi];
      float2 t = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
      s[lo] = make_float2(u.x + t.x, u.y + t.y);
      s[hi] = make_float2(u.x - t.x, u.y - t.y);
    }
    __syncthreads();
  }
  for (int i = tid; i < N; i += THREADS) d[i] = make_float2(s[i].x * scale, s[i].y * scale);
}

int main() {
  const int batches = 256;
  size_t bytes = (size_t)batches * N * sizeof(float2);
  float2 *h = (float2 *)malloc(bytes), *orig = (float2 *)malloc(bytes);
  for (int i = 0; i < batches * N; i++) {
    float re = frand() - 0.5f;
    float im = frand() - 0.5f;
    h[i] = make_float2(re, im);
  }
  for (int i = 0; i < N; i++) h[i] = make_float2((i % 16) == 0 ? 1.0f : 0.0f, 0.0f); // a comb
  for (int i = 0; i < batches * N; i++) orig[i] = h[i];
  float2 *d;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  fft512<<<batches, THREADS>>>(d, -1.0f, 1.0f);
  CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  printf("forward fnv %016llx\n", (unsigned long long)fnv(h, bytes));
  for (int k = 0; k < 64; k += 16) printf("comb X[%d] = %a %a\n", k, h[k].x, h[k].y);
  printf("X1[3] = %a %a\n", h[N + 3].x, h[N + 3].y);
  fft512<<<batches, THREADS>>>(d, 1.0f, 1.0f / N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  printf("round trip fnv %016llx\n", (unsigned long long)fnv(h, bytes));
  float worst = 0;
  for (int i = 0; i < batches * N; i++) {
    float ex = h[i].x - orig[i].x, ey = h[i].y - orig[i].y;
    if (ex < 0) ex = -ex;
    if (ey < 0) ey = -ey;
    if (ex > worst) worst = ex;
    if (ey > worst) worst = ey;
  }
  printf("round trip worst error %a\n", worst);
  return 0;
}
