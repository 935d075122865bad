// The single-precision math library. Under nvcc these inline libdevice;
// under clang they are calls of .extern __nv_* functions that warpsim
// implements natively, so this case checks those against the GPU.
#include "wcuda.h"

extern "C" __global__ void math_f32(const float *a, const float *b, float *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = a[i], y = b[i];
  ROWS_BEGIN;
  ROW(out, sinf, sinf(x));
  ROW(out, cosf, cosf(x));
  ROW(out, tanf, tanf(x));
  ROW(out, expf, expf(x));
  ROW(out, exp2f, exp2f(x));
  ROW(out, exp10f, exp10f(x));
  ROW(out, expm1f, expm1f(x));
  ROW(out, logf, logf(x));
  ROW(out, log2f, log2f(x));
  ROW(out, log10f, log10f(x));
  ROW(out, log1pf, log1pf(x));
  ROW(out, powf, powf(x, y));
  ROW(out, sqrtf, sqrtf(x));
  ROW(out, rsqrtf, rsqrtf(x));
  ROW(out, cbrtf, cbrtf(x));
  ROW(out, erff, erff(x));
  ROW(out, erfcf, erfcf(x));
  ROW(out, tanhf, tanhf(x));
  ROW(out, sinhf, sinhf(x));
  ROW(out, coshf, coshf(x));
  ROW(out, asinf, asinf(x));
  ROW(out, acosf, acosf(x));
  ROW(out, atanf, atanf(x));
  ROW(out, atan2f, atan2f(x, y));
  ROW(out, hypotf, hypotf(x, y));
  ROW(out, fmodf, fmodf(x, y));
  ROW(out, remainderf, remainderf(x, y));
  ROW(out, lgammaf, lgammaf(x));
  ROW(out, tgammaf, tgammaf(x));
  ROW(out, floorf, floorf(x));
  ROW(out, ceilf, ceilf(x));
  ROW(out, truncf, truncf(x));
  ROW(out, roundf, roundf(x));
  ROW(out, rintf, rintf(x));
  ROW(out, fabsf, fabsf(x));
  ROW(out, fminf, fminf(x, y));
  ROW(out, fmaxf, fmaxf(x, y));
  ROW(out, copysignf, copysignf(x, y));
  ROW(out, fdimf, fdimf(x, y));
  ROW(out, fmaf, fmaf(x, y, x));
}
