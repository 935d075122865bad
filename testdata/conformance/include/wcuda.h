// wcuda.h: the small CUDA device-side vocabulary the conformance kernels use.
//
// Under nvcc (__NVCC__) the real CUDA headers provide everything and this
// file only adds the helpers below. Under clang with -nocudainc there is no
// CUDA installation, so this file supplies the attributes, the built-in
// variables, and the intrinsics, each mapped onto a clang NVPTX builtin that
// becomes one PTX instruction, or onto the libdevice function (__nv_*) that
// nvcc's headers would call. Math functions stay calls to __nv_*: clang then
// leaves them as .extern functions, which warpsim implements natively.
#ifndef WCUDA_H
#define WCUDA_H

#ifdef __NVCC__
#include <cstdio>
#include <cstdint>
#else  // clang, no CUDA headers

typedef unsigned char uint8_t;
typedef signed char int8_t;
typedef unsigned short uint16_t;
typedef short int16_t;
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };

// Built-in variables: a read of threadIdx.x is a property whose getter reads
// the special register, the way clang's own header does it.
#define WCUDA_SREG(TYPE, NAME, REG)                                              \
  struct TYPE {                                                                  \
    static __device__ __forceinline__ unsigned int get_x() { return __nvvm_read_ptx_sreg_##REG##_x(); } \
    static __device__ __forceinline__ unsigned int get_y() { return __nvvm_read_ptx_sreg_##REG##_y(); } \
    static __device__ __forceinline__ unsigned int get_z() { return __nvvm_read_ptx_sreg_##REG##_z(); } \
    __declspec(property(get = get_x)) unsigned int x;                            \
    __declspec(property(get = get_y)) unsigned int y;                            \
    __declspec(property(get = get_z)) unsigned int z;                            \
  };                                                                             \
  extern const __device__ TYPE NAME;
WCUDA_SREG(wcuda_tid_t, threadIdx, tid)
WCUDA_SREG(wcuda_ctaid_t, blockIdx, ctaid)
WCUDA_SREG(wcuda_ntid_t, blockDim, ntid)
WCUDA_SREG(wcuda_nctaid_t, gridDim, nctaid)
#undef WCUDA_SREG
#define warpSize 32

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, void *);

// Barriers and fences.
#define __syncwarp(...) __nvvm_bar_warp_sync(__VA_ARGS__ + 0 ? (__VA_ARGS__ + 0) : 0xffffffffu)
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
static __device__ __forceinline__ void __threadfence() { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block() { __nvvm_membar_cta(); }

// Integer intrinsics.
static __device__ __forceinline__ int __popc(unsigned int x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __clz(int x) { int r; asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x)); return r; }
static __device__ __forceinline__ int __clzll(long long x) { int r; asm("clz.b64 %0, %1;" : "=r"(r) : "l"(x)); return r; }
static __device__ __forceinline__ unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
static __device__ __forceinline__ int __ffs(int x) { return x == 0 ? 0 : __builtin_popcount(x ^ (x - 1)); }
static __device__ __forceinline__ int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
static __device__ __forceinline__ unsigned int __umulhi(unsigned int a, unsigned int b) { return __nvvm_mulhi_ui(a, b); }
static __device__ __forceinline__ long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
static __device__ __forceinline__ unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return __nvvm_mulhi_ull(a, b); }
static __device__ __forceinline__ int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
static __device__ __forceinline__ unsigned int __umul24(unsigned int a, unsigned int b) { return __nvvm_mul24_ui(a, b); }
static __device__ __forceinline__ unsigned int __sad(int a, int b, unsigned int c) { return __nvvm_sad_i(a, b, c); }
static __device__ __forceinline__ unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) { return __nvvm_sad_ui(a, b, c); }
static __device__ __forceinline__ unsigned int __byte_perm(unsigned int a, unsigned int b, unsigned int s) { return __nvvm_prmt(a, b, s); }
static __device__ __forceinline__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int n) {
  unsigned int r; asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n)); return r; }
