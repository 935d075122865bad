// Integer arithmetic: 16/32/64-bit add/sub/mul (lo, hi, wide, 24), mad,
// division and remainder by negatives, zero and INT_MIN/-1, min/max/abs,
// shifts with out-of-range amounts, and carry chains.
#include "wcuda.h"

DEF_ASM2(shl_b32, int, "r", "shl.b32")
DEF_ASM2(shr_s32, int, "r", "shr.s32")
DEF_ASM2(shr_u32, int, "r", "shr.u32")
DEF_ASM2(div_s32, int, "r", "div.s32")
DEF_ASM2(rem_s32, int, "r", "rem.s32")
DEF_ASM2(div_u32, int, "r", "div.u32")
DEF_ASM2(rem_u32, int, "r", "rem.u32")
DEF_ASM2(mulhi_s32, int, "r", "mul.hi.s32")
DEF_ASM3(madhi_s32, int, "r", "mad.hi.s32")
DEF_ASM3(madhi_u32, int, "r", "mad.hi.u32")
DEF_ASM3(mad24hi_s32, int, "r", "mad24.hi.s32")
DEF_ASM2(mul24hi_u32, int, "r", "mul24.hi.u32")
DEF_ASM1(neg_s32, int, "r", "neg.s32")
DEF_ASM1(abs_s32, int, "r", "abs.s32")
DEF_ASM2(div_s16, short, "h", "div.s16")
DEF_ASM2(rem_s16, short, "h", "rem.s16")
DEF_ASM2(div_u16, short, "h", "div.u16")
DEF_ASM2(rem_u16, short, "h", "rem.u16")
DEF_ASM2(mul_hi_s16, short, "h", "mul.hi.s16")
DEF_ASM2(add_sat_s32, int, "r", "add.sat.s32")
DEF_ASM2(sub_sat_s32, int, "r", "sub.sat.s32")
#define DEF_SHIFT64(fn, op) \
  static __device__ __forceinline__ long long fn(long long a, unsigned b) { long long r; asm(op " %0, %1, %2;" : "=l"(r) : "l"(a), "r"(b)); return r; }
DEF_SHIFT64(shl_b64, "shl.b64")
DEF_SHIFT64(shr_s64, "shr.s64")
DEF_SHIFT64(shr_u64, "shr.u64")
DEF_ASM2(div_s64, long long, "l", "div.s64")
DEF_ASM2(rem_s64, long long, "l", "rem.s64")
DEF_ASM2(div_u64, long long, "l", "div.u64")
DEF_ASM2(rem_u64, long long, "l", "rem.u64")

