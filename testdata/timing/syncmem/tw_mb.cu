// tw_mb.cu: when a warp waiting in mbarrier.try_wait on the H100 sees the phase it waits for complete. Warp 0 of a
// block of two warps waits (a loop of try_wait.parity, counting its iterations) on an mbarrier that expects one
// arrival; warp 1's lane 0 spins for D cycles after the block's __syncthreads and arrives. mode 0: try_wait
// (no suspend-time hint); mode 1: test_wait (never suspends). Prints "tw mode=<m> D=<D> arrive=<cycles after the
// start> release=<warp 0's cycles after the start when its wait succeeded> iters=<try_wait/test_wait executed>".
#include "common.h"

__global__ void k_tw(long long *out, int D, int mode) {
  __shared__ alignas(8) unsigned long long bar;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  __syncthreads();
  long long t0 = stamp();
  if (threadIdx.x == 32) {
    long long t;
    do t = stamp(); while (t - t0 < D);
    unsigned long long s;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[0] = stamp() - t0;
  } else if (threadIdx.x < 32) {
    unsigned ok, n = 0;
    do {
      if (mode == 0)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(b) : "memory");
      else
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(b) : "memory");
      n++;
    } while (!ok);
    long long t = stamp() - t0;
    if (threadIdx.x == 0) {
      out[1] = t;
      out[2] = n;
    }
  }
}

int main() {
  long long *out, h[3];
  CHECK(cudaMalloc(&out, 3 * sizeof(long long)));
  int Ds[] = {0, 25, 50, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000,
              8000, 10000, 12000, 16000, 24000, 32000, 48000, 64000};
  for (int mode = 0; mode < 2; mode++)
    for (int D : Ds) {
      for (int rep = 0; rep < 3; rep++) {
        k_tw<<<1, 64>>>(out, D, mode);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        printf("tw mode=%d D=%d arrive=%lld release=%lld iters=%lld\n", mode, D, h[0], h[1], h[2]);
      }
    }
  return 0;
}
