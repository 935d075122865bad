/* warpsim: 8-bit floats (__nv_fp8_e4m3, __nv_fp8_e5m2, their x2 and x4
 * packs) and the __nv_cvt_* conversions, for host and device, stored as CUDA
 * stores them. E4M3 (bias 7) has no infinity, one NaN pattern per sign
 * (0x7f/0xff) and 448 as its largest finite value; E5M2 (bias 15) is the top
 * byte of a half. Conversions round to nearest even; __NV_SATFINITE clamps
 * overflows and infinities to the largest finite value, __NV_NOSAT makes
 * them NaN (E4M3) or infinity (E5M2); NaN gives 0x7f. Device code converts
 * float and half pairs with sm_89's cvt.rn.satfinite.{e4m3,e5m2}x2 and back
 * with cvt.rn.f16x2.{e4m3,e5m2}x2 (NaN becomes the half 0x7fff), as CUDA's
 * headers do on sm_89 and later; everything else is computed in software
 * here. Bit patterns checked against an H100 in testdata/programs3
 * (fp8_convert.cu). */
#ifndef __WARPSIM_CUDA_FP8_H__
#define __WARPSIM_CUDA_FP8_H__
/* NVIDIA's include-guard and feature names, which programs test. */
#define __CUDA_FP8_H__
#define __CUDA_FP8_TYPES_EXIST__
#include "__warpsim_defines.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

/* double to fp8, rounded to nearest even, in integer arithmetic. */
__WARPSIM_HDI__ __nv_fp8_storage_t __warpsim_fp8_from_bits(unsigned long long u, __nv_saturation_t sat,
                                                            __nv_fp8_interpretation_t k) {
  const unsigned sign = (unsigned)(u >> 56) & 0x80u;
  const int e4 = k == __NV_E4M3;
  const int mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15;
  const unsigned maxfin = e4 ? 0x7eu : 0x7bu, over = e4 ? 0x7fu : 0x7cu;
  const int be = (int)((u >> 52) & 0x7ff);
  const unsigned long long frac = u & 0xfffffffffffffull;
  if (be == 0x7ff) {
    if (frac != 0) return 0x7f; /* NaN */
    return (__nv_fp8_storage_t)(sign | (sat == __NV_SATFINITE ? maxfin : over));
  }
  const int e = be - 1023, emin = 1 - bias;
  if (be == 0 || e < emin - mbits - 2) return (__nv_fp8_storage_t)sign; /* below half the smallest subnormal */
  if (e > 16) return (__nv_fp8_storage_t)(sign | (sat == __NV_SATFINITE ? maxfin : over));
  const unsigned long long m = frac | (1ull << 52);
  const int drop = 52 - mbits + (e < emin ? emin - e : 0);
  unsigned long long q = m >> drop;
  const unsigned long long rem = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  unsigned code = e < emin ? (unsigned)q : (unsigned)(((e + bias) << mbits) + q - (1ull << mbits));
  if (code > maxfin) code = sat == __NV_SATFINITE ? maxfin : over;
  return (__nv_fp8_storage_t)(sign | code);
}

/* fp8 to half bits, exact; NaN gives 0x7fff. */
__WARPSIM_HDI__ unsigned short __warpsim_fp8_to_half_bits(__nv_fp8_storage_t x, __nv_fp8_interpretation_t k) {
  const unsigned sign = (unsigned)(x & 0x80) << 8;
  if (k == __NV_E5M2) {
    if ((x & 0x7f) > 0x7c) return 0x7fff;
    return (unsigned short)((unsigned)x << 8);
  }
  if ((x & 0x7f) == 0x7f) return 0x7fff;
  unsigned e = (x >> 3) & 0xf, m = x & 7;
  if (e == 0) {
    if (m == 0) return (unsigned short)sign;
    int ex = -6; /* value m/8 * 2^-6 */
    while (m < 8) {
      m <<= 1;
      ex--;
    }
    return (unsigned short)(sign | (unsigned)(ex + 15) << 10 | (m & 7) << 7);
  }
  return (unsigned short)(sign | (e + 8) << 10 | m << 7);
}

__WARPSIM_HDI__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                          const __nv_fp8_interpretation_t fp8_interpretation) {
  return __warpsim_fp8_from_bits(__builtin_bit_cast(unsigned long long, x), saturate, fp8_interpretation);
}

__WARPSIM_HDI__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation) |
                                (unsigned)__nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation) << 8);
}

/* float pair (hi, lo) to fp8x2: sm_89's cvt in device code when saturating (ptxas refuses the packed fp8
   cvt below sm_89: there the software conversion, as CUDA's header does). */
__WARPSIM_HDI__ __nv_fp8x2_storage_t __warpsim_fp8x2_from_floats(float hi, float lo, __nv_saturation_t sat,
                                                                 __nv_fp8_interpretation_t k) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  if (sat == __NV_SATFINITE) {
    unsigned short r;
    if (k == __NV_E5M2)
      asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
    else
      asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
    return r;
  }
