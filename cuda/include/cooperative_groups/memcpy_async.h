/* warpsim: cooperative_groups::memcpy_async, wait and wait_prior. The
 * group's threads copy the bytes between them at the call (the simulator
 * has no asynchronous copy engine for this); wait synchronizes the group,
 * so the data are visible to every member afterwards, as in CUDA. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#define __WARPSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#include "../cooperative_groups.h"

namespace cooperative_groups {
/* bytes may be a size_t or cuda::aligned_size_t<N>. */
template <class Group, class Size>
__device__ void memcpy_async(const Group &g, void *dst, const void *src, Size bytes) {
  size_t n = (size_t)bytes, rank = (size_t)g.thread_rank(), step = (size_t)g.size();
  if ((((size_t)dst | (size_t)src | n) & 3) == 0) {
    unsigned *d = (unsigned *)dst;
    const unsigned *s = (const unsigned *)src;
    for (size_t i = rank; i < n / 4; i += step) d[i] = s[i];
    return;
  }
  char *d = (char *)dst;
  const char *s = (const char *)src;
  for (size_t i = rank; i < n; i += step) d[i] = s[i];
}
/* The layout form: dstCount elements of T from srcCount. */
template <class Group, class T>
__device__ void memcpy_async(const Group &g, T *dst, size_t dstCount, const T *src, size_t srcCount) {
  memcpy_async(g, (void *)dst, (const void *)src, (dstCount < srcCount ? dstCount : srcCount) * sizeof(T));
}
template <class Group> __device__ void wait(const Group &g) { g.sync(); }
template <unsigned N, class Group> __device__ void wait_prior(const Group &g) { g.sync(); }
} // namespace cooperative_groups

#endif
