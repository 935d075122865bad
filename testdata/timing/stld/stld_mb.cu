// stld_mb.cu: how fast an SM issues and drains global stores of the shape of Triton's matmul epilogues, and how
// fast it issues and completes 2-byte global loads of the shape of Triton's masked matmuls (testdata/timing/f16mm).
// Each thread of W warps issues N accesses of S bytes (16: v4.b32, 4: b32, 2: b16), back to back, addresses
// computed before the first:  addr = base + blockIdx.x*span + (j*W + warp)*IS + lane*LS.
//   coalesced: LS = S, IS = 32*S (a warp instruction 32*S contiguous bytes, the next right after it);
//   partial:   LS = 32, IS = 1024 (each lane its own 32-byte sector, writing or reading S bytes of it);
//   rows:      LS = S = 2, IS = 144 (stores) or 176 (loads): 64 bytes a warp instruction, rows of an unaligned
//              matrix as Triton's mm_f16_masked_s2 has (N = 72, K = 88 halves).
// Stores (st):  lane 0 of every warp stamps %clock64 before the first store (t0), after the last (t1), after a
//   membar.gl (t2, fence=1 only; fence=0: t2 = t1). Loads (ld), predicated as Triton's (the predicate true):
//   t1 after the last load issued, t2 after the values are used (use=0: xor-summed and one st.shared.b32;
//   use=1: each value stored to shared memory with its own st.shared of S bytes, as Triton does).
// COLD 1: the L2 flushed (a 256 MiB memset) before each launch; 0: the launch repeated (its data in the L2).
// Prints, mean of 3 launches, the mean over every warp of every block of t1-t0 and t2-t0:
//   st S=<> N=<> W=<> pat=<> grid=<> fence=<> cold=<> issue=<> done=<>
//   ld S=<> N=<> W=<> pat=<> grid=<> use=<> cold=<> issue=<> done=<>
// With the argument "ncu" every configuration runs once (no flush: Nsight Compute flushes) in the same order,
// printing its line's configuration part, for Nsight Compute's kernel durations.
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
__global__ void k_st(long long *out, char *dst, int ls, int is, int span, int fence) {
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, W = blockDim.x >> 5;
  char *p[N];
#pragma unroll
  for (int j = 0; j < N; j++) p[j] = dst + (size_t)blockIdx.x * span + (size_t)(j * W + warp) * is + lane * ls;
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

template <int S> __device__ __forceinline__ unsigned ld1(const char *p, int pr) {
  unsigned v = 0;
  if (S == 16) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    asm volatile("{.reg .pred q; setp.ne.b32 q, %5, 0; @q ld.global.v4.b32 {%0, %1, %2, %3}, [%4];}"
                 : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "l"(p), "r"(pr) : "memory");
    v = a ^ b ^ c ^ d;
  }
  if (S == 4) asm volatile("{.reg .pred q; setp.ne.b32 q, %2, 0; @q ld.global.b32 %0, [%1];}" : "+r"(v) : "l"(p), "r"(pr) : "memory");
  if (S == 2) {
    unsigned short h = 0;
    asm volatile("{.reg .pred q; setp.ne.b32 q, %2, 0; @q ld.global.b16 %0, [%1];}" : "+h"(h) : "l"(p), "r"(pr) : "memory");
    v = h;
  }
  return v;
}

template <int S, int N>
__global__ void k_ld(long long *out, const char *src, int ls, int is, int span, int use) {
  __shared__ __align__(16) char sh[N * 128 * 4];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, W = blockDim.x >> 5;
  const char *p[N];
#pragma unroll
  for (int j = 0; j < N; j++) p[j] = src + (size_t)blockIdx.x * span + (size_t)(j * W + warp) * is + lane * ls;
  int pr = span > 0;
  unsigned v[N];
  long long t0, t1, t2;
  unsigned sb = (unsigned)__cvta_generic_to_shared(sh);
  __syncthreads();
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
#pragma unroll
  for (int j = 0; j < N; j++) v[j] = ld1<S>(p[j], pr);
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
  if (use && S != 16) {
#pragma unroll
    for (int j = 0; j < N; j++) {
      unsigned a = sb + (j * blockDim.x + t) * S;
      if (S == 2) asm volatile("st.shared.b16 [%0], %1;" ::"r"(a), "h"((unsigned short)v[j]) : "memory");
      else asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(v[j]) : "memory");
    }
  } else {
    unsigned x = 0;
#pragma unroll
    for (int j = 0; j < N; j++) x ^= v[j];
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(sb + t * 4), "r"(x) : "memory");
  }
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t2)::"memory");
  if (lane == 0) {
    long long *o = out + 2 * (blockIdx.x * W + warp);
    o[0] = t1 - t0;
    o[1] = t2 - t0;
  }
}

