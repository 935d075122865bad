// Single precision: + - * / with C semantics, every rounding intrinsic,
// fma in four roundings, sqrt/rcp in four roundings, ftz and sat variants,
// min/max (NaN, -0/+0), abs/neg/copysign, testp and every setp comparison.
#include "wcuda.h"

DEF_ASM2(add_ftz, float, "f", "add.ftz.f32")
DEF_ASM2(sub_ftz, float, "f", "sub.rz.ftz.f32")
DEF_ASM2(mul_ftz, float, "f", "mul.ftz.f32")
DEF_ASM2(add_sat, float, "f", "add.sat.f32")
DEF_ASM2(mul_rm_ftz_sat, float, "f", "mul.rm.ftz.sat.f32")
DEF_ASM2(div_rn_ftz, float, "f", "div.rn.ftz.f32")
DEF_ASM2(div_rz_ftz, float, "f", "div.rz.ftz.f32")
DEF_ASM3(fma_rn_ftz, float, "f", "fma.rn.ftz.f32")
DEF_ASM3(fma_rp_ftz_sat, float, "f", "fma.rp.ftz.sat.f32")
DEF_ASM3(fma_rn_sat, float, "f", "fma.rn.sat.f32")
DEF_ASM3(mad_rn, float, "f", "mad.rn.f32")
DEF_ASM1(sqrt_rn_ftz, float, "f", "sqrt.rn.ftz.f32")
DEF_ASM1(rcp_rn_ftz, float, "f", "rcp.rn.ftz.f32")
DEF_ASM1(rcp_rz_ftz, float, "f", "rcp.rz.ftz.f32")
DEF_ASM2(min_f, float, "f", "min.f32")
DEF_ASM2(max_f, float, "f", "max.f32")
DEF_ASM2(min_nan, float, "f", "min.NaN.f32")
DEF_ASM2(max_nan, float, "f", "max.NaN.f32")
DEF_ASM2(min_ftz, float, "f", "min.ftz.f32")
DEF_ASM2(max_ftz_nan, float, "f", "max.ftz.NaN.f32")
DEF_ASM1(abs_f, float, "f", "abs.f32")
DEF_ASM1(abs_ftz, float, "f", "abs.ftz.f32")
DEF_ASM1(neg_f, float, "f", "neg.f32")
DEF_ASM1(neg_ftz, float, "f", "neg.ftz.f32")
DEF_ASM2(copysign_f, float, "f", "copysign.f32")
DEF_ASM1(cvt_sat, float, "f", "cvt.sat.f32.f32")
DEF_ASM1(cvt_ftz, float, "f", "cvt.ftz.f32.f32")
DEF_ASM1(cvt_rni, float, "f", "cvt.rni.f32.f32")
DEF_ASM1(cvt_rzi, float, "f", "cvt.rzi.f32.f32")
DEF_ASM1(cvt_rmi, float, "f", "cvt.rmi.f32.f32")
DEF_ASM1(cvt_rpi, float, "f", "cvt.rpi.f32.f32")
DEF_ASM1(cvt_rni_ftz, float, "f", "cvt.rni.ftz.f32.f32")

#define DEF_TESTP(fn, op) \
  static __device__ __forceinline__ float fn(float a) { \
    float r; asm("{\n\t.reg .pred p;\n\ttestp." op ".f32 p, %1;\n\tselp.f32 %0, 0f3F800000, 0f00000000, p;\n\t}" : "=f"(r) : "f"(a)); return r; }
DEF_TESTP(testp_finite, "finite")
DEF_TESTP(testp_infinite, "infinite")
DEF_TESTP(testp_number, "number")
DEF_TESTP(testp_notanumber, "notanumber")
DEF_TESTP(testp_normal, "normal")
DEF_TESTP(testp_subnormal, "subnormal")

