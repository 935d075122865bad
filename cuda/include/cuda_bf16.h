/* warpsim: bfloat16 (__nv_bfloat16, __nv_bfloat162) for host and device,
 * stored as CUDA stores them; arithmetic is clang's __bf16, which device
 * code compiles to PTX's bf16 instructions and host code rounds correctly. */
#ifndef __WARPSIM_CUDA_BF16_H__
#define __WARPSIM_CUDA_BF16_H__
/* NVIDIA's include-guard name, which programs test. */
#define __CUDA_BF16_H__
#include "__warpsim_defines.h"
#include "vector_types.h"

typedef __bf16 __warpsim_bf16;

/* float to bf16 bits, rounded to nearest even. Device code converts with
 * cvt.rn.bf16.f32; host code rounds here, as CUDA's host conversion does
 * (NaN becomes 0x7fff), since clang's host __bf16 conversion needs
 * __truncsfbf2, which the host C library does not have. */
__WARPSIM_HDI__ unsigned short __warpsim_f2bf(float f) {
#ifdef __CUDA_ARCH__
  return __builtin_bit_cast(unsigned short, (__warpsim_bf16)f);
#else
  unsigned u = __builtin_bit_cast(unsigned, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
}

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
#ifdef __cplusplus
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__warpsim_f2bf(f)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__warpsim_f2bf((float)f)) {}
  __host__ __device__ __nv_bfloat16(short i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned short i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(long i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned long i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(long long i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned long long i) : __x(__warpsim_f2bf((float)i)) {}
  __host__ __device__ operator float() const { return __builtin_bit_cast(float, (unsigned)__x << 16); }
  __host__ __device__ operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
#endif
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
#ifdef __cplusplus
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(__nv_bfloat162_raw r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __host__ __device__ operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
#endif
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

__WARPSIM_HDI__ __warpsim_bf16 __warpsim_b(__nv_bfloat16 h) { return __builtin_bit_cast(__warpsim_bf16, h.__x); }
__WARPSIM_HDI__ __nv_bfloat16 __warpsim_mkb(__warpsim_bf16 f) {
  return __nv_bfloat16(__nv_bfloat16_raw{__builtin_bit_cast(unsigned short, f)});
}

__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(__nv_bfloat16_raw{__warpsim_f2bf(f)}); }
__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
__WARPSIM_HDI__ float __bfloat162float(__nv_bfloat16 h) { return __builtin_bit_cast(float, (unsigned)h.__x << 16); }
/* A bf16 operation: the __bf16 instruction in device code; in host code
 * the operation in float, rounded once (as CUDA's host code computes it). */
#ifdef __CUDA_ARCH__
#define __WARPSIM_BF_BIN(a, op, b) __warpsim_mkb(__warpsim_b(a) op __warpsim_b(b))
#define __WARPSIM_BF_FMA(a, b, c) __warpsim_mkb(__builtin_elementwise_fma(__warpsim_b(a), __warpsim_b(b), __warpsim_b(c)))
#else
#define __WARPSIM_BF_BIN(a, op, b) __float2bfloat16(__bfloat162float(a) op __bfloat162float(b))
#define __WARPSIM_BF_FMA(a, b, c) __float2bfloat16(__builtin_fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)))
#endif
__WARPSIM_HDI__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
__WARPSIM_HDI__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) { return __nv_bfloat16(__nv_bfloat16_raw{s}); }
__WARPSIM_HDI__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
__WARPSIM_HDI__ float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
__WARPSIM_HDI__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, +, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, -, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, *, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __WARPSIM_BF_BIN(a, /, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __WARPSIM_BF_FMA(a, b, c);
}
__WARPSIM_HDI__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __ushort_as_bfloat16((unsigned short)(a.__x ^ 0x8000)); }

#ifdef __cplusplus
__WARPSIM_HDI__ __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__WARPSIM_HDI__ bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
__WARPSIM_HDI__ bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
__WARPSIM_HDI__ bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
#endif

/* More of cuda_bf16.h: rounding-mode conversions (exact in software: a
 * bf16 is a float's top half), pairs, comparisons, integer conversions and
 * the math functions (single precision's approximate instructions with
 * .ftz, sin and cos accurate, rounded to bf16, in device code; the C
 * library on the host). */
