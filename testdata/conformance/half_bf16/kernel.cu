// Half precision and bfloat16, through inline PTX on raw bits: arithmetic,
// fma, min/max, abs/neg, packed x2 forms, and conversions to and from f32
// and integers in every rounding.
#include "wcuda.h"

typedef unsigned short u16;
DEF_ASM2(add_f16, u16, "h", "add.f16")
DEF_ASM2(sub_f16, u16, "h", "sub.f16")
DEF_ASM2(mul_f16, u16, "h", "mul.f16")
DEF_ASM2(add_ftz_f16, u16, "h", "add.ftz.f16")
DEF_ASM2(add_sat_f16, u16, "h", "add.sat.f16")
DEF_ASM2(mul_ftz_sat_f16, u16, "h", "mul.ftz.sat.f16")
DEF_ASM3(fma_f16, u16, "h", "fma.rn.f16")
DEF_ASM3(fma_sat_f16, u16, "h", "fma.rn.sat.f16")
DEF_ASM3(fma_relu_f16, u16, "h", "fma.rn.relu.f16")
DEF_ASM2(min_f16, u16, "h", "min.f16")
DEF_ASM2(max_f16, u16, "h", "max.f16")
DEF_ASM2(min_nan_f16, u16, "h", "min.NaN.f16")
DEF_ASM1(neg_f16, u16, "h", "neg.f16")
DEF_ASM1(abs_f16, u16, "h", "abs.f16")
DEF_ASM2(add_bf16, u16, "h", "add.bf16")
DEF_ASM2(sub_bf16, u16, "h", "sub.bf16")
DEF_ASM2(mul_bf16, u16, "h", "mul.bf16")
DEF_ASM3(fma_bf16, u16, "h", "fma.rn.bf16")
DEF_ASM3(fma_relu_bf16, u16, "h", "fma.rn.relu.bf16")
DEF_ASM2(min_bf16, u16, "h", "min.bf16")
DEF_ASM2(max_bf16, u16, "h", "max.bf16")
DEF_ASM2(max_nan_bf16, u16, "h", "max.NaN.bf16")
DEF_ASM1(neg_bf16, u16, "h", "neg.bf16")
DEF_ASM1(abs_bf16, u16, "h", "abs.bf16")
DEF_CVT(f32_to_f16_rn, u16, "h", float, "f", "cvt.rn.f16.f32")
DEF_CVT(f32_to_f16_rz, u16, "h", float, "f", "cvt.rz.f16.f32")
DEF_CVT(f32_to_f16_rm, u16, "h", float, "f", "cvt.rm.f16.f32")
DEF_CVT(f32_to_f16_rp, u16, "h", float, "f", "cvt.rp.f16.f32")
DEF_CVT(f32_to_f16_sat, u16, "h", float, "f", "cvt.rn.sat.f16.f32")
DEF_CVT(f32_to_bf16_rn, u16, "h", float, "f", "cvt.rn.bf16.f32")
DEF_CVT(f32_to_bf16_rz, u16, "h", float, "f", "cvt.rz.bf16.f32")
DEF_CVT(f32_to_bf16_rm, u16, "h", float, "f", "cvt.rm.bf16.f32")
DEF_CVT(f32_to_bf16_rp, u16, "h", float, "f", "cvt.rp.bf16.f32")
DEF_CVT(f64_to_f16_rn, u16, "h", double, "d", "cvt.rn.f16.f64")
DEF_CVT(s32_to_f16_rn, u16, "h", int, "r", "cvt.rn.f16.s32")
DEF_CVT(u32_to_f16_rz, u16, "h", unsigned, "r", "cvt.rz.f16.u32")
DEF_CVT(f16_to_f32, float, "f", u16, "h", "cvt.f32.f16")
DEF_CVT(bf16_to_f32, float, "f", u16, "h", "cvt.f32.bf16")
DEF_CVT(f16_to_f64, double, "d", u16, "h", "cvt.f64.f16")
DEF_CVT(f16_to_s32_rni, int, "r", u16, "h", "cvt.rni.s32.f16")
DEF_CVT(f16_to_u32_rzi, unsigned, "r", u16, "h", "cvt.rzi.u32.f16")
DEF_CVT(f16_to_s16_rmi, u16, "h", u16, "h", "cvt.rmi.s16.f16")
DEF_CVT(f16_rni, u16, "h", u16, "h", "cvt.rni.f16.f16")
DEF_ASM2(add_f16x2, unsigned, "r", "add.f16x2")
DEF_ASM2(mul_f16x2, unsigned, "r", "mul.f16x2")
DEF_ASM3(fma_f16x2, unsigned, "r", "fma.rn.f16x2")
DEF_ASM2(min_f16x2, unsigned, "r", "min.f16x2")
DEF_ASM2(max_nan_f16x2, unsigned, "r", "max.NaN.f16x2")
DEF_ASM1(neg_f16x2, unsigned, "r", "neg.f16x2")
DEF_ASM2(add_bf16x2, unsigned, "r", "add.bf16x2")
DEF_ASM2(mul_bf16x2, unsigned, "r", "mul.bf16x2")
DEF_ASM3(fma_bf16x2, unsigned, "r", "fma.rn.bf16x2")
DEF_ASM2(min_bf16x2, unsigned, "r", "min.bf16x2")
DEF_ASM1(abs_bf16x2, unsigned, "r", "abs.bf16x2")
static __device__ __forceinline__ unsigned cvt_f16x2(float a, float b) {
  unsigned r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); return r; }
