// merge_mb.cu: does the H100 merge a lane's successive partial global stores to one 32-byte sector before its
// SM's store port? (cluster_dsmem.cu's ptxforms ends with eight 4-byte STG.E a lane to a sector of its own.)
// Built from testdata/timing/stld/stld_mb.cu's store kernel: each thread of W warps issues N stores of S bytes
// (16: v4.b32, 4: b32, 2: b16), back to back, addresses computed before the first, at
//   addr = base + blockIdx.x*span + (g(j)*W + warp)*1024 + lane*32 + o(j)*S:
//   coalesced: (as stld_mb) addr = base + blockIdx.x*span + (j*W + warp)*32*S + lane*S;
//   partial:   g(j) = j, o(j) = 0 (each store a sector of its own, S of its 32 bytes written; stld_mb's partial);
//   sector:    g(j) = j / (32/S), o(j) = j % (32/S) (a lane's 32/S successive stores fill one sector of its own,
//              then the next: ptxforms' shape for S = 4);
//   sector4:   g(j) = j % 4, o(j) = j / 4 (the same sectors filled, a lane's stores going round 4 sectors, so
//              successive stores to one sector are 4 stores apart).
// Lane 0 of every warp stamps %clock64 before the first store (t0), after the last (t1) and after a membar.gl
// (t2, fence=1; fence=0: t2 = t1). COLD 1: the L2 flushed (a 256 MiB memset) before each launch; 0: the launch
// repeated. Prints, mean of 3 launches, the mean over every warp of every block of t1-t0 and t2-t0:
//   st S=<> N=<> W=<> pat=<> grid=<> fence=<> cold=<> issue=<> done=<>
// With the argument "ncu" every configuration runs once (no flush: Nsight Compute flushes) in the same order.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define REPS 3

template <int S> __device__ __forceinline__ void st1(char *p, unsigned v) {
  if (S == 16) asm volatile("st.global.v4.b32 [%0], {%1, %1, %1, %1};" ::"l"(p), "r"(v) : "memory");
  if (S == 4) asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  if (S == 2) asm volatile("st.global.b16 [%0], %1;" ::"l"(p), "h"((unsigned short)v) : "memory");
}

template <int S, int N>
__global__ void k_st(long long *out, char *dst, int pat, int span, int fence) {
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, W = blockDim.x >> 5;
  char *p[N];
  const int per = 32 / S;
#pragma unroll
  for (int j = 0; j < N; j++) {
    size_t a = (size_t)blockIdx.x * span;
    if (pat == 0) a += (size_t)(j * W + warp) * 32 * S + lane * S;
    if (pat == 1) a += (size_t)(j * W + warp) * 1024 + lane * 32;
    if (pat == 2) a += (size_t)((j / per) * W + warp) * 1024 + lane * 32 + (j % per) * S;
    if (pat == 3) a += (size_t)((j % 4) * W + warp) * 1024 + lane * 32 + (j / 4) * S;
    p[j] = dst + a;
  }
  long long t0, t1, t2;
  __syncthreads();
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
#pragma unroll
  for (int j = 0; j < N; j++) st1<S>(p[j], (unsigned)(t + j));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
  t2 = t1;
  if (fence) {
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t2)::"memory");
  }
  if (lane == 0) {
    long long *o = out + 2 * (blockIdx.x * W + warp);
    o[0] = t1 - t0;
    o[1] = t2 - t0;
  }
}

typedef void (*kfn)(long long *, char *, int, int, int);
struct Cfg {
  int ld, S, N, W, pat, grid, opt;  // opt: fence (st) or use (ld)
};
static const char *pats[4] = {"coalesced", "partial", "sector", "sector4"};

static kfn pick(int S, int N) {
  if (S == 16 && N == 32) return k_st<16, 32>;
  if (S == 4 && N == 8) return k_st<4, 8>;
  if (S == 4 && N == 32) return k_st<4, 32>;
  if (S == 2 && N == 32) return k_st<2, 32>;
  return 0;
}