__WARPSIM_HDI__ unsigned short __warpsim_f2bf_mode(float f, int mode) {
  /* mode: 1 rz, 2 rd, 3 ru */
  unsigned u = __builtin_bit_cast(unsigned, f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  unsigned short t = (unsigned short)(u >> 16);
  if ((u & 0xffffu) == 0 || mode == 1) return t;
  int neg = (u >> 31) != 0;
  if ((mode == 3 && !neg) || (mode == 2 && neg)) t++;
  return t;
}
__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16_rz(float f) { return __ushort_as_bfloat16(__warpsim_f2bf_mode(f, 1)); }
__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16_rd(float f) { return __ushort_as_bfloat16(__warpsim_f2bf_mode(f, 2)); }
__WARPSIM_HDI__ __nv_bfloat16 __float2bfloat16_ru(float f) { return __ushort_as_bfloat16(__warpsim_f2bf_mode(f, 3)); }
__WARPSIM_HDI__ __nv_bfloat16 __double2bfloat16(double d) { return __float2bfloat16((float)d); }
__WARPSIM_HDI__ __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f)); }
__WARPSIM_HDI__ __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
__WARPSIM_HDI__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__WARPSIM_HDI__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
__WARPSIM_HDI__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
__WARPSIM_HDI__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__WARPSIM_HDI__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
__WARPSIM_HDI__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
__WARPSIM_HDI__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
__WARPSIM_HDI__ __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
__WARPSIM_HDI__ float __low2float(__nv_bfloat162 a) { return __bfloat162float(a.x); }
__WARPSIM_HDI__ float __high2float(__nv_bfloat162 a) { return __bfloat162float(a.y); }
__WARPSIM_HDI__ short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
__WARPSIM_HDI__ __nv_bfloat16 __short_as_bfloat16(short s) { return __ushort_as_bfloat16((unsigned short)s); }

__WARPSIM_HDI__ long long __warpsim_bf2i(float f, int mode, long long lo, long long hi) {
  if (f != f) return 0;
  float r = mode == 0 ? __builtin_rintf(f) : mode == 2 ? __builtin_floorf(f) : mode == 3 ? __builtin_ceilf(f) : __builtin_truncf(f);
  if (r <= (float)lo) return lo;
  if (r >= (float)hi) return hi;
  return (long long)r;
}
#define __WARPSIM_BF2I(T, NAME, LO, HI)                                                                           \
  __WARPSIM_HDI__ T __bfloat162##NAME##_rn(__nv_bfloat16 h) { return (T)__warpsim_bf2i(__bfloat162float(h), 0, LO, HI); } \
  __WARPSIM_HDI__ T __bfloat162##NAME##_rz(__nv_bfloat16 h) { return (T)__warpsim_bf2i(__bfloat162float(h), 1, LO, HI); } \
  __WARPSIM_HDI__ T __bfloat162##NAME##_rd(__nv_bfloat16 h) { return (T)__warpsim_bf2i(__bfloat162float(h), 2, LO, HI); } \
  __WARPSIM_HDI__ T __bfloat162##NAME##_ru(__nv_bfloat16 h) { return (T)__warpsim_bf2i(__bfloat162float(h), 3, LO, HI); }
__WARPSIM_BF2I(int, int, -2147483648LL, 2147483647LL)
__WARPSIM_BF2I(unsigned, uint, 0, 4294967295LL)
__WARPSIM_BF2I(short, short, -32768, 32767)
__WARPSIM_BF2I(unsigned short, ushort, 0, 65535)
__WARPSIM_BF2I(long long, ll, -9223372036854775807LL - 1, 9223372036854775807LL)
#undef __WARPSIM_BF2I
__WARPSIM_HDI__ __nv_bfloat16 __int2bfloat16_rn(int i) { return __float2bfloat16((float)i); }
__WARPSIM_HDI__ __nv_bfloat16 __uint2bfloat16_rn(unsigned i) { return __float2bfloat16((float)i); }
__WARPSIM_HDI__ __nv_bfloat16 __short2bfloat16_rn(short i) { return __float2bfloat16((float)i); }
__WARPSIM_HDI__ __nv_bfloat16 __ushort2bfloat16_rn(unsigned short i) { return __float2bfloat16((float)i); }

