// Store-then-load through the L1: what a load of data a block has just stored costs, with and
// without a barrier between, against an L1 hit and an L2 hit (ld.global.cg). One block on one SM,
// `iters` iterations of a dependent pattern timed with clock64(); inline PTX so that ptxas keeps
// every access (and the order). Decides how warpsim's L1 treats global stores (write-through with
// the store's sectors kept valid in L1, or invalidated): the reduce lesson's kernels store a value
// and load it (from another warp) after __syncthreads().
// Usage: stld [full|sim]. Output: stld kernel=K threads=T iters=N cycles=C cyc_per_iter=X event_ms=M
#include "bench.h"

__device__ __forceinline__ unsigned ld(const unsigned *p) {
  unsigned v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ unsigned ldcg(const unsigned *p) {
  unsigned v; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st(unsigned *p, unsigned v) {
  asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void bar() { asm volatile("bar.sync 0;" ::: "memory"); }

// a: 1024 words (4 KiB), warmed into L1 by the first loop; b: another 4 KiB.
// mode 0 ld_hit:      v = a[tid + (v & 0)]                            (L1 hit chain)
// mode 1 st_ld:       v = a[tid]; a[tid] = v + 1                      (the load reads the last store)
// mode 2 st_ld_bar:   v = a[tid]; a[tid] = v + 1; bar                 (+ a barrier after the store)
// mode 3 xwarp:       v = a[(tid+32)%T]; a[tid] = v + 1; bar          (reads what another warp stored: the reduce pattern)
// mode 4 xwarp_cg:    as 3 with ld.global.cg (the load goes to L2)
// mode 5 ld_bar:      v += a[(tid+32)%T + (v & 0)]; bar               (no stores: L1 hit + barrier)
// mode 6 st_other_bar: v = a[(tid+32)%T + (v&0)]; b[tid] = v + 1; bar (stores elsewhere: store + barrier, loads hit)
// mode 7 bar_only:    v = v * 3 + 1; bar
extern "C" __global__ void stld(unsigned *a, unsigned *b, int mode, int iters, long long *cyc, unsigned *out) {
  unsigned tid = threadIdx.x, T = blockDim.x, v = 0;
  for (unsigned i = tid; i < 1024; i += T) v += ld(a + i) + ld(b + i);  // warm L1
  v &= 0;
  bar();
  long long t0 = clock64();
  for (int k = 0; k < iters; k++) {
    switch (mode) {
      case 0: v = ld(a + tid + (v & 0)); break;
      case 1: v = ld(a + tid + (v & 0)); st(a + tid, v + 1); break;
      case 2: v = ld(a + tid + (v & 0)); st(a + tid, v + 1); bar(); break;
      case 3: v = ld(a + (tid + 32) % T + (v & 0)); st(a + tid, v + 1); bar(); break;
      case 4: v = ldcg(a + (tid + 32) % T + (v & 0)); st(a + tid, v + 1); bar(); break;
      case 5: v += ld(a + (tid + 32) % T + (v & 0)); bar(); break;
      case 6: v = ld(a + (tid + 32) % T + (v & 0)); st(b + tid, v + 1); bar(); break;
      default: v = v * 3 + 1; bar(); break;
    }
  }
  long long t1 = clock64();
  if (tid == 0) { cyc[0] = t1 - t0; out[0] = v; }
}

static const char *names[] = {"ld_hit", "st_ld", "st_ld_bar", "xwarp", "xwarp_cg", "ld_bar", "st_other_bar", "bar_only"};

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  unsigned *a, *b, *out; long long *cyc;
  CK(cudaMalloc(&a, 4096)); CK(cudaMalloc(&b, 4096)); CK(cudaMalloc(&out, 4)); CK(cudaMalloc(&cyc, 8));
  CK(cudaMemset(a, 0, 4096)); CK(cudaMemset(b, 0, 4096));
  int iters = 1024;
  for (int threads : {32, 256}) {
    for (int mode = 0; mode < 8; mode++) {
      if (threads == 32 && (mode == 3 || mode == 4 || mode == 5 || mode == 6)) continue;  // need > 1 warp
      float ms = time_median([&] { stld<<<1, threads>>>(a, b, mode, iters, cyc, out); });
      long long c; CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
      printf("stld kernel=%s threads=%d iters=%d cycles=%lld cyc_per_iter=%.2f event_ms=%.5f\n", names[mode], threads, iters, c,
             (double)c / iters, ms);
    }
  }
  return 0;
}
