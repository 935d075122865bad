// Element formats and read modes: 8- and 16-bit integers read as
// normalized floats (every 8-bit value, a spread of 16-bit ones), read as
// elements, linear filtering of normalized 8-bit data, half floats, two-
// and four-channel formats with the channels they lack, integer textures
// with a border color (its bits). Prints bits in hex.
#include "common.h"
#include <cuda_fp16.h>

template <class T>
__global__ void fetchF(cudaTextureObject_t t, const float *x, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(t, x[i]);
}
__global__ void fetchI(cudaTextureObject_t t, const float *x, int4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<int4>(t, x[i]);
}
__global__ void fetchU(cudaTextureObject_t t, const float *x, uint4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<uint4>(t, x[i]);
}
__global__ void fetch2D(cudaTextureObject_t t, const float2 *x, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, x[i].x, x[i].y);
}
__global__ void fetchUchar4(cudaTextureObject_t t, const float2 *x, uchar4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<uchar4>(t, x[i].x, x[i].y);
}
__global__ void fetchShort2(cudaTextureObject_t t, const float *x, short2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<short2>(t, x[i]);
}

enum { NMAX = 1024 };
static float hx[NMAX], hf[NMAX * 4];
static float *dx;
static void *dout;

// run1D makes a 1D array of n elements of format fd from data, a texture
// with the given modes, and fetches at coordinates hx[0..m).
static int run1D(const char *label, cudaChannelFormatDesc fd, const void *data, size_t elem, int n, int m, int addr,
                 int filter, int readNorm, int kind) {
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &fd, n));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, data, n * elem, n * elem, 1, cudaMemcpyHostToDevice));
  cudaResourceDesc r = arrayRes(a);
  cudaTextureDesc td = texDesc(addr, filter, 0, readNorm);
  if (kind != 0) { // integer border colors: bit patterns
    unsigned bits[4] = {0x12345678u, 0xfffffff0u, 7u, 0x80000000u};
    memcpy(td.borderColor, bits, sizeof bits);
  }
  cudaTextureObject_t o;
  cudaError_t e = cudaCreateTextureObject(&o, &r, &td, NULL);
  if (e) {
    printf("%s: create %s\n", label, cudaGetErrorName(e));
    cudaGetLastError(); // the failed call set it
    CHECK(cudaFreeArray(a));
    return 0;
  }
  CHECK(cudaMemcpy(dx, hx, m * 4, cudaMemcpyHostToDevice));
  if (kind == 0)
    fetchF<float><<<(m + 63) / 64, 64>>>(o, dx, (float4 *)dout, m);
  else if (kind == 1)
    fetchI<<<(m + 63) / 64, 64>>>(o, dx, (int4 *)dout, m);
  else
    fetchU<<<(m + 63) / 64, 64>>>(o, dx, (uint4 *)dout, m);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hf, dout, m * 16, cudaMemcpyDeviceToHost));
  printHex(label, hf, m * 4);
  CHECK(cudaDestroyTextureObject(o));
  CHECK(cudaFreeArray(a));
  return 0;
}

