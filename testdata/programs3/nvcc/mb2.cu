// Tensor-pipe microbenchmarks for the shapes testdata/tensorlesson/mb.cu did not
// time: the wmma forms (nvcuda::wmma on register fragments: f16 and bf16
// m16n16k16, f16 accumulators m32n8k16, tf32 m16n16k8, s8 m16n16k16, u8
// m32n8k16, f64 m8n8k4) and the mma.sync shapes m16n8k16 s8, m16n8k4 tf32,
// m8n8k4 f16 and m16n8k32 e4m3. Same harness as mb.cu: per warp, ITERS x ILP
// MMAs in ILP independent accumulator chains (ILP=1: a dependent chain), one
// block of W warps on one SM (W = 1..32), clock64() around the loop; prints the
// slowest warp's cycles, cycles per instruction per warp and the SM
// sub-partition issue interval (a launch with too many registers for its
// warps says so and is skipped). Build: nvcc -O3 -arch=sm_90a -std=c++17.
#include <cstdio>
#include <cstdint>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
#define ITERS 256

// wmma kernel: A and B fragments filled once from in[], ILP accumulators.
#define WKERNEL(NAME, M, N, K, TA, LA, LB, TC) \
template <int ILP> __global__ void NAME(const unsigned* in, unsigned* out, long long* cyc) { \
  typedef wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> FA; \
  typedef wmma::fragment<wmma::matrix_b, M, N, K, TA, LB> FB; \
  typedef wmma::fragment<wmma::accumulator, M, N, K, TC> FC; \
  FA a; FB b; FC c[ILP]; \
  wmma::fill_fragment(a, (typename std::remove_reference<decltype(a.x[0])>::type)(float)(in[6] & 3)); \
  wmma::fill_fragment(b, (typename std::remove_reference<decltype(b.x[0])>::type)(float)(in[7] & 3)); \
  for (int j = 0; j < ILP; j++) wmma::fill_fragment(c[j], (TC)0); \
  __syncthreads(); long long t0 = clock64(); \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { \
    _Pragma("unroll") for (int j = 0; j < ILP; j++) wmma::mma_sync(c[j], a, b, c[j]); } \
  long long t1 = clock64(); \
  float s = 0; for (int j = 0; j < ILP; j++) for (int r = 0; r < c[j].num_elements; r++) s += (float)c[j].x[r]; \
  out[blockIdx.x*blockDim.x + threadIdx.x] = (unsigned)s; if (threadIdx.x % 32 == 0) cyc[threadIdx.x/32] = t1 - t0; }

WKERNEL(wmma_f16_f32_16x16x16, 16, 16, 16, half, wmma::row_major, wmma::col_major, float)
WKERNEL(wmma_bf16_f32_16x16x16, 16, 16, 16, __nv_bfloat16, wmma::row_major, wmma::col_major, float)
WKERNEL(wmma_f16_f16_32x8x16, 32, 8, 16, half, wmma::row_major, wmma::col_major, half)
WKERNEL(wmma_tf32_f32_16x16x8, 16, 16, 8, wmma::precision::tf32, wmma::col_major, wmma::col_major, float)
WKERNEL(wmma_s8_s32_16x16x16, 16, 16, 16, signed char, wmma::row_major, wmma::col_major, int)
WKERNEL(wmma_u8_s32_32x8x16, 32, 8, 16, unsigned char, wmma::row_major, wmma::col_major, int)
WKERNEL(wmma_f64_8x8x4, 8, 8, 4, double, wmma::row_major, wmma::col_major, double)