static __device__ __forceinline__ unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int n) {
  unsigned int r; asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n)); return r; }
static __device__ __forceinline__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int n) {
  unsigned int r; asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n)); return r; }
static __device__ __forceinline__ unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int n) {
  unsigned int r; asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n)); return r; }
static __device__ __forceinline__ int __dp4a(int a, int b, int c) {
  int r; asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
static __device__ __forceinline__ unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  unsigned int r; asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
static __device__ __forceinline__ int __dp2a_lo(int a, int b, int c) {
  int r; asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
static __device__ __forceinline__ int __dp2a_hi(int a, int b, int c) {
  int r; asm("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static __device__ __forceinline__ long long llmin(long long a, long long b) { return a < b ? a : b; }
static __device__ __forceinline__ long long llmax(long long a, long long b) { return a > b ? a : b; }
static __device__ __forceinline__ int abs(int a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long long llabs(long long a) { return a < 0 ? -a : a; }

// Single-precision intrinsics with an explicit rounding: one PTX instruction each.
#define WCUDA_F_ROUNDED(NAME, BUILTIN)                                                        \
  static __device__ __forceinline__ float NAME##_rn(float a, float b) { return BUILTIN##_rn_f(a, b); } \
  static __device__ __forceinline__ float NAME##_rz(float a, float b) { return BUILTIN##_rz_f(a, b); } \
  static __device__ __forceinline__ float NAME##_ru(float a, float b) { return BUILTIN##_rp_f(a, b); } \
  static __device__ __forceinline__ float NAME##_rd(float a, float b) { return BUILTIN##_rm_f(a, b); }
WCUDA_F_ROUNDED(__fadd, __nvvm_add)
WCUDA_F_ROUNDED(__fmul, __nvvm_mul)
WCUDA_F_ROUNDED(__fdiv, __nvvm_div)
#undef WCUDA_F_ROUNDED
static __device__ __forceinline__ float __fsub_rn(float a, float b) { return __nvvm_add_rn_f(a, -b); }
static __device__ __forceinline__ float __fsub_rz(float a, float b) { return __nvvm_add_rz_f(a, -b); }
static __device__ __forceinline__ float __fsub_ru(float a, float b) { return __nvvm_add_rp_f(a, -b); }
static __device__ __forceinline__ float __fsub_rd(float a, float b) { return __nvvm_add_rm_f(a, -b); }
static __device__ __forceinline__ float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
static __device__ __forceinline__ float __fmaf_rz(float a, float b, float c) { return __nvvm_fma_rz_f(a, b, c); }
static __device__ __forceinline__ float __fmaf_ru(float a, float b, float c) { return __nvvm_fma_rp_f(a, b, c); }
static __device__ __forceinline__ float __fmaf_rd(float a, float b, float c) { return __nvvm_fma_rm_f(a, b, c); }
static __device__ __forceinline__ float __fsqrt_rn(float a) { return __nvvm_sqrt_rn_f(a); }
static __device__ __forceinline__ float __fsqrt_rz(float a) { return __nvvm_sqrt_rz_f(a); }
static __device__ __forceinline__ float __fsqrt_ru(float a) { return __nvvm_sqrt_rp_f(a); }
static __device__ __forceinline__ float __fsqrt_rd(float a) { return __nvvm_sqrt_rm_f(a); }
static __device__ __forceinline__ float __frcp_rn(float a) { return __nvvm_rcp_rn_f(a); }
static __device__ __forceinline__ float __frcp_rz(float a) { return __nvvm_rcp_rz_f(a); }
static __device__ __forceinline__ float __frcp_ru(float a) { return __nvvm_rcp_rp_f(a); }
static __device__ __forceinline__ float __frcp_rd(float a) { return __nvvm_rcp_rm_f(a); }
static __device__ __forceinline__ float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
static __device__ __forceinline__ float __saturatef(float a) { return __nvvm_saturate_f(a); }

// Double-precision intrinsics with an explicit rounding.
#define WCUDA_D_ROUNDED(NAME, BUILTIN)                                                           \
  static __device__ __forceinline__ double NAME##_rn(double a, double b) { return BUILTIN##_rn_d(a, b); } \
  static __device__ __forceinline__ double NAME##_rz(double a, double b) { return BUILTIN##_rz_d(a, b); } \
  static __device__ __forceinline__ double NAME##_ru(double a, double b) { return BUILTIN##_rp_d(a, b); } \
  static __device__ __forceinline__ double NAME##_rd(double a, double b) { return BUILTIN##_rm_d(a, b); }
WCUDA_D_ROUNDED(__dadd, __nvvm_add)
WCUDA_D_ROUNDED(__dmul, __nvvm_mul)
WCUDA_D_ROUNDED(__ddiv, __nvvm_div)
#undef WCUDA_D_ROUNDED
static __device__ __forceinline__ double __dsub_rn(double a, double b) { return __nvvm_add_rn_d(a, -b); }
static __device__ __forceinline__ double __dsub_rz(double a, double b) { return __nvvm_add_rz_d(a, -b); }
static __device__ __forceinline__ double __dsub_ru(double a, double b) { return __nvvm_add_rp_d(a, -b); }
static __device__ __forceinline__ double __dsub_rd(double a, double b) { return __nvvm_add_rm_d(a, -b); }
static __device__ __forceinline__ double __fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
static __device__ __forceinline__ double __fma_rz(double a, double b, double c) { return __nvvm_fma_rz_d(a, b, c); }
static __device__ __forceinline__ double __fma_ru(double a, double b, double c) { return __nvvm_fma_rp_d(a, b, c); }
static __device__ __forceinline__ double __fma_rd(double a, double b, double c) { return __nvvm_fma_rm_d(a, b, c); }
static __device__ __forceinline__ double __dsqrt_rn(double a) { return __nvvm_sqrt_rn_d(a); }
static __device__ __forceinline__ double __dsqrt_rz(double a) { return __nvvm_sqrt_rz_d(a); }
static __device__ __forceinline__ double __dsqrt_ru(double a) { return __nvvm_sqrt_rp_d(a); }
static __device__ __forceinline__ double __dsqrt_rd(double a) { return __nvvm_sqrt_rm_d(a); }
static __device__ __forceinline__ double __drcp_rn(double a) { return __nvvm_rcp_rn_d(a); }
static __device__ __forceinline__ double __drcp_rz(double a) { return __nvvm_rcp_rz_d(a); }
static __device__ __forceinline__ double __drcp_ru(double a) { return __nvvm_rcp_rp_d(a); }
static __device__ __forceinline__ double __drcp_rd(double a) { return __nvvm_rcp_rm_d(a); }

// Conversions with an explicit rounding.
#define WCUDA_CVT4(NAME, BUILTIN, TO, FROM)                                                   \
  static __device__ __forceinline__ TO NAME##_rn(FROM x) { return BUILTIN##_rn(x); }     \
  static __device__ __forceinline__ TO NAME##_rz(FROM x) { return BUILTIN##_rz(x); }     \
  static __device__ __forceinline__ TO NAME##_ru(FROM x) { return BUILTIN##_rp(x); }     \
  static __device__ __forceinline__ TO NAME##_rd(FROM x) { return BUILTIN##_rm(x); }
WCUDA_CVT4(__float2int, __nvvm_f2i, int, float)
WCUDA_CVT4(__float2uint, __nvvm_f2ui, unsigned int, float)
WCUDA_CVT4(__float2ll, __nvvm_f2ll, long long, float)
WCUDA_CVT4(__float2ull, __nvvm_f2ull, unsigned long long, float)
WCUDA_CVT4(__double2int, __nvvm_d2i, int, double)
WCUDA_CVT4(__double2uint, __nvvm_d2ui, unsigned int, double)
WCUDA_CVT4(__double2ll, __nvvm_d2ll, long long, double)
WCUDA_CVT4(__double2ull, __nvvm_d2ull, unsigned long long, double)
WCUDA_CVT4(__double2float, __nvvm_d2f, float, double)
WCUDA_CVT4(__int2float, __nvvm_i2f, float, int)
WCUDA_CVT4(__uint2float, __nvvm_ui2f, float, unsigned int)
WCUDA_CVT4(__ll2float, __nvvm_ll2f, float, long long)
WCUDA_CVT4(__ull2float, __nvvm_ull2f, float, unsigned long long)
WCUDA_CVT4(__ll2double, __nvvm_ll2d, double, long long)
WCUDA_CVT4(__ull2double, __nvvm_ull2d, double, unsigned long long)
#undef WCUDA_CVT4
static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ __forceinline__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }

// Fast approximate functions: the MUFU instructions.
static __device__ __forceinline__ float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
static __device__ __forceinline__ float __exp10f(float x) { return __nvvm_ex2_approx_f(x * 3.3219280948873622f); }
static __device__ __forceinline__ float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
static __device__ __forceinline__ float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
static __device__ __forceinline__ float __log10f(float x) { return __nvvm_lg2_approx_f(x) * 0.30102999566398120f; }
static __device__ __forceinline__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }
static __device__ __forceinline__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }
static __device__ __forceinline__ float __powf(float x, float y) { return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)); }