__WARPSIM_HDI__ bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fff) > 0x7f80; }
__WARPSIM_HDI__ int __hisinf(__nv_bfloat16 a) { return (a.__x & 0x7fff) == 0x7f80 ? ((a.__x & 0x8000) ? -1 : 1) : 0; }
__WARPSIM_HDI__ __nv_bfloat16 __habs(__nv_bfloat16 a) { return __ushort_as_bfloat16((unsigned short)(a.__x & 0x7fff)); }
__WARPSIM_HDI__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  if (__hisnan(a)) return __hisnan(b) ? __ushort_as_bfloat16(0x7fff) : b;
  if (__hisnan(b)) return a;
  float x = __bfloat162float(a), y = __bfloat162float(b);
  if (x == y) return (a.__x & 0x8000) ? b : a; /* max(-0, +0) = +0 */
  return x > y ? a : b;
}
__WARPSIM_HDI__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  if (__hisnan(a)) return __hisnan(b) ? __ushort_as_bfloat16(0x7fff) : b;
  if (__hisnan(b)) return a;
  float x = __bfloat162float(a), y = __bfloat162float(b);
  if (x == y) return (a.__x & 0x8000) ? a : b;
  return x < y ? a : b;
}
__WARPSIM_HDI__ __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_bfloat16(0x7fff) : __hmax(a, b);
}
__WARPSIM_HDI__ __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_bfloat16(0x7fff) : __hmin(a, b);
}
__WARPSIM_HDI__ __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  __nv_bfloat16 r = __hfma(a, b, c);
  if (__hisnan(r)) return __ushort_as_bfloat16(0x7fff);
  return (r.__x & 0x8000) ? __ushort_as_bfloat16(0) : r;
}

/* Pairs, element by element. */
#define __WARPSIM_BF2_BIN(NAME, ONE) \
  __WARPSIM_HDI__ __nv_bfloat162 NAME(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(ONE(a.x, b.x), ONE(a.y, b.y)); }
__WARPSIM_BF2_BIN(__hadd2, __hadd)
__WARPSIM_BF2_BIN(__hsub2, __hsub)
__WARPSIM_BF2_BIN(__hmul2, __hmul)
__WARPSIM_BF2_BIN(__hadd2_rn, __hadd)
__WARPSIM_BF2_BIN(__hsub2_rn, __hsub)
__WARPSIM_BF2_BIN(__hmul2_rn, __hmul)
__WARPSIM_BF2_BIN(__h2div, __hdiv)
__WARPSIM_BF2_BIN(__hmax2, __hmax)
__WARPSIM_BF2_BIN(__hmin2, __hmin)
__WARPSIM_BF2_BIN(__hmax2_nan, __hmax_nan)
__WARPSIM_BF2_BIN(__hmin2_nan, __hmin_nan)
#undef __WARPSIM_BF2_BIN
__WARPSIM_HDI__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__WARPSIM_HDI__ __nv_bfloat162 __hfma2_relu(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
__WARPSIM_HDI__ __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(__hneg(a.x), __hneg(a.y)); }
__WARPSIM_HDI__ __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__habs(a.x), __habs(a.y)); }