static const Cfg cfgs[] = {
    // ptxforms' shape: 2 warps, 8 4-byte stores a lane to its own sector; 1 block and 4 (ptxforms' grid)
    {0, 4, 8, 2, 2, 1, 1}, {0, 4, 8, 2, 2, 1, 0}, {0, 4, 8, 2, 1, 1, 1}, {0, 4, 8, 2, 0, 1, 1}, {0, 4, 8, 2, 2, 4, 0},
    // 8 warps, 32 4-byte stores a lane: coalesced (1,024 sectors), filling 4 sectors a lane (1,024 sectors, 8,192
    // stores), one sector a store (8,192 sectors), round 4 sectors
    {0, 4, 32, 8, 0, 1, 1}, {0, 4, 32, 8, 2, 1, 1}, {0, 4, 32, 8, 1, 1, 1}, {0, 4, 32, 8, 3, 1, 1},
    {0, 4, 32, 1, 2, 1, 1}, {0, 4, 32, 1, 1, 1, 1}, {0, 4, 32, 8, 2, 1, 0},
    // 16-byte stores, 2 a sector; 2-byte stores, 16 a sector
    {0, 16, 32, 8, 2, 1, 1}, {0, 16, 32, 8, 1, 1, 1}, {0, 2, 32, 4, 2, 1, 1}, {0, 2, 32, 4, 1, 1, 1},
};

static int spanOf(const Cfg &c) {
  int span = c.pat == 0 ? (c.N * c.W + 1) * 32 * c.S : (c.N * c.W + 1) * 1024;
  return (span + 1023) & ~1023;
}

int main(int argc, char **argv) {
  int ncu = argc > 1 && !strcmp(argv[1], "ncu");
  const size_t FLUSH = 256 << 20, BUF = 64 << 20;
  char *flush, *buf;
  long long *out, *h = new long long[2 * 132 * 8];
  cudaMalloc(&flush, FLUSH);
  cudaMalloc(&buf, BUF);
  cudaMalloc(&out, 2 * 132 * 8 * sizeof(long long));
  cudaMemset(buf, 1, BUF);
  int v = 0;
  for (const Cfg &c : cfgs) {
    int span = spanOf(c);
    kfn f = pick(c.S, c.N);
    char name[160];
    snprintf(name, sizeof name, "%s S=%d N=%d W=%d pat=%s grid=%d %s=%d", c.ld ? "ld" : "st", c.S, c.N, c.W,
             pats[c.pat], c.grid, c.ld ? "use" : "fence", c.opt);
    if (ncu) {
      f<<<c.grid, 32 * c.W>>>(out, buf, c.pat, span, c.opt);
      cudaError_t e = cudaDeviceSynchronize();
      printf("%s %s\n", name, e == cudaSuccess ? "ok" : cudaGetErrorString(e));
      continue;
    }
    for (int cold = 1; cold >= 0; cold--) {
      double m1 = 0, m2 = 0;
      int nw = c.grid * c.W;
      for (int rep = 0; rep < REPS + (cold ? 0 : 1); rep++) {
        if (cold) cudaMemset(flush, v++ & 255, FLUSH);
        cudaDeviceSynchronize();
        f<<<c.grid, 32 * c.W>>>(out, buf, c.pat, span, c.opt);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("error %s: %s\n", name, cudaGetErrorString(e)); return 1; }
        if (!cold && rep == 0) continue;
        cudaMemcpy(h, out, sizeof(long long) * 2 * nw, cudaMemcpyDeviceToHost);
        for (int i = 0; i < nw; i++) {
          m1 += (double)h[2 * i] / nw / REPS;
          m2 += (double)h[2 * i + 1] / nw / REPS;
        }
      }
      printf("%s cold=%d issue=%.0f done=%.0f\n", name, cold, m1, m2);
    }
  }
  return 0;
}
