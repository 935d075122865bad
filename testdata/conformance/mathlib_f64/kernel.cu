// The double-precision math library (libdevice under nvcc, .extern __nv_*
// calls under clang).
#include "wcuda.h"

extern "C" __global__ void math_f64(const double *a, const double *b, double *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  double x = a[i], y = b[i];
  ROWS_BEGIN;
  ROW(out, sin, sin(x));
  ROW(out, cos, cos(x));
  ROW(out, tan, tan(x));
  ROW(out, exp, exp(x));
  ROW(out, exp2, exp2(x));
  ROW(out, exp10, exp10(x));
  ROW(out, expm1, expm1(x));
  ROW(out, log, log(x));
  ROW(out, log2, log2(x));
  ROW(out, log10, log10(x));
  ROW(out, log1p, log1p(x));
  ROW(out, pow, pow(x, y));
  ROW(out, sqrt, sqrt(x));
  ROW(out, rsqrt, rsqrt(x));
  ROW(out, cbrt, cbrt(x));
  ROW(out, erf, erf(x));
  ROW(out, erfc, erfc(x));
  ROW(out, tanh, tanh(x));
  ROW(out, sinh, sinh(x));
  ROW(out, cosh, cosh(x));
  ROW(out, asin, asin(x));
  ROW(out, acos, acos(x));
  ROW(out, atan, atan(x));
  ROW(out, atan2, atan2(x, y));
  ROW(out, hypot, hypot(x, y));
  ROW(out, fmod, fmod(x, y));
  ROW(out, remainder, remainder(x, y));
  ROW(out, lgamma, lgamma(x));
  ROW(out, tgamma, tgamma(x));
  ROW(out, floor, floor(x));
  ROW(out, ceil, ceil(x));
  ROW(out, trunc, trunc(x));
  ROW(out, round, round(x));
  ROW(out, rint, rint(x));
  ROW(out, fabs, fabs(x));
  ROW(out, fmin, fmin(x, y));
  ROW(out, fmax, fmax(x, y));
  ROW(out, copysign, copysign(x, y));
  ROW(out, fdim, fdim(x, y));
  ROW(out, fma, fma(x, y, x));
}