/* Comparisons (the "u" forms true where either is NaN). */
#define __WARPSIM_BFCMP(OP, EXPR)                                                                              \
  __WARPSIM_HDI__ bool __warpsim_bc_##OP(__nv_bfloat16 a, __nv_bfloat16 b) {                                   \
    float x = __bfloat162float(a), y = __bfloat162float(b);                                                    \
    return EXPR;                                                                                               \
  }                                                                                                            \
  __WARPSIM_HDI__ bool __h##OP(__nv_bfloat16 a, __nv_bfloat16 b) { return __warpsim_bc_##OP(a, b); }          \
  __WARPSIM_HDI__ __nv_bfloat162 __h##OP##2(__nv_bfloat162 a, __nv_bfloat162 b) {                              \
    return __nv_bfloat162(__ushort_as_bfloat16(__warpsim_bc_##OP(a.x, b.x) ? 0x3f80 : 0),                      \
                          __ushort_as_bfloat16(__warpsim_bc_##OP(a.y, b.y) ? 0x3f80 : 0));                     \
  }                                                                                                            \
  __WARPSIM_HDI__ bool __hb##OP##2(__nv_bfloat162 a, __nv_bfloat162 b) {                                       \
    return __warpsim_bc_##OP(a.x, b.x) && __warpsim_bc_##OP(a.y, b.y);                                         \
  }                                                                                                            \
  __WARPSIM_HDI__ unsigned __h##OP##2_mask(__nv_bfloat162 a, __nv_bfloat162 b) {                               \
    return (__warpsim_bc_##OP(a.x, b.x) ? 0xffffu : 0u) | (__warpsim_bc_##OP(a.y, b.y) ? 0xffff0000u : 0u);    \
  }
__WARPSIM_BFCMP(eq, x == y)
__WARPSIM_BFCMP(ne, x < y || x > y)
__WARPSIM_BFCMP(lt, x < y)
__WARPSIM_BFCMP(le, x <= y)
__WARPSIM_BFCMP(gt, x > y)
__WARPSIM_BFCMP(ge, x >= y)
__WARPSIM_BFCMP(equ, !(x < y || x > y))
__WARPSIM_BFCMP(neu, !(x == y))
__WARPSIM_BFCMP(ltu, !(x >= y))
__WARPSIM_BFCMP(leu, !(x > y))
__WARPSIM_BFCMP(gtu, !(x <= y))
__WARPSIM_BFCMP(geu, !(x < y))
#undef __WARPSIM_BFCMP
#ifdef __cplusplus
__WARPSIM_HDI__ bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a == b); }
__WARPSIM_HDI__ bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) <= __bfloat162float(b); }
__WARPSIM_HDI__ bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) >= __bfloat162float(b); }
__WARPSIM_HDI__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hadd(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hsub(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hmul(a, b); }
__WARPSIM_HDI__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hdiv(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 operator+(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 operator-(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 operator*(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 operator/(__nv_bfloat162 a, __nv_bfloat162 b) { return __h2div(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 &operator+=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hadd2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 &operator-=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hsub2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 &operator*=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hmul2(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 &operator/=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __h2div(a, b); }
__WARPSIM_HDI__ __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
__WARPSIM_HDI__ __nv_bfloat162 operator+(__nv_bfloat162 a) { return a; }
__WARPSIM_HDI__ __nv_bfloat16 operator+(__nv_bfloat16 a) { return a; }
__WARPSIM_HDI__ __nv_bfloat16 &operator++(__nv_bfloat16 &a) { return a = __hadd(a, __nv_bfloat16(1.0f)); }
__WARPSIM_HDI__ __nv_bfloat16 &operator--(__nv_bfloat16 &a) { return a = __hsub(a, __nv_bfloat16(1.0f)); }
__WARPSIM_HDI__ __nv_bfloat16 operator++(__nv_bfloat16 &a, int) { __nv_bfloat16 o = a; ++a; return o; }
__WARPSIM_HDI__ __nv_bfloat16 operator--(__nv_bfloat16 &a, int) { __nv_bfloat16 o = a; --a; return o; }
__WARPSIM_HDI__ bool operator==(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbeq2(a, b); }
__WARPSIM_HDI__ bool operator!=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbneu2(a, b); }
__WARPSIM_HDI__ bool operator<(__nv_bfloat162 a, __nv_bfloat162 b) { return __hblt2(a, b); }
__WARPSIM_HDI__ bool operator<=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hble2(a, b); }
__WARPSIM_HDI__ bool operator>(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbgt2(a, b); }
__WARPSIM_HDI__ bool operator>=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbge2(a, b); }
#endif
__WARPSIM_HDI__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return __nv_bfloat162(x, y); }

#if defined(__cplusplus) && defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
extern "C" __device__ float __nv_sinf(float);
extern "C" __device__ float __nv_cosf(float);
#endif
__WARPSIM_HDI__ float __warpsim_approx_bf(int op, float x) {
#ifdef __CUDA_ARCH__
  float r;
  switch (op) {
  case 0: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 1: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 2: return __nv_sinf(x);
  case 3: return __nv_cosf(x);
  case 4: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 5: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  default: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  }
  return r;
#else
  switch (op) {
  case 0: return __builtin_exp2f(x);
  case 1: return __builtin_log2f(x);
  case 2: return __builtin_sinf(x);
  case 3: return __builtin_cosf(x);
  case 4: return 1.0f / x;
  case 5: return 1.0f / __builtin_sqrtf(x);
  default: return __builtin_sqrtf(x);
  }
#endif
}
#define __WARPSIM_BFMATH(NAME, NAME2, EXPR)                                                     \
  __WARPSIM_HDI__ __nv_bfloat16 NAME(__nv_bfloat16 h) {                                         \
    float x = __bfloat162float(h);                                                              \
    return __float2bfloat16(EXPR);                                                              \
  }                                                                                             \
  __WARPSIM_HDI__ __nv_bfloat162 NAME2(__nv_bfloat162 h) { return __nv_bfloat162(NAME(h.x), NAME(h.y)); }
__WARPSIM_BFMATH(hexp, h2exp, __warpsim_approx_bf(0, x * 1.44269502f))
__WARPSIM_BFMATH(hexp2, h2exp2, __warpsim_approx_bf(0, x))
__WARPSIM_BFMATH(hexp10, h2exp10, __warpsim_approx_bf(0, x * 3.32192802f))
__WARPSIM_BFMATH(hlog2, h2log2, __warpsim_approx_bf(1, x))
__WARPSIM_BFMATH(hlog, h2log, __warpsim_approx_bf(1, x) * 0.693147182f)
__WARPSIM_BFMATH(hlog10, h2log10, __warpsim_approx_bf(1, x) * 0.301029987f)
__WARPSIM_BFMATH(hsin, h2sin, __warpsim_approx_bf(2, x))
__WARPSIM_BFMATH(hcos, h2cos, __warpsim_approx_bf(3, x))
__WARPSIM_BFMATH(hrcp, h2rcp, __warpsim_approx_bf(4, x))
__WARPSIM_BFMATH(hrsqrt, h2rsqrt, __warpsim_approx_bf(5, x))
__WARPSIM_BFMATH(hsqrt, h2sqrt, __warpsim_approx_bf(6, x))
__WARPSIM_BFMATH(hfloor, h2floor, __builtin_floorf(x))
__WARPSIM_BFMATH(hceil, h2ceil, __builtin_ceilf(x))
__WARPSIM_BFMATH(htrunc, h2trunc, __builtin_truncf(x))
__WARPSIM_BFMATH(hrint, h2rint, __builtin_rintf(x))
#undef __WARPSIM_BFMATH

#if defined(__cplusplus) && defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
/* Warp shuffles of bf16 and bf16 pairs. */
#define __WARPSIM_BSHFL(NAME, LANE_T)                                                      \
  __WARPSIM_DI__ __nv_bfloat16 NAME(unsigned m, __nv_bfloat16 v, LANE_T l, int w = 32) {  \
    return __ushort_as_bfloat16((unsigned short)NAME(m, (unsigned)v.__x, l, w));         \
  }                                                                                       \
  __WARPSIM_DI__ __nv_bfloat162 NAME(unsigned m, __nv_bfloat162 v, LANE_T l, int w = 32) { \
    return __builtin_bit_cast(__nv_bfloat162, NAME(m, __builtin_bit_cast(unsigned, v), l, w)); \
  }
__WARPSIM_BSHFL(__shfl_sync, int)
__WARPSIM_BSHFL(__shfl_up_sync, unsigned)
__WARPSIM_BSHFL(__shfl_down_sync, unsigned)
__WARPSIM_BSHFL(__shfl_xor_sync, int)
#undef __WARPSIM_BSHFL
__WARPSIM_DI__ __nv_bfloat16 __ldg(const __nv_bfloat16 *p) { return __ushort_as_bfloat16(__ldg((const unsigned short *)p)); }
__WARPSIM_DI__ __nv_bfloat162 __ldg(const __nv_bfloat162 *p) { return __builtin_bit_cast(__nv_bfloat162, __ldg((const unsigned *)p)); }
#endif

#if defined(__cplusplus) && defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
/* atomicAdd on bf16 and bf16 pairs (sm_90's atom.add.noftz.bf16{,x2}). */
__WARPSIM_DI__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v) {
  unsigned short old;
  asm volatile("atom.add.noftz.bf16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v.__x) : "memory");
  return __ushort_as_bfloat16(old);
}
__WARPSIM_DI__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v) {
  unsigned old;
  asm volatile("atom.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(__builtin_bit_cast(unsigned, v)) : "memory");
  return __builtin_bit_cast(__nv_bfloat162, old);
}
#endif

#endif
