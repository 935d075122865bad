// Conversions between floats and integers in every rounding: out-of-range
// values saturate, NaN goes to 0; integer to float in every rounding; f64 to
// f32 narrowing with rounding and ftz; C casts; 16-bit destinations.
#include "wcuda.h"

DEF_CVT(f2f_rn_ftz, float, "f", double, "d", "cvt.rn.ftz.f32.f64")
DEF_CVT(f2s16_rni, short, "h", float, "f", "cvt.rni.s16.f32")
DEF_CVT(f2u16_rzi, short, "h", float, "f", "cvt.rzi.u16.f32")
DEF_CVT(d2s16_rmi, short, "h", double, "d", "cvt.rmi.s16.f64")
DEF_CVT(f2s32_rzi_ftz, int, "r", float, "f", "cvt.rzi.ftz.s32.f32")
DEF_CVT(f2u32_rpi_sat, int, "r", float, "f", "cvt.rpi.sat.u32.f32")
DEF_CVT(s32_sat_s16, short, "h", int, "r", "cvt.sat.s16.s32")
DEF_CVT(u32_sat_u16, short, "h", int, "r", "cvt.sat.u16.u32")
DEF_CVT(s32_sat_u8, short, "h", int, "r", "cvt.sat.u8.s32")
DEF_CVT(s16_to_s32, int, "r", short, "h", "cvt.s32.s16")
DEF_CVT(s32_to_s8, int, "r", int, "r", "cvt.s8.s32")
DEF_CVT(s64_sat_s32, int, "r", long long, "l", "cvt.sat.s32.s64")
DEF_CVT(u64_sat_u32, int, "r", long long, "l", "cvt.sat.u32.u64")
DEF_CVT(s64_sat_u32, int, "r", long long, "l", "cvt.sat.u32.s64")
DEF_CVT(f2f64_sub, double, "d", float, "f", "cvt.f64.f32")
DEF_CVT(s16_to_f32_rm, float, "f", short, "h", "cvt.rm.f32.s16")

extern "C" __global__ void cvt32(const float *f, const double *d, const int *s, const long long *l, unsigned *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = f[i];
  double y = d[i];
  int k = s[i];
  long long w = l[i];
  ROWS_BEGIN;
  ROW(out, f2i_rn, (unsigned)__float2int_rn(x));
  ROW(out, f2i_rz, (unsigned)__float2int_rz(x));
  ROW(out, f2i_ru, (unsigned)__float2int_ru(x));
  ROW(out, f2i_rd, (unsigned)__float2int_rd(x));
  ROW(out, f2ui_rn, __float2uint_rn(x));
  ROW(out, f2ui_rz, __float2uint_rz(x));
  ROW(out, f2ui_ru, __float2uint_ru(x));
  ROW(out, f2ui_rd, __float2uint_rd(x));
  ROW(out, d2i_rn, (unsigned)__double2int_rn(y));
  ROW(out, d2i_rz, (unsigned)__double2int_rz(y));
  ROW(out, d2i_ru, (unsigned)__double2int_ru(y));
  ROW(out, d2i_rd, (unsigned)__double2int_rd(y));
  ROW(out, d2ui_rn, __double2uint_rn(y));
  ROW(out, d2ui_rz, __double2uint_rz(y));
  ROW(out, d2ui_ru, __double2uint_ru(y));
  ROW(out, d2ui_rd, __double2uint_rd(y));
  ROW(out, d2f_rn, __float_as_uint(__double2float_rn(y)));
  ROW(out, d2f_rz, __float_as_uint(__double2float_rz(y)));
  ROW(out, d2f_ru, __float_as_uint(__double2float_ru(y)));
  ROW(out, d2f_rd, __float_as_uint(__double2float_rd(y)));
  ROW(out, d2f_rn_ftz, __float_as_uint(f2f_rn_ftz(y)));
  ROW(out, i2f_rn, __float_as_uint(__int2float_rn(k)));
  ROW(out, i2f_rz, __float_as_uint(__int2float_rz(k)));
  ROW(out, i2f_ru, __float_as_uint(__int2float_ru(k)));
  ROW(out, i2f_rd, __float_as_uint(__int2float_rd(k)));
  ROW(out, ui2f_rn, __float_as_uint(__uint2float_rn((unsigned)k)));
  ROW(out, ui2f_rz, __float_as_uint(__uint2float_rz((unsigned)k)));
  ROW(out, ui2f_ru, __float_as_uint(__uint2float_ru((unsigned)k)));
  ROW(out, ui2f_rd, __float_as_uint(__uint2float_rd((unsigned)k)));
  ROW(out, ll2f_rn, __float_as_uint(__ll2float_rn(w)));
  ROW(out, ll2f_rz, __float_as_uint(__ll2float_rz(w)));
  ROW(out, ll2f_ru, __float_as_uint(__ll2float_ru(w)));
  ROW(out, ll2f_rd, __float_as_uint(__ll2float_rd(w)));
  ROW(out, ull2f_rn, __float_as_uint(__ull2float_rn((unsigned long long)w)));
  ROW(out, ull2f_rz, __float_as_uint(__ull2float_rz((unsigned long long)w)));
  ROW(out, ull2f_ru, __float_as_uint(__ull2float_ru((unsigned long long)w)));
  ROW(out, ull2f_rd, __float_as_uint(__ull2float_rd((unsigned long long)w)));
  ROW(out, c_f2i, (unsigned)(int)x);
  ROW(out, c_f2u, (unsigned)x);
  ROW(out, c_d2f, __float_as_uint((float)y));
  ROW(out, c_i2f, __float_as_uint((float)k));
  ROW(out, c_u2f, __float_as_uint((float)(unsigned)k));
  ROW(out, c_ll2f, __float_as_uint((float)w));
  ROW(out, c_f2char, (unsigned)(signed char)(int)x);
  ROW(out, f2s16_rni, (unsigned)(int)f2s16_rni(x));
  ROW(out, f2u16_rzi, (unsigned)(unsigned short)f2u16_rzi(x));
  ROW(out, d2s16_rmi, (unsigned)(int)d2s16_rmi(y));
  ROW(out, f2s32_rzi_ftz, (unsigned)f2s32_rzi_ftz(x));
  ROW(out, f2u32_rpi_sat, (unsigned)f2u32_rpi_sat(x));
  ROW(out, s32_sat_s16, (unsigned)(int)s32_sat_s16(k));
  ROW(out, u32_sat_u16, (unsigned)(unsigned short)u32_sat_u16(k));
  ROW(out, s32_sat_u8, (unsigned)(unsigned short)s32_sat_u8(k));
  ROW(out, s16_to_s32, (unsigned)s16_to_s32((short)k));
  ROW(out, s32_to_s8, (unsigned)s32_to_s8(k));
  ROW(out, s64_sat_s32, (unsigned)s64_sat_s32(w));
  ROW(out, u64_sat_u32, (unsigned)u64_sat_u32(w));
  ROW(out, s64_sat_u32, (unsigned)s64_sat_u32(w));
  ROW(out, s16_to_f32_rm, __float_as_uint(s16_to_f32_rm((short)k)));
}

