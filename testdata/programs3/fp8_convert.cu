// FP8 with cuda_fp8.h on the device and the host: __nv_fp8_e4m3 and
// __nv_fp8_e5m2 from float/half/bf16, the packed __nv_fp8x2_e5m2 and
// __nv_fp8x4_e4m3, saturation (__NV_SATFINITE vs __NV_NOSAT) through
// __nv_cvt_float_to_fp8 / __nv_cvt_halfraw2_to_fp8x2, NaN and infinities,
// and a tiny fp8 dot product dequantized with a per-tensor scale.
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

#define NV 24
__device__ __host__ inline void convert_all(const float* v, unsigned char* o, int i) {
  float x = v[i];
  __nv_fp8_e4m3 a(x);
  __nv_fp8_e5m2 b(x);
  o[i * 8 + 0] = a.__x;
  o[i * 8 + 1] = b.__x;
  o[i * 8 + 2] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
  o[i * 8 + 3] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
  o[i * 8 + 4] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
  o[i * 8 + 5] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
  __nv_fp8_e4m3 c(__float2half(x));
  __nv_fp8_e5m2 d(__float2bfloat16(x));
  o[i * 8 + 6] = c.__x;
  o[i * 8 + 7] = d.__x;
}

__global__ void k_convert(const float* v, unsigned char* o, float* back, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  convert_all(v, o, i);
  __nv_fp8_e4m3 a(v[i]);
  __nv_fp8_e5m2 b(v[i]);
  back[2 * i] = float(a);
  back[2 * i + 1] = (float)b;
}

__global__ void k_packed(const float2* v, unsigned* o, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  __nv_fp8x2_e5m2 p(v[i]);
  __nv_fp8x2_e4m3 q(v[i]);
  __half2 h = __floats2half2_rn(v[i].x, v[i].y);
  __nv_fp8x2_storage_t r = __nv_cvt_halfraw2_to_fp8x2((__half2_raw)h, __NV_SATFINITE, __NV_E4M3);
  float4 f4 = make_float4(v[i].x, v[i].y, -v[i].x, v[i].y * 0.5f);
  __nv_fp8x4_e4m3 w(f4);
  o[i * 4 + 0] = p.__x;
  o[i * 4 + 1] = (unsigned)q.__x | ((unsigned)r << 16);
  o[i * 4 + 2] = w.__x;
  float2 back = (float2)p;
  __half2_raw hr = __nv_cvt_fp8x2_to_halfraw2(q.__x, __NV_E4M3);
  o[i * 4 + 3] = (unsigned)hr.x ^ ((unsigned)hr.y << 16) ^ (unsigned)(back.x * 4.0f);
}

__global__ void k_dot(const __nv_fp8_e4m3* a, const __nv_fp8_e4m3* b, float sa, float sb, float* out, int n) {
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += 32) acc += float(a[i]) * float(b[i]);
  for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (threadIdx.x == 0) *out = acc * sa * sb;
}

int main() {
  float v[NV] = {0.0f, -0.0f, 1.0f, -1.0f, 0.3333333f, 448.0f, 464.0f, 480.0f, 1000.0f, -1e6f, 57344.0f, 61440.0f,
                 65536.0f, INFINITY, -INFINITY, NAN, 1.0e-3f, 0.0019531f, 0.00048828125f, 1.52587890625e-05f, 7.0e-8f,
                 3.5f, 0.0625f + 1.0f / 512.0f, 240.0f};
  float *dv, *dback; unsigned char* dout;
  unsigned char o[NV * 8], oh[NV * 8]; float back[NV * 2];
  CHECK(cudaMalloc(&dv, sizeof v)); CHECK(cudaMalloc(&dout, sizeof o)); CHECK(cudaMalloc(&dback, sizeof back));
  CHECK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
  k_convert<<<1, 32>>>(dv, dout, dback, NV);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(back, dback, sizeof back, cudaMemcpyDeviceToHost));
  for (int i = 0; i < NV; i++) convert_all(v, oh, i);
  int hostdiff = 0;
  for (int i = 0; i < NV; i++) {
    unsigned u; memcpy(&u, &v[i], 4);
    printf("%08x:", u);
    for (int j = 0; j < 8; j++) printf(" %02x", o[i * 8 + j]);
    unsigned b0, b1; memcpy(&b0, &back[2 * i], 4); memcpy(&b1, &back[2 * i + 1], 4);
    printf("  back %08x %08x\n", b0, b1);
    for (int j = 0; j < 8; j++) hostdiff += o[i * 8 + j] != oh[i * 8 + j];
  }
  printf("host and device conversions differ in %d bytes\n", hostdiff);
  float2 pv[8] = {{1.5f, -2.25f}, {500.f, 0.01f}, {NAN, 1.f}, {-INFINITY, 3.f}, {1e5f, -1e5f}, {0.1f, 0.2f}, {6e-8f, -3e-5f}, {240.f, 250.f}};
  float2* dp; unsigned* dq; unsigned q[32];
  CHECK(cudaMalloc(&dp, sizeof pv)); CHECK(cudaMalloc(&dq, sizeof q));
  CHECK(cudaMemcpy(dp, pv, sizeof pv, cudaMemcpyHostToDevice));
  k_packed<<<1, 8>>>(dp, dq, 8);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++) printf("packed %d: %04x %08x %08x %08x\n", i, q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]);
  const int n = 1000;
  __nv_fp8_e4m3 *ha = new __nv_fp8_e4m3[n], *hb = new __nv_fp8_e4m3[n];
  for (int i = 0; i < n; i++) { ha[i] = __nv_fp8_e4m3(sinf(i * 0.1f) * 300.0f); hb[i] = __nv_fp8_e4m3(cosf(i * 0.07f) * 2.0f); }
  __nv_fp8_e4m3 *da, *db; float* dr; float r;
  CHECK(cudaMalloc(&da, n)); CHECK(cudaMalloc(&db, n)); CHECK(cudaMalloc(&dr, 4));
  CHECK(cudaMemcpy(da, ha, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, n, cudaMemcpyHostToDevice));
  k_dot<<<1, 32>>>(da, db, 1.0f / 300.0f, 0.5f, dr, n);
  CHECK(cudaMemcpy(&r, dr, 4, cudaMemcpyDeviceToHost));
  unsigned ru; memcpy(&ru, &r, 4);
  printf("fp8 dot: %.7f (%08x)\n", r, ru);
  delete[] ha; delete[] hb;
  return 0;
}
