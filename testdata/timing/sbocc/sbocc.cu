// sbocc.cu: how the H100's short streaming blocks end (issue 19: achieved occupancy of short blocks).
// The kernels are mechanisms/mech.cu's shortcopy (2^22 floats copied, L a thread, blocks of B
// threads; the load of each iteration stays after the store of the one before, the pointers may
// alias) with stamps: every warp's lane 0 records its SM, clock64 and %globaltimer at entry and after
// its last store (k_cpw), or clock64 after each iteration's store, i.e. when that iteration's load
// had returned (k_cpi). Built and run by run.sh (events, then Nsight Compute at its locked base
// clock); each configuration's stamps go to $STAMPS/<name>.csv, clocks relative to the earliest
// entry on the warp's SM, %globaltimer relative to the grid's earliest entry. Configurations:
//   p_b<B>_l<L>  mech.cu's shortcopy itself, unstamped (the sb_* rows of mechanisms/h100/mech.csv,
//                recorded again: the run-to-run spread of ncu's occupancy)
//   w_b<B>_l<L>  the same with per-warp stamps (entry, exit)
//   i_b256_l16, i_b256_l64  per-iteration stamps of the full grid (one wave; a quarter of one)
//   i_b256_l16_g132  one block an SM: the unloaded latency of an iteration
// With SBOCC_SET=fresh in the environment it runs instead the fresh set (run2.sh): shortcopy at
// block sizes and lengths no recording had (f_b<B>_l<L>), all held out (FRESH.md).
#include <string>
#include "../bench/bench.h"

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory"); return g; }
__device__ __forceinline__ unsigned smid() { unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); return id; }

struct WS { long long c0, c1; unsigned long long g0, g1; unsigned sm, pad; };

