// sm_80/sm_90 integer and warp instructions (issue 18 item 5): bmsk, szext,
// redux.sync on every operation and type, elect.sync (in a { } scope with its
// own .reg declarations, as inline assembly writes it), griddepcontrol.
#include "wcuda.h"

#define BIN(fn, ins)                                                                \
  static __device__ __forceinline__ unsigned fn(unsigned a, unsigned b) {          \
    unsigned r; asm(ins " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
BIN(bmsk_clamp, "bmsk.clamp.b32")
BIN(bmsk_wrap, "bmsk.wrap.b32")
BIN(szext_clamp_s, "szext.clamp.s32")
BIN(szext_wrap_s, "szext.wrap.s32")
BIN(szext_clamp_u, "szext.clamp.u32")
BIN(szext_wrap_u, "szext.wrap.u32")

// bits: for the first 4096 elements b and c enumerate 0..63 x 0..63.
extern "C" __global__ void bits(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out, int n) {
  int i = WCUDA_TID_X;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  ROWS_BEGIN;
  ROW(out, bmsk_clamp, bmsk_clamp(y, z));
  ROW(out, bmsk_wrap, bmsk_wrap(y, z));
  ROW(out, szext_clamp_s, szext_clamp_s(x, y));
  ROW(out, szext_wrap_s, szext_wrap_s(x, y));
  ROW(out, szext_clamp_u, szext_clamp_u(x, y));
  ROW(out, szext_wrap_u, szext_wrap_u(x, y));
}

#define REDUX(fn, ins)                                                              \
  static __device__ __forceinline__ unsigned fn(unsigned v, unsigned m) {          \
    unsigned r; asm volatile(ins " %0, %1, %2;" : "=r"(r) : "r"(v), "r"(m)); return r; }
REDUX(redux_add_u32, "redux.sync.add.u32")
REDUX(redux_add_s32, "redux.sync.add.s32")
REDUX(redux_min_u32, "redux.sync.min.u32")
REDUX(redux_max_u32, "redux.sync.max.u32")
REDUX(redux_min_s32, "redux.sync.min.s32")
REDUX(redux_max_s32, "redux.sync.max.s32")
REDUX(redux_and, "redux.sync.and.b32")
REDUX(redux_or, "redux.sync.or.b32")
REDUX(redux_xor, "redux.sync.xor.b32")

static __device__ __forceinline__ unsigned elect(unsigned m, unsigned *is) {
  unsigned leader, p;
  asm volatile("{\n\t.reg .pred ep;\n\t.reg .b32 el;\n\telect.sync el|ep, %2;\n\tselp.u32 %1, 1, 0, ep;\n\t"
               "mov.b32 %0, el;\n\t}" : "=r"(leader), "=r"(p) : "r"(m));
  *is = p;
  return leader;
}

static __device__ __forceinline__ unsigned lane_id() {
  unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l;
}

// Warp w runs the warp-wide operations with member mask masks[w % 8]; lanes
// outside the mask write 0xdeadbeef.
extern "C" __global__ void warp_ops(const unsigned *v, unsigned *out, int n) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  int i = WCUDA_TID_X;
  if (i >= n) return;
  const unsigned masks[8] = {0xffffffffu, 0x0000ffffu, 0xaaaaaaaau, 0x00000001u,
                             0x80000000u, 0x12345678u, 0xfffffffeu, 0x0f0f00f0u};
  unsigned m = masks[(i / 32) % 8];
  unsigned x = v[i], is = 0;
  unsigned bad = 0xdeadbeefu;
  bool in = (m >> lane_id()) & 1;
  ROWS_BEGIN;
  ROW(out, redux_add_u32, in ? redux_add_u32(x, m) : bad);
  ROW(out, redux_add_s32, in ? redux_add_s32(x, m) : bad);
  ROW(out, redux_min_u32, in ? redux_min_u32(x, m) : bad);
  ROW(out, redux_max_u32, in ? redux_max_u32(x, m) : bad);
  ROW(out, redux_min_s32, in ? redux_min_s32(x, m) : bad);
  ROW(out, redux_max_s32, in ? redux_max_s32(x, m) : bad);
  ROW(out, redux_and, in ? redux_and(x, m) : bad);
  ROW(out, redux_or, in ? redux_or(x, m) : bad);
  ROW(out, redux_xor, in ? redux_xor(x, m) : bad);
  ROW(out, elect_leader, in ? elect(m, &is) : bad);
  ROW(out, elect_is_leader, in ? is : bad);
  asm volatile("griddepcontrol.launch_dependents;");
}
