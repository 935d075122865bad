// cuda_fp16.h / cuda_bf16.h math: paired half2 and bfloat162 arithmetic
// (__hfma2, __hmul2_rn, __hadd2_sat, __hfma2_relu, __hmax2_nan, __habs2,
// __hneg2), single-value functions (hsqrt, hrcp, hexp, hlog2, hsin, hcos, __hdiv),
// comparisons, conversions with explicit rounding, shuffles of half2 and
// atomicAdd on __half2 / __nv_bfloat162. Every result printed as raw bits.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ unsigned u32(__half2 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ unsigned u32(__nv_bfloat162 h) { return *reinterpret_cast<unsigned*>(&h); }
__device__ unsigned short u16(__half h) { return __half_as_ushort(h); }
__device__ unsigned short u16(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

__global__ void h2math(const float* in, unsigned* out, __half2* hacc, __nv_bfloat162* bacc) {
  int i = threadIdx.x;
  float x = in[i], y = in[(i + 5) % 32], z = in[(i + 11) % 32];
  __half2 a = __floats2half2_rn(x, y), b = __floats2half2_rn(z, -x), c = __float2half2_rn(0.75f);
  __nv_bfloat162 p = __floats2bfloat162_rn(x, y), q = __floats2bfloat162_rn(z, -x);
  unsigned* o = out + i * 24;
  o[0] = u32(__hfma2(a, b, c));
  o[1] = u32(__hmul2_rn(a, b));
  o[2] = u32(__hadd2_sat(a, b));
  o[3] = u32(__hfma2_relu(a, b, c));
  o[4] = u32(__hmax2_nan(a, b));
  o[5] = u32(__habs2(__hneg2(a)));
  o[6] = u32(__h2div(a, b));
  o[7] = u32(h2sqrt(__habs2(a))) ;
  o[8] = u32(__hfma2(p, q, __float2bfloat162_rn(0.75f)));
  o[9] = u32(__hmul2(p, q));
  o[10] = u32(__hmin2(p, q));
  o[11] = u32(h2exp(__hmul2(p, __float2bfloat162_rn(0.01f))));
  __half hx = __float2half_rz(x);
  o[12] = u16(hsqrt(__habs(hx))) | (u16(hrcp(hx)) << 16);
  o[13] = u16(hexp(__hmul(hx, __float2half(0.01f)))) | (u16(hlog2(__habs(hx))) << 16);
  o[14] = u16(hsin(hx)) | (u16(hcos(hx)) << 16);
  o[15] = u16(__hdiv(hx, __float2half(3.0f))) | (u16(__float2half_rd(x * 3.3f)) << 16);
  __nv_bfloat16 bx = __float2bfloat16_rz(x);
  o[16] = u16(hsqrt(__habs(bx))) | (u16(hrcp(bx)) << 16);
  o[17] = u16(__float2bfloat16_ru(x * 7.1f)) | (u16(__hfma(bx, bx, __float2bfloat16(-1.0f))) << 16);
  o[18] = (__hlt(hx, __float2half(0.5f)) ? 1 : 0) | (__hbgt2(a, b) << 1) | (__hisnan(hx) << 2) | ((__hisinf(hx) != 0) << 3) | (__hble2(p, q) << 4);
  o[19] = __half2ushort_rn(__habs(hx)) | ((unsigned)__half2int_rz(hx) << 16);
  o[20] = (unsigned)__bfloat162int_rn(bx) ^ ((unsigned)__float_as_uint(__bfloat162float(bx)));
  __half2 sh = __shfl_xor_sync(0xffffffffu, a, 1);
  o[21] = u32(sh);
  o[22] = u32(__lows2half2(a, b)) ^ u32(__highs2half2(a, b)) * 3u;
  float2 f2 = __half22float2(__hsub2(a, b));
  o[23] = __float_as_uint(f2.x) ^ __float_as_uint(f2.y);
  atomicAdd(hacc, __floats2half2_rn(x * 0.125f, 1.0f / 32));
  atomicAdd(bacc, __floats2bfloat162_rn(x, 0.5f));
}

int main() {
  float in[32];
  for (int i = 0; i < 32; i++) in[i] = (i - 13) * 0.73f + ((i % 4) ? 0.0f : 70000.0f * (i % 8 ? 1 : -1));
  in[7] = 1e-7f;   // subnormal in half
  in[9] = 0.0f;
  in[10] = -65504.0f;
  in[21] = NAN;
  float* din; unsigned* dout; __half2* dh; __nv_bfloat162* db;
  unsigned out[32 * 24];
  CHECK(cudaMalloc(&din, sizeof in)); CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMalloc(&dh, 4)); CHECK(cudaMalloc(&db, 4));
  CHECK(cudaMemset(dh, 0, 4)); CHECK(cudaMemset(db, 0, 4));
  CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
  h2math<<<1, 32>>>(din, dout, dh, db);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  unsigned hacc, bacc;
  CHECK(cudaMemcpy(&hacc, dh, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&bacc, db, 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++) {
    printf("%2d:", i);
    for (int j = 0; j < 24; j++) printf(" %08x", out[i * 24 + j]);
    printf("\n");
  }
  printf("atomic half2 %08x bf162 %08x\n", hacc, bacc);
  // host side of the same headers
  __half hh = __float2half(3.14159f);
  __nv_bfloat16 hb = __float2bfloat16(3.14159f);
  __half2 h2 = __floats2half2_rn(1.0f / 3, -2.5f);
  printf("host: %04x %04x %.6f %.6f\n", __half_as_ushort(hh), __bfloat16_as_ushort(hb), __low2float(h2), __high2float(h2));
  return 0;
}
