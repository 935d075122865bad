// Warp-level primitives: shfl idx/up/down/xor with widths, out-of-range
// sources and partial masks; vote ballot/any/all/uni; activemask under
// divergence; match any/all; redux add/min/max/and/or/xor.
#include "wcuda.h"

static __device__ __forceinline__ unsigned laneid() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
static __device__ __forceinline__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
static __device__ __forceinline__ unsigned lanemask_ge() { unsigned r; asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); return r; }
// shfl with the predicate output: value | (valid << 31)-style packing into a row.
static __device__ __forceinline__ int shfl_idx_pred(int v, int src, int c) {
  int r; unsigned p;
  asm("{\n\t.reg .pred q;\n\tshfl.sync.idx.b32 %0|q, %2, %3, %4, -1;\n\tselp.u32 %1, 1, 0, q;\n\t}"
      : "=r"(r), "=r"(p) : "r"(v), "r"(src), "r"(c));
  return (r & 0x7fffffff) ^ (int)(p << 31);
}
static __device__ __forceinline__ int shfl_up_pred(int v, int d, int c) {
  int r; unsigned p;
  asm("{\n\t.reg .pred q;\n\tshfl.sync.up.b32 %0|q, %2, %3, %4, -1;\n\tselp.u32 %1, 1, 0, q;\n\t}"
      : "=r"(r), "=r"(p) : "r"(v), "r"(d), "r"(c));
  return (r & 0x7fffffff) ^ (int)(p << 31);
}

extern "C" __global__ void warp_ops(const int *in, const float *fin, int *out, int n) {
  int i = WCUDA_TID_X;
  int v = in[i];
  int lane = (int)laneid();
  ROWS_BEGIN;
  ROW(out, laneid, lane);
  ROW(out, lanemask_lt, (int)lanemask_lt());
  ROW(out, lanemask_ge, (int)lanemask_ge());
  ROW(out, shfl_idx, __shfl_sync(0xffffffffu, v, lane ^ 5));
  ROW(out, shfl_idx_const, __shfl_sync(0xffffffffu, v, 3));
  ROW(out, shfl_idx_w8, __shfl_sync(0xffffffffu, v, lane + 3, 8));
  ROW(out, shfl_idx_w16_big, __shfl_sync(0xffffffffu, v, v & 63, 16));
  ROW(out, shfl_idx_oob, __shfl_sync(0xffffffffu, v, lane + 40));
  ROW(out, shfl_idx_neg, __shfl_sync(0xffffffffu, v, -lane));
  ROW(out, shfl_up1, __shfl_up_sync(0xffffffffu, v, 1));
  ROW(out, shfl_up3_w16, __shfl_up_sync(0xffffffffu, v, 3, 16));
  ROW(out, shfl_up5_w4, __shfl_up_sync(0xffffffffu, v, 5, 4));
  ROW(out, shfl_down2, __shfl_down_sync(0xffffffffu, v, 2));
  ROW(out, shfl_down2_w8, __shfl_down_sync(0xffffffffu, v, 2, 8));
  ROW(out, shfl_down_var, __shfl_down_sync(0xffffffffu, v, (unsigned)(v & 31)));
  ROW(out, shfl_xor1, __shfl_xor_sync(0xffffffffu, v, 1));
  ROW(out, shfl_xor16, __shfl_xor_sync(0xffffffffu, v, 16));
  ROW(out, shfl_xor4_w4, __shfl_xor_sync(0xffffffffu, v, 4, 4));
  ROW(out, shfl_xor3_w8, __shfl_xor_sync(0xffffffffu, v, 3, 8));
  ROW(out, shfl_f, __float_as_int(__shfl_xor_sync(0xffffffffu, fin[i], 7)));
  ROW(out, shfl_pred_idx, shfl_idx_pred(v, lane * 3, 0x1f));
  ROW(out, shfl_pred_seg, shfl_idx_pred(v, lane + 5, 0x181f));
  ROW(out, shfl_pred_up, shfl_up_pred(v, 4, 0x0800));
  ROW(out, ballot, (int)__ballot_sync(0xffffffffu, v & 1));
  ROW(out, any, __any_sync(0xffffffffu, v > 1000000));
  ROW(out, all, __all_sync(0xffffffffu, v > -1000000));
  ROW(out, uni, __uni_sync(0xffffffffu, v & 4));
  ROW(out, match_any, (int)__match_any_sync(0xffffffffu, (unsigned)(v & 3)));
  int pred = 0;
  unsigned ma = __match_all_sync(0xffffffffu, (unsigned)(v >> 20), &pred);
  ROW(out, match_all, (int)ma);
  ROW(out, match_all_pred, pred);
  ROW(out, match_any64, (int)__match_any_sync(0xffffffffu, (unsigned long long)(v & 0x300) << 30));
  ROW(out, redux_add, (int)__reduce_add_sync(0xffffffffu, (unsigned)v));
  ROW(out, redux_min_u, (int)__reduce_min_sync(0xffffffffu, (unsigned)v));
  ROW(out, redux_max_u, (int)__reduce_max_sync(0xffffffffu, (unsigned)v));
  ROW(out, redux_min_s, __reduce_min_sync(0xffffffffu, v));
  ROW(out, redux_max_s, __reduce_max_sync(0xffffffffu, v));
  ROW(out, redux_and, (int)__reduce_and_sync(0xffffffffu, (unsigned)v | 0x10000000u));
  ROW(out, redux_or, (int)__reduce_or_sync(0xffffffffu, (unsigned)v & 0x0f0f00ffu));
  ROW(out, redux_xor, (int)__reduce_xor_sync(0xffffffffu, (unsigned)v));

  // Partial masks: only the named lanes take part.
  int r = -1;
  if (lane < 16) r = __shfl_sync(0x0000ffffu, v, (lane + 1) & 15);
  ROW(out, shfl_lower_half, r);
  r = -1;
  if (lane & 1) r = (int)__ballot_sync(0xaaaaaaaau, v & 2);
  ROW(out, ballot_odd, r);
  r = -1;
  if (lane >= 8) r = (int)__reduce_add_sync(0xffffff00u, (unsigned)lane * (unsigned)v);
  ROW(out, redux_partial, r);
  r = -1;
  if ((lane & 3) == 0) r = (int)__match_any_sync(0x11111111u, (unsigned)(v & 1));
  ROW(out, match_partial, r);
  r = -1;
  if (lane < 16) r = __shfl_down_sync(0x0000ffffu, v, 4, 16);
  ROW(out, shfl_down_partial, r);

  // activemask inside divergent code.
  unsigned am;
  if (lane % 3 == 0) {
    am = __activemask();
  } else if (lane % 3 == 1) {
    am = __activemask() | 0x1u;
  } else {
    am = ~__activemask();
  }
  ROW(out, activemask_div, (int)am);
  am = 0;
  if (v & 8) am = __activemask();
  ROW(out, activemask_data, (int)am);
  __syncwarp();
  ROW(out, activemask_full, (int)__activemask());
}
