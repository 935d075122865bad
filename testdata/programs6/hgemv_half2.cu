// Half-precision GEMV y = A x: half2 loads, __hfma2 accumulation in half2
// per lane, a __shfl_xor_sync reduction on half2 (__hadd2), conversion
// with __low2float/__high2float; a float-accumulating variant with
// __half22float2, and __hmul2/__hneg2/__habs2/__hmax2 corner values.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

// one warp per row; cols is a multiple of 64
__global__ void hgemv_h2(const __half* __restrict__ A, const __half* __restrict__ x, __half* __restrict__ y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const __half2* a2 = reinterpret_cast<const __half2*>(A + (size_t)row * cols);
  const __half2* x2 = reinterpret_cast<const __half2*>(x);
  __half2 acc = __float2half2_rn(0.0f);
#pragma unroll 4
  for (int j = lane; j < cols / 2; j += 32) acc = __hfma2(a2[j], x2[j], acc);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) acc = __hadd2(acc, __shfl_xor_sync(0xffffffff, acc, off));
  if (lane == 0) y[row] = __hadd(__low2half(acc), __high2half(acc));
}

__global__ void hgemv_f32acc(const __half* __restrict__ A, const __half* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const __half2* a2 = reinterpret_cast<const __half2*>(A + (size_t)row * cols);
  const __half2* x2 = reinterpret_cast<const __half2*>(x);
  float acc = 0.0f;
  for (int j = lane; j < cols / 2; j += 32) {
    float2 p = __half22float2(__hmul2(a2[j], x2[j]));
    acc += p.x + p.y;
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffff, acc, off);
  if (lane == 0) y[row] = acc;
}

__global__ void half2_corners(const __half2* in, __half2* out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  __half2 a = in[i], b = in[(i + 1) % n];
  out[4 * i + 0] = __hfma2(a, b, __hneg2(a));
  out[4 * i + 1] = __hmax2(__habs2(a), b);
  out[4 * i + 2] = __hfma2_sat(a, b, a);
  out[4 * i + 3] = __h2div(a, b);
}

static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const int rows = 512, cols = 1024;
  unsigned short* hA = (unsigned short*)malloc(rows * cols * 2);
  unsigned short hx[1024];
  unsigned s = 123u;
  // random halfs with exponents in [2^-6, 2^1), random signs
  for (int i = 0; i < rows * cols; i++) { s = s * 1664525u + 1013904223u; hA[i] = (unsigned short)(((s >> 31) << 15) | ((9 + (s >> 12) % 7) << 10) | ((s >> 2) & 0x3ff)); }
  for (int i = 0; i < cols; i++) { s = s * 1664525u + 1013904223u; hx[i] = (unsigned short)(((s >> 31) << 15) | ((12 + (s >> 12) % 4) << 10) | ((s >> 2) & 0x3ff)); }
  __half *A, *x, *y; float* yf;
  CHECK(cudaMalloc(&A, rows * cols * 2)); CHECK(cudaMalloc(&x, cols * 2)); CHECK(cudaMalloc(&y, rows * 2)); CHECK(cudaMalloc(&yf, rows * 4));
  CHECK(cudaMemcpy(A, hA, rows * cols * 2, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(x, hx, cols * 2, cudaMemcpyHostToDevice));
  hgemv_h2<<<rows / 8, 256>>>(A, x, y, rows, cols);
  hgemv_f32acc<<<rows / 8, 256>>>(A, x, yf, rows, cols);
  CHECK(cudaDeviceSynchronize());
  unsigned short hy[512]; float hyf[512];
  CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hyf, yf, sizeof hyf, cudaMemcpyDeviceToHost));
  printf("half acc fnv %08x y[0] %04x y[1] %04x y[511] %04x\n", fnv(hy, sizeof hy), hy[0], hy[1], hy[511]);
  printf("f32 acc fnv %08x y[0] %a y[1] %a y[511] %a\n", fnv(hyf, sizeof hyf), hyf[0], hyf[1], hyf[511]);
  unsigned short corner[16] = {0x7bff, 0x3c00, 0xfbff, 0x0001, 0x8000, 0x7c00, 0x3555, 0xc000,
                               0x0400, 0x03ff, 0x7e00, 0x3c01, 0xbc00, 0x5bff, 0x1800, 0xfc00};
  __half2 *cin, *cout;
  CHECK(cudaMalloc(&cin, 32)); CHECK(cudaMalloc(&cout, 4 * 32));
  CHECK(cudaMemcpy(cin, corner, 32, cudaMemcpyHostToDevice));
  half2_corners<<<1, 32>>>(cin, cout, 8);
  unsigned short hc[64];
  CHECK(cudaMemcpy(hc, cout, sizeof hc, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++) { printf("corner %d:", i); for (int k = 0; k < 8; k++) printf(" %04x", hc[8 * i + k]); printf("\n"); }
  return 0;
}
