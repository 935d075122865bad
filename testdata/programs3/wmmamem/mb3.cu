// wmma.load / wmma.store microbenchmarks: every fragment type sm_90 has
// (f16, bf16, tf32, s8, u8, f64 operands; f16, f32, s32, f64 accumulators),
// row- and column-major, from global memory (its 32 KB tile in L1 after
// the first pass) and from shared memory, with the stride a kernel
// parameter (ptxas does not know it) or the constant 64 (it does).
// Each kernel is one fragment kind; per warp, ITERS iterations of:
//   D (dependent): one wmma.load whose address adds (xor of the last
//     fragment's registers) & zero (zero = 0 at run time), then that xor:
//     the load's latency plus the xor's chain;
//   I (independent): ILP = 4 wmma.loads of four fragments side by side,
//     the tile's half alternating every iteration, then the xor of all
//     their registers: the loads' issue and throughput.
// Stores (accumulators): ILP 1 and 4 wmma.stores of filled fragments.
// One block of W warps (1 or 16) on one SM, clock64() around the loop;
// prints the slowest warp's cycles and the cycles per wmma instruction per
// warp. cuobjdump -sass of the binary gives each kind's expansion.
// Build: nvcc -O3 -arch=sm_90a -std=c++17 -DPART=n (n = 0..3, a quarter of
// the kernels each; see record.sh).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
#define ITERS 64
#define TILE 64 // the tile is TILE x TILE elements; ldm is TILE

template <class F> __device__ __forceinline__ unsigned xorRegs(const F& f) {
  const unsigned* w = reinterpret_cast<const unsigned*>(&f.x[0]);
  unsigned s = 0;
#pragma unroll
  for (int r = 0; r < (int)(sizeof(f.x) / 4); r++) s ^= w[r];
  return s;
}

// LAY: 0 a/b fragment (layout in its type), 1 accumulator row-major, 2
// accumulator column-major.
template <int LAY, class F, class ET> __device__ __forceinline__ void ld(F& f, const ET* p, unsigned ldm) {
  if constexpr (LAY == 0) wmma::load_matrix_sync(f, p, ldm);
  else wmma::load_matrix_sync(f, p, ldm, LAY == 1 ? wmma::mem_row_major : wmma::mem_col_major);
}

// SH: 1 shared memory (the tile copied there first), 0 global. CLDM: the
// stride ptxas sees (0: the parameter).
#define LDKERNEL(NAME, USE, M, N, K, TA, LAYT, ET, LAY) \
template <int SH, int CLDM, int DEP> __global__ void NAME(const ET* g, unsigned* out, long long* cyc, unsigned ldmp, unsigned zero) { \
  typedef wmma::fragment<USE, M, N, K, TA, LAYT> F; \
  __shared__ __align__(128) ET s[SH ? TILE * TILE : 1]; \
  const ET* t = g; \
  if (SH) { for (int i = threadIdx.x; i < TILE * TILE; i += blockDim.x) s[i] = g[i]; t = s; } \
  const unsigned ldm = CLDM ? CLDM : ldmp; \
  __syncthreads(); \
  unsigned acc = 0; long long t0 = clock64(); \
  if (DEP) { \
    F f; \
    _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { ld<LAY>(f, t + (acc & zero), ldm); acc ^= xorRegs(f); } \
  } else { \
    F f[4]; \
    _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { \
      const ET* p = t + (i & 1) * 16 * ldm; \
      _Pragma("unroll") for (int j = 0; j < 4; j++) ld<LAY>(f[j], p + 16 * j, ldm); \
      _Pragma("unroll") for (int j = 0; j < 4; j++) acc ^= xorRegs(f[j]); } \
  } \
  long long t1 = clock64(); \
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc; if (threadIdx.x % 32 == 0) cyc[threadIdx.x / 32] = t1 - t0; }

