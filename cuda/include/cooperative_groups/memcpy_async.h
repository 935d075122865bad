/* warpsim: cooperative_groups::memcpy_async, wait and wait_prior, as CUDA
 * does them on sm_80 and later (before, the group's threads copy at the call): a copy from global into shared memory is
 * spread over the group's threads as cp.async of 16, 8 or 4 bytes (the
 * widest the addresses and size allow) and committed as one group per
 * call; wait waits for every group (cp.async.wait_all), wait_prior<N> for
 * all but the N most recent (cp.async.wait_group N), and both then
 * synchronize the group, so the data are visible to every member. Other
 * copies (shared to shared, unaligned bytes) are done by the group's
 * threads at the call. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#define __WARPSIM_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#include "../cooperative_groups.h"

namespace cooperative_groups {
/* bytes may be a size_t or cuda::aligned_size_t<N>. */
template <class Group, class Size>
__device__ void memcpy_async(const Group &g, void *dst, const void *src, Size bytes) {
  size_t n = (size_t)bytes, rank = (size_t)g.thread_rank(), step = (size_t)g.size();
  size_t align = (size_t)dst | (size_t)src | n;
#if __CUDA_ARCH__ >= 800
  if ((align & 3) == 0 && __isShared(dst) && __isGlobal(src)) {
    unsigned s0 = (unsigned)__cvta_generic_to_shared(dst);
    const char *s = (const char *)src;
    if ((align & 15) == 0)
      for (size_t i = rank; i < n / 16; i += step)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s0 + (unsigned)(16 * i)), "l"(s + 16 * i) : "memory");
    else if ((align & 7) == 0)
      for (size_t i = rank; i < n / 8; i += step)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(s0 + (unsigned)(8 * i)), "l"(s + 8 * i) : "memory");
    else
      for (size_t i = rank; i < n / 4; i += step)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s0 + (unsigned)(4 * i)), "l"(s + 4 * i) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    return;
  }
  asm volatile("cp.async.commit_group;" ::: "memory"); /* an empty group keeps wait_prior's count */
#endif
  if ((align & 3) == 0) {
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
template <class Group> __device__ void wait(const Group &g) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
  g.sync();
}
template <unsigned N, class Group> __device__ void wait_prior(const Group &g) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
  g.sync();
}
} // namespace cooperative_groups

#endif
