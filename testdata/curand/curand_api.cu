// The device cuRAND API's integer streams and uniform conversions, for
// TestCCCurandAPI (cmd/warpsim/cc_curand_test.go), which computes every
// word independently: Philox4x32-10 from Random123's known-answer vectors
// and a counter model, XORWOW from Marsaglia's recurrence with jumps by
// powers of its 160x160 GF(2) matrix. One thread writes words in order;
// the host prints them one per line in hex. A second kernel initialises
// 256 XORWOW states on scattered 64-bit subsequences and offsets.
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

__device__ int n;
__device__ void put(unsigned *o, unsigned x) { o[n++] = x; }
__device__ void put4(unsigned *o, uint4 x) { put(o, x.x); put(o, x.y); put(o, x.z); put(o, x.w); }
__device__ void putf(unsigned *o, float x) { put(o, __float_as_uint(x)); }
__device__ void putd(unsigned *o, double x) {
  unsigned long long b = __double_as_longlong(x);
  put(o, (unsigned)(b >> 32)); put(o, (unsigned)b);
}

__global__ void words(unsigned *o) {
  n = 0;
  // Random123's kat_vectors for philox4x32_10.
  put4(o, curand_Philox4x32_10(make_uint4(0, 0, 0, 0), make_uint2(0, 0)));
  put4(o, curand_Philox4x32_10(make_uint4(~0u, ~0u, ~0u, ~0u), make_uint2(~0u, ~0u)));
  put4(o, curand_Philox4x32_10(make_uint4(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), make_uint2(0xa4093822, 0x299f31d0)));

  curandStatePhilox4_32_10_t p;
  curand_init(0x0123456789abcdefULL, 0xfedcba9876543210ULL, 5, &p);
  put4(o, curand4(&p));                                  // outputs 5..8
  for (int i = 0; i < 3; i++) put(o, curand(&p));       // 9..11
  put4(o, curand4(&p));                                  // 12..15
  put(o, curand(&p)); put(o, curand(&p));                // 16, 17
  put4(o, curand4(&p));                                  // 18..21
  skipahead(1000003ULL, &p);
  put(o, curand(&p));
  skipahead_sequence(3ULL, &p);
  put(o, curand(&p));
  putf(o, curand_uniform(&p)); putf(o, curand_uniform(&p));
  putd(o, curand_uniform_double(&p));
  float4 u4 = curand_uniform4(&p);
  putf(o, u4.x); putf(o, u4.y); putf(o, u4.z); putf(o, u4.w);
  double2 d2 = curand_uniform2_double(&p);
  putd(o, d2.x); putd(o, d2.y);

  // The counter's low 64 bits carry into its high 64 bits.
  curand_init(0x0123456789abcdefULL, 7, 0, &p);
  for (int i = 0; i < 4; i++) skipahead(0xfffffffffffffffcULL, &p);
  skipahead(12, &p);
  put4(o, curand4(&p));                                  // counter (2^64-1, 7)
  put4(o, curand4(&p));                                  // counter (0, 8)
  // Counter and key all ones through the API: the second known answer.
  curand_init(~0ULL, ~0ULL, 0, &p);
  for (int i = 0; i < 4; i++) skipahead(0xfffffffffffffffcULL, &p);
  skipahead(12, &p);
  put4(o, curand4(&p));

  curandState x;
  curand_init(0x0123456789abcdefULL, 0, 0, &x);
  for (int i = 0; i < 8; i++) put(o, curand(&x));
  curand_init(42, 1, 0, &x);
  put(o, curand(&x)); put(o, curand(&x));
  curand_init(42, 5, 7, &x);
  put(o, curand(&x));
  curand_init(42, 0x10000000003ULL, 1000000000000ULL, &x);
  put(o, curand(&x)); put(o, curand(&x));
  skipahead(123456789ULL, &x);
  put(o, curand(&x));
  skipahead_sequence(2ULL, &x);
  put(o, curand(&x));
  putf(o, curand_uniform(&x));
  putd(o, curand_uniform_double(&x));
  curand_init(~0ULL, ~0ULL, ~0ULL, &x);
  put(o, curand(&x));
  o[1023] = n;
}

__global__ void scattered(unsigned *o) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState x;
  unsigned long long h = (unsigned long long)(id + 1) * 0x9E3779B97F4A7C15ULL;
  curand_init(2024ULL + id, h, h >> 20, &x);
  o[2 * id] = curand(&x);
  o[2 * id + 1] = curand(&x);
}

int main() {
  unsigned *d, h[1024];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  words<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < h[1023]; i++) printf("%08x\n", h[i]);
  printf("scattered\n");
  scattered<<<2, 128>>>(d);
  cudaMemcpy(h, d, 512 * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 512; i++) printf("%08x\n", h[i]);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