static __device__ __forceinline__ unsigned cvt_bf16x2(float a, float b) {
  unsigned r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); return r; }
static __device__ __forceinline__ unsigned cvt_relu_f16x2(float a, float b) {
  unsigned r; asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b)); return r; }
static __device__ __forceinline__ unsigned setp_f16(u16 a, u16 b) {
  unsigned r; asm("{\n\t.reg .pred p;\n\tsetp.ltu.f16 p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "h"(a), "h"(b)); return r; }
static __device__ __forceinline__ unsigned set_f16x2(unsigned a, unsigned b) {
  unsigned r; asm("set.gt.f16x2.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }

extern "C" __global__ void h16_ops(const u16 *a, const u16 *b, const u16 *c, u16 *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  u16 x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, add_f16, add_f16(x, y));
  ROW(out, sub_f16, sub_f16(x, y));
  ROW(out, mul_f16, mul_f16(x, y));
  ROW(out, add_ftz_f16, add_ftz_f16(x, y));
  ROW(out, add_sat_f16, add_sat_f16(x, y));
  ROW(out, mul_ftz_sat_f16, mul_ftz_sat_f16(x, y));
  ROW(out, fma_f16, fma_f16(x, y, z));
  ROW(out, fma_sat_f16, fma_sat_f16(x, y, z));
  ROW(out, fma_relu_f16, fma_relu_f16(x, y, z));
  ROW(out, min_f16, min_f16(x, y));
  ROW(out, max_f16, max_f16(x, y));
  ROW(out, min_nan_f16, min_nan_f16(x, y));
  ROW(out, neg_f16, neg_f16(x));
  ROW(out, abs_f16, abs_f16(x));
  ROW(out, rni_f16, f16_rni(x));
  ROW(out, to_s16_rmi, f16_to_s16_rmi(x));
  ROW(out, add_bf16, add_bf16(x, y));
  ROW(out, sub_bf16, sub_bf16(x, y));
  ROW(out, mul_bf16, mul_bf16(x, y));
  ROW(out, fma_bf16, fma_bf16(x, y, z));
  ROW(out, fma_relu_bf16, fma_relu_bf16(x, y, z));
  ROW(out, min_bf16, min_bf16(x, y));
  ROW(out, max_bf16, max_bf16(x, y));
  ROW(out, max_nan_bf16, max_nan_bf16(x, y));
  ROW(out, neg_bf16, neg_bf16(x));
  ROW(out, abs_bf16, abs_bf16(x));
}

extern "C" __global__ void h16_convert(const float *f, const double *d, const int *s, const u16 *h, u16 *out16,
                                       unsigned *out32, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = f[i];
  u16 hx = h[i];
  {
    ROWS_BEGIN;
    ROW(out16, f16_rn, f32_to_f16_rn(x));
    ROW(out16, f16_rz, f32_to_f16_rz(x));
    ROW(out16, f16_rm, f32_to_f16_rm(x));
    ROW(out16, f16_rp, f32_to_f16_rp(x));
    ROW(out16, f16_sat, f32_to_f16_sat(x));
    ROW(out16, bf16_rn, f32_to_bf16_rn(x));
    ROW(out16, bf16_rz, f32_to_bf16_rz(x));
    ROW(out16, bf16_rm, f32_to_bf16_rm(x));
    ROW(out16, bf16_rp, f32_to_bf16_rp(x));
    ROW(out16, f16_from_f64, f64_to_f16_rn(d[i]));
    ROW(out16, f16_from_s32, s32_to_f16_rn(s[i]));
    ROW(out16, f16_from_u32_rz, u32_to_f16_rz((unsigned)s[i]));
  }
  {
    ROWS_BEGIN;
    ROW(out32, f32_from_f16, __float_as_uint(f16_to_f32(hx)));
    ROW(out32, f32_from_bf16, __float_as_uint(bf16_to_f32(hx)));
    ROW(out32, f64_from_f16_hi, (unsigned)(__double_as_longlong(f16_to_f64(hx)) >> 32));
    ROW(out32, s32_from_f16_rni, (unsigned)f16_to_s32_rni(hx));
    ROW(out32, u32_from_f16_rzi, f16_to_u32_rzi(hx));
    ROW(out32, f16x2_cvt, cvt_f16x2(x, f[(i + 1) % n]));
    ROW(out32, bf16x2_cvt, cvt_bf16x2(x, f[(i + 1) % n]));
    ROW(out32, f16x2_relu_cvt, cvt_relu_f16x2(x, f[(i + 7) % n]));
    ROW(out32, setp_ltu_f16, setp_f16(hx, h[(i + 1) % n]));
  }
}

extern "C" __global__ void h16x2_ops(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, add_f16x2, add_f16x2(x, y));
  ROW(out, mul_f16x2, mul_f16x2(x, y));
  ROW(out, fma_f16x2, fma_f16x2(x, y, z));
  ROW(out, min_f16x2, min_f16x2(x, y));
  ROW(out, max_nan_f16x2, max_nan_f16x2(x, y));
  ROW(out, neg_f16x2, neg_f16x2(x));
  ROW(out, set_gt_f16x2, set_f16x2(x, y));
  ROW(out, add_bf16x2, add_bf16x2(x, y));
  ROW(out, mul_bf16x2, mul_bf16x2(x, y));
  ROW(out, fma_bf16x2, fma_bf16x2(x, y, z));
  ROW(out, min_bf16x2, min_bf16x2(x, y));
  ROW(out, abs_bf16x2, abs_bf16x2(x));
}
