// Bit manipulation: popc clz brev bfind fns bfe bfi, prmt in every mode,
// shf (funnel shifts), lop3 truth tables, dp4a/dp2a, sad, byte_perm, ffs.
#include "wcuda.h"

DEF_ASM1(bfind_u32, unsigned, "r", "bfind.u32")
DEF_ASM1(bfind_s32, unsigned, "r", "bfind.s32")
DEF_ASM1(bfind_shamt_u32, unsigned, "r", "bfind.shiftamt.u32")
DEF_ASM1(bfind_shamt_s32, unsigned, "r", "bfind.shiftamt.s32")
DEF_ASM1(cnot_b32, unsigned, "r", "cnot.b32")
DEF_ASM1(not_b32, unsigned, "r", "not.b32")
DEF_ASM1(popc_asm, unsigned, "r", "popc.b32")
DEF_ASM1(brev_asm, unsigned, "r", "brev.b32")
DEF_ASM3(bfe_u32, unsigned, "r", "bfe.u32")
DEF_ASM3(bfe_s32, unsigned, "r", "bfe.s32")
DEF_ASM3(prmt_b32, unsigned, "r", "prmt.b32")
DEF_ASM3(prmt_f4e, unsigned, "r", "prmt.b32.f4e")
DEF_ASM3(prmt_b4e, unsigned, "r", "prmt.b32.b4e")
DEF_ASM3(prmt_rc8, unsigned, "r", "prmt.b32.rc8")
DEF_ASM3(prmt_ecl, unsigned, "r", "prmt.b32.ecl")
DEF_ASM3(prmt_ecr, unsigned, "r", "prmt.b32.ecr")
DEF_ASM3(prmt_rc16, unsigned, "r", "prmt.b32.rc16")
DEF_ASM3(fns_b32, unsigned, "r", "fns.b32")
DEF_ASM3(shf_l_wrap, unsigned, "r", "shf.l.wrap.b32")
DEF_ASM3(shf_r_wrap, unsigned, "r", "shf.r.wrap.b32")
DEF_ASM3(shf_l_clamp, unsigned, "r", "shf.l.clamp.b32")
DEF_ASM3(shf_r_clamp, unsigned, "r", "shf.r.clamp.b32")
DEF_ASM3(sad_s32, unsigned, "r", "sad.s32")
DEF_ASM3(sad_u32, unsigned, "r", "sad.u32")
DEF_ASM3(dp4a_su, unsigned, "r", "dp4a.s32.u32")
DEF_ASM3(dp4a_us, unsigned, "r", "dp4a.u32.s32")
DEF_ASM3(dp2a_lo_uu, unsigned, "r", "dp2a.lo.u32.u32")
DEF_ASM3(dp2a_hi_su, unsigned, "r", "dp2a.hi.s32.u32")

static __device__ __forceinline__ unsigned bfi_b32(unsigned a, unsigned b, unsigned pos, unsigned len) {
  unsigned r; asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len)); return r; }
