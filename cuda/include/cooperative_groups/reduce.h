/* warpsim: cooperative_groups::reduce over a tile of at most 32 threads
 * (a butterfly of shuffles) or a coalesced group (a tree of rank shuffles),
 * with CUDA's function objects cg::plus, less, greater, bit_and, bit_or,
 * bit_xor or any binary callable. Every member gets the result. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_REDUCE_H__
#define __WARPSIM_COOPERATIVE_GROUPS_REDUCE_H__
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus { __host__ __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __host__ __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __host__ __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __host__ __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __host__ __device__ T operator()(T a, T b) const { return a ^ b; } };

template <class T, class Op, unsigned Size, class P>
__device__ T reduce(const thread_block_tile<Size, P> &g, T v, Op op) {
  static_assert(Size <= 32, "cg::reduce needs a tile of at most 32 threads");
  for (unsigned m = Size / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, m));
  return v;
}

template <class T, class Op>
__device__ T reduce(const coalesced_group &g, T v, Op op) {
  unsigned n = g.size(), r = g.thread_rank();
  for (unsigned off = 1; off < n; off <<= 1) {
    T o = g.shfl_down(v, off);
    if ((r & (2 * off - 1)) == 0 && r + off < n) v = op(v, o);
  }
  return g.shfl(v, 0);
}
} // namespace cooperative_groups

#endif