// Warp-level primitives.
static __device__ __forceinline__ unsigned int __activemask() { unsigned int m; asm volatile("activemask.b32 %0;" : "=r"(m)); return m; }
static __device__ __forceinline__ unsigned int __ballot_sync(unsigned int mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
static __device__ __forceinline__ int __any_sync(unsigned int mask, int p) { return __nvvm_vote_any_sync(mask, p); }
static __device__ __forceinline__ int __all_sync(unsigned int mask, int p) { return __nvvm_vote_all_sync(mask, p); }
static __device__ __forceinline__ int __uni_sync(unsigned int mask, int p) { return __nvvm_vote_uni_sync(mask, p); }
static __device__ __forceinline__ int __shfl_sync(unsigned int mask, int v, int lane, int width = 32) {
  return __nvvm_shfl_sync_idx_i32(mask, v, lane, ((32 - width) << 8) | 0x1f); }
static __device__ __forceinline__ int __shfl_up_sync(unsigned int mask, int v, unsigned int d, int width = 32) {
  return __nvvm_shfl_sync_up_i32(mask, v, d, (32 - width) << 8); }
static __device__ __forceinline__ int __shfl_down_sync(unsigned int mask, int v, unsigned int d, int width = 32) {
  return __nvvm_shfl_sync_down_i32(mask, v, d, ((32 - width) << 8) | 0x1f); }
static __device__ __forceinline__ int __shfl_xor_sync(unsigned int mask, int v, int m, int width = 32) {
  return __nvvm_shfl_sync_bfly_i32(mask, v, m, ((32 - width) << 8) | 0x1f); }
static __device__ __forceinline__ float __shfl_sync(unsigned int mask, float v, int lane, int width = 32) {
  return __nvvm_shfl_sync_idx_f32(mask, v, lane, ((32 - width) << 8) | 0x1f); }
static __device__ __forceinline__ float __shfl_xor_sync(unsigned int mask, float v, int m, int width = 32) {
  return __nvvm_shfl_sync_bfly_f32(mask, v, m, ((32 - width) << 8) | 0x1f); }
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int mask, unsigned int v) { return __nvvm_match_any_sync_i32(mask, v); }
static __device__ __forceinline__ unsigned int __match_any_sync(unsigned int mask, unsigned long long v) { return __nvvm_match_any_sync_i64(mask, v); }
static __device__ __forceinline__ unsigned int __match_all_sync(unsigned int mask, unsigned int v, int *pred) { return __nvvm_match_all_sync_i32p(mask, v, pred); }
static __device__ __forceinline__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_add(v, mask); }
static __device__ __forceinline__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_umin(v, mask); }
static __device__ __forceinline__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_umax(v, mask); }
static __device__ __forceinline__ int __reduce_min_sync(unsigned int mask, int v) { return __nvvm_redux_sync_min(v, mask); }
static __device__ __forceinline__ int __reduce_max_sync(unsigned int mask, int v) { return __nvvm_redux_sync_max(v, mask); }
static __device__ __forceinline__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_and(v, mask); }
static __device__ __forceinline__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_or(v, mask); }
static __device__ __forceinline__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int v) { return __nvvm_redux_sync_xor(v, mask); }

