/* warpsim: the arrive-wait barrier primitives (__mbarrier_*) on PTX mbarrier
 * objects in shared memory, which warpsim simulates with their phase,
 * pending count and transaction count. */
#ifndef __WARPSIM_CUDA_AWBARRIER_PRIMITIVES_H__
#define __WARPSIM_CUDA_AWBARRIER_PRIMITIVES_H__
#include <stdint.h>

typedef uint64_t __mbarrier_t;
typedef uint64_t __mbarrier_token_t;

#define __WS_SA(p) ((unsigned)__cvta_generic_to_shared(p))

static __device__ __forceinline__ uint32_t __mbarrier_maximum_count(void) { return (1u << 20) - 1; }

static __device__ __forceinline__ void __mbarrier_init(__mbarrier_t *bar, uint32_t expected_count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(__WS_SA(bar)), "r"(expected_count) : "memory");
}
static __device__ __forceinline__ void __mbarrier_inval(__mbarrier_t *bar) {
  asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(__WS_SA(bar)) : "memory");
}
static __device__ __forceinline__ __mbarrier_token_t __mbarrier_arrive(__mbarrier_t *bar) {
  __mbarrier_token_t t;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(t) : "r"(__WS_SA(bar)) : "memory");
  return t;
}
static __device__ __forceinline__ __mbarrier_token_t __mbarrier_arrive_and_drop(__mbarrier_t *bar) {
  __mbarrier_token_t t;
  asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(t) : "r"(__WS_SA(bar)) : "memory");
  return t;
}
static __device__ __forceinline__ bool __mbarrier_test_wait(__mbarrier_t *bar, __mbarrier_token_t token) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(__WS_SA(bar)), "l"(token) : "memory");
  return r != 0;
}
static __device__ __forceinline__ bool __mbarrier_test_wait_parity(__mbarrier_t *bar, uint32_t parity) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(__WS_SA(bar)), "r"(parity) : "memory");
  return r != 0;
}
static __device__ __forceinline__ bool __mbarrier_try_wait(__mbarrier_t *bar, __mbarrier_token_t token, uint32_t max_sleep_nanosec) {
  unsigned r;
  (void)max_sleep_nanosec;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(__WS_SA(bar)), "l"(token) : "memory");
  return r != 0;
}
static __device__ __forceinline__ bool __mbarrier_try_wait_parity(__mbarrier_t *bar, uint32_t parity, uint32_t max_sleep_nanosec) {
  unsigned r;
  (void)max_sleep_nanosec;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(__WS_SA(bar)), "r"(parity) : "memory");
  return r != 0;
}
static __device__ __forceinline__ uint32_t __mbarrier_token_pending_count(__mbarrier_token_t token) {
  uint32_t n;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(token));
  return n;
}
#undef __WS_SA
#endif