#endif
  return (__nv_fp8x2_storage_t)(__nv_cvt_double_to_fp8((double)lo, sat, k) |
                                (unsigned)__nv_cvt_double_to_fp8((double)hi, sat, k) << 8);
}

__WARPSIM_HDI__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                         const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8_storage_t)(__warpsim_fp8x2_from_floats(0.0f, x, saturate, fp8_interpretation) & 0xff);
}

__WARPSIM_HDI__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  return __warpsim_fp8x2_from_floats(x.y, x.x, saturate, fp8_interpretation);
}

__WARPSIM_HDI__ float __warpsim_half_bits_to_float(unsigned short h) {
  return __half2float(__half(__half_raw{h}));
}

__WARPSIM_HDI__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                                const __nv_fp8_interpretation_t fp8_interpretation) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  if (saturate == __NV_SATFINITE) {
    unsigned short r;
    unsigned v = (unsigned)x.x | (unsigned)x.y << 16;
    if (fp8_interpretation == __NV_E5M2)
      asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r) : "r"(v));
    else
      asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r) : "r"(v));
    return r;
  }
#endif
  return (__nv_fp8x2_storage_t)(
      __nv_cvt_double_to_fp8((double)__warpsim_half_bits_to_float(x.x), saturate, fp8_interpretation) |
      (unsigned)__nv_cvt_double_to_fp8((double)__warpsim_half_bits_to_float(x.y), saturate, fp8_interpretation) << 8);
}

__WARPSIM_HDI__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                           const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw p = {x.x, 0};
  return (__nv_fp8_storage_t)(__nv_cvt_halfraw2_to_fp8x2(p, saturate, fp8_interpretation) & 0xff);
}

__WARPSIM_HDI__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(__builtin_bit_cast(float, (unsigned)x.x << 16), saturate, fp8_interpretation);
}

__WARPSIM_HDI__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x,
                                                                    const __nv_saturation_t saturate,
                                                                    const __nv_fp8_interpretation_t fp8_interpretation) {
  return __warpsim_fp8x2_from_floats(__builtin_bit_cast(float, (unsigned)x.y << 16),
                                     __builtin_bit_cast(float, (unsigned)x.x << 16), saturate, fp8_interpretation);
}

__WARPSIM_HDI__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                                       const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  unsigned v;
  if (fp8_interpretation == __NV_E5M2)
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(v) : "h"(x));
  else
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(v) : "h"(x));
  r.x = (unsigned short)v;
  r.y = (unsigned short)(v >> 16);
#else
  r.x = __warpsim_fp8_to_half_bits((__nv_fp8_storage_t)(x & 0xff), fp8_interpretation);
  r.y = __warpsim_fp8_to_half_bits((__nv_fp8_storage_t)(x >> 8), fp8_interpretation);
#endif
  return r;
}

__WARPSIM_HDI__ __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                                   const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw r = {__nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)x, fp8_interpretation).x};
  return r;
}

#ifdef __cplusplus
/* One type per interpretation; the conversions from wider types saturate
 * (__NV_SATFINITE), as CUDA's constructors do. */
#define __WARPSIM_FP8_TYPE(NAME, K)                                                                              \
  struct __align__(1) NAME {                                                                                    \
    __nv_fp8_storage_t __x;                                                                                     \
    NAME() = default;                                                                                           \
    explicit __host__ __device__ NAME(const __half f)                                                           \
        : __x(__nv_cvt_halfraw_to_fp8(__half_raw{f.__x}, __NV_SATFINITE, K)) {}                                  \
    explicit __host__ __device__ NAME(const __nv_bfloat16 f)                                                    \
        : __x(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{f.__x}, __NV_SATFINITE, K)) {}                       \
    explicit __host__ __device__ NAME(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, K)) {}     \
    explicit __host__ __device__ NAME(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, K)) {}   \
    explicit __host__ __device__ NAME(const unsigned short v) : NAME((float)v) {}                               \
    explicit __host__ __device__ NAME(const unsigned int v) : NAME((float)v) {}                                 \
    explicit __host__ __device__ NAME(const unsigned long int v) : NAME((float)v) {}                            \
    explicit __host__ __device__ NAME(const unsigned long long int v) : NAME((float)v) {}                       \
    explicit __host__ __device__ NAME(const short v) : NAME((float)v) {}                                        \
    explicit __host__ __device__ NAME(const int v) : NAME((float)v) {}                                          \
    explicit __host__ __device__ NAME(const long int v) : NAME((float)v) {}                                     \
    explicit __host__ __device__ NAME(const long long int v) : NAME((float)v) {}                                \
    explicit __host__ __device__ operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, K)); }    \
    explicit __host__ __device__ operator float() const {                                                       \
      return __warpsim_half_bits_to_float(__nv_cvt_fp8_to_halfraw(__x, K).x);                                   \
    }                                                                                                           \
    explicit __host__ __device__ operator double() const { return (double)(float)*this; }                       \
    explicit __host__ __device__ operator __nv_bfloat16() const { return __float2bfloat16((float)*this); }      \
    explicit __host__ __device__ operator bool() const { return (__x & 0x7f) != 0; }                            \
    explicit __host__ __device__ operator unsigned char() const { return (unsigned char)(float)*this; }         \
    explicit __host__ __device__ operator unsigned short() const { return (unsigned short)(float)*this; }       \
    explicit __host__ __device__ operator unsigned int() const { return (unsigned int)(float)*this; }           \
    explicit __host__ __device__ operator unsigned long long() const { return (unsigned long long)(float)*this; } \
    explicit __host__ __device__ operator signed char() const { return (signed char)(float)*this; }             \
    explicit __host__ __device__ operator short() const { return (short)(float)*this; }                         \
    explicit __host__ __device__ operator int() const { return (int)(float)*this; }                             \
    explicit __host__ __device__ operator long long() const { return (long long)(float)*this; }                 \
  };