#define DEF_LOP3(fn, lut) \
  static __device__ __forceinline__ unsigned fn(unsigned a, unsigned b, unsigned c) { \
    unsigned r; asm("lop3.b32 %0, %1, %2, %3, " #lut ";" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
DEF_LOP3(lop3_96, 0x96)
DEF_LOP3(lop3_e8, 0xe8)
DEF_LOP3(lop3_ca, 0xca)
DEF_LOP3(lop3_1e, 0x1e)
DEF_LOP3(lop3_80, 0x80)
DEF_LOP3(lop3_01, 0x01)
DEF_LOP3(lop3_fe, 0xfe)
DEF_LOP3(lop3_6a, 0x6a)

extern "C" __global__ void bits32(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, popc, (unsigned)__popc(x));
  ROW(out, popc_asm, popc_asm(x));
  ROW(out, clz, (unsigned)__clz((int)x));
  ROW(out, brev, __brev(x));
  ROW(out, brev_asm, brev_asm(x));
  ROW(out, ffs, (unsigned)__ffs((int)x));
  ROW(out, bfind_u, bfind_u32(x));
  ROW(out, bfind_s, bfind_s32(x));
  ROW(out, bfind_shamt_u, bfind_shamt_u32(x));
  ROW(out, bfind_shamt_s, bfind_shamt_s32(x));
  ROW(out, cnot, cnot_b32(x & y));
  ROW(out, not_, not_b32(x));
  ROW(out, bfe_u_small, bfe_u32(x, y & 31, z & 31));
  ROW(out, bfe_s_small, bfe_s32(x, y & 31, z & 31));
  ROW(out, bfe_u_big, bfe_u32(x, y & 0xff, z & 0xff));
  ROW(out, bfe_s_big, bfe_s32(x, y & 0xff, z & 0xff));
  ROW(out, bfe_u_raw, bfe_u32(x, y, z));
  ROW(out, bfe_s_raw, bfe_s32(x, y, z));
  ROW(out, bfi_small, bfi_b32(x, y, z & 31, (z >> 8) & 31));
  ROW(out, bfi_big, bfi_b32(x, y, z & 0xff, (z >> 8) & 0xff));
  ROW(out, bfi_raw, bfi_b32(x, y, z, z >> 3));
  ROW(out, prmt, prmt_b32(x, y, z));
  ROW(out, prmt_f4e, prmt_f4e(x, y, z));
  ROW(out, prmt_b4e, prmt_b4e(x, y, z));
  ROW(out, prmt_rc8, prmt_rc8(x, y, z));
  ROW(out, prmt_ecl, prmt_ecl(x, y, z));
  ROW(out, prmt_ecr, prmt_ecr(x, y, z));
  ROW(out, prmt_rc16, prmt_rc16(x, y, z));
  ROW(out, byte_perm, __byte_perm(x, y, z));
  ROW(out, byte_perm_const, __byte_perm(x, y, 0x3210 ^ (z & 0x8888)));
  ROW(out, fns, fns_b32(x, y & 31, (z % 80) - 40));
  ROW(out, fns_raw, fns_b32(x, y, z));
  ROW(out, shf_l_wrap, shf_l_wrap(x, y, z));
  ROW(out, shf_r_wrap, shf_r_wrap(x, y, z));
  ROW(out, shf_l_clamp, shf_l_clamp(x, y, z));
  ROW(out, shf_r_clamp, shf_r_clamp(x, y, z));
  ROW(out, funnel_l, __funnelshift_l(x, y, z));
  ROW(out, funnel_r, __funnelshift_r(x, y, z));
  ROW(out, funnel_lc, __funnelshift_lc(x, y, z));
  ROW(out, funnel_rc, __funnelshift_rc(x, y, z));
  ROW(out, rotl, (x << (z & 31)) | (x >> ((32 - (z & 31)) & 31)));
  ROW(out, lop3_96, lop3_96(x, y, z));
  ROW(out, lop3_e8, lop3_e8(x, y, z));
  ROW(out, lop3_ca, lop3_ca(x, y, z));
  ROW(out, lop3_1e, lop3_1e(x, y, z));
  ROW(out, lop3_80, lop3_80(x, y, z));
  ROW(out, lop3_01, lop3_01(x, y, z));
  ROW(out, lop3_fe, lop3_fe(x, y, z));
  ROW(out, lop3_6a, lop3_6a(x, y, z));
  ROW(out, c_expr3, (x & ~y) ^ (z | (x >> 3)));
  ROW(out, dp4a_ss, (unsigned)__dp4a((int)x, (int)y, (int)z));
  ROW(out, dp4a_uu, __dp4a(x, y, z));
  ROW(out, dp4a_su, dp4a_su(x, y, z));
  ROW(out, dp4a_us, dp4a_us(x, y, z));
  ROW(out, dp2a_lo_ss, (unsigned)__dp2a_lo((int)x, (int)y, (int)z));
  ROW(out, dp2a_hi_ss, (unsigned)__dp2a_hi((int)x, (int)y, (int)z));
  ROW(out, dp2a_lo_uu, dp2a_lo_uu(x, y, z));
  ROW(out, dp2a_hi_su, dp2a_hi_su(x, y, z));
  ROW(out, sad, __sad((int)x, (int)y, z));
  ROW(out, usad, __usad(x, y, z));
  ROW(out, sad_s_asm, sad_s32(x, y, z));
  ROW(out, sad_u_asm, sad_u32(x, y, z));
}

static __device__ __forceinline__ unsigned bfind64(unsigned long long a) {
  unsigned r; asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(a)); return r; }
static __device__ __forceinline__ unsigned bfind64s(unsigned long long a) {
  unsigned r; asm("bfind.s64 %0, %1;" : "=r"(r) : "l"(a)); return r; }
static __device__ __forceinline__ unsigned long long bfe_u64(unsigned long long a, unsigned p, unsigned l) {
  unsigned long long r; asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "r"(p), "r"(l)); return r; }
static __device__ __forceinline__ unsigned long long bfe_s64(unsigned long long a, unsigned p, unsigned l) {
  unsigned long long r; asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "r"(p), "r"(l)); return r; }
static __device__ __forceinline__ unsigned long long bfi_b64(unsigned long long a, unsigned long long b, unsigned p, unsigned l) {
  unsigned long long r; asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(a), "l"(b), "r"(p), "r"(l)); return r; }

extern "C" __global__ void bits64(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  unsigned p = (unsigned)y, l = (unsigned)(y >> 32);
  ROWS_BEGIN;
  ROW(out, popc, (unsigned long long)__popcll(x));
  ROW(out, clz, (unsigned long long)__clzll((long long)x));
  ROW(out, brev, __brevll(x));
  ROW(out, bfind_u, (unsigned long long)bfind64(x));
  ROW(out, bfind_s, (unsigned long long)bfind64s(x));
  ROW(out, bfe_u_small, bfe_u64(x, p & 63, l & 63));
  ROW(out, bfe_s_small, bfe_s64(x, p & 63, l & 63));
  ROW(out, bfe_u_big, bfe_u64(x, p & 0xff, l & 0xff));
  ROW(out, bfe_s_big, bfe_s64(x, p & 0xff, l & 0xff));
  ROW(out, bfi_small, bfi_b64(x, y, p & 63, l & 63));
  ROW(out, bfi_big, bfi_b64(x, y, p & 0xff, l & 0xff));
  ROW(out, rotr, (x >> (p & 63)) | (x << ((64 - (p & 63)) & 63)));
  ROW(out, and_or_xor, (x & y) ^ (x | (y >> 7)));
}