#define STKERNEL(NAME, M, N, K, ET, LAY) \
template <int SH, int CLDM, int DEP> __global__ void NAME(const ET* g, unsigned* out, long long* cyc, unsigned ldmp, unsigned zero) { \
  typedef wmma::fragment<wmma::accumulator, M, N, K, ET> F; \
  __shared__ __align__(128) ET s[SH ? TILE * TILE : 1]; \
  ET* t = SH ? s : (ET*)out; \
  const unsigned ldm = CLDM ? CLDM : ldmp; \
  const wmma::layout_t L = LAY == 1 ? wmma::mem_row_major : wmma::mem_col_major; \
  F f[4]; for (int j = 0; j < 4; j++) wmma::fill_fragment(f[j], g[j + (threadIdx.x & zero)]); \
  __syncthreads(); long long t0 = clock64(); \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { \
    ET* p = t + (i & 1) * 16 * ldm; \
    if (DEP) wmma::store_matrix_sync(p, f[0], ldm, L); \
    else { _Pragma("unroll") for (int j = 0; j < 4; j++) wmma::store_matrix_sync(p + 16 * j, f[j], ldm, L); } } \
  long long t1 = clock64(); \
  if (SH) { __syncthreads(); for (int i = threadIdx.x; i < TILE * TILE; i += blockDim.x) ((ET*)out)[TILE * TILE + i] = s[i]; } \
  if (threadIdx.x % 32 == 0) cyc[threadIdx.x / 32] = t1 - t0; }

typedef wmma::row_major R;
typedef wmma::col_major C;
typedef void NoLay;
// Loads: operands (LAY 0) and accumulators (LAY 1 row, 2 col).
LDKERNEL(ld_f16_a_row, wmma::matrix_a, 16, 16, 16, half, R, half, 0)
LDKERNEL(ld_f16_a_col, wmma::matrix_a, 16, 16, 16, half, C, half, 0)
LDKERNEL(ld_f16_b_row, wmma::matrix_b, 16, 16, 16, half, R, half, 0)
LDKERNEL(ld_f16_b_col, wmma::matrix_b, 16, 16, 16, half, C, half, 0)
LDKERNEL(ld_f16_a_row_m32n8k16, wmma::matrix_a, 32, 8, 16, half, R, half, 0)
LDKERNEL(ld_f16_b_col_m8n32k16, wmma::matrix_b, 8, 32, 16, half, C, half, 0)
LDKERNEL(ld_bf16_a_row, wmma::matrix_a, 16, 16, 16, __nv_bfloat16, R, __nv_bfloat16, 0)
LDKERNEL(ld_bf16_b_col, wmma::matrix_b, 16, 16, 16, __nv_bfloat16, C, __nv_bfloat16, 0)
LDKERNEL(ld_tf32_a_row, wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, R, float, 0)
LDKERNEL(ld_tf32_a_col, wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, C, float, 0)
LDKERNEL(ld_tf32_b_row, wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, R, float, 0)
LDKERNEL(ld_tf32_b_col, wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, C, float, 0)
LDKERNEL(ld_s8_a_row, wmma::matrix_a, 16, 16, 16, signed char, R, signed char, 0)
LDKERNEL(ld_s8_b_col, wmma::matrix_b, 16, 16, 16, signed char, C, signed char, 0)
LDKERNEL(ld_u8_a_row, wmma::matrix_a, 16, 16, 16, unsigned char, R, unsigned char, 0)
LDKERNEL(ld_f64_a_row, wmma::matrix_a, 8, 8, 4, double, R, double, 0)
LDKERNEL(ld_f64_b_col, wmma::matrix_b, 8, 8, 4, double, C, double, 0)
LDKERNEL(ld_f16_c_row, wmma::accumulator, 16, 16, 16, half, NoLay, half, 1)
LDKERNEL(ld_f32_c_row, wmma::accumulator, 16, 16, 16, float, NoLay, float, 1)
LDKERNEL(ld_f32_c_col, wmma::accumulator, 16, 16, 16, float, NoLay, float, 2)
LDKERNEL(ld_s32_c_row, wmma::accumulator, 16, 16, 16, int, NoLay, int, 1)
LDKERNEL(ld_f64_c_row, wmma::accumulator, 8, 8, 4, double, NoLay, double, 1)
// Stores (accumulators).
STKERNEL(st_f16_c_row, 16, 16, 16, half, 1)
STKERNEL(st_f16_c_col, 16, 16, 16, half, 2)
STKERNEL(st_f32_c_row, 16, 16, 16, float, 1)
STKERNEL(st_f32_c_col, 16, 16, 16, float, 2)
STKERNEL(st_s32_c_row, 16, 16, 16, int, 1)
STKERNEL(st_f64_c_row, 8, 8, 4, double, 1)