extern "C" __global__ void cvt64(const float *f, const double *d, const int *s, const long long *l, unsigned long long *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  float x = f[i];
  double y = d[i];
  long long w = l[i];
  ROWS_BEGIN;
  ROW(out, f2ll_rn, (unsigned long long)__float2ll_rn(x));
  ROW(out, f2ll_rz, (unsigned long long)__float2ll_rz(x));
  ROW(out, f2ll_ru, (unsigned long long)__float2ll_ru(x));
  ROW(out, f2ll_rd, (unsigned long long)__float2ll_rd(x));
  ROW(out, f2ull_rn, __float2ull_rn(x));
  ROW(out, f2ull_rz, __float2ull_rz(x));
  ROW(out, f2ull_ru, __float2ull_ru(x));
  ROW(out, f2ull_rd, __float2ull_rd(x));
  ROW(out, d2ll_rn, (unsigned long long)__double2ll_rn(y));
  ROW(out, d2ll_rz, (unsigned long long)__double2ll_rz(y));
  ROW(out, d2ll_ru, (unsigned long long)__double2ll_ru(y));
  ROW(out, d2ll_rd, (unsigned long long)__double2ll_rd(y));
  ROW(out, d2ull_rn, __double2ull_rn(y));
  ROW(out, d2ull_rz, __double2ull_rz(y));
  ROW(out, d2ull_ru, __double2ull_ru(y));
  ROW(out, d2ull_rd, __double2ull_rd(y));
  ROW(out, ll2d_rn, (unsigned long long)__double_as_longlong(__ll2double_rn(w)));
  ROW(out, ll2d_rz, (unsigned long long)__double_as_longlong(__ll2double_rz(w)));
  ROW(out, ll2d_ru, (unsigned long long)__double_as_longlong(__ll2double_ru(w)));
  ROW(out, ll2d_rd, (unsigned long long)__double_as_longlong(__ll2double_rd(w)));
  ROW(out, ull2d_rn, (unsigned long long)__double_as_longlong(__ull2double_rn((unsigned long long)w)));
  ROW(out, ull2d_rz, (unsigned long long)__double_as_longlong(__ull2double_rz((unsigned long long)w)));
  ROW(out, ull2d_ru, (unsigned long long)__double_as_longlong(__ull2double_ru((unsigned long long)w)));
  ROW(out, ull2d_rd, (unsigned long long)__double_as_longlong(__ull2double_rd((unsigned long long)w)));
  ROW(out, c_d2ll, (unsigned long long)(long long)y);
  ROW(out, c_d2ull, (unsigned long long)y);
  ROW(out, c_f2d, (unsigned long long)__double_as_longlong((double)x));
  ROW(out, cvt_f64_f32, (unsigned long long)__double_as_longlong(f2f64_sub(x)));
  ROW(out, c_i2d, (unsigned long long)__double_as_longlong((double)s[i]));
  ROW(out, c_ll2d, (unsigned long long)__double_as_longlong((double)w));
  ROW(out, c_f2ll, (unsigned long long)(long long)x);
}
