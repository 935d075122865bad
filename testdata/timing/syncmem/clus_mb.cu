// clus_mb.cu: what the PTX forms of testdata/clusters/cluster_dsmem.cu's ptxforms kernel cost on the H100, with
// %clock64 in the kernel.
//  k_forms: ptxforms itself (4 blocks of 64 threads in clusters of 2) with a stamp after each step, taken by each
//           warp's lane 0: prints "forms step=<s> <name> cycles=<slowest warp's step time>" (the step's time is
//           its stamp less the previous stamp, the slowest warp of any block).
//  k_loop<K>: ITERS repetitions of one form, clusters of 2 (4 blocks of 64 threads): "loop kind=<K> <name>
//           cycles_per=<x>" (the slowest warp's):
//           0 barrier.cluster.arrive + wait (release/acquire by default)   1 arrive.relaxed + wait
//           2 arrive.relaxed.aligned + wait.aligned                         3 fence.acq_rel.cluster alone
//           4 fence.acq_rel.cluster + arrive.release + wait.acquire         5 fence.acq_rel.cluster + arrive.relaxed + wait
//           6 st.shared::cluster to the peer + arrive + wait                7 arrive + wait, then one __syncthreads
//  k_first: one barrier.cluster round at the kernel's start (default semantics) timed alone, and one relaxed:
//           "first kind=<0|1> cycles=<x>" (cluster of 2).
#include "common.h"

#define ITERS 256

__device__ __forceinline__ void wstamp(long long *o, int step, long long v) {
  if ((threadIdx.x & 31) == 0) o[((blockIdx.x * 2 + threadIdx.x / 32) * 32) + step] = v;
}

// use makes the warp wait for v (a shared store of it) before the next stamp.
__device__ __forceinline__ void use(unsigned *scratch, unsigned v) {
  asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(scratch)), "r"(v) : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) k_forms(unsigned *out, unsigned *gcount, long long *st) {
  __shared__ unsigned buf[128], scratch[64];
  unsigned t = threadIdx.x, rank, peer, local, remote, v, old, fromGeneric, spc, spcta;
  long long t0 = stamp();
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  peer = rank ^ 1;
  buf[t] = rank * 1000 + t;
  buf[64 + t] = 0;
  wstamp(st, 0, stamp() - t0);
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  wstamp(st, 1, stamp() - t0);
  local = (unsigned)__cvta_generic_to_shared(&buf[t]);
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(peer));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
  use(&scratch[t], v);
  wstamp(st, 2, stamp() - t0);
  unsigned long long g = (unsigned long long)&buf[t], gr;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(gr) : "l"(g), "r"(peer));
  fromGeneric = *(volatile unsigned *)gr;
  asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(spc) : "l"(gr));
  asm volatile("{ .reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(spcta) : "l"(gr));
  use(&scratch[t], fromGeneric);
  wstamp(st, 3, stamp() - t0);
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  wstamp(st, 4, stamp() - t0);
  unsigned r64, r65;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r64) : "r"((unsigned)__cvta_generic_to_shared(&buf[64 + t])), "r"(peer));
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(r64), "r"(rank * 7 + t) : "memory");
  wstamp(st, 5, stamp() - t0);
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  wstamp(st, 6, stamp() - t0);
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
  wstamp(st, 7, stamp() - t0);
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r64) : "r"((unsigned)__cvta_generic_to_shared(&buf[64])), "r"(peer));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r65) : "r"((unsigned)__cvta_generic_to_shared(&buf[65])), "r"(peer));
  asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(r64), "r"(t + 1) : "memory");
  wstamp(st, 8, stamp() - t0);
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(r65) : "memory");
  unsigned oldsum = old;
  use(&scratch[t], old);
  wstamp(st, 9, stamp() - t0);
  for (int o = 16; o > 0; o >>= 1) oldsum += __shfl_xor_sync(0xffffffff, oldsum, o);
  __shared__ unsigned warpOld[2];
  if ((t & 31) == 0) warpOld[t / 32] = oldsum;
  wstamp(st, 10, stamp() - t0);
  asm volatile("atom.relaxed.cluster.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(gcount) : "memory");
  use(&scratch[t], old);
  wstamp(st, 11, stamp() - t0);
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  wstamp(st, 12, stamp() - t0);
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  wstamp(st, 13, stamp() - t0);
  unsigned *o = out + (blockIdx.x * 64 + t) * 8;
  o[0] = v; o[1] = fromGeneric; o[2] = spc; o[3] = spcta; o[4] = buf[64 + t];
  o[5] = buf[64]; o[6] = buf[65]; o[7] = warpOld[0] + warpOld[1];
  wstamp(st, 14, stamp() - t0);
}