// Atomics: generic-address PTX atom instructions.
static __device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ __forceinline__ unsigned int atomicAdd(unsigned int *p, unsigned int v) { return __nvvm_atom_add_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ __forceinline__ double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
static __device__ __forceinline__ int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
static __device__ __forceinline__ int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
static __device__ __forceinline__ unsigned long long atomicExch(unsigned long long *p, unsigned long long v) { return __nvvm_atom_xchg_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ float atomicExch(float *p, float v) { return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int *)p, __builtin_bit_cast(int, v))); }
static __device__ __forceinline__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ __forceinline__ unsigned int atomicMin(unsigned int *p, unsigned int v) { return __nvvm_atom_min_gen_ui(p, v); }
static __device__ __forceinline__ long long atomicMin(long long *p, long long v) { return __nvvm_atom_min_gen_ll(p, v); }
static __device__ __forceinline__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ __forceinline__ unsigned int atomicMax(unsigned int *p, unsigned int v) { return __nvvm_atom_max_gen_ui(p, v); }
static __device__ __forceinline__ long long atomicMax(long long *p, long long v) { return __nvvm_atom_max_gen_ll(p, v); }
static __device__ __forceinline__ unsigned long long atomicMax(unsigned long long *p, unsigned long long v) { return __nvvm_atom_max_gen_ull(p, v); }
static __device__ __forceinline__ unsigned int atomicInc(unsigned int *p, unsigned int v) { return __nvvm_atom_inc_gen_ui(p, v); }
static __device__ __forceinline__ unsigned int atomicDec(unsigned int *p, unsigned int v) { return __nvvm_atom_dec_gen_ui(p, v); }
static __device__ __forceinline__ int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
static __device__ __forceinline__ int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
static __device__ __forceinline__ int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
static __device__ __forceinline__ unsigned long long atomicAnd(unsigned long long *p, unsigned long long v) { return __nvvm_atom_and_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ unsigned long long atomicOr(unsigned long long *p, unsigned long long v) { return __nvvm_atom_or_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ unsigned long long atomicXor(unsigned long long *p, unsigned long long v) { return __nvvm_atom_xor_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v) { return (unsigned int)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v); }
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp, unsigned long long v) { return __nvvm_atom_cas_gen_ll((long long *)p, (long long)cmp, (long long)v); }