__WARPSIM_FP8_TYPE(__nv_fp8_e4m3, __NV_E4M3)
__WARPSIM_FP8_TYPE(__nv_fp8_e5m2, __NV_E5M2)
#undef __WARPSIM_FP8_TYPE

#define __WARPSIM_FP8X2_TYPE(NAME, K)                                                                            \
  struct __align__(2) NAME {                                                                                    \
    __nv_fp8x2_storage_t __x;                                                                                   \
    NAME() = default;                                                                                           \
    explicit __host__ __device__ NAME(const __half2 f)                                                          \
        : __x(__nv_cvt_halfraw2_to_fp8x2(__half2_raw{f.x.__x, f.y.__x}, __NV_SATFINITE, K)) {}                   \
    explicit __host__ __device__ NAME(const __nv_bfloat162 f)                                                   \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw{f.x.__x, f.y.__x}, __NV_SATFINITE, K)) {}        \
    explicit __host__ __device__ NAME(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, K)) {} \
    explicit __host__ __device__ NAME(const double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, K)) {} \
    explicit __host__ __device__ operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, K)); } \
    explicit __host__ __device__ operator float2() const {                                                      \
      __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(__x, K);                                                       \
      return make_float2(__warpsim_half_bits_to_float(h.x), __warpsim_half_bits_to_float(h.y));                 \
    }                                                                                                           \
  };
__WARPSIM_FP8X2_TYPE(__nv_fp8x2_e4m3, __NV_E4M3)
__WARPSIM_FP8X2_TYPE(__nv_fp8x2_e5m2, __NV_E5M2)
#undef __WARPSIM_FP8X2_TYPE

#define __WARPSIM_FP8X4_TYPE(NAME, K)                                                                            \
  struct __align__(4) NAME {                                                                                    \
    __nv_fp8x4_storage_t __x;                                                                                   \
    NAME() = default;                                                                                           \
    explicit __host__ __device__ NAME(const __half2 lo, const __half2 hi)                                       \
        : __x((unsigned)__nv_cvt_halfraw2_to_fp8x2(__half2_raw{lo.x.__x, lo.y.__x}, __NV_SATFINITE, K) |        \
              (unsigned)__nv_cvt_halfraw2_to_fp8x2(__half2_raw{hi.x.__x, hi.y.__x}, __NV_SATFINITE, K) << 16) {} \
    explicit __host__ __device__ NAME(const __nv_bfloat162 lo, const __nv_bfloat162 hi)                         \
        : __x((unsigned)__nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw{lo.x.__x, lo.y.__x}, __NV_SATFINITE, K) | \
              (unsigned)__nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw{hi.x.__x, hi.y.__x}, __NV_SATFINITE, K) \
                  << 16) {}                                                                                     \
    explicit __host__ __device__ NAME(const float4 f)                                                           \
        : __x((unsigned)__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, K) |                    \
              (unsigned)__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, K) << 16) {}            \
    explicit __host__ __device__ NAME(const double4 f)                                                          \
        : __x((unsigned)__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, K) |                  \
              (unsigned)__nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, K) << 16) {}          \
    explicit __host__ __device__ operator float4() const {                                                      \
      __half2_raw a = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(__x & 0xffff), K);                      \
      __half2_raw b = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(__x >> 16), K);                         \
      return make_float4(__warpsim_half_bits_to_float(a.x), __warpsim_half_bits_to_float(a.y),                  \
                         __warpsim_half_bits_to_float(b.x), __warpsim_half_bits_to_float(b.y));                 \
    }                                                                                                           \
  };
__WARPSIM_FP8X4_TYPE(__nv_fp8x4_e4m3, __NV_E4M3)
__WARPSIM_FP8X4_TYPE(__nv_fp8x4_e5m2, __NV_E5M2)
#undef __WARPSIM_FP8X4_TYPE
#endif /* __cplusplus */

#endif