template <int K>
__global__ void __cluster_dims__(2, 1, 1) k_loop(long long *st, unsigned *sink) {
  __shared__ unsigned buf[64];
  unsigned peer;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(peer));
  peer ^= 1;
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(&buf[threadIdx.x])), "r"(peer));
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  long long t0 = stamp();
  for (int i = 0; i < ITERS; i++) {
    if (K == 0) asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    if (K == 1) asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (K == 2) asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (K == 3) asm volatile("fence.acq_rel.cluster;" ::: "memory");
    if (K == 4) asm volatile("fence.acq_rel.cluster;\n\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    if (K == 5) asm volatile("fence.acq_rel.cluster;\n\tbarrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (K == 6) {
      asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(r), "r"(i) : "memory");
      asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    }
    if (K == 7) {
      asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
      __syncthreads();
    }
  }
  long long t1 = stamp();
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  if ((threadIdx.x & 31) == 0) st[blockIdx.x * 2 + threadIdx.x / 32] = t1 - t0;
  if (t1 == 0) sink[0] = buf[0];
}

template <int K>
__global__ void __cluster_dims__(2, 1, 1) k_first(long long *st) {
  long long t0 = stamp();
  if (K == 0) asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  if (K == 1) asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
  long long t1 = stamp();
  if ((threadIdx.x & 31) == 0) st[blockIdx.x * 2 + threadIdx.x / 32] = t1 - t0;
}

static long long slowest(long long *d, int n) {
  long long h[256], m = 0;
  cudaMemcpy(h, d, n * sizeof(long long), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) m = h[i] > m ? h[i] : m;
  return m;
}

int main() {
  unsigned *out, *cnt;
  long long *st;
  CHECK(cudaMalloc(&out, 4 * 64 * 8 * sizeof(unsigned)));
  CHECK(cudaMalloc(&cnt, 64));
  CHECK(cudaMalloc(&st, 8 * 32 * sizeof(long long)));
  const char *names[] = {"init", "barrier", "ld_remote", "ld_generic", "barrier_aligned", "st_remote", "fence",
                         "barrier_release", "red_remote", "atom_remote", "shfl", "atom_global", "fence2",
                         "barrier_relaxed", "stores"};
  for (int rep = 0; rep < 2; rep++) {
    CHECK(cudaMemset(cnt, 0, 64));
    flush();
    k_forms<<<4, 64>>>(out, cnt, st);
    CHECK(cudaDeviceSynchronize());
  }
  long long h[8 * 32];
  CHECK(cudaMemcpy(h, st, sizeof h, cudaMemcpyDeviceToHost));
  for (int s = 0; s < 15; s++) {
    long long m = 0;
    for (int w = 0; w < 8; w++) {
      long long d = h[w * 32 + s] - (s ? h[w * 32 + s - 1] : 0);
      m = d > m ? d : m;
    }
    printf("forms step=%d %s cycles=%lld\n", s, names[s], m);
  }
  const char *ln[] = {"arrive_wait", "relaxed", "relaxed_aligned", "fence", "fence_release", "fence_relaxed",
                      "st_remote_barrier", "barrier_syncthreads"};
  void (*ks[])(long long *, unsigned *) = {k_loop<0>, k_loop<1>, k_loop<2>, k_loop<3>,
                                           k_loop<4>, k_loop<5>, k_loop<6>, k_loop<7>};
  for (int k = 0; k < 8; k++) {
    for (int rep = 0; rep < 2; rep++) {
      ks[k]<<<4, 64>>>(st, cnt);
      CHECK(cudaDeviceSynchronize());
    }
    printf("loop kind=%d %s cycles_per=%.2f\n", k, ln[k], slowest(st, 8) / (double)ITERS);
  }
  void (*kf[])(long long *) = {k_first<0>, k_first<1>};
  for (int k = 0; k < 2; k++) {
    for (int rep = 0; rep < 2; rep++) {
      kf[k]<<<4, 64>>>(st);
      CHECK(cudaDeviceSynchronize());
    }
    printf("first kind=%d cycles=%lld\n", k, slowest(st, 8));
  }
  return 0;
}
