/* warpsim: cuComplex.h, the CUDA toolkit's single- and double-precision
 * complex numbers for host and device code: cuFloatComplex (float2) and
 * cuDoubleComplex (double2), their construction, parts, conjugate,
 * arithmetic, magnitude and conversions. Division scales both operands by
 * |re| + |im| of the divisor and the magnitude divides by the larger part,
 * so that neither overflows where the result does not (the toolkit's
 * algorithms: testdata/programs4/cucomplex_dft matches the H100). */
#ifndef __WARPSIM_CUCOMPLEX_H__
#define __WARPSIM_CUCOMPLEX_H__
#define CU_COMPLEX_H_
#include <math.h>
#include "vector_types.h"
#include "host_defines.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

__host__ __device__ static __inline__ float cuCrealf(cuFloatComplex x) { return x.x; }
__host__ __device__ static __inline__ float cuCimagf(cuFloatComplex x) { return x.y; }
__host__ __device__ static __inline__ cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__host__ __device__ static __inline__ cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__host__ __device__ static __inline__ cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
__host__ __device__ static __inline__ cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
/* nvcc contracts each part of a product into a multiply and a fused
 * multiply-add, the first product fused (the H100's DFT in programs4);
 * clang's contraction picks otherwise, so device code spells it out. The
 * host, as a host compiler without FMA, rounds each operation. */
#if defined(__CUDA_ARCH__)
#define __WARPSIM_CMUL(MAKE, F, x, y) MAKE(F((x).x, (y).x, -((x).y * (y).y)), F((x).x, (y).y, (x).y * (y).x))
#else
#define __WARPSIM_CMUL(MAKE, F, x, y) MAKE((x).x * (y).x - (x).y * (y).y, (x).x * (y).y + (x).y * (y).x)
#endif
__host__ __device__ static __inline__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return __WARPSIM_CMUL(make_cuFloatComplex, fmaf, x, y);
}
__host__ __device__ static __inline__ cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  float s = fabsf(y.x) + fabsf(y.y);
  float inv = 1.0f / s;
  float xr = x.x * inv, xi = x.y * inv, yr = y.x * inv, yi = y.y * inv;
  inv = 1.0f / (yr * yr + yi * yi);
  return make_cuFloatComplex((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv);
}
__host__ __device__ static __inline__ float cuCabsf(cuFloatComplex x) {
  float a = fabsf(x.x), b = fabsf(x.y);
  float big = fmaxf(a, b), small = fminf(a, b);
  float q = small / big;
  float r = big * sqrtf(1.0f + q * q);
  if (big == 0.0f || big > 3.402823466e38f || small > 3.402823466e38f) r = big + small;
  return r;
}

__host__ __device__ static __inline__ double cuCreal(cuDoubleComplex x) { return x.x; }
__host__ __device__ static __inline__ double cuCimag(cuDoubleComplex x) { return x.y; }
__host__ __device__ static __inline__ cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__host__ __device__ static __inline__ cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__host__ __device__ static __inline__ cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
__host__ __device__ static __inline__ cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
__host__ __device__ static __inline__ cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return __WARPSIM_CMUL(make_cuDoubleComplex, fma, x, y);
}
__host__ __device__ static __inline__ cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  double s = fabs(y.x) + fabs(y.y);
  double inv = 1.0 / s;
  double xr = x.x * inv, xi = x.y * inv, yr = y.x * inv, yi = y.y * inv;
  inv = 1.0 / (yr * yr + yi * yi);
  return make_cuDoubleComplex((xr * yr + xi * yi) * inv, (xi * yr - xr * yi) * inv);
}
__host__ __device__ static __inline__ double cuCabs(cuDoubleComplex x) {
  double a = fabs(x.x), b = fabs(x.y);
  double big = fmax(a, b), small = fmin(a, b);
  double q = small / big;
  double r = big * sqrt(1.0 + q * q);
  if (big == 0.0 || big > 1.79769313486231570e+308 || small > 1.79769313486231570e+308) r = big + small;
  return r;
}

#if defined(__cplusplus)
}
#endif

__host__ __device__ static __inline__ cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ static __inline__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
__host__ __device__ static __inline__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}
/* x * y + d, each part as two fused multiply-adds. */
__host__ __device__ static __inline__ cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  float r = fmaf(x.x, y.x, d.x), i = fmaf(x.x, y.y, d.y);
  r = fmaf(-x.y, y.y, r);
  i = fmaf(x.y, y.x, i);
  return make_cuComplex(r, i);
}
__host__ __device__ static __inline__ cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  double r = fma(x.x, y.x, d.x), i = fma(x.x, y.y, d.y);
  r = fma(-x.y, y.y, r);
  i = fma(x.y, y.x, i);
  return make_cuDoubleComplex(r, i);
}
#endif
