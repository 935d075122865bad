// -*- C++ -*-
/* warpsim: cuda::__cp_async_shared_global<N>, the one cp.async of N bytes
 * (4, 8 or 16) from global to shared memory that memcpy_async issues per
 * chunk, under the file name libcu++ (CUDA 13's CCCL) gives it.
 *
 * The name and file matter to reports: nvcc inlines libcu++'s helper into
 * the kernel, and compute-sanitizer names a cp.async's write by the inlined
 * function and this file's line, from the line table's inlining records
 * ("void cuda::__4::__cp_async_shared_global<(unsigned long)16>(char *,
 * const char *)+0xe0 in cp_async_shared_global.h:60", testdata/sanitize/
 * probe5, pipeline_no_wait). warpsim's sanitizer names an inlined frame the
 * same way (docs/sanitizer.md, "Inlined frames"), for warpsim cc's
 * programs too; the inline namespace __4 is CUDA 13 libcu++'s, which is in
 * the name (only this function is in it here). */
#ifndef __WARPSIM_CUDA_CP_ASYNC_SHARED_GLOBAL_H__
#define __WARPSIM_CUDA_CP_ASYNC_SHARED_GLOBAL_H__

namespace cuda {
inline namespace __4 {

// __cp_async_shared_global<N> copies N bytes from src (global memory) to dst
// (shared memory) asynchronously; both aligned to N. 16 bytes bypass L1
// (.cg), as libcu++'s does; 4 and 8 bytes may only be cached in L1 (.ca).
template <unsigned long N>
__device__ inline void __cp_async_shared_global(char *dst, const char *src) {
  static_assert(N == 4 || N == 8 || N == 16, "cp.async copies 4, 8 or 16 bytes");
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  if (N == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
  else if (N == 8)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(d), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d), "l"(src) : "memory");
}

}  // namespace __4
}  // namespace cuda

#endif
