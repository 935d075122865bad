// blocks.cu: how the H100 launches, retires and replaces blocks, and how Nsight Compute counts
// their warps as active (issue 19: achieved occupancy of short blocks and of strided stores).
// Every kernel stamps each block: thread 0 records its SM, clock64 and %globaltimer at entry (c0,
// g0), clock64 before the kernel's stores (cm: after the spin, where there is one) and, after a
// __syncthreads at the end, clock64 and %globaltimer (c1, g1); the block's last instruction is
// thread 0's store of the stamp. Built and run by run.sh (events, then Nsight Compute at its
// locked base clock); each configuration's stamps go to $STAMPS/<name>.csv. Configurations:
//   e<B>       empty blocks of B threads, six full waves (block dispatch and replacement rate)
//   e32x1      empty blocks of 32 threads, one resident per SM (dynamic shared memory), 8 waves
//   s32x1      the same blocks spinning 4000 cycles: per-SM replacement without contention
//   s256       blocks of 256 spinning 4000 cycles, 8 an SM, 4 waves (1056 blocks retiring at once)
//   ss32x1     s32x1 spinning 2000 cycles, then 32 stores a thread at a stride of 32 words (1024
//              partial sectors a warp): does a block's exit wait for its stores?
//   ss32x1f    the same with __threadfence() after the stores (the stores' acknowledgement)
//   ss32x1c    the same stores coalesced (stride 1, whole sectors), no fence
//   st1, st32  st_stride of ../mechanisms/mech.cu (grid 528, blocks of 256, 2^20 stores at a
//              stride of 1 and 32 words: the calibration rows st_stride_s1 and _s32) with stamps
//   cp256, cp512  shortcopy of mech.cu (one float a thread, 2^22 floats) in blocks of 256 (the
//              calibration row sb_b256_l1) and 512 (a shape the mechanisms split does not have)
#include <string>
#include "../bench/bench.h"

struct Stamp { long long c0, cm, c1; unsigned long long g0, g1; unsigned sm, pad; };

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory"); return g; }
__device__ __forceinline__ unsigned smid() { unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); return id; }
__device__ __forceinline__ void st_u32(unsigned *p, unsigned v) { asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }

#define STAMP_BEGIN long long c0_ = clk(); unsigned long long g0_ = gtime(); long long cm_ = c0_;
#define STAMP_END(S) __syncthreads(); if (threadIdx.x == 0) { long long c1_ = clk(); unsigned long long g1_ = gtime(); \
    Stamp t_; t_.c0 = c0_; t_.cm = cm_; t_.c1 = c1_; t_.g0 = g0_; t_.g1 = g1_; t_.sm = smid(); t_.pad = 0; (S)[blockIdx.x] = t_; }

extern "C" __global__ void k_empty(Stamp *S) { STAMP_BEGIN; STAMP_END(S); }
extern "C" __global__ void k_spin(Stamp *S, long long spin) {
  STAMP_BEGIN;
  while (clk() - c0_ < spin) {}
  STAMP_END(S);
}
// spin, then n stores a thread at a stride of s words in the block's own region; FENCE: a
// __threadfence() after them.
template <bool FENCE> __global__ void k_spinst(Stamp *S, unsigned *p, long long spin, unsigned n, unsigned s) {
  STAMP_BEGIN;
  while (clk() - c0_ < spin) {}
  cm_ = clk();
  unsigned *q = p + (size_t)blockIdx.x * blockDim.x * n * s + threadIdx.x * s;
  for (unsigned j = 0; j < n; j++) st_u32(q + (size_t)j * blockDim.x * s, j);
  if (FENCE) __threadfence();
  STAMP_END(S);
}
extern "C" __global__ void k_st(Stamp *S, float *p, unsigned n, unsigned s) {
  STAMP_BEGIN;
  for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
    p[(size_t)j * s] = (float)j;
  STAMP_END(S);
}
extern "C" __global__ void k_copy(Stamp *S, const float *a, float *b) {
  STAMP_BEGIN;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];
  STAMP_END(S);
}

