/* warpsim: cooperative groups as CUDA 12 offers them, for clang.
 *
 * thread_group (any group, chosen at run time), thread_block, grid_group,
 * thread_block_tile<N> (static tiles: N a power of two up to 32 with
 * shuffles, votes and matches; 64 … 1024 with sync and ranks),
 * tiled_partition (static and dynamic), coalesced_group,
 * coalesced_threads, binary_partition, labeled_partition,
 * block_tile_memory, invoke_one. cg::reduce, cg::inclusive_scan /
 * exclusive_scan and cg::memcpy_async / wait are in cooperative_groups/.
 * Every operation is the PTX of the warp intrinsics (shfl.sync, vote.sync,
 * match.sync, bar.warp.sync, bar.sync), so the engine executes what a GPU
 * would.
 *
 * grid_group::sync() needs a cooperative launch (cudaLaunchCooperativeKernel):
 * it calls __warpsim_grid_sync, the simulator's grid-wide barrier. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_H__
#define __WARPSIM_COOPERATIVE_GROUPS_H__
/* NVIDIA's include-guard name, which programs test. */
#define _COOPERATIVE_GROUPS_H_
#include "cuda_runtime.h"

namespace cooperative_groups {

/* A word-by-word shuffle of any trivially copyable T (CUDA's tiles shuffle
 * structs this way). Mode 0 idx, 1 up, 2 down, 3 xor. */
template <class T>
__device__ __forceinline__ T __warpsim_shfl_any(unsigned mask, T v, int x, int width, int mode) {
  constexpr int n = (sizeof(T) + 3) / 4;
  int w[n];
  __builtin_memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < n; i++) {
    switch (mode) {
    case 0: w[i] = __shfl_sync(mask, w[i], x, width); break;
    case 1: w[i] = __shfl_up_sync(mask, w[i], (unsigned)x, width); break;
    case 2: w[i] = __shfl_down_sync(mask, w[i], (unsigned)x, width); break;
    default: w[i] = __shfl_xor_sync(mask, w[i], x, width); break;
    }
  }
  T r = v;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}

/* The linear rank of the calling thread in its block. */
__device__ __forceinline__ unsigned __warpsim_block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned __warpsim_block_size() { return blockDim.x * blockDim.y * blockDim.z; }

/* The grid-wide barrier of a cooperative launch, which the simulator runs
 * itself (internal/engine/gridsync.go): called by every thread of every
 * block, it returns once all of them called it, with what each wrote before
 * visible to all (__syncthreads() for the block, then the whole grid). In a
 * launch that is not cooperative the kernel traps (cudaErrorLaunchFailure),
 * as nvcc's code does on an H100 where the grid has no workspace. */
extern "C" __device__ void __warpsim_grid_sync(void);

/* The grid workspace, as the driver hands it to nvcc's code (%envreg1: high
 * half, %envreg2: low half): made by the context's first cooperative launch
 * and seen by every launch after it (on an H100, is_valid() is true in an
 * ordinary launch that follows a cooperative one), 0 before. */
__device__ __forceinline__ unsigned long long __warpsim_grid_workspace(void) {
  unsigned lo, hi;
  asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
  return ((unsigned long long)hi << 32) | lo;
}

/* What a thread_group is at run time. */
enum __warpsim_group_kind : unsigned {
  __warpsim_kind_block,    /* the thread block */
  __warpsim_kind_warp,     /* lanes of one warp, by mask (tiles ≤ 32, coalesced groups) */
  __warpsim_kind_big_tile, /* a tile of 64 … 1024 consecutive threads */
  __warpsim_kind_grid
};

/* Any group. Copies of a tile, a block or a coalesced group convert to it,
 * as in CUDA. */