// Math library: the libdevice entry points, which clang leaves as .extern calls.
#define WCUDA_F1(N) extern "C" __device__ float __nv_##N(float); static __device__ __forceinline__ float N(float x) { return __nv_##N(x); }
#define WCUDA_F2(N) extern "C" __device__ float __nv_##N(float, float); static __device__ __forceinline__ float N(float x, float y) { return __nv_##N(x, y); }
#define WCUDA_D1(N) extern "C" __device__ double __nv_##N(double); static __device__ __forceinline__ double N(double x) { return __nv_##N(x); }
#define WCUDA_D2(N) extern "C" __device__ double __nv_##N(double, double); static __device__ __forceinline__ double N(double x, double y) { return __nv_##N(x, y); }
WCUDA_F1(sinf) WCUDA_F1(cosf) WCUDA_F1(tanf) WCUDA_F1(expf) WCUDA_F1(exp2f) WCUDA_F1(exp10f) WCUDA_F1(expm1f)
WCUDA_F1(logf) WCUDA_F1(log2f) WCUDA_F1(log10f) WCUDA_F1(log1pf) WCUDA_F1(sqrtf) WCUDA_F1(rsqrtf) WCUDA_F1(cbrtf)
WCUDA_F1(erff) WCUDA_F1(erfcf) WCUDA_F1(tanhf) WCUDA_F1(sinhf) WCUDA_F1(coshf) WCUDA_F1(asinf) WCUDA_F1(acosf)
WCUDA_F1(atanf) WCUDA_F1(lgammaf) WCUDA_F1(tgammaf) WCUDA_F1(floorf) WCUDA_F1(ceilf) WCUDA_F1(truncf) WCUDA_F1(roundf)
WCUDA_F1(rintf) WCUDA_F1(fabsf)
WCUDA_F2(powf) WCUDA_F2(atan2f) WCUDA_F2(hypotf) WCUDA_F2(fmodf) WCUDA_F2(remainderf) WCUDA_F2(fminf) WCUDA_F2(fmaxf)
WCUDA_F2(copysignf) WCUDA_F2(fdimf)
WCUDA_D1(sin) WCUDA_D1(cos) WCUDA_D1(tan) WCUDA_D1(exp) WCUDA_D1(exp2) WCUDA_D1(exp10) WCUDA_D1(expm1) WCUDA_D1(log)
WCUDA_D1(log2) WCUDA_D1(log10) WCUDA_D1(log1p) WCUDA_D1(sqrt) WCUDA_D1(rsqrt) WCUDA_D1(cbrt) WCUDA_D1(erf) WCUDA_D1(erfc)
WCUDA_D1(tanh) WCUDA_D1(sinh) WCUDA_D1(cosh) WCUDA_D1(asin) WCUDA_D1(acos) WCUDA_D1(atan) WCUDA_D1(lgamma)
WCUDA_D1(tgamma) WCUDA_D1(floor) WCUDA_D1(ceil) WCUDA_D1(trunc) WCUDA_D1(round) WCUDA_D1(rint) WCUDA_D1(fabs)
WCUDA_D2(pow) WCUDA_D2(atan2) WCUDA_D2(hypot) WCUDA_D2(fmod) WCUDA_D2(remainder) WCUDA_D2(fmin) WCUDA_D2(fmax)
WCUDA_D2(copysign) WCUDA_D2(fdim)
#undef WCUDA_F1
#undef WCUDA_F2
#undef WCUDA_D1
#undef WCUDA_D2
extern "C" __device__ float __nv_fmaf(float, float, float);
extern "C" __device__ double __nv_fma(double, double, double);
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return __nv_fmaf(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return __nv_fma(a, b, c); }
extern "C" __device__ float __nv_rsqrtf(float);

