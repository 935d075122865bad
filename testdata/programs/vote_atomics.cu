// Warp vote (__ballot_sync, __any_sync, __all_sync, __popc) and atomics
// (add, sub, min, max, and, or, xor, exch, CAS, inc) with known results.
#include "check.h"
struct Results { unsigned ballot, any, all, popc; int add, sub, mn, mx, andv, orv, xorv, cas, exch; unsigned inc; };
__global__ void vote(Results *r) {
  int t = threadIdx.x;
  unsigned b = __ballot_sync(0xffffffff, t % 3 == 0);
  int any = __any_sync(0xffffffff, t == 17), all = __all_sync(0xffffffff, t < 32);
  if (t == 0) { r->ballot = b; r->any = any; r->all = all; r->popc = __popc(b); }
}
__global__ void atomics(Results *r) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&r->add, t);
  atomicSub(&r->sub, 1);
  atomicMin(&r->mn, 1000 - t);
  atomicMax(&r->mx, t * 3);
  atomicAnd(&r->andv, ~(1 << (t % 31)));
  atomicOr(&r->orv, 1 << (t % 20));
  atomicXor(&r->xorv, t);
  atomicInc(&r->inc, 100);
  if (t == 5) atomicExch(&r->exch, 77);
  int old = atomicCAS(&r->cas, 0, t + 1);
  (void)old;
}
int main() {
  Results h = {}, *d;
  h.sub = 1000; h.mn = 1 << 30; h.mx = -1; h.andv = -1;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
  vote<<<1, 32>>>(d);
  atomics<<<4, 128>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("ballot %08x any %d all %d popc %u\n", h.ballot, h.any, h.all, h.popc);
  printf("add %d sub %d min %d max %d and %08x or %08x xor %d inc %u exch %d cas_set %d\n",
         h.add, h.sub, h.mn, h.mx, h.andv, h.orv, h.xorv, h.inc, h.exch, h.cas != 0);
  bool ok = h.ballot == 0x49249249u && h.any == 1 && h.all == 1 && h.popc == 11 && h.add == 511 * 512 / 2 &&
            h.sub == 1000 - 512 && h.mn == 1000 - 511 && h.mx == 511 * 3 && h.andv == (int)0x80000000 &&
            h.orv == 0xfffff && h.xorv == 0 && h.inc == 512 % 101 && h.exch == 77 && h.cas >= 1 && h.cas <= 512;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