// add.cc/addc.cc/addc chain: a 96-bit sum of (a, b, a^b) and (b, a, a+b), top word returned.
static __device__ __forceinline__ int add96_hi(int a, int b) {
  int r0, r1, r2;
  asm("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %4, %3;\n\taddc.u32 %2, %5, %6;"
      : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(a ^ b), "r"(a + b));
  return r0 ^ r1 ^ r2;
}
static __device__ __forceinline__ int sub96_hi(int a, int b) {
  int r0, r1, r2;
  asm("sub.cc.u32 %0, %3, %4;\n\tsubc.cc.u32 %1, %4, %3;\n\tsubc.u32 %2, %5, %6;"
      : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(a ^ b), "r"(a + b));
  return r0 ^ r1 ^ r2;
}
static __device__ __forceinline__ int madcc_hi(int a, int b) {
  int lo, hi;
  asm("mad.lo.cc.u32 %0, %2, %3, %3;\n\tmadc.hi.u32 %1, %2, %3, %2;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
  return lo ^ hi;
}

extern "C" __global__ void int32_ops(const int *a, const int *b, int *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  ROWS_BEGIN;
  ROW(out, add, x + y);
  ROW(out, sub, x - y);
  ROW(out, mul_lo, x * y);
  ROW(out, mulhi_s, __mulhi(x, y));
  ROW(out, mulhi_u, (int)__umulhi(ux, uy));
  ROW(out, mulhi_s_asm, mulhi_s32(x, y));
  ROW(out, mul24_s, __mul24(x, y));
  ROW(out, mul24_u, (int)__umul24(ux, uy));
  ROW(out, mul24hi_u, mul24hi_u32(x, y));
  ROW(out, mad_lo, x * y + (x ^ y));
  ROW(out, madhi_s, madhi_s32(x, y, x));
  ROW(out, madhi_u, madhi_u32(x, y, y));
  ROW(out, mad24hi_s, mad24hi_s32(x, y, x - y));
  ROW(out, div_s, div_s32(x, y));
  ROW(out, rem_s, rem_s32(x, y));
  ROW(out, div_u, div_u32(x, y));
  ROW(out, rem_u, rem_u32(x, y));
  ROW(out, div_c, y != 0 && !(x == (int)0x80000000 && y == -1) ? x / y : 12345);
  ROW(out, rem_c, y != 0 && !(x == (int)0x80000000 && y == -1) ? x % y : 12345);
  ROW(out, udiv_c, uy != 0 ? (int)(ux / uy) : 12345);
  ROW(out, div_by_7, x / 7);
  ROW(out, rem_by_m7, x % -7);
  ROW(out, udiv_by_10, (int)(ux / 10u));
  ROW(out, min_s, min(x, y));
  ROW(out, max_s, max(x, y));
  ROW(out, min_u, (int)umin(ux, uy));
  ROW(out, max_u, (int)umax(ux, uy));
  ROW(out, abs_s, abs(x));
  ROW(out, abs_asm, abs_s32(x));
  ROW(out, neg_asm, neg_s32(x));
  ROW(out, add_sat, add_sat_s32(x, y));
  ROW(out, sub_sat, sub_sat_s32(x, y));
  ROW(out, shl_masked, x << (y & 31));
  ROW(out, shr_s_masked, x >> (y & 31));
  ROW(out, shr_u_masked, (int)(ux >> (uy & 31)));
  ROW(out, shl_raw, shl_b32(x, y));
  ROW(out, shr_s_raw, shr_s32(x, y));
  ROW(out, shr_u_raw, shr_u32(x, y));
  ROW(out, shl_small, shl_b32(x, y & 63));
  ROW(out, shr_s_small, shr_s32(x, y & 63));
  ROW(out, div_s16, (int)div_s16((short)x, (short)y));
  ROW(out, rem_s16, (int)rem_s16((short)x, (short)y));
  ROW(out, div_u16, (int)(unsigned short)div_u16((short)x, (short)y));
  ROW(out, rem_u16, (int)(unsigned short)rem_u16((short)x, (short)y));
  ROW(out, mulhi_s16, (int)mul_hi_s16((short)x, (short)y));
  ROW(out, char_arith, (int)(signed char)((signed char)x * (signed char)y + (signed char)(x >> 8)));
  ROW(out, add96, add96_hi(x, y));
  ROW(out, sub96, sub96_hi(x, y));
  ROW(out, madcc, madcc_hi(x, y));
}

extern "C" __global__ void int32_wide(const int *a, const int *b, long long *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  int x = a[i], y = b[i];
  ROWS_BEGIN;
  ROW(out, mulwide_s, (long long)x * (long long)y);
  ROW(out, mulwide_u, (long long)((unsigned long long)(unsigned)x * (unsigned long long)(unsigned)y));
  ROW(out, madwide_s, (long long)x * (long long)y + (long long)x);
  ROW(out, sext, (long long)x);
  ROW(out, zext, (long long)(unsigned)x);
}

extern "C" __global__ void int64_ops(const long long *a, const long long *b, long long *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  long long x = a[i], y = b[i];
  unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
  ROWS_BEGIN;
  ROW(out, add, x + y);
  ROW(out, sub, x - y);
  ROW(out, mul_lo, (long long)(ux * uy));
  ROW(out, mulhi_s, __mul64hi(x, y));
  ROW(out, mulhi_u, (long long)__umul64hi(ux, uy));
  ROW(out, mad_lo, (long long)(ux * uy + (ux ^ uy)));
  ROW(out, div_s, div_s64(x, y));
  ROW(out, rem_s, rem_s64(x, y));
  ROW(out, div_u, div_u64(x, y));
  ROW(out, rem_u, rem_u64(x, y));
  ROW(out, div_c, y != 0 && !(x == (long long)0x8000000000000000ull && y == -1) ? x / y : 12345);
  ROW(out, rem_c, y != 0 && !(x == (long long)0x8000000000000000ull && y == -1) ? x % y : 12345);
  ROW(out, udiv_c, uy != 0 ? (long long)(ux / uy) : 12345);
  ROW(out, div_by_1000, x / 1000);
  ROW(out, min_s, llmin(x, y));
  ROW(out, max_s, llmax(x, y));
  ROW(out, min_u, (long long)(ux < uy ? ux : uy));
  ROW(out, abs_s, llabs(x));
  ROW(out, shl_masked, (long long)(ux << (y & 63)));
  ROW(out, shr_s_masked, x >> (y & 63));
  ROW(out, shr_u_masked, (long long)(ux >> (y & 63)));
  ROW(out, shl_raw, shl_b64(x, (unsigned)y));
  ROW(out, shr_s_raw, shr_s64(x, (unsigned)y));
  ROW(out, shr_u_raw, shr_u64(x, (unsigned)y));
  ROW(out, trunc32, (long long)(int)x);
}