typedef void (*kfn)(long long *, char *, int, int, int, int);
struct Cfg {
  int ld, S, N, W, pat, grid, opt;  // opt: fence (st) or use (ld)
};
static const char *pats[3] = {"coalesced", "partial", "rows"};

static kfn pick(int ld, int S, int N) {
  if (!ld) {
    if (S == 16 && N == 8) return k_st<16, 8>;
    if (S == 16 && N == 32) return k_st<16, 32>;
    if (S == 4 && N == 32) return k_st<4, 32>;
    if (S == 2 && N == 32) return k_st<2, 32>;
  } else {
    if (S == 16 && N == 32) return (kfn)k_ld<16, 32>;
    if (S == 4 && N == 32) return (kfn)k_ld<4, 32>;
    if (S == 2 && N == 32) return (kfn)k_ld<2, 32>;
    if (S == 2 && N == 16) return (kfn)k_ld<2, 16>;
  }
  return 0;
}

static const Cfg cfgs[] = {
    // stores: Triton's 128x128 epilogue (8 warps, 8 16-byte stores a thread, 32 KiB), with and without a fence
    {0, 16, 8, 8, 0, 1, 0}, {0, 16, 8, 8, 0, 1, 1},
    {0, 16, 32, 1, 0, 1, 1}, {0, 16, 32, 4, 0, 1, 1}, {0, 16, 32, 8, 0, 1, 0}, {0, 16, 32, 8, 0, 1, 1},
    {0, 16, 32, 8, 1, 1, 1}, {0, 16, 32, 8, 0, 132, 1}, {0, 16, 8, 8, 0, 132, 0},
    {0, 4, 32, 8, 0, 1, 1}, {0, 4, 32, 8, 1, 1, 1},
    {0, 2, 32, 4, 0, 1, 1}, {0, 2, 32, 4, 1, 1, 1}, {0, 2, 32, 4, 2, 1, 1}, {0, 2, 32, 4, 2, 1, 0},
    {0, 2, 32, 4, 2, 4, 0},
    // loads: the masked matmul's (4 warps, 32 2-byte loads a thread, 64-byte rows), and around it
    {1, 2, 32, 4, 2, 1, 1}, {1, 2, 32, 4, 2, 1, 0}, {1, 2, 16, 4, 2, 1, 1}, {1, 2, 32, 1, 2, 1, 1},
    {1, 2, 32, 4, 0, 1, 1}, {1, 2, 32, 4, 1, 1, 0}, {1, 4, 32, 4, 0, 1, 0}, {1, 4, 32, 4, 1, 1, 0},
    {1, 16, 32, 4, 0, 1, 0}, {1, 2, 32, 4, 2, 4, 1},
};

static void addrs(const Cfg &c, int *ls, int *is, int *span) {
  if (c.pat == 0) { *ls = c.S; *is = 32 * c.S; }
  if (c.pat == 1) { *ls = 32; *is = 1024; }
  if (c.pat == 2) { *ls = 2; *is = c.ld ? 176 : 144; }
  *span = (c.N * c.W + 1) * *is;
  *span = (*span + 1023) & ~1023;
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
    int ls, is, span;
    addrs(c, &ls, &is, &span);
    kfn f = pick(c.ld, c.S, c.N);
    char name[160];
    snprintf(name, sizeof name, "%s S=%d N=%d W=%d pat=%s grid=%d %s=%d", c.ld ? "ld" : "st", c.S, c.N, c.W,
             pats[c.pat], c.grid, c.ld ? "use" : "fence", c.opt);
    if (ncu) {
      f<<<c.grid, 32 * c.W>>>(out, buf, ls, is, span, c.opt);
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
        f<<<c.grid, 32 * c.W>>>(out, buf, ls, is, span, c.opt);
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
