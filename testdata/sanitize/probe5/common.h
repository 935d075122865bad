// Shared by probe5: report a CUDA call's status on stdout, and the few raw
// PTX operations (mbarrier, bulk copy) user code writes as inline assembly.
#include <cstdio>
#include <cstdint>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(uint64_t *b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(n) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect(uint64_t *b, unsigned bytes) {
  asm volatile("{ .reg .b64 s; mbarrier.arrive.expect_tx.shared::cta.b64 s, [%0], %1; }" ::"r"(smem(b)), "r"(bytes) : "memory");
}
// Waits at most tries rounds of try_wait on phase parity par; says whether it completed.
__device__ __forceinline__ bool mbar_wait(uint64_t *b, unsigned par, int tries) {
  for (int i = 0; i < tries; i++) {
    unsigned r;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                 : "=r"(r) : "r"(smem(b)), "r"(par), "r"(1000u) : "memory");
    if (r) return true;
  }
  return false;
}
// A bulk copy of bytes from global to shared memory, completing on mbarrier b.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes, uint64_t *b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(b)) : "memory");
}
