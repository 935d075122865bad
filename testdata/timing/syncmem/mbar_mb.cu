// mbar_mb.cu: what a block barrier made of an mbarrier costs on the H100, with bulk copies counted in bytes
// (cuda::barrier with memcpy_async_tx, as testdata/tensor/barrier_tx.cu) and without, measured with %clock64.
//  k_bulk: ROUNDS rounds; each round thread 0 issues `pieces` cp.async.bulk copies of bytes/pieces each from
//          global memory into shared memory completing on the mbarrier, then mbarrier.arrive.expect_tx; the other
//          threads arrive (all=1: the barrier expects every thread) or only wait on the phase's parity (all=0:
//          it expects one arrival); every thread waits with mbarrier.try_wait; then reads the tile (8 words a
//          thread for 128 threads, as barrier_tx) and all meet again at a second mbarrier phase (arrive, wait).
//          fresh=1: every round copies a new part of the source (DRAM after the L2 was flushed); fresh=0: the
//          same part every round (the first from DRAM, then the L2).
//          Stamps: per round, thread 0 before its copies (t0), each warp's lane 0 when its wait succeeded (t1)
//          and after the second phase (t2).
//  k_arrive: ROUNDS phases of an mbarrier every thread arrives on and waits for (no copies): cycles a phase.
// Prints "bulk blocks=.. threads=.. bytes=.. pieces=.. all=.. fresh=.. round=r issue=<t0-start> wait=<t1 max
// - t0> second=<t2 max - t1 max>" per round and "bulk ... total=<cycles of all rounds>", and
// "arrive threads=.. cycles_per=..".
#include "common.h"

#define MAXR 8
#define MAXW 8

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(n) : "memory");
}
__device__ __forceinline__ unsigned long long mbar_arrive(unsigned bar) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(bar) : "memory");
  return s;
}
__device__ __forceinline__ unsigned long long mbar_arrive_tx(unsigned bar, unsigned tx) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(bar), "r"(tx) : "memory");
  return s;
}
__device__ __forceinline__ void bulk_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned long long s) {
  unsigned ok;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok)
                 : "r"(bar), "l"(s)
                 : "memory");
  } while (!ok);
}
__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned par) {
  unsigned ok;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok)
                 : "r"(bar), "r"(par)
                 : "memory");
  } while (!ok);
}

