/* warpsim: the CUDA math library in device code. Every function is a call
 * of the libdevice function NVIDIA's own math library uses (__nv_sinf …),
 * declared here and left undefined: clang runs with -nocudalib, so the PTX
 * keeps `.extern .func __nv_sinf`, and the warpsim engine implements those
 * natively with libdevice's results. The host side uses the C library. */
#ifndef __WARPSIM_MATH_FUNCTIONS_H__
#define __WARPSIM_MATH_FUNCTIONS_H__
/* NVIDIA's include-guard name, which programs test. */
#define __MATH_FUNCTIONS_H__
#include "__warpsim_defines.h"
#include <math.h>
#include <stdlib.h>
#ifdef __cplusplus
#include <cmath>
#include <cstdlib>
#endif

#ifndef __WARPSIM_HOST_ONLY__
#define __WARPSIM_UNARY(X)                                                     \
  extern "C" __device__ float __nv_##X##f(float);                              \
  extern "C" __device__ double __nv_##X(double);                               \
  __WARPSIM_DI__ float X##f(float a) { return __nv_##X##f(a); }                \
  __WARPSIM_DI__ double X(double a) { return __nv_##X(a); }                    \
  __WARPSIM_DI__ float X(float a) { return __nv_##X##f(a); }
#define __WARPSIM_BINARY(X)                                                    \
  extern "C" __device__ float __nv_##X##f(float, float);                       \
  extern "C" __device__ double __nv_##X(double, double);                       \
  __WARPSIM_DI__ float X##f(float a, float b) { return __nv_##X##f(a, b); }    \
  __WARPSIM_DI__ double X(double a, double b) { return __nv_##X(a, b); }       \
  __WARPSIM_DI__ float X(float a, float b) { return __nv_##X##f(a, b); }

__WARPSIM_UNARY(acos) __WARPSIM_UNARY(acosh) __WARPSIM_UNARY(asin) __WARPSIM_UNARY(asinh)
__WARPSIM_UNARY(atan) __WARPSIM_UNARY(atanh) __WARPSIM_UNARY(cbrt) __WARPSIM_UNARY(ceil)
__WARPSIM_UNARY(cos) __WARPSIM_UNARY(cosh) __WARPSIM_UNARY(cospi) __WARPSIM_UNARY(erf)
__WARPSIM_UNARY(erfc) __WARPSIM_UNARY(erfcinv) __WARPSIM_UNARY(erfcx) __WARPSIM_UNARY(erfinv)
__WARPSIM_UNARY(exp) __WARPSIM_UNARY(exp10) __WARPSIM_UNARY(exp2) __WARPSIM_UNARY(expm1)
__WARPSIM_UNARY(floor) __WARPSIM_UNARY(j0) __WARPSIM_UNARY(j1) __WARPSIM_UNARY(lgamma)
__WARPSIM_UNARY(log) __WARPSIM_UNARY(log10) __WARPSIM_UNARY(log1p) __WARPSIM_UNARY(log2)
__WARPSIM_UNARY(logb) __WARPSIM_UNARY(nearbyint) __WARPSIM_UNARY(normcdf) __WARPSIM_UNARY(normcdfinv)
__WARPSIM_UNARY(rcbrt) __WARPSIM_UNARY(rint) __WARPSIM_UNARY(round) __WARPSIM_UNARY(rsqrt)
__WARPSIM_UNARY(sin) __WARPSIM_UNARY(sinh) __WARPSIM_UNARY(sinpi) __WARPSIM_UNARY(sqrt)
__WARPSIM_UNARY(tan) __WARPSIM_UNARY(tanh) __WARPSIM_UNARY(tgamma) __WARPSIM_UNARY(trunc)
__WARPSIM_UNARY(y0) __WARPSIM_UNARY(y1)
__WARPSIM_BINARY(atan2) __WARPSIM_BINARY(copysign) __WARPSIM_BINARY(fdim) __WARPSIM_BINARY(fmod)
__WARPSIM_BINARY(hypot) __WARPSIM_BINARY(nextafter) __WARPSIM_BINARY(pow) __WARPSIM_BINARY(remainder)
__WARPSIM_BINARY(rhypot)
#undef __WARPSIM_UNARY
#undef __WARPSIM_BINARY

/* fabs, fmin, fmax are single PTX instructions (abs, min, max). */
__WARPSIM_DI__ float fabsf(float a) { return __builtin_fabsf(a); }
__WARPSIM_DI__ double fabs(double a) { return __builtin_fabs(a); }
__WARPSIM_DI__ float fabs(float a) { return __builtin_fabsf(a); }
__WARPSIM_DI__ float fminf(float a, float b) { return __builtin_fminf(a, b); }
__WARPSIM_DI__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__WARPSIM_DI__ double fmin(double a, double b) { return __builtin_fmin(a, b); }
__WARPSIM_DI__ double fmax(double a, double b) { return __builtin_fmax(a, b); }
__WARPSIM_DI__ float fmin(float a, float b) { return __builtin_fminf(a, b); }
__WARPSIM_DI__ float fmax(float a, float b) { return __builtin_fmaxf(a, b); }

extern "C" {
__device__ float __nv_fmaf(float, float, float);
__device__ double __nv_fma(double, double, double);
__device__ float __nv_frexpf(float, int *);
__device__ double __nv_frexp(double, int *);
__device__ float __nv_ldexpf(float, int);
__device__ double __nv_ldexp(double, int);
__device__ float __nv_scalbnf(float, int);
__device__ double __nv_scalbn(double, int);
__device__ float __nv_modff(float, float *);
__device__ double __nv_modf(double, double *);
__device__ void __nv_sincosf(float, float *, float *);
__device__ void __nv_sincos(double, double *, double *);
__device__ void __nv_sincospif(float, float *, float *);
__device__ void __nv_sincospi(double, double *, double *);
__device__ float __nv_remquof(float, float, int *);
__device__ double __nv_remquo(double, double, int *);
__device__ int __nv_ilogbf(float);
__device__ int __nv_ilogb(double);
__device__ long long __nv_llrintf(float);
__device__ long long __nv_llrint(double);
__device__ long long __nv_llroundf(float);
__device__ long long __nv_llround(double);
__device__ float __nv_powif(float, int);
__device__ double __nv_powi(double, int);
__device__ float __nv_jnf(int, float);
__device__ double __nv_jn(int, double);
__device__ float __nv_ynf(int, float);
__device__ double __nv_yn(int, double);
__device__ float __nv_norm3df(float, float, float);
__device__ double __nv_norm3d(double, double, double);
__device__ float __nv_fast_expf(float);
}
__WARPSIM_DI__ float fmaf(float a, float b, float c) { return __nv_fmaf(a, b, c); }
__WARPSIM_DI__ double fma(double a, double b, double c) { return __nv_fma(a, b, c); }
__WARPSIM_DI__ float fma(float a, float b, float c) { return __nv_fmaf(a, b, c); }
__WARPSIM_DI__ float frexpf(float a, int *e) { return __nv_frexpf(a, e); }
__WARPSIM_DI__ double frexp(double a, int *e) { return __nv_frexp(a, e); }
__WARPSIM_DI__ float ldexpf(float a, int e) { return __nv_ldexpf(a, e); }
__WARPSIM_DI__ double ldexp(double a, int e) { return __nv_ldexp(a, e); }
__WARPSIM_DI__ float scalbnf(float a, int e) { return __nv_scalbnf(a, e); }
__WARPSIM_DI__ double scalbn(double a, int e) { return __nv_scalbn(a, e); }
__WARPSIM_DI__ float modff(float a, float *i) { return __nv_modff(a, i); }
__WARPSIM_DI__ double modf(double a, double *i) { return __nv_modf(a, i); }
__WARPSIM_DI__ void sincosf(float a, float *s, float *c) { __nv_sincosf(a, s, c); }
__WARPSIM_DI__ void sincos(double a, double *s, double *c) { __nv_sincos(a, s, c); }
__WARPSIM_DI__ void sincospif(float a, float *s, float *c) { __nv_sincospif(a, s, c); }
__WARPSIM_DI__ void sincospi(double a, double *s, double *c) { __nv_sincospi(a, s, c); }
/* CUDA's classification functions under their glibc-style names, which
 * libcu++ 1.x's <cuda/std/cmath> calls in device code (its complex
 * operators); clang would otherwise find only glibc's host functions. */
__WARPSIM_DI__ int __isnan(double a) { return __builtin_isnan(a); }
__WARPSIM_DI__ int __isinf(double a) { return __builtin_isinf(a); }
__WARPSIM_DI__ int __finite(double a) { return __builtin_isfinite(a); }
__WARPSIM_DI__ int __isnanf(float a) { return __builtin_isnan(a); }
__WARPSIM_DI__ int __isinff(float a) { return __builtin_isinf(a); }
__WARPSIM_DI__ int __finitef(float a) { return __builtin_isfinite(a); }
__WARPSIM_DI__ float remquof(float a, float b, int *q) { return __nv_remquof(a, b, q); }
__WARPSIM_DI__ double remquo(double a, double b, int *q) { return __nv_remquo(a, b, q); }
__WARPSIM_DI__ int ilogbf(float a) { return __nv_ilogbf(a); }
__WARPSIM_DI__ int ilogb(double a) { return __nv_ilogb(a); }
__WARPSIM_DI__ long long llrintf(float a) { return __nv_llrintf(a); }
__WARPSIM_DI__ long long llrint(double a) { return __nv_llrint(a); }
__WARPSIM_DI__ long lrintf(float a) { return (long)__nv_llrintf(a); }
__WARPSIM_DI__ long lrint(double a) { return (long)__nv_llrint(a); }
__WARPSIM_DI__ long long llroundf(float a) { return __nv_llroundf(a); }
__WARPSIM_DI__ long long llround(double a) { return __nv_llround(a); }
__WARPSIM_DI__ long lroundf(float a) { return (long)__nv_llroundf(a); }
__WARPSIM_DI__ long lround(double a) { return (long)__nv_llround(a); }
__WARPSIM_DI__ float powif(float a, int b) { return __nv_powif(a, b); }
__WARPSIM_DI__ double powi(double a, int b) { return __nv_powi(a, b); }
__WARPSIM_DI__ float pow(float a, int b) { return __nv_powif(a, b); }
__WARPSIM_DI__ double pow(double a, int b) { return __nv_powi(a, b); }
__WARPSIM_DI__ float jnf(int n, float a) { return __nv_jnf(n, a); }
__WARPSIM_DI__ double jn(int n, double a) { return __nv_jn(n, a); }
__WARPSIM_DI__ float ynf(int n, float a) { return __nv_ynf(n, a); }
__WARPSIM_DI__ double yn(int n, double a) { return __nv_yn(n, a); }
__WARPSIM_DI__ float norm3df(float a, float b, float c) { return __nv_norm3df(a, b, c); }
__WARPSIM_DI__ double norm3d(double a, double b, double c) { return __nv_norm3d(a, b, c); }

/* More of the CUDA Math API: libdevice functions the engine implements. */
extern "C" {
__device__ float __nv_rnorm3df(float, float, float);
__device__ double __nv_rnorm3d(double, double, double);
__device__ float __nv_norm4df(float, float, float, float);
__device__ double __nv_norm4d(double, double, double, double);
__device__ float __nv_rnorm4df(float, float, float, float);
__device__ double __nv_rnorm4d(double, double, double, double);
__device__ float __nv_cyl_bessel_i0f(float);
__device__ double __nv_cyl_bessel_i0(double);
__device__ float __nv_cyl_bessel_i1f(float);
__device__ double __nv_cyl_bessel_i1(double);
__device__ float __nv_fmaf_ieee_rn(float, float, float);
__device__ float __nv_fmaf_ieee_rz(float, float, float);
__device__ float __nv_fmaf_ieee_rd(float, float, float);
__device__ float __nv_fmaf_ieee_ru(float, float, float);
}
__WARPSIM_DI__ float rnorm3df(float a, float b, float c) { return __nv_rnorm3df(a, b, c); }
__WARPSIM_DI__ double rnorm3d(double a, double b, double c) { return __nv_rnorm3d(a, b, c); }
__WARPSIM_DI__ float norm4df(float a, float b, float c, float d) { return __nv_norm4df(a, b, c, d); }
__WARPSIM_DI__ double norm4d(double a, double b, double c, double d) { return __nv_norm4d(a, b, c, d); }
__WARPSIM_DI__ float rnorm4df(float a, float b, float c, float d) { return __nv_rnorm4df(a, b, c, d); }
__WARPSIM_DI__ double rnorm4d(double a, double b, double c, double d) { return __nv_rnorm4d(a, b, c, d); }
__WARPSIM_DI__ float normf(int n, const float *a) {
  float s = 0;
  for (int i = 0; i < n; i++) s = __nv_fmaf(a[i], a[i], s);
  return __nv_sqrtf(s);
}
__WARPSIM_DI__ double norm(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; i++) s = __nv_fma(a[i], a[i], s);
  return __nv_sqrt(s);
}
__WARPSIM_DI__ float rnormf(int n, const float *a) { return 1.0f / normf(n, a); }
__WARPSIM_DI__ double rnorm(int n, const double *a) { return 1.0 / norm(n, a); }
__WARPSIM_DI__ float cyl_bessel_i0f(float a) { return __nv_cyl_bessel_i0f(a); }
__WARPSIM_DI__ double cyl_bessel_i0(double a) { return __nv_cyl_bessel_i0(a); }
__WARPSIM_DI__ float cyl_bessel_i1f(float a) { return __nv_cyl_bessel_i1f(a); }
__WARPSIM_DI__ double cyl_bessel_i1(double a) { return __nv_cyl_bessel_i1(a); }
__WARPSIM_DI__ float fdividef(float a, float b) { return a / b; }
__WARPSIM_DI__ float __fmaf_ieee_rn(float a, float b, float c) { return __nv_fmaf_ieee_rn(a, b, c); }
__WARPSIM_DI__ float __fmaf_ieee_rz(float a, float b, float c) { return __nv_fmaf_ieee_rz(a, b, c); }
__WARPSIM_DI__ float __fmaf_ieee_rd(float a, float b, float c) { return __nv_fmaf_ieee_rd(a, b, c); }
__WARPSIM_DI__ float __fmaf_ieee_ru(float a, float b, float c) { return __nv_fmaf_ieee_ru(a, b, c); }

/* SIMD video intrinsics on 2×16 and 4×8 bit lanes (libdevice's __nv_v*). */
#define __WARPSIM_SIMD(X)                                                      \
  extern "C" __device__ unsigned __nv_##X(unsigned, unsigned);                 \
  __WARPSIM_DI__ unsigned __##X(unsigned a, unsigned b) { return __nv_##X(a, b); }
#define __WARPSIM_SIMD1(X)                                                     \
  extern "C" __device__ unsigned __nv_##X(unsigned);                           \
  __WARPSIM_DI__ unsigned __##X(unsigned a) { return __nv_##X(a); }
__WARPSIM_SIMD1(vabs2) __WARPSIM_SIMD1(vabs4) __WARPSIM_SIMD1(vabsss2) __WARPSIM_SIMD1(vabsss4)
__WARPSIM_SIMD1(vneg2) __WARPSIM_SIMD1(vneg4) __WARPSIM_SIMD1(vnegss2) __WARPSIM_SIMD1(vnegss4)
__WARPSIM_SIMD(vabsdiffs2) __WARPSIM_SIMD(vabsdiffs4) __WARPSIM_SIMD(vabsdiffu2) __WARPSIM_SIMD(vabsdiffu4)
__WARPSIM_SIMD(vadd2) __WARPSIM_SIMD(vadd4) __WARPSIM_SIMD(vaddss2) __WARPSIM_SIMD(vaddss4)
__WARPSIM_SIMD(vaddus2) __WARPSIM_SIMD(vaddus4) __WARPSIM_SIMD(vavgs2) __WARPSIM_SIMD(vavgs4)
__WARPSIM_SIMD(vavgu2) __WARPSIM_SIMD(vavgu4) __WARPSIM_SIMD(vcmpeq2) __WARPSIM_SIMD(vcmpeq4)
__WARPSIM_SIMD(vcmpges2) __WARPSIM_SIMD(vcmpges4) __WARPSIM_SIMD(vcmpgeu2) __WARPSIM_SIMD(vcmpgeu4)
__WARPSIM_SIMD(vcmpgts2) __WARPSIM_SIMD(vcmpgts4) __WARPSIM_SIMD(vcmpgtu2) __WARPSIM_SIMD(vcmpgtu4)
__WARPSIM_SIMD(vcmples2) __WARPSIM_SIMD(vcmples4) __WARPSIM_SIMD(vcmpleu2) __WARPSIM_SIMD(vcmpleu4)
__WARPSIM_SIMD(vcmplts2) __WARPSIM_SIMD(vcmplts4) __WARPSIM_SIMD(vcmpltu2) __WARPSIM_SIMD(vcmpltu4)
__WARPSIM_SIMD(vcmpne2) __WARPSIM_SIMD(vcmpne4) __WARPSIM_SIMD(vhaddu2) __WARPSIM_SIMD(vhaddu4)
__WARPSIM_SIMD(vmaxs2) __WARPSIM_SIMD(vmaxs4) __WARPSIM_SIMD(vmaxu2) __WARPSIM_SIMD(vmaxu4)
__WARPSIM_SIMD(vmins2) __WARPSIM_SIMD(vmins4) __WARPSIM_SIMD(vminu2) __WARPSIM_SIMD(vminu4)
__WARPSIM_SIMD(vsads2) __WARPSIM_SIMD(vsads4) __WARPSIM_SIMD(vsadu2) __WARPSIM_SIMD(vsadu4)
__WARPSIM_SIMD(vseteq2) __WARPSIM_SIMD(vseteq4) __WARPSIM_SIMD(vsetges2) __WARPSIM_SIMD(vsetges4)
__WARPSIM_SIMD(vsetgeu2) __WARPSIM_SIMD(vsetgeu4) __WARPSIM_SIMD(vsetgts2) __WARPSIM_SIMD(vsetgts4)
__WARPSIM_SIMD(vsetgtu2) __WARPSIM_SIMD(vsetgtu4) __WARPSIM_SIMD(vsetles2) __WARPSIM_SIMD(vsetles4)
__WARPSIM_SIMD(vsetleu2) __WARPSIM_SIMD(vsetleu4) __WARPSIM_SIMD(vsetlts2) __WARPSIM_SIMD(vsetlts4)
__WARPSIM_SIMD(vsetltu2) __WARPSIM_SIMD(vsetltu4) __WARPSIM_SIMD(vsetne2) __WARPSIM_SIMD(vsetne4)
__WARPSIM_SIMD(vsub2) __WARPSIM_SIMD(vsub4) __WARPSIM_SIMD(vsubss2) __WARPSIM_SIMD(vsubss4)
__WARPSIM_SIMD(vsubus2) __WARPSIM_SIMD(vsubus4)
#undef __WARPSIM_SIMD
#undef __WARPSIM_SIMD1

/* Device memcpy and memset, as CUDA declares them beside the C library's;
 * nan and nanf likewise. */
extern "C" {
__device__ static inline double nan(const char *) { return __builtin_nan(""); }
__device__ static inline float nanf(const char *) { return __builtin_nanf(""); }
__device__ static inline void *memcpy(void *d, const void *s, size_t n) { return __builtin_memcpy(d, s, n); }
__device__ static inline void *memset(void *d, int c, size_t n) { return __builtin_memset(d, c, n); }
}

#endif /* __WARPSIM_HOST_ONLY__ */

#ifndef __WARPSIM_HOST_ONLY__
/* min/max: CUDA offers them for host and device code of .cu files (not to
 * host-only .cpp files). */
#define __WARPSIM_MINMAX(T)                                                    \
  __WARPSIM_HDI__ T min(T a, T b) { return a < b ? a : b; }                    \
  __WARPSIM_HDI__ T max(T a, T b) { return a > b ? a : b; }
__WARPSIM_MINMAX(int)
__WARPSIM_MINMAX(unsigned int)
__WARPSIM_MINMAX(long)
__WARPSIM_MINMAX(unsigned long)
__WARPSIM_MINMAX(long long)
__WARPSIM_MINMAX(unsigned long long)
#undef __WARPSIM_MINMAX
__WARPSIM_HDI__ float min(float a, float b) { return __builtin_fminf(a, b); }
__WARPSIM_HDI__ float max(float a, float b) { return __builtin_fmaxf(a, b); }
__WARPSIM_HDI__ double min(double a, double b) { return __builtin_fmin(a, b); }
__WARPSIM_HDI__ double max(double a, double b) { return __builtin_fmax(a, b); }
__WARPSIM_HDI__ unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
__WARPSIM_HDI__ unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
__WARPSIM_HDI__ unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
__WARPSIM_HDI__ unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
/* The mixed-type overloads of CUDA's math_functions.hpp: the common type. */
__WARPSIM_HDI__ unsigned long min(long a, unsigned long b) { return min((unsigned long)a, b); }
__WARPSIM_HDI__ unsigned long min(unsigned long a, long b) { return min(a, (unsigned long)b); }
__WARPSIM_HDI__ unsigned long max(long a, unsigned long b) { return max((unsigned long)a, b); }
__WARPSIM_HDI__ unsigned long max(unsigned long a, long b) { return max(a, (unsigned long)b); }
__WARPSIM_HDI__ unsigned long long min(long long a, unsigned long long b) { return min((unsigned long long)a, b); }
__WARPSIM_HDI__ unsigned long long min(unsigned long long a, long long b) { return min(a, (unsigned long long)b); }
__WARPSIM_HDI__ unsigned long long max(long long a, unsigned long long b) { return max((unsigned long long)a, b); }
__WARPSIM_HDI__ unsigned long long max(unsigned long long a, long long b) { return max(a, (unsigned long long)b); }
__WARPSIM_HDI__ double min(float a, double b) { return __builtin_fmin((double)a, b); }
__WARPSIM_HDI__ double min(double a, float b) { return __builtin_fmin(a, (double)b); }
__WARPSIM_HDI__ double max(float a, double b) { return __builtin_fmax((double)a, b); }
__WARPSIM_HDI__ double max(double a, float b) { return __builtin_fmax(a, (double)b); }
__WARPSIM_HDI__ unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
__WARPSIM_HDI__ unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
__WARPSIM_HDI__ long long llmin(long long a, long long b) { return a < b ? a : b; }
__WARPSIM_HDI__ long long llmax(long long a, long long b) { return a > b ? a : b; }
__WARPSIM_HDI__ unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__WARPSIM_HDI__ unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
__WARPSIM_DI__ int abs(int a) { return a < 0 ? -a : a; }
__WARPSIM_DI__ long labs(long a) { return a < 0 ? -a : a; }
__WARPSIM_DI__ long long llabs(long long a) { return a < 0 ? -a : a; }
#endif

#endif