static Stamp *g_S;
static void *g_P0, *g_P1;
static void dump(const char *name, int grid) {
  std::vector<Stamp> h(grid);
  CK(cudaMemcpy(h.data(), g_S, grid * sizeof(Stamp), cudaMemcpyDeviceToHost));
  const char *dir = getenv("STAMPS");
  std::string path = std::string(dir ? dir : ".") + "/" + name + ".csv";
  FILE *f = fopen(path.c_str(), "w");
  if (!f) { fprintf(stderr, "cannot write %s\n", path.c_str()); return; }
  fprintf(f, "block,sm,c0,cm,c1,g0,g1\n");
  for (int b = 0; b < grid; b++)
    fprintf(f, "%d,%u,%lld,%lld,%lld,%llu,%llu\n", b, h[b].sm, h[b].c0, h[b].cm, h[b].c1, h[b].g0, h[b].g1);
  fclose(f);
}
template <class L> static void cfg(const char *name, const char *kernel, int grid, int block, int smem, const char *args, L launch) {
  CK(cudaMemset(g_S, 0, grid * sizeof(Stamp)));
  CK(cudaDeviceSynchronize());
  float ms = time_median(launch);
  printf("cfg name=%s kernel=%s grid=%d block=%d smem=%d args=%s event_ms=%.5f\n", name, kernel, grid, block, smem, args, ms);
  fflush(stdout);
  dump(name, grid);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  if (sms != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", sms);
  CK(cudaMalloc(&g_S, 16384 * sizeof(Stamp)));
  size_t big = 160u << 20;
  CK(cudaMalloc(&g_P0, big)); CK(cudaMalloc(&g_P1, big));
  CK(cudaMemset(g_P0, 0x3f, big)); CK(cudaMemset(g_P1, 0, big));
  allow_smem(k_empty); allow_smem(k_spin); allow_smem(k_spinst<false>); allow_smem(k_spinst<true>);
  int one = smem_for_resident(1);
  if (resident(k_spin, 32, one) != 1) fprintf(stderr, "warning: %d resident with %d B\n", resident(k_spin, 32, one), one);
  char a[64];
  for (int B : {128, 256, 1024}) {
    int R = 2048 / B, grid = sms * R * 6; char nm[16]; snprintf(nm, 16, "e%d", B);
    cfg(nm, "k_empty", grid, B, 0, "-", [&] { k_empty<<<grid, B>>>(g_S); });
  }
  { int grid = sms * 8; cfg("e32x1", "k_empty", grid, 32, one, "-", [&] { k_empty<<<grid, 32, one>>>(g_S); }); }
  { int grid = sms * 8; cfg("s32x1", "k_spin", grid, 32, one, "4000", [&] { k_spin<<<grid, 32, one>>>(g_S, 4000); }); }
  { int grid = sms * 8 * 4; cfg("s256", "k_spin", grid, 256, 0, "4000", [&] { k_spin<<<grid, 256>>>(g_S, 4000); }); }
  { int grid = sms * 8; unsigned *p = (unsigned *)g_P1;
    cfg("ss32x1", "k_spinst<0>", grid, 32, one, "2000,32,32", [&] { k_spinst<false><<<grid, 32, one>>>(g_S, p, 2000, 32, 32); });
    cfg("ss32x1f", "k_spinst<1>", grid, 32, one, "2000,32,32", [&] { k_spinst<true><<<grid, 32, one>>>(g_S, p, 2000, 32, 32); });
    cfg("ss32x1c", "k_spinst<0>", grid, 32, one, "2000,32,1", [&] { k_spinst<false><<<grid, 32, one>>>(g_S, p, 2000, 32, 1); }); }
  for (unsigned s : {1u, 32u}) {
    int grid = sms * 4; char nm[16]; snprintf(nm, 16, "st%u", s); snprintf(a, 64, "%u,%u", 1u << 20, s);
    cfg(nm, "k_st", grid, 256, 0, a, [&] { k_st<<<grid, 256>>>(g_S, (float *)g_P1, 1u << 20, s); });
  }
  for (int B : {256, 512}) {
    int grid = (1 << 22) / B; char nm[16]; snprintf(nm, 16, "cp%d", B);
    cfg(nm, "k_copy", grid, B, 0, "-", [&] { k_copy<<<grid, B>>>(g_S, (const float *)g_P0, (float *)g_P1); });
  }
  return 0;
}
