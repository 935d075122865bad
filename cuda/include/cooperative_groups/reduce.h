/* warpsim: cooperative_groups::reduce over a tile (a butterfly of shuffles;
 * larger than a warp, through shared memory) or a coalesced group (a tree
 * of rank shuffles),
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

/* Tiles of up to 32 threads: a butterfly of shuffles. */
template <unsigned Size, bool Warp = (Size <= 32)> struct __warpsim_tile_reduce {
  template <class T, class Op, class G> __device__ static T run(const G &g, T v, Op op) {
    for (unsigned m = Size / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, m));
    return v;
  }
};
/* Tiles of 64 … 1024 threads: each warp reduces, its first lane leaves the
 * result in shared memory (a slot per warp of the block), and after the
 * tile's barrier every thread combines its tile's slots in warp order. */
template <unsigned Size> struct __warpsim_tile_reduce<Size, false> {
  template <class T, class Op, class G> __device__ static T run(const G &g, T v, Op op) {
    for (unsigned m = 16; m > 0; m /= 2) v = op(v, __warpsim_shfl_any(0xffffffffu, v, (int)m, 32, 3));
    __shared__ __align__(16) unsigned char slots[32 * sizeof(T)];
    unsigned r = __warpsim_block_rank(), first = (r / Size) * (Size / 32);
    if ((r & 31) == 0) __builtin_memcpy(slots + (r / 32) * sizeof(T), &v, sizeof(T));
    g.sync();
    T acc = v;
    __builtin_memcpy(&acc, slots + first * sizeof(T), sizeof(T));
    for (unsigned i = 1; i < Size / 32; i++) {
      T w = v;
      __builtin_memcpy(&w, slots + (first + i) * sizeof(T), sizeof(T));
      acc = op(acc, w);
    }
    g.sync();
    return acc;
  }
};

template <class T, class Op, unsigned Size, class P>
__device__ T reduce(const thread_block_tile<Size, P> &g, T v, Op op) {
  return __warpsim_tile_reduce<Size>::run(g, v, op);
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