unsigned* dout; long long* dcyc; unsigned char* din;
template <class ET> void bench(const char* name, const char* var, int dep, int st,
                              void (*k)(const ET*, unsigned*, long long*, unsigned, unsigned)) {
  const int ws[2] = {1, 16};
  for (int wi = 0; wi < 2; wi++) { int w = ws[wi];
    CK(cudaMemset(dcyc, 0, 32 * 8));
    k<<<1, 32 * w>>>((const ET*)din, dout, dcyc, TILE, 0);
    if (cudaError_t e = cudaGetLastError()) { printf("%-24s %-2s %s warps=%2d %s\n", name, var, dep ? "D" : "I", w, cudaGetErrorString(e)); continue; }
    CK(cudaDeviceSynchronize());
    k<<<1, 32 * w>>>((const ET*)din, dout, dcyc, TILE, 0); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    long long c[32]; CK(cudaMemcpy(c, dcyc, 32 * 8, cudaMemcpyDeviceToHost));
    long long mx = 0; for (int i = 0; i < w; i++) if (c[i] > mx) mx = c[i];
    double n = (double)ITERS * (dep ? 1 : 4);
    printf("%-24s %-2s %s warps=%2d cycles=%8lld cyc_per_op_per_warp=%7.2f\n", name, var, dep ? "D" : "I", w, mx, mx / n);
  }
}
// Each kind: global (G) and shared (S), the stride a parameter or 64 (GC,
// SC); dependent (loads) or one store (D) and four independent (I).
#define KIND(K, ET) \
  bench<ET>(#K, "G", 1, 0, K<0, 0, 1>); bench<ET>(#K, "G", 0, 0, K<0, 0, 0>); \
  bench<ET>(#K, "GC", 1, 0, K<0, TILE, 1>); bench<ET>(#K, "GC", 0, 0, K<0, TILE, 0>); \
  bench<ET>(#K, "S", 1, 0, K<1, 0, 1>); bench<ET>(#K, "S", 0, 0, K<1, 0, 0>); \
  bench<ET>(#K, "SC", 1, 0, K<1, TILE, 1>); bench<ET>(#K, "SC", 0, 0, K<1, TILE, 0>);
int main() {
  CK(cudaMalloc(&din, TILE * TILE * 8)); CK(cudaMalloc(&dout, 3 * TILE * TILE * 8)); CK(cudaMalloc(&dcyc, 32 * 8));
  unsigned char h[TILE * TILE * 8];
  for (int i = 0; i < TILE * TILE * 8; i++) h[i] = (unsigned char)(i * 37 + 11);
  // Small finite values for every type: bytes of 0x3c/0x3f patterns would
  // do too, but the loads never interpret them (the xor reads bits).
  CK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
#if PART == 0
  KIND(ld_f16_a_row, half) KIND(ld_f16_a_col, half) KIND(ld_f16_b_row, half) KIND(ld_f16_b_col, half)
  KIND(ld_f16_a_row_m32n8k16, half) KIND(ld_f16_b_col_m8n32k16, half)
#elif PART == 1
  KIND(ld_bf16_a_row, __nv_bfloat16) KIND(ld_bf16_b_col, __nv_bfloat16)
  KIND(ld_tf32_a_row, float) KIND(ld_tf32_a_col, float) KIND(ld_tf32_b_row, float) KIND(ld_tf32_b_col, float)
#elif PART == 2
  KIND(ld_s8_a_row, signed char) KIND(ld_s8_b_col, signed char) KIND(ld_u8_a_row, unsigned char)
  KIND(ld_f64_a_row, double) KIND(ld_f64_b_col, double)
  KIND(ld_f16_c_row, half) KIND(ld_f32_c_row, float)
#else
  KIND(ld_f32_c_col, float) KIND(ld_s32_c_row, int) KIND(ld_f64_c_row, double)
  KIND(st_f16_c_row, half) KIND(st_f16_c_col, half) KIND(st_f32_c_row, float) KIND(st_f32_c_col, float)
  KIND(st_s32_c_row, int) KIND(st_f64_c_row, double)
#endif
  return 0;
}
