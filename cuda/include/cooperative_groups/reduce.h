/* warpsim: cooperative_groups::reduce over a tile with the standard
 * operators, by a butterfly of shuffles. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_REDUCE_H__
#define __WARPSIM_COOPERATIVE_GROUPS_REDUCE_H__
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

template <class T, class Op, unsigned Size, class P>
__device__ T reduce(const thread_block_tile<Size, P> &g, T v, Op op) {
  for (unsigned m = Size / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, m));
  return v;
}
} // namespace cooperative_groups

#endif