// stamps: [block][round][3][MAXW]
__global__ void k_bulk(const int *src, long long *st, int *out, int rounds, int bytes, int pieces, int all, int fresh) {
  __shared__ alignas(128) int tile[2][4096];
  __shared__ alignas(8) unsigned long long bar[2];
  unsigned b0 = smem_addr(&bar[0]), b1 = smem_addr(&bar[1]);
  if (threadIdx.x == 0) {
    mbar_init(b0, all ? blockDim.x : 1);
    mbar_init(b1, blockDim.x);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const int words = bytes / 4;
  const int *base = src + (size_t)blockIdx.x * rounds * 4096;
  long long *sb = st + (size_t)blockIdx.x * MAXR * 3 * MAXW;
  int w = threadIdx.x / 32, acc = 0;
  long long start = stamp();
  for (int r = 0; r < rounds; r++) {
    int s = r & 1;
    const int *from = base + (fresh ? r * 4096 : 0);
    if (threadIdx.x == 0) {
      sb[(r * 3 + 0) * MAXW] = stamp() - start;
      unsigned piece = bytes / pieces;
      for (int p = 0; p < pieces; p++)
        bulk_g2s(smem_addr(&tile[s][p * piece / 4]), from + p * piece / 4, piece, b0);
      unsigned long long tok = mbar_arrive_tx(b0, bytes);
      mbar_wait(b0, tok);
    } else if (all) {
      unsigned long long tok = mbar_arrive(b0);
      mbar_wait(b0, tok);
    } else {
      mbar_wait_parity(b0, r & 1);
    }
    if ((threadIdx.x & 31) == 0) sb[(r * 3 + 1) * MAXW + w] = stamp() - start;
    for (int i = threadIdx.x; i < words; i += blockDim.x) acc += tile[s][(i * 3 + r) % words] * (r + 1);
    unsigned long long tok = mbar_arrive(b1);
    mbar_wait(b1, tok);
    if ((threadIdx.x & 31) == 0) sb[(r * 3 + 2) * MAXW + w] = stamp() - start;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_arrive(long long *st, int rounds) {
  __shared__ alignas(8) unsigned long long bar;
  unsigned b = smem_addr(&bar);
  if (threadIdx.x == 0) mbar_init(b, blockDim.x);
  __syncthreads();
  long long t0 = stamp();
  for (int r = 0; r < rounds; r++) {
    unsigned long long tok = mbar_arrive(b);
    mbar_wait(b, tok);
  }
  long long t1 = stamp();
  if ((threadIdx.x & 31) == 0) st[blockIdx.x * MAXW + threadIdx.x / 32] = t1 - t0;
}

int main() {
  int *src, *out;
  long long *st;
  CHECK(cudaMalloc(&src, 3 * MAXR * 4096 * sizeof(int)));
  CHECK(cudaMalloc(&out, 3 * 256 * sizeof(int)));
  CHECK(cudaMalloc(&st, 3 * MAXR * 3 * MAXW * sizeof(long long)));
  CHECK(cudaMemset(src, 1, 3 * MAXR * 4096 * sizeof(int)));
  struct C {
    int blocks, threads, rounds, bytes, pieces, all, fresh;
  } cs[] = {
      {3, 128, 5, 4096, 2, 1, 1},  // barrier_tx's k_tx<1>
      {1, 128, 5, 4096, 2, 1, 1},  {1, 128, 8, 1024, 1, 1, 1}, {1, 128, 8, 4096, 1, 1, 1}, {1, 128, 8, 16384, 1, 1, 1},
      {1, 128, 8, 4096, 1, 0, 1},  {1, 128, 8, 4096, 1, 1, 0}, {1, 128, 8, 4096, 1, 0, 0}, {1, 32, 8, 4096, 1, 1, 1},
      {1, 256, 8, 4096, 1, 1, 1},  {1, 128, 8, 16384, 1, 0, 1}, {1, 128, 8, 1024, 1, 0, 1},
  };
  for (auto &c : cs) {
    for (int rep = 0; rep < 2; rep++) {  // the second launch is printed
      CHECK(cudaMemset(st, 0, 3 * MAXR * 3 * MAXW * sizeof(long long)));
      flush();
      k_bulk<<<c.blocks, c.threads>>>(src, st, out, c.rounds, c.bytes, c.pieces, c.all, c.fresh);
      CHECK(cudaDeviceSynchronize());
    }
    long long h[3 * MAXR * 3 * MAXW];
    CHECK(cudaMemcpy(h, st, sizeof h, cudaMemcpyDeviceToHost));
    int nw = c.threads / 32;
    long long total = 0;
    for (int b = 0; b < c.blocks; b++)
      for (int w = 0; w < nw; w++) {
        long long v = h[b * MAXR * 3 * MAXW + ((c.rounds - 1) * 3 + 2) * MAXW + w];
        total = v > total ? v : total;
      }
    for (int r = 0; r < c.rounds; r++) {  // block 0's rounds
      long long t0 = h[(r * 3) * MAXW], m1 = 0, m2 = 0;
      for (int w = 0; w < nw; w++) {
        m1 = h[(r * 3 + 1) * MAXW + w] > m1 ? h[(r * 3 + 1) * MAXW + w] : m1;
        m2 = h[(r * 3 + 2) * MAXW + w] > m2 ? h[(r * 3 + 2) * MAXW + w] : m2;
      }
      printf("bulk blocks=%d threads=%d bytes=%d pieces=%d all=%d fresh=%d round=%d issue=%lld wait=%lld second=%lld\n",
             c.blocks, c.threads, c.bytes, c.pieces, c.all, c.fresh, r, t0, m1 - t0, m2 - m1);
    }
    printf("bulk blocks=%d threads=%d bytes=%d pieces=%d all=%d fresh=%d total=%lld\n", c.blocks, c.threads, c.bytes,
           c.pieces, c.all, c.fresh, total);
  }
  for (int threads = 32; threads <= 256; threads *= 2) {
    k_arrive<<<1, threads>>>(st, 256);
    CHECK(cudaDeviceSynchronize());
    k_arrive<<<1, threads>>>(st, 256);
    CHECK(cudaDeviceSynchronize());
    long long h[MAXW], m = 0;
    CHECK(cudaMemcpy(h, st, sizeof h, cudaMemcpyDeviceToHost));
    for (int w = 0; w < threads / 32; w++) m = h[w] > m ? h[w] : m;
    printf("arrive threads=%d cycles_per=%.2f\n", threads, m / 256.0);
  }
  return 0;
}