// mma.sync kernels (as mb.cu's).
#define F4 "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
#define F8 "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3]), "+f"(d[j][4]), "+f"(d[j][5]), "+f"(d[j][6]), "+f"(d[j][7])
#define R4 "+r"(d[j][0]), "+r"(d[j][1]), "+r"(d[j][2]), "+r"(d[j][3])
#define A4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define A2 "r"(a[0]), "r"(a[1])
#define B2 "r"(b[0]), "r"(b[1])
#define B1 "r"(b[0])
#define KERNEL(NAME, DT, ND, ASM, ...) \
template <int ILP> __global__ void NAME(const unsigned* in, unsigned* out, long long* cyc) { \
  unsigned a[4], b[2]; for (int i = 0; i < 4; i++) a[i] = in[i]; for (int i = 0; i < 2; i++) b[i] = in[4 + i]; \
  DT d[ILP][ND]; for (int j = 0; j < ILP; j++) for (int r = 0; r < ND; r++) d[j][r] = (DT)0; \
  __syncthreads(); long long t0 = clock64(); \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { \
    _Pragma("unroll") for (int j = 0; j < ILP; j++) asm volatile(ASM : __VA_ARGS__); } \
  long long t1 = clock64(); \
  unsigned s = 0; for (int j = 0; j < ILP; j++) for (int r = 0; r < ND; r++) s += (unsigned)d[j][r]; \
  out[blockIdx.x*blockDim.x + threadIdx.x] = s; if (threadIdx.x % 32 == 0) cyc[threadIdx.x/32] = t1 - t0; }

KERNEL(mma_s8_s32_m16n8k16, int, 4, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};", R4 : A2, B1)
KERNEL(mma_tf32_f32_m16n8k4, float, 4, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};", F4 : A2, B1)
KERNEL(mma_f16_f32_m8n8k4, float, 8, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};", F8 : A2, B2)
KERNEL(mma_e4m3_f32_m16n8k32, float, 4, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", F4 : A4, B2)

typedef void (*kfn)(const unsigned*, unsigned*, long long*);
unsigned* din; unsigned* dout; long long* dcyc;
void bench(const char* name, kfn k, int ilp) {
  const int ws[7] = {1, 2, 4, 8, 16, 24, 32};
  for (int wi = 0; wi < 7; wi++) { int w = ws[wi];
    CK(cudaMemset(dcyc, 0, 32*8));
    k<<<1, 32*w>>>(din, dout, dcyc);
    if (cudaError_t e = cudaGetLastError()) { printf("%-24s ilp=%d warps=%2d %s\n", name, ilp, w, cudaGetErrorString(e)); continue; }
    CK(cudaDeviceSynchronize());
    k<<<1, 32*w>>>(din, dout, dcyc); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    long long c[32]; CK(cudaMemcpy(c, dcyc, 32*8, cudaMemcpyDeviceToHost));
    long long mx = 0; for (int i = 0; i < w; i++) if (c[i] > mx) mx = c[i];
    double n = (double)ITERS*ilp; int per = (w + 3) / 4;
    printf("%-24s ilp=%d warps=%2d cycles=%8lld cyc_per_inst_per_warp=%7.2f smsp_issue_interval=%6.2f\n",
           name, ilp, w, mx, mx / n, mx / (n*per));
  }
}
#define B(K) bench(#K, K<1>, 1); bench(#K, K<2>, 2); bench(#K, K<4>, 4); bench(#K, K<8>, 8);
int main() {
  unsigned h[8] = {0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 1u, 1u};
  CK(cudaMalloc(&din, 64)); CK(cudaMalloc(&dout, 4096*4)); CK(cudaMalloc(&dcyc, 32*8));
  CK(cudaMemcpy(din, h, 32, cudaMemcpyHostToDevice));
  B(wmma_f16_f32_16x16x16) B(wmma_bf16_f32_16x16x16) B(wmma_f16_f16_32x8x16) B(wmma_tf32_f32_16x16x8)
  B(wmma_s8_s32_16x16x16) B(wmma_u8_s32_32x8x16) B(wmma_f64_8x8x4)
  B(mma_s8_s32_m16n8k16) B(mma_tf32_f32_m16n8k4) B(mma_f16_f32_m8n8k4) B(mma_e4m3_f32_m16n8k32)
  return 0;
}