#endif  // __NVCC__

// Helpers shared by both compilers.
#define WCUDA_TID_X (blockIdx.x * blockDim.x + threadIdx.x)

// A kernel that tests many operations per element writes row r of its output
// buffer at buf[r*n + i]. ROW names the row; testdata/conformance/gen.py reads
// the names in source order, so failures are reported by operation.
#define ROWS_BEGIN int wcuda_row = 0
#define ROW(buf, name, e) (buf)[(wcuda_row++) * n + i] = (e)

// One-instruction inline-asm wrappers, for instructions that no intrinsic
// reaches in both compilers (ftz variants, every prmt mode, lop3, f16 ...).
#define DEF_ASM1(fn, T, C, op) \
  static __device__ __forceinline__ T fn(T a) { T r; asm(op " %0, %1;" : "=" C(r) : C(a)); return r; }
#define DEF_ASM2(fn, T, C, op) \
  static __device__ __forceinline__ T fn(T a, T b) { T r; asm(op " %0, %1, %2;" : "=" C(r) : C(a), C(b)); return r; }
#define DEF_ASM3(fn, T, C, op) \
  static __device__ __forceinline__ T fn(T a, T b, T c) { T r; asm(op " %0, %1, %2, %3;" : "=" C(r) : C(a), C(b), C(c)); return r; }
#define DEF_CVT(fn, TD, CD, TS, CS, op) \
  static __device__ __forceinline__ TD fn(TS a) { TD r; asm(op " %0, %1;" : "=" CD(r) : CS(a)); return r; }

#endif  // WCUDA_H
