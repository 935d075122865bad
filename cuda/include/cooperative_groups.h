/* warpsim: cooperative groups, as far as it goes: thread blocks, tiles of
 * 1…32 threads (tiled_partition<N>) with their shuffles and votes,
 * coalesced groups, and grid groups without grid-wide synchronization
 * (cooperative launches are not simulated yet). Everything is the same
 * PTX as the warp intrinsics in device_functions.h. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_H__
#define __WARPSIM_COOPERATIVE_GROUPS_H__
/* NVIDIA's include-guard name, which programs test. */
#define _COOPERATIVE_GROUPS_H_
#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_block {
public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned num_threads() const { return size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }

/* A tile of Size consecutive threads of a block (Size a power of two, at
 * most 32): lanes [k·Size, (k+1)·Size) of a warp. */
template <unsigned Size, class ParentT = void> class thread_block_tile {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "tile size must be a power of two up to 32");

public:
  thread_block_tile() = default;
  /* A tile converts to the parent-less tile type, as in CUDA. */
  template <class P> __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
  __device__ unsigned mask() const {
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << (__laneid() & ~(Size - 1));
  }
  __device__ void sync() const { __syncwarp(mask()); }
  __device__ unsigned thread_rank() const { return this_thread_block().thread_rank() & (Size - 1); }
  __device__ unsigned size() const { return Size; }
  __device__ unsigned num_threads() const { return Size; }
  __device__ unsigned meta_group_rank() const { return this_thread_block().thread_rank() / Size; }
  __device__ unsigned meta_group_size() const { return (this_thread_block().size() + Size - 1) / Size; }
  template <class T> __device__ T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, Size); }
  template <class T> __device__ T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask(), v, d, Size); }
  template <class T> __device__ T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask(), v, d, Size); }
  template <class T> __device__ T shfl_xor(T v, int m) const { return __shfl_xor_sync(mask(), v, m, Size); }
  __device__ unsigned ballot(int p) const {
    return (__ballot_sync(mask(), p) & mask()) >> (__laneid() & ~(Size - 1));
  }
  __device__ int any(int p) const { return ballot(p) != 0; }
  __device__ int all(int p) const { return ballot(p) == (Size == 32 ? 0xffffffffu : (1u << Size) - 1); }
  template <class T> __device__ unsigned match_any(T v) const {
    return (__match_any_sync(mask(), v) & mask()) >> (__laneid() & ~(Size - 1));
  }
};

template <unsigned Size, class ParentT> __device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &) {
  return thread_block_tile<Size, ParentT>();
}

/* The threads of a warp active where it was made. */
class coalesced_group {
  unsigned mask_;

public:
  __device__ explicit coalesced_group(unsigned m) : mask_(m) {}
  __device__ void sync() const { __syncwarp(mask_); }
  __device__ unsigned thread_rank() const { return __popc(mask_ & __lanemask_lt()); }
  __device__ unsigned size() const { return __popc(mask_); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ unsigned ballot(int p) const {
    unsigned b = __ballot_sync(mask_, p), out = 0;
    for (unsigned m = mask_, r = 0; m; m &= m - 1, r++)
      if (b & m & -m) out |= 1u << r;
    return out;
  }
  __device__ int any(int p) const { return __any_sync(mask_, p); }
  __device__ int all(int p) const { return __all_sync(mask_, p); }
  template <class T> __device__ T shfl(T v, unsigned rank) const { return __shfl_sync(mask_, v, __fns(mask_, 0, rank + 1)); }
};

__device__ inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* The whole grid. sync() needs a cooperative launch, which warpsim does
 * not simulate yet, so it is not offered. */
class grid_group {
public:
  __device__ unsigned long long thread_rank() const {
    unsigned long long block = (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    return block * this_thread_block().size() + this_thread_block().thread_rank();
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * this_thread_block().size();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ bool is_valid() const { return true; }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
};

__device__ inline grid_group this_grid() { return grid_group(); }

template <class Group> __device__ void sync(const Group &g) { g.sync(); }

} // namespace cooperative_groups

#endif
