// Shared by the mbarrier sanitizer suite: raw PTX mbarrier operations through
// inline assembly (the same text under nvcc and clang), and REPORT.
#include <cstdio>
#include <cstdint>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t *b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_inval(uint64_t *b) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(sa(b)) : "memory");
}
__device__ __forceinline__ uint64_t mb_arrive(uint64_t *b) {
  uint64_t s;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(sa(b)) : "memory");
  return s;
}
__device__ __forceinline__ uint64_t mb_arrive_n(uint64_t *b, unsigned n) {
  uint64_t s;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(sa(b)), "r"(n) : "memory");
  return s;
}
__device__ __forceinline__ uint64_t mb_arrive_tx(uint64_t *b, unsigned tx) {
  uint64_t s;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(sa(b)), "r"(tx) : "memory");
  return s;
}
__device__ __forceinline__ bool mb_test_parity(uint64_t *b, unsigned par) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "r"(par) : "memory");
  return r != 0;
}
__device__ __forceinline__ bool mb_try_parity(uint64_t *b, unsigned par) {
  unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "r"(par), "r"(1000u) : "memory");
  return r != 0;
}
// Waits at most tries rounds of try_wait; reports whether the phase completed.
__device__ __forceinline__ bool mb_wait_bounded(uint64_t *b, unsigned par, int tries) {
  for (int i = 0; i < tries; i++)
    if (mb_try_parity(b, par)) return true;
  return false;
}
__device__ __forceinline__ void bulk_g2s(void *dst, const void *src, unsigned bytes, uint64_t *b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }
__device__ __forceinline__ void bulk_s2g(void *dst, const void *src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void bulk_wait0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
