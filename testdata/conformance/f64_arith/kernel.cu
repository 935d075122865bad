// Double precision: + - * / with C semantics, every rounding intrinsic, fma,
// sqrt and rcp in four roundings, min/max (NaN, -0/+0), abs/neg, testp, setp.
#include "wcuda.h"

DEF_ASM2(min_d, double, "d", "min.f64")
DEF_ASM2(max_d, double, "d", "max.f64")
DEF_ASM1(abs_d, double, "d", "abs.f64")
DEF_ASM1(neg_d, double, "d", "neg.f64")
DEF_ASM2(copysign_d, double, "d", "copysign.f64")
DEF_ASM3(mad_rz_d, double, "d", "mad.rz.f64")
DEF_ASM1(cvt_rni_d, double, "d", "cvt.rni.f64.f64")
DEF_ASM1(cvt_rzi_d, double, "d", "cvt.rzi.f64.f64")
DEF_ASM1(cvt_rmi_d, double, "d", "cvt.rmi.f64.f64")
DEF_ASM1(cvt_rpi_d, double, "d", "cvt.rpi.f64.f64")

#define DEF_TESTP(fn, op) \
  static __device__ __forceinline__ double fn(double a) { \
    double r; asm("{\n\t.reg .pred p;\n\ttestp." op ".f64 p, %1;\n\tselp.f64 %0, 0d3FF0000000000000, 0d0000000000000000, p;\n\t}" : "=d"(r) : "d"(a)); return r; }
DEF_TESTP(testp_finite, "finite")
DEF_TESTP(testp_infinite, "infinite")
DEF_TESTP(testp_notanumber, "notanumber")
DEF_TESTP(testp_normal, "normal")
DEF_TESTP(testp_subnormal, "subnormal")
#define DEF_SETP(fn, cmp) \
  static __device__ __forceinline__ double fn(double a, double b) { \
    double r; asm("{\n\t.reg .pred p;\n\tsetp." cmp ".f64 p, %1, %2;\n\tselp.f64 %0, 0d3FF0000000000000, 0d0000000000000000, p;\n\t}" \
                  : "=d"(r) : "d"(a), "d"(b)); return r; }
DEF_SETP(setp_eq, "eq") DEF_SETP(setp_ne, "ne") DEF_SETP(setp_lt, "lt") DEF_SETP(setp_le, "le")
DEF_SETP(setp_gtu, "gtu") DEF_SETP(setp_geu, "geu") DEF_SETP(setp_nan, "nan") DEF_SETP(setp_num, "num")

extern "C" __global__ void f64_ops(const double *a, const double *b, const double *c, double *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, add, x + y);
  ROW(out, sub, x - y);
  ROW(out, mul, x * y);
  ROW(out, div, x / y);
  ROW(out, expr_mad, x * y + z);
  ROW(out, add_rn, __dadd_rn(x, y));
  ROW(out, add_rz, __dadd_rz(x, y));
  ROW(out, add_ru, __dadd_ru(x, y));
  ROW(out, add_rd, __dadd_rd(x, y));
  ROW(out, sub_rn, __dsub_rn(x, y));
  ROW(out, sub_rz, __dsub_rz(x, y));
  ROW(out, sub_ru, __dsub_ru(x, y));
  ROW(out, sub_rd, __dsub_rd(x, y));
  ROW(out, mul_rn, __dmul_rn(x, y));
  ROW(out, mul_rz, __dmul_rz(x, y));
  ROW(out, mul_ru, __dmul_ru(x, y));
  ROW(out, mul_rd, __dmul_rd(x, y));
  ROW(out, div_rn, __ddiv_rn(x, y));
  ROW(out, div_rz, __ddiv_rz(x, y));
  ROW(out, div_ru, __ddiv_ru(x, y));
  ROW(out, div_rd, __ddiv_rd(x, y));
  ROW(out, fma_rn, __fma_rn(x, y, z));
  ROW(out, fma_rz, __fma_rz(x, y, z));
  ROW(out, fma_ru, __fma_ru(x, y, z));
  ROW(out, fma_rd, __fma_rd(x, y, z));
  ROW(out, mad_rz, mad_rz_d(x, y, z));
  ROW(out, sqrt_rn, __dsqrt_rn(x));
  ROW(out, sqrt_rz, __dsqrt_rz(x));
  ROW(out, sqrt_ru, __dsqrt_ru(x));
  ROW(out, sqrt_rd, __dsqrt_rd(x));
  ROW(out, rcp_rn, __drcp_rn(x));
  ROW(out, rcp_rz, __drcp_rz(x));
  ROW(out, rcp_ru, __drcp_ru(x));
  ROW(out, rcp_rd, __drcp_rd(x));
  ROW(out, min, min_d(x, y));
  ROW(out, max, max_d(x, y));
  ROW(out, abs, abs_d(x));
  ROW(out, neg, neg_d(x));
  ROW(out, copysign, copysign_d(x, y));
  ROW(out, cvt_rni, cvt_rni_d(x));
  ROW(out, cvt_rzi, cvt_rzi_d(x));
  ROW(out, cvt_rmi, cvt_rmi_d(x));
  ROW(out, cvt_rpi, cvt_rpi_d(x));
  ROW(out, testp_finite, testp_finite(x));
  ROW(out, testp_infinite, testp_infinite(x));
  ROW(out, testp_notanumber, testp_notanumber(x));
  ROW(out, testp_normal, testp_normal(x));
  ROW(out, testp_subnormal, testp_subnormal(x));
  ROW(out, setp_eq, setp_eq(x, y));
  ROW(out, setp_ne, setp_ne(x, y));
  ROW(out, setp_lt, setp_lt(x, y));
  ROW(out, setp_le, setp_le(x, y));
  ROW(out, setp_gtu, setp_gtu(x, y));
  ROW(out, setp_geu, setp_geu(x, y));
  ROW(out, setp_nan, setp_nan(x, y));
  ROW(out, setp_num, setp_num(x, y));
  ROW(out, c_select, x < y ? z : x);
}
