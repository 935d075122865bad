// warplaunch.cu: how the H100's SM starts the warps of a block, and how Nsight Compute counts them as
// active (issue 19, twenty-first round: empty blocks of 256 and 1024 threads are counted far less active
// than the model counts them; blocks/JOURNAL.md). Every warp's lane 0 stamps %smid, %warpid, clock64 and
// %globaltimer at entry (c0, g0) and, after a __syncthreads, clock64 again (c1). Configurations:
//   e<B>        empty blocks of B threads, as many resident as the SM holds, six waves
//   e<B>x1      empty blocks of B threads, one resident an SM (dynamic shared memory), 8 waves: the
//               spread of one block's warp starts with nothing else on the SM
//   e128s       e128 with 13.5 KB of dynamic shared memory a block (16 resident, as without it): does
//               a block's shared memory cost at its start?
//   s<B>        blocks of B threads spinning 4000 cycles, full residency, 4 waves (whole waves retire
//               together)
// Built and run by run.sh (events, then Nsight Compute at its locked base clock).
#include <string>
#include "../bench/bench.h"

struct WStamp { long long c0, c1; unsigned long long g0; unsigned sm, wid; };

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory"); return g; }
__device__ __forceinline__ unsigned smid() { unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); return id; }
__device__ __forceinline__ unsigned warpid() { unsigned id; asm volatile("mov.u32 %0, %%warpid;" : "=r"(id)); return id; }

#define WSTAMP_BEGIN long long c0_ = clk(); unsigned long long g0_ = gtime();
#define WSTAMP_END(S) __syncthreads(); if ((threadIdx.x & 31) == 0) { long long c1_ = clk(); \
    WStamp t_; t_.c0 = c0_; t_.c1 = c1_; t_.g0 = g0_; t_.sm = smid(); t_.wid = warpid(); \
    (S)[(size_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = t_; }

extern "C" __global__ void k_empty(WStamp *S) { WSTAMP_BEGIN; WSTAMP_END(S); }
extern "C" __global__ void k_spin(WStamp *S, long long spin) {
  WSTAMP_BEGIN;
  while (clk() - c0_ < spin) {}
  WSTAMP_END(S);
}

static WStamp *g_S;
static const size_t maxWarps = 1 << 17;
static void dump(const char *name, int grid, int block) {
  int warps = grid * (block / 32);
  std::vector<WStamp> h(warps);
  CK(cudaMemcpy(h.data(), g_S, warps * sizeof(WStamp), cudaMemcpyDeviceToHost));
  const char *dir = getenv("STAMPS");
  std::string path = std::string(dir ? dir : ".") + "/" + name + ".csv";
  FILE *f = fopen(path.c_str(), "w");
  if (!f) { fprintf(stderr, "cannot write %s\n", path.c_str()); return; }
  fprintf(f, "block,warp,sm,wid,c0,c1,g0\n");
  for (int i = 0; i < warps; i++)
    fprintf(f, "%d,%d,%u,%u,%lld,%lld,%llu\n", i / (block / 32), i % (block / 32), h[i].sm, h[i].wid, h[i].c0, h[i].c1, h[i].g0);
  fclose(f);
}
template <class L> static void cfg(const char *name, const char *kernel, int grid, int block, int smem, const char *args, L launch) {
  if ((size_t)grid * (block / 32) > maxWarps) { fprintf(stderr, "%s: too many warps\n", name); return; }
  CK(cudaMemset(g_S, 0, (size_t)grid * (block / 32) * sizeof(WStamp)));
  CK(cudaDeviceSynchronize());
  float ms = time_median(launch);
  printf("cfg name=%s kernel=%s grid=%d block=%d smem=%d args=%s event_ms=%.5f\n", name, kernel, grid, block, smem, args, ms);
  fflush(stdout);
  dump(name, grid, block);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  if (sms != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", sms);
  CK(cudaMalloc(&g_S, maxWarps * sizeof(WStamp)));
  allow_smem(k_empty); allow_smem(k_spin);
  int one = smem_for_resident(1), s16 = smem_for_resident(16);
  char nm[32];
  for (int B : {32, 64, 128, 256, 512, 1024}) {
    int R = std::min(32, 2048 / B), grid = sms * R * 6; snprintf(nm, 32, "e%d", B);
    cfg(nm, "k_empty", grid, B, 0, "-", [&] { k_empty<<<grid, B>>>(g_S); });
  }
  for (int B : {32, 256, 1024}) {
    int grid = sms * 8; snprintf(nm, 32, "e%dx1", B);
    if (resident(k_empty, B, one) != 1) fprintf(stderr, "warning: %s: %d resident\n", nm, resident(k_empty, B, one));
    cfg(nm, "k_empty", grid, B, one, "-", [&] { k_empty<<<grid, B, one>>>(g_S); });
  }
  { int grid = sms * 16 * 6;
    if (resident(k_empty, 128, s16) != 16) fprintf(stderr, "warning: e128s: %d resident\n", resident(k_empty, 128, s16));
    cfg("e128s", "k_empty", grid, 128, s16, "-", [&] { k_empty<<<grid, 128, s16>>>(g_S); }); }
  for (int B : {64, 256, 1024}) {
    int R = std::min(32, 2048 / B), grid = sms * R * 4; snprintf(nm, 32, "s%d", B);
    cfg(nm, "k_spin", grid, B, 0, "4000", [&] { k_spin<<<grid, B>>>(g_S, 4000); });
  }
  return 0;
}