int main() {
  CHECK(cudaMalloc(&dx, NMAX * 8));
  CHECK(cudaMalloc(&dout, NMAX * 16));
  unsigned char u8[256];
  signed char s8[256];
  for (int i = 0; i < 256; i++) u8[i] = (unsigned char)i, s8[i] = (signed char)(i - 128);
  unsigned short u16[256];
  short s16[256];
  for (int i = 0; i < 256; i++) {
    u16[i] = (unsigned short)(i * 257 + (i * 31) % 97);
    s16[i] = (short)(i * 257 + (i * 31) % 97 - 32768);
  }
  u16[255] = 65535, s16[0] = -32768, s16[1] = -32767, s16[2] = 32767, s16[3] = 0, s16[4] = 1, s16[5] = -1;
  for (int i = 0; i < 256; i++) hx[i] = (float)i + 0.5f;

  // Normalized float and element reads, every texel, point filtering.
  if (run1D("u8 norm", cudaCreateChannelDesc<unsigned char>(), u8, 1, 256, 256, 1, 0, 1, 0)) return 1;
  if (run1D("s8 norm", cudaCreateChannelDesc<signed char>(), s8, 1, 256, 256, 1, 0, 1, 0)) return 1;
  if (run1D("u16 norm", cudaCreateChannelDesc<unsigned short>(), u16, 2, 256, 256, 1, 0, 1, 0)) return 1;
  if (run1D("s16 norm", cudaCreateChannelDesc<short>(), s16, 2, 256, 256, 1, 0, 1, 0)) return 1;
  if (run1D("u8 elem", cudaCreateChannelDesc<unsigned char>(), u8, 1, 256, 256, 1, 0, 0, 2)) return 1;
  if (run1D("s8 elem", cudaCreateChannelDesc<signed char>(), s8, 1, 256, 256, 1, 0, 0, 1)) return 1;
  if (run1D("u16 elem", cudaCreateChannelDesc<unsigned short>(), u16, 2, 256, 256, 1, 0, 0, 2)) return 1;
  if (run1D("s16 elem", cudaCreateChannelDesc<short>(), s16, 2, 256, 256, 1, 0, 0, 1)) return 1;

  // Linear filtering of normalized 8- and 16-bit data between texels.
  lcg_state = 77;
  for (int i = 0; i < 256; i++) hx[i] = coord(0.0f, 256.0f);
  if (run1D("u8 norm linear", cudaCreateChannelDesc<unsigned char>(), u8, 1, 256, 256, 1, 1, 1, 0)) return 1;
  if (run1D("s8 norm linear", cudaCreateChannelDesc<signed char>(), s8, 1, 256, 256, 1, 1, 1, 0)) return 1;
  if (run1D("u16 norm linear", cudaCreateChannelDesc<unsigned short>(), u16, 2, 256, 256, 1, 1, 1, 0)) return 1;
  if (run1D("s16 norm linear", cudaCreateChannelDesc<short>(), s16, 2, 256, 256, 1, 1, 1, 0)) return 1;
  // Linear filtering of integers read as elements: refused or not?
  if (run1D("s8 elem linear", cudaCreateChannelDesc<signed char>(), s8, 1, 256, 16, 1, 1, 0, 1)) return 1;
  // Normalized reads of 32-bit integers: refused or not?
  {
    int i32[16];
    for (int i = 0; i < 16; i++) i32[i] = i * 123456789 - 987654321;
    for (int i = 0; i < 16; i++) hx[i] = (float)i + 0.5f;
    if (run1D("s32 norm", cudaCreateChannelDesc<int>(), i32, 4, 16, 16, 1, 0, 1, 0)) return 1;
    if (run1D("s32 elem", cudaCreateChannelDesc<int>(), i32, 4, 16, 16, 1, 0, 0, 1)) return 1;
    // Border color of integer textures, out-of-range coordinates.
    const float bx[8] = {-3.0f, -0.5f, 0.5f, 15.5f, 16.0f, 17.0f, 100.0f, 7.25f};
    memcpy(hx, bx, sizeof bx);
    if (run1D("s32 border", cudaCreateChannelDesc<int>(), i32, 4, 16, 8, 3, 0, 0, 1)) return 1;
    if (run1D("u8 border elem", cudaCreateChannelDesc<unsigned char>(), u8, 1, 16, 8, 3, 0, 0, 2)) return 1;
    if (run1D("u8 border norm", cudaCreateChannelDesc<unsigned char>(), u8, 1, 16, 8, 3, 0, 1, 0)) return 1;
    float f32[16];
    for (int i = 0; i < 16; i++) f32[i] = (float)(i * 3 % 5) - 0.75f * (float)i;
    if (run1D("f32 border", cudaCreateChannelDesc<float>(), f32, 4, 16, 8, 3, 0, 0, 0)) return 1;
    if (run1D("f32 border linear", cudaCreateChannelDesc<float>(), f32, 4, 16, 8, 3, 1, 0, 0)) return 1;
  }
  // Half floats: point and linear.
  {
    unsigned short h[64];
    for (int i = 0; i < 64; i++) h[i] = __half_as_ushort(__float2half((float)(i * i) / 7.0f - 50.0f));
    h[3] = 0x7c00, h[4] = 0xfc00, h[5] = 0x0001, h[6] = 0x8000, h[7] = 0x7bff;
    lcg_state = 5;
    for (int i = 0; i < 64; i++) hx[i] = i < 32 ? (float)i + 0.5f : coord(-2.0f, 66.0f);
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    if (run1D("f16 point", hd, h, 2, 64, 64, 1, 0, 0, 0)) return 1;
    if (run1D("f16 linear", hd, h, 2, 64, 64, 1, 1, 0, 0)) return 1;
  }
  // Two- and four-channel formats, missing channels, 2D linear filtering.
  {
    uchar4 c4[4 * 4];
    float2 f2[4 * 4];
    short2 sh2[16];
    for (int i = 0; i < 16; i++) {
      c4[i] = make_uchar4(i * 17, 255 - i * 13, (i * 77) & 255, i * 3);
      f2[i] = make_float2((float)i * 0.25f - 1.0f, (float)(i * i) / 9.0f);
      sh2[i] = make_short2((short)(i * 4000 - 30000), (short)(-i * 1111));
    }
    float2 xy[64];
    lcg_state = 9;
    for (int i = 0; i < 64; i++) {
      float y = coord(-1.0f, 5.0f), x = coord(-1.0f, 5.0f); // sequenced as GCC evaluates arguments
      xy[i] = make_float2(x, y);
    }
    CHECK(cudaMemcpy(dx, xy, sizeof xy, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<uchar4>(), d2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a4, a2, as;
    CHECK(cudaMallocArray(&a4, &d4, 4, 4));
    CHECK(cudaMallocArray(&a2, &d2, 4, 4));
    CHECK(cudaMemcpy2DToArray(a4, 0, 0, c4, 16, 16, 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, f2, 32, 32, 4, cudaMemcpyHostToDevice));
    for (int filter = 0; filter < 2; filter++) {
      cudaResourceDesc r4 = arrayRes(a4), r2 = arrayRes(a2);
      cudaTextureDesc t4 = texDesc(1, filter, 0, 1), t2 = texDesc(3, filter, 0, 0);
      cudaTextureObject_t o4, o2;
      CHECK(cudaCreateTextureObject(&o4, &r4, &t4, NULL));
      CHECK(cudaCreateTextureObject(&o2, &r2, &t2, NULL));
      fetch2D<<<1, 64>>>(o4, (float2 *)dx, (float4 *)dout, 64);
      CHECK(cudaMemcpy(hf, dout, 64 * 16, cudaMemcpyDeviceToHost));
      printHex(filter ? "uchar4 norm linear" : "uchar4 norm point", hf, 64 * 4);
      fetch2D<<<1, 64>>>(o2, (float2 *)dx, (float4 *)dout, 64);
      CHECK(cudaMemcpy(hf, dout, 64 * 16, cudaMemcpyDeviceToHost));
      printHex(filter ? "float2 border linear" : "float2 border point", hf, 64 * 4);
      CHECK(cudaDestroyTextureObject(o4));
      CHECK(cudaDestroyTextureObject(o2));
    }
    cudaResourceDesc r4 = arrayRes(a4);
    cudaTextureDesc t4 = texDesc(0, 0, 1, 0);
    cudaTextureObject_t o4;
    CHECK(cudaCreateTextureObject(&o4, &r4, &t4, NULL));
    fetchUchar4<<<1, 64>>>(o4, (float2 *)dx, (uchar4 *)dout, 64);
    unsigned char hb[256];
    CHECK(cudaMemcpy(hb, dout, 256, cudaMemcpyDeviceToHost));
    printf("uchar4 elem wrap:");
    for (int i = 0; i < 256; i++) printf(" %02x", hb[i]);
    printf("\n");
    CHECK(cudaDestroyTextureObject(o4));
    cudaChannelFormatDesc ds = cudaCreateChannelDesc<short2>();
    CHECK(cudaMallocArray(&as, &ds, 16));
    CHECK(cudaMemcpyToArray(as, 0, 0, sh2, sizeof sh2, cudaMemcpyHostToDevice));
    cudaResourceDesc rs = arrayRes(as);
    cudaTextureDesc ts = texDesc(1, 0, 0, 0);
    cudaTextureObject_t os;
    CHECK(cudaCreateTextureObject(&os, &rs, &ts, NULL));
    for (int i = 0; i < 20; i++) hx[i] = (float)i - 1.5f;
    CHECK(cudaMemcpy(dx, hx, 80, cudaMemcpyHostToDevice));
    fetchShort2<<<1, 20>>>(os, dx, (short2 *)dout, 20);
    short hs[40];
    CHECK(cudaMemcpy(hs, dout, 80, cudaMemcpyDeviceToHost));
    printf("short2 elem:");
    for (int i = 0; i < 40; i++) printf(" %04x", (unsigned short)hs[i]);
    printf("\n");
    CHECK(cudaDestroyTextureObject(os));
    CHECK(cudaFreeArray(a4));
    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(as));
  }
  printf("done\n");
  return 0;
}