// setp.CMP writes 1, 2, 4, 8 for (p, !p) combined with and/or/xor of a second predicate.
#define DEF_SETP(fn, cmp) \
  static __device__ __forceinline__ float fn(float a, float b) { \
    float r; asm("{\n\t.reg .pred p, q;\n\tsetp." cmp ".f32 p|q, %1, %2;\n\tselp.f32 %0, 0f3F800000, 0f00000000, p;\n\t" \
                 "@q add.f32 %0, %0, 0f40000000;\n\t}" : "=f"(r) : "f"(a), "f"(b)); return r; }
DEF_SETP(setp_eq, "eq") DEF_SETP(setp_ne, "ne") DEF_SETP(setp_lt, "lt") DEF_SETP(setp_le, "le")
DEF_SETP(setp_gt, "gt") DEF_SETP(setp_ge, "ge") DEF_SETP(setp_equ, "equ") DEF_SETP(setp_neu, "neu")
DEF_SETP(setp_ltu, "ltu") DEF_SETP(setp_leu, "leu") DEF_SETP(setp_gtu, "gtu") DEF_SETP(setp_geu, "geu")
DEF_SETP(setp_num, "num") DEF_SETP(setp_nan, "nan") DEF_SETP(setp_lt_ftz, "lt.ftz")
static __device__ __forceinline__ float setp_combined(float a, float b, float c) {
  float r; asm("{\n\t.reg .pred p, q, s;\n\tsetp.gt.f32 s, %3, 0f00000000;\n\tsetp.lt.and.f32 p|q, %1, %2, s;\n\t"
               "selp.f32 %0, 0f3F800000, 0f00000000, p;\n\t@q add.f32 %0, %0, 0f40000000;\n\t}"
               : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }
static __device__ __forceinline__ float set_f32(float a, float b) {
  unsigned r; asm("set.le.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); return __uint_as_float(r); }
static __device__ __forceinline__ float slct_f32(float a, float b, float c) {
  float r; asm("slct.f32.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return r; }

extern "C" __global__ void f32_ops(const float *a, const float *b, const float *c, float *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, add, x + y);
  ROW(out, sub, x - y);
  ROW(out, mul, x * y);
  ROW(out, div, x / y);
  ROW(out, expr_mad, x * y + z);
  ROW(out, add_rn, __fadd_rn(x, y));
  ROW(out, add_rz, __fadd_rz(x, y));
  ROW(out, add_ru, __fadd_ru(x, y));
  ROW(out, add_rd, __fadd_rd(x, y));
  ROW(out, sub_rn, __fsub_rn(x, y));
  ROW(out, sub_rz, __fsub_rz(x, y));
  ROW(out, sub_ru, __fsub_ru(x, y));
  ROW(out, sub_rd, __fsub_rd(x, y));
  ROW(out, mul_rn, __fmul_rn(x, y));
  ROW(out, mul_rz, __fmul_rz(x, y));
  ROW(out, mul_ru, __fmul_ru(x, y));
  ROW(out, mul_rd, __fmul_rd(x, y));
  ROW(out, div_rn, __fdiv_rn(x, y));
  ROW(out, div_rz, __fdiv_rz(x, y));
  ROW(out, div_ru, __fdiv_ru(x, y));
  ROW(out, div_rd, __fdiv_rd(x, y));
  ROW(out, fma_rn, __fmaf_rn(x, y, z));
  ROW(out, fma_rz, __fmaf_rz(x, y, z));
  ROW(out, fma_ru, __fmaf_ru(x, y, z));
  ROW(out, fma_rd, __fmaf_rd(x, y, z));
  ROW(out, sqrt_rn, __fsqrt_rn(x));
  ROW(out, sqrt_rz, __fsqrt_rz(x));
  ROW(out, sqrt_ru, __fsqrt_ru(x));
  ROW(out, sqrt_rd, __fsqrt_rd(x));
  ROW(out, rcp_rn, __frcp_rn(x));
  ROW(out, rcp_rz, __frcp_rz(x));
  ROW(out, rcp_ru, __frcp_ru(x));
  ROW(out, rcp_rd, __frcp_rd(x));
  ROW(out, add_ftz, add_ftz(x, y));
  ROW(out, sub_rz_ftz, sub_ftz(x, y));
  ROW(out, mul_ftz, mul_ftz(x, y));
  ROW(out, add_sat, add_sat(x, y));
  ROW(out, mul_rm_ftz_sat, mul_rm_ftz_sat(x, y));
  ROW(out, div_rn_ftz, div_rn_ftz(x, y));
  ROW(out, div_rz_ftz, div_rz_ftz(x, y));
  ROW(out, fma_rn_ftz, fma_rn_ftz(x, y, z));
  ROW(out, fma_rp_ftz_sat, fma_rp_ftz_sat(x, y, z));
  ROW(out, fma_rn_sat, fma_rn_sat(x, y, z));
  ROW(out, mad_rn, mad_rn(x, y, z));
  ROW(out, sqrt_rn_ftz, sqrt_rn_ftz(x));
  ROW(out, rcp_rn_ftz, rcp_rn_ftz(x));
  ROW(out, rcp_rz_ftz, rcp_rz_ftz(x));
  ROW(out, min, min_f(x, y));
  ROW(out, max, max_f(x, y));
  ROW(out, min_nan, min_nan(x, y));
  ROW(out, max_nan, max_nan(x, y));
  ROW(out, min_ftz, min_ftz(x, y));
  ROW(out, max_ftz_nan, max_ftz_nan(x, y));
  ROW(out, abs, abs_f(x));
  ROW(out, abs_ftz, abs_ftz(x));
  ROW(out, neg, neg_f(x));
  ROW(out, neg_ftz, neg_ftz(x));
  ROW(out, copysign, copysign_f(x, y));
  ROW(out, c_neg, -x);
  ROW(out, saturatef, __saturatef(x));
  ROW(out, cvt_sat, cvt_sat(x));
  ROW(out, cvt_ftz, cvt_ftz(x));
  ROW(out, cvt_rni, cvt_rni(x));
  ROW(out, cvt_rzi, cvt_rzi(x));
  ROW(out, cvt_rmi, cvt_rmi(x));
  ROW(out, cvt_rpi, cvt_rpi(x));
  ROW(out, cvt_rni_ftz, cvt_rni_ftz(x));
  ROW(out, testp_finite, testp_finite(x));
  ROW(out, testp_infinite, testp_infinite(x));
  ROW(out, testp_number, testp_number(x));
  ROW(out, testp_notanumber, testp_notanumber(x));
  ROW(out, testp_normal, testp_normal(x));
  ROW(out, testp_subnormal, testp_subnormal(x));
  ROW(out, setp_eq, setp_eq(x, y));
  ROW(out, setp_ne, setp_ne(x, y));
  ROW(out, setp_lt, setp_lt(x, y));
  ROW(out, setp_le, setp_le(x, y));
  ROW(out, setp_gt, setp_gt(x, y));
  ROW(out, setp_ge, setp_ge(x, y));
  ROW(out, setp_equ, setp_equ(x, y));
  ROW(out, setp_neu, setp_neu(x, y));
  ROW(out, setp_ltu, setp_ltu(x, y));
  ROW(out, setp_leu, setp_leu(x, y));
  ROW(out, setp_gtu, setp_gtu(x, y));
  ROW(out, setp_geu, setp_geu(x, y));
  ROW(out, setp_num, setp_num(x, y));
  ROW(out, setp_nan, setp_nan(x, y));
  ROW(out, setp_lt_ftz, setp_lt_ftz(x, y));
  ROW(out, setp_lt_and, setp_combined(x, y, z));
  ROW(out, set_le_u32, set_f32(x, y));
  ROW(out, slct, slct_f32(x, y, z));
  ROW(out, c_select, x < y ? z : x);
  ROW(out, c_cmp_chain, (x == y) + 2.0f * (x < z) + 4.0f * (y != z));
}
