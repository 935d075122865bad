// The .approx functions (the hardware's MUFU unit) and the fast intrinsics
// built on them. Recorded so the simulator learns the real error; compared
// with the ULP bound in tolerance.json.
#include "wcuda.h"

DEF_ASM1(ex2, float, "f", "ex2.approx.f32")
DEF_ASM1(ex2_ftz, float, "f", "ex2.approx.ftz.f32")
DEF_ASM1(lg2, float, "f", "lg2.approx.f32")
DEF_ASM1(lg2_ftz, float, "f", "lg2.approx.ftz.f32")
DEF_ASM1(sin_a, float, "f", "sin.approx.f32")
DEF_ASM1(cos_a, float, "f", "cos.approx.f32")
DEF_ASM1(sin_ftz, float, "f", "sin.approx.ftz.f32")
DEF_ASM1(rcp_a, float, "f", "rcp.approx.f32")
DEF_ASM1(rcp_ftz, float, "f", "rcp.approx.ftz.f32")
DEF_ASM1(rsqrt_a, float, "f", "rsqrt.approx.f32")
DEF_ASM1(rsqrt_ftz, float, "f", "rsqrt.approx.ftz.f32")
DEF_ASM1(sqrt_a, float, "f", "sqrt.approx.f32")
DEF_ASM1(sqrt_ftz, float, "f", "sqrt.approx.ftz.f32")
DEF_ASM1(tanh_a, float, "f", "tanh.approx.f32")
DEF_ASM2(div_a, float, "f", "div.approx.f32")
DEF_ASM2(div_a_ftz, float, "f", "div.approx.ftz.f32")
DEF_ASM2(div_full, float, "f", "div.full.f32")
DEF_ASM2(div_full_ftz, float, "f", "div.full.ftz.f32")
DEF_ASM1(rcp_ftz_d, double, "d", "rcp.approx.ftz.f64")
DEF_ASM1(rsqrt_d, double, "d", "rsqrt.approx.f64")
DEF_ASM1(rsqrt_ftz_d, double, "d", "rsqrt.approx.ftz.f64")
DEF_ASM1(ex2_f16, unsigned short, "h", "ex2.approx.f16")
DEF_ASM1(tanh_f16, unsigned short, "h", "tanh.approx.f16")

extern "C" __global__ void approx_f32(const float *a, const float *b, float *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = a[i], y = b[i];
  ROWS_BEGIN;
  ROW(out, ex2, ex2(x));
  ROW(out, ex2_ftz, ex2_ftz(x));
  ROW(out, lg2, lg2(x));
  ROW(out, lg2_ftz, lg2_ftz(x));
  ROW(out, sin, sin_a(x));
  ROW(out, cos, cos_a(x));
  ROW(out, sin_ftz, sin_ftz(x));
  ROW(out, rcp, rcp_a(x));
  ROW(out, rcp_ftz, rcp_ftz(x));
  ROW(out, rsqrt, rsqrt_a(x));
  ROW(out, rsqrt_ftz, rsqrt_ftz(x));
  ROW(out, sqrt, sqrt_a(x));
  ROW(out, sqrt_ftz, sqrt_ftz(x));
  ROW(out, tanh, tanh_a(x));
  ROW(out, div, div_a(x, y));
  ROW(out, div_ftz, div_a_ftz(x, y));
  ROW(out, div_full, div_full(x, y));
  ROW(out, div_full_ftz, div_full_ftz(x, y));
  ROW(out, fast_expf, __expf(x));
  ROW(out, fast_logf, __logf(x));
  ROW(out, fast_log2f, __log2f(x));
  ROW(out, fast_sinf, __sinf(x));
  ROW(out, fast_cosf, __cosf(x));
  ROW(out, fast_powf, __powf(x, y));
  ROW(out, fast_fdividef, __fdividef(x, y));
}

extern "C" __global__ void approx_f64(const double *a, double *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  double x = a[i];
  ROWS_BEGIN;
  ROW(out, rcp_ftz, rcp_ftz_d(x));
  ROW(out, rsqrt, rsqrt_d(x));
  ROW(out, rsqrt_ftz, rsqrt_ftz_d(x));
}

extern "C" __global__ void approx_f16(const unsigned short *a, unsigned short *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  unsigned short x = a[i];
  ROWS_BEGIN;
  ROW(out, ex2, ex2_f16(x));
  ROW(out, tanh, tanh_f16(x));
}
