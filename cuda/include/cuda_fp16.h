/* warpsim: half precision (__half, __half2) for host and device. The
 * storage is CUDA's (16 bits; two for __half2, 4-byte aligned); arithmetic
 * is clang's _Float16, which device code compiles to PTX's f16/f16x2
 * instructions (add.rn.f16 …) and host code evaluates correctly rounded. */
#ifndef __WARPSIM_CUDA_FP16_H__
#define __WARPSIM_CUDA_FP16_H__
/* NVIDIA's include-guard name, which programs test. */
#define __CUDA_FP16_H__
#include "__warpsim_defines.h"
#include "vector_types.h"

typedef _Float16 __warpsim_f16;
typedef _Float16 __warpsim_f16x2 __attribute__((ext_vector_type(2)));

struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };

struct __align__(2) __half {
  unsigned short __x;
#ifdef __cplusplus
  __half() = default;
  __host__ __device__ __half(__half_raw r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)f)) {}
  __host__ __device__ __half(double f) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)f)) {}
  __host__ __device__ __half(int i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(unsigned i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(short i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(unsigned short i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(long i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(unsigned long i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(long long i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ __half(unsigned long long i) : __x(__builtin_bit_cast(unsigned short, (__warpsim_f16)i)) {}
  __host__ __device__ operator float() const { return (float)__builtin_bit_cast(__warpsim_f16, __x); }
  __host__ __device__ operator __half_raw() const { return __half_raw{__x}; }
#endif
};

struct __align__(4) __half2 {
  __half x, y;
#ifdef __cplusplus
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(__half2_raw r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __host__ __device__ operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
#endif
};
typedef struct __half half;
typedef struct __half2 half2;

__WARPSIM_HDI__ __warpsim_f16 __warpsim_h(__half h) { return __builtin_bit_cast(__warpsim_f16, h.__x); }
__WARPSIM_HDI__ __half __warpsim_mk(__warpsim_f16 f) { return __half(__half_raw{__builtin_bit_cast(unsigned short, f)}); }
__WARPSIM_HDI__ __warpsim_f16x2 __warpsim_h2(__half2 h) { return __builtin_bit_cast(__warpsim_f16x2, h); }
__WARPSIM_HDI__ __half2 __warpsim_mk2(__warpsim_f16x2 f) { return __builtin_bit_cast(__half2, f); }

/* Conversions. */
__WARPSIM_HDI__ __half __float2half(float f) { return __warpsim_mk((__warpsim_f16)f); }
__WARPSIM_HDI__ __half __float2half_rn(float f) { return __warpsim_mk((__warpsim_f16)f); }
__WARPSIM_HDI__ __half __double2half(double f) { return __warpsim_mk((__warpsim_f16)f); }
__WARPSIM_HDI__ float __half2float(__half h) { return (float)__warpsim_h(h); }
__WARPSIM_HDI__ __half __int2half_rn(int i) { return __warpsim_mk((__warpsim_f16)i); }
__WARPSIM_HDI__ __half __uint2half_rn(unsigned i) { return __warpsim_mk((__warpsim_f16)i); }
__WARPSIM_HDI__ int __half2int_rz(__half h) { return (int)__warpsim_h(h); }
__WARPSIM_HDI__ unsigned __half2uint_rz(__half h) { return (unsigned)__warpsim_h(h); }
__WARPSIM_HDI__ short __half_as_short(__half h) { return (short)h.__x; }
__WARPSIM_HDI__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__WARPSIM_HDI__ __half __short_as_half(short s) { return __half(__half_raw{(unsigned short)s}); }
__WARPSIM_HDI__ __half __ushort_as_half(unsigned short s) { return __half(__half_raw{s}); }
__WARPSIM_HDI__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__WARPSIM_HDI__ __half2 __half2half2(__half a) { return __half2(a, a); }
__WARPSIM_HDI__ __half2 __float2half2_rn(float f) { return __half2(__float2half(f), __float2half(f)); }
__WARPSIM_HDI__ __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
__WARPSIM_HDI__ __half2 __float22half2_rn(float2 f) { return __half2(__float2half(f.x), __float2half(f.y)); }
__WARPSIM_HDI__ float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
__WARPSIM_HDI__ __half __low2half(__half2 h) { return h.x; }
__WARPSIM_HDI__ __half __high2half(__half2 h) { return h.y; }
__WARPSIM_HDI__ float __low2float(__half2 h) { return __half2float(h.x); }
__WARPSIM_HDI__ float __high2float(__half2 h) { return __half2float(h.y); }
__WARPSIM_HDI__ __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }
__WARPSIM_HDI__ __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
__WARPSIM_HDI__ __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }

/* Arithmetic, correctly rounded to nearest even. */
__WARPSIM_HDI__ __half __hadd(__half a, __half b) { return __warpsim_mk(__warpsim_h(a) + __warpsim_h(b)); }
__WARPSIM_HDI__ __half __hsub(__half a, __half b) { return __warpsim_mk(__warpsim_h(a) - __warpsim_h(b)); }
__WARPSIM_HDI__ __half __hmul(__half a, __half b) { return __warpsim_mk(__warpsim_h(a) * __warpsim_h(b)); }
__WARPSIM_HDI__ __half __hdiv(__half a, __half b) { return __warpsim_mk(__warpsim_h(a) / __warpsim_h(b)); }
__WARPSIM_HDI__ __half __hfma(__half a, __half b, __half c) {
  return __warpsim_mk(__builtin_elementwise_fma(__warpsim_h(a), __warpsim_h(b), __warpsim_h(c)));
}
__WARPSIM_HDI__ __half __hneg(__half a) { return __warpsim_mk(-__warpsim_h(a)); }
__WARPSIM_HDI__ __half __habs(__half a) { return __half(__half_raw{(unsigned short)(a.__x & 0x7fff)}); }
__WARPSIM_HDI__ __half __hmax(__half a, __half b) { return __warpsim_mk(__builtin_elementwise_max(__warpsim_h(a), __warpsim_h(b))); }
__WARPSIM_HDI__ __half __hmin(__half a, __half b) { return __warpsim_mk(__builtin_elementwise_min(__warpsim_h(a), __warpsim_h(b))); }
__WARPSIM_HDI__ __half2 __hadd2(__half2 a, __half2 b) { return __warpsim_mk2(__warpsim_h2(a) + __warpsim_h2(b)); }
__WARPSIM_HDI__ __half2 __hsub2(__half2 a, __half2 b) { return __warpsim_mk2(__warpsim_h2(a) - __warpsim_h2(b)); }
__WARPSIM_HDI__ __half2 __hmul2(__half2 a, __half2 b) { return __warpsim_mk2(__warpsim_h2(a) * __warpsim_h2(b)); }
__WARPSIM_HDI__ __half2 __h2div(__half2 a, __half2 b) { return __warpsim_mk2(__warpsim_h2(a) / __warpsim_h2(b)); }
__WARPSIM_HDI__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __warpsim_mk2(__builtin_elementwise_fma(__warpsim_h2(a), __warpsim_h2(b), __warpsim_h2(c)));
}
__WARPSIM_HDI__ __half2 __hneg2(__half2 a) { return __warpsim_mk2(-__warpsim_h2(a)); }

/* Comparisons (ordered: false when either is NaN, except __hne's "u" form). */
__WARPSIM_HDI__ bool __heq(__half a, __half b) { return __warpsim_h(a) == __warpsim_h(b); }
__WARPSIM_HDI__ bool __hne(__half a, __half b) { return __warpsim_h(a) < __warpsim_h(b) || __warpsim_h(a) > __warpsim_h(b); }
__WARPSIM_HDI__ bool __hlt(__half a, __half b) { return __warpsim_h(a) < __warpsim_h(b); }
__WARPSIM_HDI__ bool __hle(__half a, __half b) { return __warpsim_h(a) <= __warpsim_h(b); }
__WARPSIM_HDI__ bool __hgt(__half a, __half b) { return __warpsim_h(a) > __warpsim_h(b); }
__WARPSIM_HDI__ bool __hge(__half a, __half b) { return __warpsim_h(a) >= __warpsim_h(b); }
__WARPSIM_HDI__ bool __hisnan(__half a) { return __warpsim_h(a) != __warpsim_h(a); }
__WARPSIM_HDI__ int __hisinf(__half a) { return (a.__x & 0x7fff) == 0x7c00 ? ((a.__x & 0x8000) ? -1 : 1) : 0; }

/* Math through single precision, as CUDA's half math functions round
 * them. */
__WARPSIM_HDI__ __half hsqrt(__half a) { return __float2half(__builtin_sqrtf(__half2float(a))); }
__WARPSIM_HDI__ __half hfloor(__half a) { return __float2half(__builtin_floorf(__half2float(a))); }
__WARPSIM_HDI__ __half hceil(__half a) { return __float2half(__builtin_ceilf(__half2float(a))); }
__WARPSIM_HDI__ __half htrunc(__half a) { return __float2half(__builtin_truncf(__half2float(a))); }

#ifdef __cplusplus
__WARPSIM_HDI__ __half operator+(__half a, __half b) { return __hadd(a, b); }
__WARPSIM_HDI__ __half operator-(__half a, __half b) { return __hsub(a, b); }
__WARPSIM_HDI__ __half operator*(__half a, __half b) { return __hmul(a, b); }
__WARPSIM_HDI__ __half operator/(__half a, __half b) { return __hdiv(a, b); }
__WARPSIM_HDI__ __half operator-(__half a) { return __hneg(a); }
__WARPSIM_HDI__ __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
__WARPSIM_HDI__ __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
__WARPSIM_HDI__ __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
__WARPSIM_HDI__ __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
__WARPSIM_HDI__ bool operator==(__half a, __half b) { return __heq(a, b); }
__WARPSIM_HDI__ bool operator!=(__half a, __half b) { return !__heq(a, b); }
__WARPSIM_HDI__ bool operator<(__half a, __half b) { return __hlt(a, b); }
__WARPSIM_HDI__ bool operator<=(__half a, __half b) { return __hle(a, b); }
__WARPSIM_HDI__ bool operator>(__half a, __half b) { return __hgt(a, b); }
__WARPSIM_HDI__ bool operator>=(__half a, __half b) { return __hge(a, b); }
__WARPSIM_HDI__ __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
__WARPSIM_HDI__ __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
__WARPSIM_HDI__ __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
__WARPSIM_HDI__ __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
__WARPSIM_HDI__ __half2 &operator+=(__half2 &a, __half2 b) { return a = __hadd2(a, b); }
__WARPSIM_HDI__ __half2 &operator-=(__half2 &a, __half2 b) { return a = __hsub2(a, b); }
__WARPSIM_HDI__ __half2 &operator*=(__half2 &a, __half2 b) { return a = __hmul2(a, b); }
__WARPSIM_HDI__ __half2 &operator/=(__half2 &a, __half2 b) { return a = __h2div(a, b); }
__WARPSIM_HDI__ __half2 operator-(__half2 a) { return __hneg2(a); }
__WARPSIM_HDI__ __half2 operator+(__half2 a) { return a; }
__WARPSIM_HDI__ __half operator+(__half a) { return a; }
__WARPSIM_HDI__ __half &operator++(__half &a) { return a = __hadd(a, __half(1.0f)); }
__WARPSIM_HDI__ __half &operator--(__half &a) { return a = __hsub(a, __half(1.0f)); }
__WARPSIM_HDI__ __half operator++(__half &a, int) { __half o = a; ++a; return o; }
__WARPSIM_HDI__ __half operator--(__half &a, int) { __half o = a; --a; return o; }
#endif

/* More of cuda_fp16.h: rounding-mode conversions, saturating, ReLU and
 * NaN-propagating forms, comparisons returning masks, and the half math
 * functions. Device code uses the PTX instruction CUDA's header uses
 * (add.sat.f16x2, fma.rn.relu.f16x2, max.NaN.f16x2, cvt.rz.f16.f32, and
 * the approximate ex2/lg2/sin/cos/rcp in single precision rounded to half);
 * host code computes the same in software. */
__WARPSIM_HDI__ unsigned short __warpsim_step16(unsigned short b, int away) {
  /* one step of a sign-magnitude 16-bit float away from or toward zero */
  unsigned short mag = b & 0x7fff, s = b & 0x8000;
  if (away) return (unsigned short)(s | (mag + 1));
  return mag == 0 ? b : (unsigned short)(s | (mag - 1));
}
/* mode: 0 rn, 1 rz, 2 rd, 3 ru; rounded from the rn result by one step
 * where rn went the wrong way (host only). */
__WARPSIM_HDI__ unsigned short __warpsim_f2h_mode(float f, int mode) {
#ifdef __CUDA_ARCH__
  unsigned short r;
  switch (mode) {
  case 1: asm("cvt.rz.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); break;
  case 2: asm("cvt.rm.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); break;
  case 3: asm("cvt.rp.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); break;
  default: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); break;
  }
  return r;
#else
  if (f != f) return 0x7fff; /* cvt's canonical NaN */
  unsigned short b = __builtin_bit_cast(unsigned short, (__warpsim_f16)f);
  float back = (float)__builtin_bit_cast(__warpsim_f16, b);
  if (back == f || mode == 0) return b;
  int neg = f < 0;
  if (mode == 1 && (neg ? back < f : back > f)) return __warpsim_step16(b, 0);
  if (mode == 2 && back > f) return __warpsim_step16(b, neg);
  if (mode == 3 && back < f) return __warpsim_step16(b, !neg);
  return b;
#endif
}
__WARPSIM_HDI__ __half __float2half_rz(float f) { return __ushort_as_half(__warpsim_f2h_mode(f, 1)); }
__WARPSIM_HDI__ __half __float2half_rd(float f) { return __ushort_as_half(__warpsim_f2h_mode(f, 2)); }
__WARPSIM_HDI__ __half __float2half_ru(float f) { return __ushort_as_half(__warpsim_f2h_mode(f, 3)); }
__WARPSIM_HDI__ __half2 __floats2half2_rz(float a, float b) { return __half2(__float2half_rz(a), __float2half_rz(b)); }
__WARPSIM_HDI__ __half2 __float2half2_rz(float a) { return __half2(__float2half_rz(a), __float2half_rz(a)); }
__WARPSIM_HDI__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__WARPSIM_HDI__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__WARPSIM_HDI__ __half2 __halves2half2_copy(__half a, __half b) { return __half2(a, b); }

/* Integer conversions: rn rounds to nearest even; out of range saturates,
 * NaN gives 0 (cvt.rni.s32.f16 and friends). */
__WARPSIM_HDI__ float __warpsim_round_mode(float f, int mode) {
  switch (mode) {
  case 0: return __builtin_rintf(f);
  case 2: return __builtin_floorf(f);
  case 3: return __builtin_ceilf(f);
  default: return __builtin_truncf(f);
  }
}
__WARPSIM_HDI__ long long __warpsim_f2i(float f, int mode, long long lo, long long hi) {
  if (f != f) return 0;
  float r = __warpsim_round_mode(f, mode);
  if (r <= (float)lo) return lo;
  if (r >= (float)hi) return hi;
  return (long long)r;
}
#define __WARPSIM_H2I(T, NAME, LO, HI)                                                                     \
  __WARPSIM_HDI__ T __half2##NAME##_rn(__half h) { return (T)__warpsim_f2i(__half2float(h), 0, LO, HI); } \
  __WARPSIM_HDI__ T __half2##NAME##_rd(__half h) { return (T)__warpsim_f2i(__half2float(h), 2, LO, HI); } \
  __WARPSIM_HDI__ T __half2##NAME##_ru(__half h) { return (T)__warpsim_f2i(__half2float(h), 3, LO, HI); }
__WARPSIM_H2I(int, int, -2147483648LL, 2147483647LL)
__WARPSIM_H2I(unsigned, uint, 0, 4294967295LL)
__WARPSIM_H2I(short, short, -32768, 32767)
__WARPSIM_H2I(unsigned short, ushort, 0, 65535)
__WARPSIM_H2I(long long, ll, -9223372036854775807LL - 1, 9223372036854775807LL)
#undef __WARPSIM_H2I
__WARPSIM_HDI__ short __half2short_rz(__half h) { return (short)__warpsim_f2i(__half2float(h), 1, -32768, 32767); }
__WARPSIM_HDI__ unsigned short __half2ushort_rz(__half h) { return (unsigned short)__warpsim_f2i(__half2float(h), 1, 0, 65535); }
__WARPSIM_HDI__ long long __half2ll_rz(__half h) {
  return __warpsim_f2i(__half2float(h), 1, -9223372036854775807LL - 1, 9223372036854775807LL);
}
__WARPSIM_HDI__ __half __short2half_rn(short i) { return __float2half((float)i); }
__WARPSIM_HDI__ __half __ushort2half_rn(unsigned short i) { return __float2half((float)i); }

/* Saturation to [0, 1] (NaN to +0) and ReLU (negative to +0, NaN to the
 * canonical NaN), on one half's bits. */
__WARPSIM_HDI__ __half __warpsim_hsat(__half h) {
  float f = __half2float(h);
  if (f != f || f <= 0.0f) return __ushort_as_half((unsigned short)(f == 0.0f ? h.__x & 0x8000 : 0));
  return f >= 1.0f ? __ushort_as_half(0x3c00) : h;
}
__WARPSIM_HDI__ __half __warpsim_hrelu(__half h) {
  float f = __half2float(h);
  if (f != f) return __ushort_as_half(0x7fff);
  return f <= 0.0f ? __ushort_as_half(0) : h; /* -0 too, as fma.rn.relu */
}
#ifdef __CUDA_ARCH__
#define __WARPSIM_H2ASM(NAME, ONE, INSTR)                                                             \
  __WARPSIM_HDI__ __half2 NAME(__half2 a, __half2 b) {                                                  \
    unsigned r;                                                                                       \
    asm(INSTR " %0, %1, %2;" : "=r"(r) : "r"(__builtin_bit_cast(unsigned, a)), "r"(__builtin_bit_cast(unsigned, b))); \
    return __builtin_bit_cast(__half2, r);                                                            \
  }
#define __WARPSIM_H2ASM3(NAME, ONE, INSTR)                                                            \
  __WARPSIM_HDI__ __half2 NAME(__half2 a, __half2 b, __half2 c) {                                       \
    unsigned r;                                                                                       \
    asm(INSTR " %0, %1, %2, %3;"                                                                      \
        : "=r"(r)                                                                                     \
        : "r"(__builtin_bit_cast(unsigned, a)), "r"(__builtin_bit_cast(unsigned, b)), "r"(__builtin_bit_cast(unsigned, c))); \
    return __builtin_bit_cast(__half2, r);                                                            \
  }
#define __WARPSIM_HASM(NAME, INSTR)                                                                   \
  __WARPSIM_HDI__ __half NAME(__half a, __half b) {                                                     \
    unsigned short r;                                                                                 \
    asm(INSTR " %0, %1, %2;" : "=h"(r) : "h"(a.__x), "h"(b.__x));                                     \
    return __ushort_as_half(r);                                                                       \
  }
#define __WARPSIM_HASM3(NAME, INSTR)                                                                  \
  __WARPSIM_HDI__ __half NAME(__half a, __half b, __half c) {                                           \
    unsigned short r;                                                                                 \
    asm(INSTR " %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));                     \
    return __ushort_as_half(r);                                                                       \
  }
#else
#define __WARPSIM_H2ASM(NAME, ONE, INSTR) \
  __WARPSIM_HDI__ __half2 NAME(__half2 a, __half2 b) { return __half2(ONE(a.x, b.x), ONE(a.y, b.y)); }
#define __WARPSIM_H2ASM3(NAME, ONE, INSTR) \
  __WARPSIM_HDI__ __half2 NAME(__half2 a, __half2 b, __half2 c) { return __half2(ONE(a.x, b.x, c.x), ONE(a.y, b.y, c.y)); }
#define __WARPSIM_HASM(NAME, INSTR) __WARPSIM_HDI__ __half NAME(__half a, __half b);
#define __WARPSIM_HASM3(NAME, INSTR) __WARPSIM_HDI__ __half NAME(__half a, __half b, __half c);
__WARPSIM_HDI__ __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
__WARPSIM_HDI__ __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
__WARPSIM_HDI__ __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
__WARPSIM_HDI__ __half __hadd_sat(__half a, __half b) { return __warpsim_hsat(__hadd(a, b)); }
__WARPSIM_HDI__ __half __hsub_sat(__half a, __half b) { return __warpsim_hsat(__hsub(a, b)); }
__WARPSIM_HDI__ __half __hmul_sat(__half a, __half b) { return __warpsim_hsat(__hmul(a, b)); }
__WARPSIM_HDI__ __half __hfma_sat(__half a, __half b, __half c) { return __warpsim_hsat(__hfma(a, b, c)); }
__WARPSIM_HDI__ __half __hfma_relu(__half a, __half b, __half c) { return __warpsim_hrelu(__hfma(a, b, c)); }
__WARPSIM_HDI__ __half __hmax_nan(__half a, __half b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_half(0x7fff) : __hmax(a, b);
}
__WARPSIM_HDI__ __half __hmin_nan(__half a, __half b) {
  return (__hisnan(a) || __hisnan(b)) ? __ushort_as_half(0x7fff) : __hmin(a, b);
}
#endif
__WARPSIM_HASM(__hadd_rn, "add.rn.f16")
__WARPSIM_HASM(__hsub_rn, "sub.rn.f16")
__WARPSIM_HASM(__hmul_rn, "mul.rn.f16")
__WARPSIM_HASM(__hadd_sat, "add.sat.f16")
__WARPSIM_HASM(__hsub_sat, "sub.sat.f16")
__WARPSIM_HASM(__hmul_sat, "mul.sat.f16")
__WARPSIM_HASM3(__hfma_sat, "fma.rn.sat.f16")
__WARPSIM_HASM3(__hfma_relu, "fma.rn.relu.f16")
__WARPSIM_HASM(__hmax_nan, "max.NaN.f16")
__WARPSIM_HASM(__hmin_nan, "min.NaN.f16")
__WARPSIM_H2ASM(__hadd2_rn, __hadd_rn, "add.rn.f16x2")
__WARPSIM_H2ASM(__hsub2_rn, __hsub_rn, "sub.rn.f16x2")
__WARPSIM_H2ASM(__hmul2_rn, __hmul_rn, "mul.rn.f16x2")
__WARPSIM_H2ASM(__hadd2_sat, __hadd_sat, "add.sat.f16x2")
__WARPSIM_H2ASM(__hsub2_sat, __hsub_sat, "sub.sat.f16x2")
__WARPSIM_H2ASM(__hmul2_sat, __hmul_sat, "mul.sat.f16x2")
__WARPSIM_H2ASM3(__hfma2_sat, __hfma_sat, "fma.rn.sat.f16x2")
__WARPSIM_H2ASM3(__hfma2_relu, __hfma_relu, "fma.rn.relu.f16x2")
__WARPSIM_H2ASM(__hmax2_nan, __hmax_nan, "max.NaN.f16x2")
__WARPSIM_H2ASM(__hmin2_nan, __hmin_nan, "min.NaN.f16x2")
#undef __WARPSIM_H2ASM
#undef __WARPSIM_H2ASM3
#undef __WARPSIM_HASM
#undef __WARPSIM_HASM3
__WARPSIM_HDI__ __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
__WARPSIM_HDI__ __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
__WARPSIM_HDI__ __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__WARPSIM_HDI__ __half __hdiv_rn(__half a, __half b) { return __hdiv(a, b); }

/* Comparisons of pairs: __heq2 … give 1.0/0.0 per half, __hbeq2 … true
 * when both halves compare true, __heq2_mask … 0xffff per true half; the
 * "u" forms are true where either is NaN. */
#define __WARPSIM_HCMP2(OP, EXPR)                                                                         \
  __WARPSIM_HDI__ bool __warpsim_hc_##OP(__half a, __half b) {                                            \
    float x = __half2float(a), y = __half2float(b);                                                       \
    return EXPR;                                                                                          \
  }                                                                                                       \
  __WARPSIM_HDI__ __half2 __h##OP##2(__half2 a, __half2 b) {                                              \
    return __half2(__ushort_as_half(__warpsim_hc_##OP(a.x, b.x) ? 0x3c00 : 0),                            \
                   __ushort_as_half(__warpsim_hc_##OP(a.y, b.y) ? 0x3c00 : 0));                           \
  }                                                                                                       \
  __WARPSIM_HDI__ bool __hb##OP##2(__half2 a, __half2 b) { return __warpsim_hc_##OP(a.x, b.x) && __warpsim_hc_##OP(a.y, b.y); } \
  __WARPSIM_HDI__ unsigned __h##OP##2_mask(__half2 a, __half2 b) {                                        \
    return (__warpsim_hc_##OP(a.x, b.x) ? 0xffffu : 0u) | (__warpsim_hc_##OP(a.y, b.y) ? 0xffff0000u : 0u); \
  }
__WARPSIM_HCMP2(eq, x == y)
__WARPSIM_HCMP2(ne, x < y || x > y)
__WARPSIM_HCMP2(lt, x < y)
__WARPSIM_HCMP2(le, x <= y)
__WARPSIM_HCMP2(gt, x > y)
__WARPSIM_HCMP2(ge, x >= y)
__WARPSIM_HCMP2(equ, !(x < y || x > y))
__WARPSIM_HCMP2(neu, !(x == y))
__WARPSIM_HCMP2(ltu, !(x >= y))
__WARPSIM_HCMP2(leu, !(x > y))
__WARPSIM_HCMP2(gtu, !(x <= y))
__WARPSIM_HCMP2(geu, !(x < y))
#undef __WARPSIM_HCMP2
#ifdef __cplusplus
/* __half2 comparisons: true when both halves compare true (__hbeq2 …). */
__WARPSIM_HDI__ bool operator==(__half2 a, __half2 b) { return __hbeq2(a, b); }
__WARPSIM_HDI__ bool operator!=(__half2 a, __half2 b) { return __hbneu2(a, b); }
__WARPSIM_HDI__ bool operator<(__half2 a, __half2 b) { return __hblt2(a, b); }
__WARPSIM_HDI__ bool operator<=(__half2 a, __half2 b) { return __hble2(a, b); }
__WARPSIM_HDI__ bool operator>(__half2 a, __half2 b) { return __hbgt2(a, b); }
__WARPSIM_HDI__ bool operator>=(__half2 a, __half2 b) { return __hbge2(a, b); }
#endif
__WARPSIM_HDI__ __half2 make_half2(__half x, __half y) { return __half2(x, y); }
__WARPSIM_HDI__ __half2 __hisnan2(__half2 a) {
  return __half2(__ushort_as_half(__hisnan(a.x) ? 0x3c00 : 0), __ushort_as_half(__hisnan(a.y) ? 0x3c00 : 0));
}
__WARPSIM_HDI__ bool __hequ(__half a, __half b) { return __warpsim_hc_equ(a, b); }
__WARPSIM_HDI__ bool __hneu(__half a, __half b) { return __warpsim_hc_neu(a, b); }
__WARPSIM_HDI__ bool __hltu(__half a, __half b) { return __warpsim_hc_ltu(a, b); }
__WARPSIM_HDI__ bool __hleu(__half a, __half b) { return __warpsim_hc_leu(a, b); }
__WARPSIM_HDI__ bool __hgtu(__half a, __half b) { return __warpsim_hc_gtu(a, b); }
__WARPSIM_HDI__ bool __hgeu(__half a, __half b) { return __warpsim_hc_geu(a, b); }

/* The math functions: single precision's approximate instruction (ex2,
 * lg2, rcp, rsqrt with .ftz) rounded to half, sin and cos from the accurate
 * single-precision functions (the H100 gives correctly rounded sines of
 * large arguments: testdata/programs3/half_bf16_math.cu); the C library on
 * the host. */
#if defined(__cplusplus) && defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
extern "C" __device__ float __nv_sinf(float);
extern "C" __device__ float __nv_cosf(float);
#endif
__WARPSIM_HDI__ float __warpsim_approx_f32(int op, float x) {
#ifdef __CUDA_ARCH__
  float r;
  switch (op) {
  case 0: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 1: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  case 2: return __nv_sinf(x);
  case 3: return __nv_cosf(x);
  case 4: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  default: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  }
  return r;
#else
  switch (op) {
  case 0: return __builtin_exp2f(x);
  case 1: return __builtin_log2f(x);
  case 2: return __builtin_sinf(x);
  case 3: return __builtin_cosf(x);
  case 4: return 1.0f / x;
  default: return 1.0f / __builtin_sqrtf(x);
  }
#endif
}
#define __WARPSIM_HMATH(NAME, EXPR)                                                          \
  __WARPSIM_HDI__ __half NAME(__half h) {                                                    \
    float x = __half2float(h);                                                               \
    return __float2half(EXPR);                                                               \
  }                                                                                          \
  __WARPSIM_HDI__ __half2 NAME##2_(__half2 h) { return __half2(NAME(h.x), NAME(h.y)); }
__WARPSIM_HMATH(hexp, __warpsim_approx_f32(0, x * 1.44269502f))
__WARPSIM_HMATH(hexp2, __warpsim_approx_f32(0, x))
__WARPSIM_HMATH(hexp10, __warpsim_approx_f32(0, x * 3.32192802f))
__WARPSIM_HMATH(hlog2, __warpsim_approx_f32(1, x))
__WARPSIM_HMATH(hlog, __warpsim_approx_f32(1, x) * 0.693147182f)
__WARPSIM_HMATH(hlog10, __warpsim_approx_f32(1, x) * 0.301029987f)
__WARPSIM_HMATH(hsin, __warpsim_approx_f32(2, x))
__WARPSIM_HMATH(hcos, __warpsim_approx_f32(3, x))
__WARPSIM_HMATH(hrcp, __warpsim_approx_f32(4, x))
__WARPSIM_HMATH(hrsqrt, __warpsim_approx_f32(5, x))
#undef __WARPSIM_HMATH
__WARPSIM_HDI__ __half2 h2exp(__half2 h) { return hexp2_(h); }
__WARPSIM_HDI__ __half2 h2exp2(__half2 h) { return hexp22_(h); }
__WARPSIM_HDI__ __half2 h2exp10(__half2 h) { return hexp102_(h); }
__WARPSIM_HDI__ __half2 h2log2(__half2 h) { return hlog22_(h); }
__WARPSIM_HDI__ __half2 h2log(__half2 h) { return hlog2_(h); }
__WARPSIM_HDI__ __half2 h2log10(__half2 h) { return hlog102_(h); }
__WARPSIM_HDI__ __half2 h2sin(__half2 h) { return hsin2_(h); }
__WARPSIM_HDI__ __half2 h2cos(__half2 h) { return hcos2_(h); }
__WARPSIM_HDI__ __half2 h2rcp(__half2 h) { return hrcp2_(h); }
__WARPSIM_HDI__ __half2 h2rsqrt(__half2 h) { return hrsqrt2_(h); }
__WARPSIM_HDI__ __half2 h2sqrt(__half2 h) { return __half2(hsqrt(h.x), hsqrt(h.y)); }
__WARPSIM_HDI__ __half2 h2floor(__half2 h) { return __half2(hfloor(h.x), hfloor(h.y)); }
__WARPSIM_HDI__ __half2 h2ceil(__half2 h) { return __half2(hceil(h.x), hceil(h.y)); }
__WARPSIM_HDI__ __half2 h2trunc(__half2 h) { return __half2(htrunc(h.x), htrunc(h.y)); }
__WARPSIM_HDI__ __half hrint(__half a) { return __float2half(__builtin_rintf(__half2float(a))); }
__WARPSIM_HDI__ __half2 h2rint(__half2 h) { return __half2(hrint(h.x), hrint(h.y)); }

#if defined(__CUDA__) && !defined(__WARPSIM_HOST_ONLY__)
/* Warp shuffles and atomics of halves. */
#define __WARPSIM_HSHFL(NAME, LANE_T)                                            \
  __WARPSIM_DI__ __half NAME(unsigned m, __half v, LANE_T l, int w = 32) {      \
    return __ushort_as_half((unsigned short)NAME(m, (unsigned)v.__x, l, w));    \
  }                                                                             \
  __WARPSIM_DI__ __half2 NAME(unsigned m, __half2 v, LANE_T l, int w = 32) {    \
    return __builtin_bit_cast(__half2, NAME(m, __builtin_bit_cast(unsigned, v), l, w)); \
  }
__WARPSIM_HSHFL(__shfl_sync, int)
__WARPSIM_HSHFL(__shfl_up_sync, unsigned)
__WARPSIM_HSHFL(__shfl_down_sync, unsigned)
__WARPSIM_HSHFL(__shfl_xor_sync, int)
#undef __WARPSIM_HSHFL
__WARPSIM_DI__ __half atomicAdd(__half *p, __half v) {
  unsigned short old;
  asm volatile("atom.add.noftz.f16 %0, [%1], %2;" : "=h"(old) : "l"(p), "h"(v.__x) : "memory");
  return __ushort_as_half(old);
}
__WARPSIM_DI__ __half2 atomicAdd(__half2 *p, __half2 v) {
  unsigned old;
  asm volatile("atom.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(__builtin_bit_cast(unsigned, v)) : "memory");
  return __builtin_bit_cast(__half2, old);
}
__WARPSIM_DI__ __half __ldg(const __half *p) { return __ushort_as_half(__ldg((const unsigned short *)p)); }
__WARPSIM_DI__ __half2 __ldg(const __half2 *p) { return __builtin_bit_cast(__half2, __ldg((const unsigned *)p)); }
#endif

#endif