class thread_group {
protected:
  unsigned kind_;
  unsigned mask_;  /* warp kinds: the member lanes */
  unsigned size_;  /* big tiles: threads per tile */
  unsigned meta_rank_, meta_size_;
  __device__ thread_group(unsigned kind, unsigned mask, unsigned size, unsigned metaRank, unsigned metaSize)
      : kind_(kind), mask_(mask), size_(size), meta_rank_(metaRank), meta_size_(metaSize) {}

public:
  __device__ unsigned long long size() const {
    switch (kind_) {
    case __warpsim_kind_block: return __warpsim_block_size();
    case __warpsim_kind_warp: return __popc(mask_);
    case __warpsim_kind_big_tile: return size_;
    default: return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __warpsim_block_size();
    }
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const {
    switch (kind_) {
    case __warpsim_kind_block: return __warpsim_block_rank();
    case __warpsim_kind_warp: return __popc(mask_ & __lanemask_lt());
    case __warpsim_kind_big_tile: return __warpsim_block_rank() & (size_ - 1);
    default: {
      unsigned long long block = (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      return block * __warpsim_block_size() + __warpsim_block_rank();
    }
    }
  }
  __device__ void sync() const {
    switch (kind_) {
    case __warpsim_kind_block: __syncthreads(); break;
    case __warpsim_kind_warp: __syncwarp(mask_); break;
    case __warpsim_kind_big_tile:
      /* Named barrier 1 + the tile's index among the block's tiles (PTX
       * has 16 barriers; 0 is __syncthreads'; more than 15 tiles share). */
      asm volatile("barrier.sync %0, %1;" ::"r"(1 + (__warpsim_block_rank() / size_) % 15), "r"(size_) : "memory");
      break;
    default: __warpsim_grid_sync();
    }
  }
  __device__ bool is_valid() const { return kind_ != __warpsim_kind_grid || __warpsim_grid_workspace() != 0; }
  __device__ unsigned meta_group_rank() const { return meta_rank_; }
  __device__ unsigned meta_group_size() const { return meta_size_; }
  /* For the partitions below: the lanes of a warp-kind group. */
  __device__ unsigned __warpsim_mask() const { return mask_; }
  __device__ unsigned __warpsim_kind() const { return kind_; }
};

class thread_block : public thread_group {
public:
  __device__ thread_block() : thread_group(__warpsim_kind_block, 0, 0, 0, 1) {}
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned thread_rank() const { return __warpsim_block_rank(); }
  __device__ unsigned size() const { return __warpsim_block_size(); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
  __device__ bool is_valid() const { return true; }
};

/* Scratch memory CUDA needs for tiles larger than a warp before sm_80;
 * warpsim needs none, so it is only the size the program reserves. */
template <unsigned A = 1024, unsigned B = 0> struct block_tile_memory {
  alignas(16) unsigned char __reserved[16];
};

__device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }
template <unsigned A, unsigned B>
__device__ __forceinline__ thread_block this_thread_block(block_tile_memory<A, B> &) { return thread_block(); }

/* Threads of one warp, by mask: what coalesced_threads(), binary_partition
 * and labeled_partition return. Ranks count the member lanes in order. */
class coalesced_group : public thread_group {
  __device__ unsigned lane_of(unsigned rank) const { return __fns(mask_, 0, (int)rank + 1); }

public:
  __device__ explicit coalesced_group(unsigned m, unsigned metaRank = 0, unsigned metaSize = 1)
      : thread_group(__warpsim_kind_warp, m, 0, metaRank, metaSize) {}
  __device__ void sync() const { __syncwarp(mask_); }
  __device__ unsigned thread_rank() const { return __popc(mask_ & __lanemask_lt()); }
  __device__ unsigned size() const { return __popc(mask_); }
  __device__ unsigned num_threads() const { return size(); }
  __device__ bool is_valid() const { return mask_ != 0; }
  __device__ unsigned ballot(int p) const {
    unsigned b = __ballot_sync(mask_, p), out = 0, r = 0;
    for (unsigned m = mask_; m; m &= m - 1, r++)
      if (b & m & (0u - m)) out |= 1u << r;
    return out;
  }
  /* Votes and matches go through the ballot and match.any of the member
   * lanes, so they count only the group however many groups share the warp. */
  __device__ bool any(int p) const { return (__ballot_sync(mask_, p) & mask_) != 0; }
  __device__ bool all(int p) const { return (__ballot_sync(mask_, p) & mask_) == mask_; }
  template <class T> __device__ T shfl(T v, unsigned rank) const {
    return __warpsim_shfl_any(mask_, v, (int)lane_of(rank), 32, 0);
  }
  template <class T> __device__ T shfl_down(T v, unsigned d) const {
    unsigned r = thread_rank() + d;
    T got = __warpsim_shfl_any(mask_, v, (int)lane_of(r < size() ? r : thread_rank()), 32, 0);
    return got;
  }
  template <class T> __device__ T shfl_up(T v, unsigned d) const {
    unsigned me = thread_rank();
    return __warpsim_shfl_any(mask_, v, (int)lane_of(me >= d ? me - d : me), 32, 0);
  }
  template <class T> __device__ unsigned match_any(T v) const { return compress(__match_any_sync(mask_, v)); }
  template <class T> __device__ unsigned match_all(T v, int &pred) const {
    pred = (__match_any_sync(mask_, v) & mask_) == mask_;
    return pred ? compress(mask_) : 0;
  }
  /* Lane bits to rank bits. */
  __device__ unsigned compress(unsigned lanes) const {
    unsigned out = 0, r = 0;
    for (unsigned m = mask_; m; m &= m - 1, r++)
      if (lanes & m & (0u - m)) out |= 1u << r;
    return out;
  }
};

__device__ __forceinline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* A tile of Size consecutive threads of a block. Up to 32: lanes
 * [k·Size, (k+1)·Size) of a warp, with the warp operations; 64 … 1024:
 * consecutive warps, with sync and ranks. */
template <unsigned Size, class ParentT = void> class thread_block_tile;

template <unsigned Size, bool Warp = (Size <= 32)> class __warpsim_tile_base;

template <unsigned Size> class __warpsim_tile_base<Size, true> : public thread_group {
  static_assert(Size >= 1 && (Size & (Size - 1)) == 0, "thread_block_tile: the size must be a power of two");

protected:
  __device__ static unsigned tile_mask() {
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << (__laneid() & ~(Size - 1));
  }
  __device__ __warpsim_tile_base(unsigned metaRank, unsigned metaSize)
      : thread_group(__warpsim_kind_warp, tile_mask(), Size, metaRank, metaSize) {}

public:
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  __device__ unsigned thread_rank() const { return __laneid() & (Size - 1); }
  __device__ void sync() const { __syncwarp(mask_); }
  __device__ bool is_valid() const { return true; }
  template <class T> __device__ T shfl(T v, int src) const { return __warpsim_shfl_any(mask_, v, src, Size, 0); }
  template <class T> __device__ T shfl_up(T v, unsigned d) const { return __warpsim_shfl_any(mask_, v, (int)d, Size, 1); }
  template <class T> __device__ T shfl_down(T v, unsigned d) const { return __warpsim_shfl_any(mask_, v, (int)d, Size, 2); }
  template <class T> __device__ T shfl_xor(T v, int m) const { return __warpsim_shfl_any(mask_, v, m, Size, 3); }
  __device__ unsigned ballot(int p) const { return (__ballot_sync(mask_, p) & mask_) >> (__laneid() & ~(Size - 1)); }
  /* Votes and matches through ballot and match.any of the tile's lanes (see
   * coalesced_group). */
  __device__ bool any(int p) const { return (__ballot_sync(mask_, p) & mask_) != 0; }
  __device__ bool all(int p) const { return (__ballot_sync(mask_, p) & mask_) == mask_; }
  template <class T> __device__ unsigned match_any(T v) const {
    return (__match_any_sync(mask_, v) & mask_) >> (__laneid() & ~(Size - 1));
  }
  template <class T> __device__ unsigned match_all(T v, int &pred) const {
    pred = (__match_any_sync(mask_, v) & mask_) == mask_;
    return pred ? mask_ >> (__laneid() & ~(Size - 1)) : 0;
  }
};

template <unsigned Size> class __warpsim_tile_base<Size, false> : public thread_group {
  static_assert(Size <= 1024 && (Size & (Size - 1)) == 0, "thread_block_tile: the size must be a power of two up to 1024");

protected:
  __device__ __warpsim_tile_base(unsigned metaRank, unsigned metaSize)
      : thread_group(__warpsim_kind_big_tile, 0xffffffffu, Size, metaRank, metaSize) {}

public:
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  __device__ unsigned thread_rank() const { return __warpsim_block_rank() & (Size - 1); }
  __device__ void sync() const { thread_group::sync(); }
  __device__ bool is_valid() const { return true; }
};

template <unsigned Size> class thread_block_tile<Size, void> : public __warpsim_tile_base<Size> {
public:
  __device__ thread_block_tile(unsigned metaRank, unsigned metaSize) : __warpsim_tile_base<Size>(metaRank, metaSize) {}
  /* The tile of the calling thread, in its block. */
  __device__ thread_block_tile()
      : __warpsim_tile_base<Size>(__warpsim_block_rank() / Size, (__warpsim_block_size() + Size - 1) / Size) {}
};

template <unsigned Size, class ParentT> class thread_block_tile : public thread_block_tile<Size, void> {
public:
  __device__ thread_block_tile(unsigned metaRank, unsigned metaSize) : thread_block_tile<Size, void>(metaRank, metaSize) {}
};

/* tiled_partition<N>(parent): the calling thread's tile of N threads. */
template <unsigned Size>
__device__ __forceinline__ thread_block_tile<Size, thread_block> tiled_partition(const thread_block &) {
  return thread_block_tile<Size, thread_block>(__warpsim_block_rank() / Size, (__warpsim_block_size() + Size - 1) / Size);
}
template <unsigned Size, unsigned ParentSize, class P>
__device__ __forceinline__ thread_block_tile<Size, thread_block_tile<ParentSize, P>> tiled_partition(const thread_block_tile<ParentSize, P> &parent) {
  static_assert(Size <= ParentSize, "tiled_partition: a tile cannot be larger than its parent");
  return thread_block_tile<Size, thread_block_tile<ParentSize, P>>(parent.thread_rank() / Size, ParentSize / Size);
}

/* tiled_partition(parent, n): the same, with n chosen at run time (a power
 * of two; up to 32 below a tile or coalesced group, up to 1024 below a
 * block). Below a coalesced group, tiles count the members in rank order. */
__device__ __forceinline__ thread_group tiled_partition(const thread_group &parent, unsigned n) {
  struct make : thread_group {
    __device__ make(unsigned k, unsigned m, unsigned s, unsigned r, unsigned z) : thread_group(k, m, s, r, z) {}
  };
  if (n > 32) {
    if (parent.__warpsim_kind() != __warpsim_kind_block && parent.__warpsim_kind() != __warpsim_kind_big_tile) __trap();
    return make(__warpsim_kind_big_tile, 0xffffffffu, n, (unsigned)parent.thread_rank() / n, ((unsigned)parent.size() + n - 1) / n);
  }
  unsigned rank = (unsigned)parent.thread_rank();
  unsigned meta = ((unsigned)parent.size() + n - 1) / n;
  if (parent.__warpsim_kind() == __warpsim_kind_warp) {
    /* Below a tile or coalesced group: the members whose ranks share the
     * caller's tile index. */
    unsigned pm = parent.__warpsim_mask(), m = 0, r = 0, first = rank & ~(n - 1);
    for (unsigned b = pm; b; b &= b - 1, r++)
      if (r >= first && r < first + n) m |= b & (0u - b);
    return make(__warpsim_kind_warp, m, 0, rank / n, meta);
  }
  unsigned lanes = n == 32 ? 0xffffffffu : ((1u << n) - 1) << (__laneid() & ~(n - 1));
  return make(__warpsim_kind_warp, lanes, 0, rank / n, meta);
}

/* The members of a warp-sized group for which pred is true, or those for
 * which it is false: the caller's side. */
__device__ __forceinline__ coalesced_group binary_partition(const coalesced_group &g, bool pred) {
  unsigned m = g.__warpsim_mask(), b = __ballot_sync(m, pred);
  return coalesced_group(pred ? (b & m) : (~b & m), pred ? 1 : 0, 2);
}
template <unsigned Size, class P>
__device__ __forceinline__ coalesced_group binary_partition(const thread_block_tile<Size, P> &g, bool pred) {
  static_assert(Size <= 32, "binary_partition needs a tile of at most 32 threads");
  unsigned m = g.__warpsim_mask(), b = __ballot_sync(m, pred);
  return coalesced_group(pred ? (b & m) : (~b & m), pred ? 1 : 0, 2);
}

/* The members with the same label as the caller. */
template <class Label>
__device__ __forceinline__ coalesced_group labeled_partition(const coalesced_group &g, Label label) {
  unsigned m = g.__warpsim_mask();
  return coalesced_group(__match_any_sync(m, label) & m);
}
template <class Label, unsigned Size, class P>
__device__ __forceinline__ coalesced_group labeled_partition(const thread_block_tile<Size, P> &g, Label label) {
  static_assert(Size <= 32, "labeled_partition needs a tile of at most 32 threads");
  unsigned m = g.__warpsim_mask();
  return coalesced_group(__match_any_sync(m, label) & m);
}

/* The whole grid. */
__device__ __forceinline__ unsigned __warpsim_sreg_grid_cluster(int i) {
  unsigned v;
  switch (i) {
  case 0: asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
  case 1: asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
  case 2: asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(v)); break;
  case 3: asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
  case 4: asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
  default: asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(v)); break;
  }
  return v;
}
class grid_group : public thread_group {
public:
  __device__ grid_group() : thread_group(__warpsim_kind_grid, 0, 0, 0, 1) {}
  __device__ unsigned long long thread_rank() const { return thread_group::thread_rank(); }
  __device__ unsigned long long size() const { return thread_group::size(); }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long block_rank() const {
    return (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  }
  __device__ unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 group_dim() const { return dim_blocks(); }
  /* True once the context has a grid workspace (above). */
  __device__ bool is_valid() const { return __warpsim_grid_workspace() != 0; }
  __device__ void sync() const { __warpsim_grid_sync(); }
  /* Clusters of the grid (sm_90; a launch without clusters has 1x1x1). */
  __device__ dim3 dim_clusters() const { return dim3(__warpsim_sreg_grid_cluster(3), __warpsim_sreg_grid_cluster(4), __warpsim_sreg_grid_cluster(5)); }
  __device__ dim3 cluster_index() const { return dim3(__warpsim_sreg_grid_cluster(0), __warpsim_sreg_grid_cluster(1), __warpsim_sreg_grid_cluster(2)); }
  __device__ unsigned long long num_clusters() const {
    dim3 d = dim_clusters();
    return (unsigned long long)d.x * d.y * d.z;
  }
  __device__ unsigned long long cluster_rank() const {
    dim3 i = cluster_index(), d = dim_clusters();
    return ((unsigned long long)i.z * d.y + i.y) * d.x + i.x;
  }
};

__device__ __forceinline__ grid_group this_grid() { return grid_group(); }

/* The thread-block cluster (sm_90): the blocks of a cluster launch that
 * run together and share their shared memory (docs/clusters.md). */
__device__ __forceinline__ unsigned __warpsim_sreg_cluster(int i) {
  unsigned v;
  switch (i) {
  case 0: asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
  case 1: asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
  case 2: asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
  case 3: asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
  case 4: asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v)); break;
  case 5: asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
  case 6: asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
  default: asm volatile("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v)); break;
  }
  return v;
}
class cluster_group : public thread_group {
public:
  __device__ cluster_group() : thread_group(__warpsim_kind_block, 0, 0, 0, 1) {}
  __device__ void sync() const { asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory"); }
  /* Split arrive/wait: barrier_arrive returns the token CUDA 12+ passes
   * to barrier_wait (a call may also drop it and wait with no token). */
  struct arrival_token {};
  __device__ arrival_token barrier_arrive() const {
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    return arrival_token();
  }
  __device__ void barrier_wait() const { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
  __device__ void barrier_wait(arrival_token &&) const { barrier_wait(); }
  __device__ unsigned block_rank() const { return __warpsim_sreg_cluster(0); }
  __device__ unsigned num_blocks() const { return __warpsim_sreg_cluster(1); }
  __device__ dim3 block_index() const { return dim3(__warpsim_sreg_cluster(2), __warpsim_sreg_cluster(3), __warpsim_sreg_cluster(4)); }
  __device__ dim3 dim_blocks() const { return dim3(__warpsim_sreg_cluster(5), __warpsim_sreg_cluster(6), __warpsim_sreg_cluster(7)); }
  __device__ unsigned thread_rank() const { return block_rank() * __warpsim_block_size() + __warpsim_block_rank(); }
  __device__ unsigned num_threads() const { return num_blocks() * __warpsim_block_size(); }
  __device__ unsigned size() const { return num_threads(); }
  __device__ dim3 dim_threads() const {
    dim3 b = dim_blocks();
    return dim3(b.x * blockDim.x, b.y * blockDim.y, b.z * blockDim.z);
  }
  __device__ bool is_valid() const { return true; }
  /* The address of *addr's copy in block rank's shared memory (mapa). */
  template <class T> __device__ T *map_shared_rank(T *addr, unsigned rank) const {
    unsigned long long r;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"((unsigned long long)addr), "r"(rank));
    return (T *)r;
  }
  template <class T> __device__ T &map_shared_rank(T &addr, unsigned rank) const { return *map_shared_rank(&addr, rank); }
};

__device__ __forceinline__ cluster_group this_cluster() { return cluster_group(); }

template <class Group> __device__ __forceinline__ void sync(const Group &g) { g.sync(); }
template <class Group> __device__ __forceinline__ unsigned long long thread_rank(const Group &g) { return g.thread_rank(); }
template <class Group> __device__ __forceinline__ unsigned long long group_size(const Group &g) { return g.size(); }
template <class Group> __device__ __forceinline__ unsigned long long num_threads(const Group &g) { return g.num_threads(); }

/* invoke_one: the group's first thread calls fn; invoke_one_broadcast
 * hands its result to every member (warp-sized groups). */
template <class Group, class Fn, class... Args>
__device__ void invoke_one(const Group &g, Fn &&fn, Args &&...args) {
  if (g.thread_rank() == 0) fn(static_cast<Args &&>(args)...);
  g.sync();
}
template <class Group, class Fn, class... Args>
__device__ auto invoke_one_broadcast(const Group &g, Fn &&fn, Args &&...args) -> decltype(fn(static_cast<Args &&>(args)...)) {
  decltype(fn(static_cast<Args &&>(args)...)) r{};
  if (g.thread_rank() == 0) r = fn(static_cast<Args &&>(args)...);
  return g.shfl(r, 0);
}

} // namespace cooperative_groups

#include "cooperative_groups/reduce.h"
#include "cooperative_groups/scan.h"
#include "cooperative_groups/memcpy_async.h"

#endif
