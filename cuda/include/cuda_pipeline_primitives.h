/* warpsim: the CUDA pipeline primitives (__pipeline_memcpy_async,
 * __pipeline_commit, __pipeline_wait_prior, __pipeline_arrive_on) as PTX
 * cp.async, which warpsim runs with the hardware's ordering: the bytes land
 * in shared memory when the thread's batch completes at a wait. */
#ifndef __WARPSIM_CUDA_PIPELINE_PRIMITIVES_H__
#define __WARPSIM_CUDA_PIPELINE_PRIMITIVES_H__
#include <stddef.h>
#include "cuda_awbarrier_primitives.h"

/* size_and_align is 4, 8 or 16; the last zfill bytes are zero-filled. */
static __device__ __forceinline__ void __pipeline_memcpy_async(void *__restrict__ dst_shared, const void *__restrict__ src_global,
                                                               size_t size_and_align, size_t zfill = 0) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst_shared);
  unsigned src_size = (unsigned)(size_and_align - zfill);
  switch (size_and_align) {
  case 16:
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src_global), "r"(src_size) : "memory");
    break;
  case 8:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(d), "l"(src_global), "r"(src_size) : "memory");
    break;
  default:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src_global), "r"(src_size) : "memory");
    break;
  }
}

static __device__ __forceinline__ void __pipeline_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }

/* Waits until at most prior of this thread's committed batches are pending. */
static __device__ __forceinline__ void __pipeline_wait_prior(size_t prior) {
  switch (prior) {
  case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
  case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
  case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
  case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
  case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
  case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
  case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
  case 7: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
  default: asm volatile("cp.async.wait_group 8;" ::: "memory"); break;
  }
}

/* The barrier's arrival fires when this thread's copies so far complete. */
static __device__ __forceinline__ void __pipeline_arrive_on(__mbarrier_t *bar) {
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"((unsigned)__cvta_generic_to_shared(bar)) : "memory");
}

#endif
