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
#endif

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
#endif

#endif