extern "C" __global__ void shortcopy(const float *a, float *b, unsigned L) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
}
extern "C" __global__ void k_cpw(WS *S, const float *a, float *b, unsigned L) {
  long long c0 = clk(); unsigned long long g0 = gtime();
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
  if ((threadIdx.x & 31) == 0) {
    long long c1 = clk(); unsigned long long g1 = gtime();
    WS t; t.c0 = c0; t.c1 = c1; t.g0 = g0; t.g1 = g1; t.sm = smid(); t.pad = 0;
    S[(size_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = t;
  }
}
// T: per warp, L clocks (after each iteration's store); S: entry and exit as k_cpw.
extern "C" __global__ void k_cpi(WS *S, long long *T, const float *a, float *b, unsigned L) {
  long long c0 = clk(); unsigned long long g0 = gtime();
  size_t w = (size_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  bool lead = (threadIdx.x & 31) == 0;
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) {
    b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
    long long c = clk();
    if (lead) T[w * L + j] = c;
  }
  if (lead) {
    long long c1 = clk(); unsigned long long g1 = gtime();
    WS t; t.c0 = c0; t.c1 = c1; t.g0 = g0; t.g1 = g1; t.sm = smid(); t.pad = 0;
    S[w] = t;
  }
}

static WS *g_S;
static long long *g_T;
static float *g_A, *g_B;
static const int MAXW = 1 << 17;  // warps: 2^22 threads / 32

static void dump(const char *name, int warps, int L) {
  std::vector<WS> h(warps);
  std::vector<long long> t;
  CK(cudaMemcpy(h.data(), g_S, warps * sizeof(WS), cudaMemcpyDeviceToHost));
  if (L > 0) { t.resize((size_t)warps * L); CK(cudaMemcpy(t.data(), g_T, t.size() * sizeof(long long), cudaMemcpyDeviceToHost)); }
  long long base[1024]; for (auto &b : base) b = -1;
  unsigned long long g = ~0ull;
  for (auto &s : h) {
    if (s.sm >= 1024) continue;
    if (base[s.sm] < 0 || s.c0 < base[s.sm]) base[s.sm] = s.c0;
    if (s.g0 < g) g = s.g0;
  }
  const char *dir = getenv("STAMPS");
  std::string path = std::string(dir ? dir : ".") + "/" + name + ".csv";
  FILE *f = fopen(path.c_str(), "w");
  if (!f) { fprintf(stderr, "cannot write %s\n", path.c_str()); return; }
  fprintf(f, "warp,sm,c0,c1,g0,g1%s\n", L > 0 ? ",t..." : "");
  for (int w = 0; w < warps; w++) {
    WS &s = h[w]; long long b = s.sm < 1024 ? base[s.sm] : 0;
    fprintf(f, "%d,%u,%lld,%lld,%llu,%llu", w, s.sm, s.c0 - b, s.c1 - b, s.g0 - g, s.g1 - g);
    for (int j = 0; j < L; j++) fprintf(f, ",%lld", t[(size_t)w * L + j] - b);
    fprintf(f, "\n");
  }
  fclose(f);
}

static void plain(int B, unsigned L) {
  int grid = (1u << 22) / (B * L); char nm[32]; snprintf(nm, 32, "p_b%d_l%u", B, L);
  float ms = time_median([&] { shortcopy<<<grid, B>>>(g_A, g_B, L); });
  printf("cfg name=%s kernel=shortcopy grid=%d block=%d args=%u event_ms=%.5f\n", nm, grid, B, L, ms); fflush(stdout);
}
static void warps(int B, unsigned L) {
  int grid = (1u << 22) / (B * L); char nm[32]; snprintf(nm, 32, "w_b%d_l%u", B, L);
  CK(cudaMemset(g_S, 0xff, MAXW * sizeof(WS)));
  float ms = time_median([&] { k_cpw<<<grid, B>>>(g_S, g_A, g_B, L); });
  printf("cfg name=%s kernel=k_cpw grid=%d block=%d args=%u event_ms=%.5f\n", nm, grid, B, L, ms); fflush(stdout);
  dump(nm, grid * B / 32, 0);
}
static void iters(int B, unsigned L, int grid, const char *nm) {
  CK(cudaMemset(g_S, 0xff, MAXW * sizeof(WS)));
  float ms = time_median([&] { k_cpi<<<grid, B>>>(g_S, g_T, g_A, g_B, L); });
  printf("cfg name=%s kernel=k_cpi grid=%d block=%d args=%u event_ms=%.5f\n", nm, grid, B, L, ms); fflush(stdout);
  dump(nm, grid * B / 32, L);
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  if (sms != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", sms);
  size_t n = 1u << 22;
  CK(cudaMalloc(&g_A, n * 4)); CK(cudaMalloc(&g_B, n * 4));
  CK(cudaMalloc(&g_S, MAXW * sizeof(WS))); CK(cudaMalloc(&g_T, (size_t)MAXW * 8));
  CK(cudaMemset(g_A, 0x3f, n * 4)); CK(cudaMemset(g_B, 0, n * 4));
  CK(cudaDeviceSynchronize());
  const char *set = getenv("SBOCC_SET");
  if (set && strcmp(set, "fresh") == 0) {
    struct { int B; unsigned L; } fr[] = {{512, 2}, {512, 4}, {512, 8}, {128, 4}, {128, 8}, {128, 16}, {256, 32}, {64, 16}, {1024, 4}};
    for (auto c : fr) {
      int grid = (1u << 22) / (c.B * c.L); char nm[32]; snprintf(nm, 32, "f_b%d_l%u", c.B, c.L);
      float ms = time_median([&] { shortcopy<<<grid, c.B>>>(g_A, g_B, c.L); });
      printf("cfg name=%s kernel=shortcopy grid=%d block=%d args=%u event_ms=%.5f\n", nm, grid, c.B, c.L, ms); fflush(stdout);
    }
    return 0;
  }
  struct { int B; unsigned L; } sb[] = {{256, 1}, {256, 2}, {256, 4}, {256, 8}, {256, 16}, {256, 64}, {64, 4}, {1024, 1}, {128, 1}};
  for (auto c : sb) plain(c.B, c.L);
  for (auto c : sb) warps(c.B, c.L);
  iters(256, 16, (1u << 22) / (256 * 16), "i_b256_l16");
  iters(256, 64, (1u << 22) / (256 * 64), "i_b256_l64");
  iters(256, 16, sms, "i_b256_l16_g132");
  return 0;
}
