// shortocc.cu: why the H100's short streaming blocks are emptier than the timing model says (issue 19,
// items 1-2: achieved occupancy within 3 points on kernels not fitted). Built and run by run.sh (one
// device call): CUDA events (boost clock), then Nsight Compute at its locked base clock with caches
// flushed; stamped configurations write every warp's stamps to $STAMPS/<name>.csv (lane 0 of each warp:
// SM, clock64 at entry and exit, %globaltimer at entry and exit; clocks relative to the earliest entry on
// the warp's SM, %globaltimer to the grid's earliest entry), per-iteration ones also clock64 after each
// iteration's store. Every configuration prints one line
//   cfg name=<name> kernel=<kernel> grid=<g> block=<b> args=<comma-separated: buffer names or u32:/f32:/s64:>
// from which make_launch.py writes the warpsim launch files. Configurations:
//   microbenchmarks (what is modelled from; names m_...)
//   m_w_b<B>_l<L>   sbocc.cu's k_cpw (shortcopy, 2^22 floats, L a thread, blocks of B) with per-warp stamps:
//                   the shapes of sbocc/FRESH.md that the model fills 4-14 points too full
//   m_i_b<B>_l<L>_g<G>  k_cpi: per-iteration stamps at G blocks (DRAM load steps: how a request's wait
//                   spreads with the queue; the DRAM's reorder window)
//   m_e<B>_x<W>     empty blocks of B threads (as many as fit an SM), W waves: dispatch and replacement
//   m_s<B>_x<W>     the same blocks spinning 3000 cycles: an SM's blocks retiring together, replaced
//   fresh2 (held out; FRESH2.md, written before this ran; names g_...)
//   g_copy, g_triad, g_sum, g_fill, g_scale: streaming kernels at other block sizes, lengths, grid sizes and
//                   load/store mixes; every element index checked against n (block sizes not powers of 2).
#include <string>
#include "../bench/bench.h"

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory"); return g; }
__device__ __forceinline__ unsigned smid() { unsigned id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); return id; }

struct WS { long long c0, c1; unsigned long long g0, g1; unsigned sm, pad; };

__device__ __forceinline__ void stamp(WS *S, long long c0, unsigned long long g0) {
  if ((threadIdx.x & 31) == 0) {
    long long c1 = clk(); unsigned long long g1 = gtime();
    WS t; t.c0 = c0; t.c1 = c1; t.g0 = g0; t.g1 = g1; t.sm = smid(); t.pad = 0;
    S[(size_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = t;
  }
}

// ---- microbenchmarks ----
extern "C" __global__ void k_cpw(WS *S, const float *a, float *b, unsigned L) {
  long long c0 = clk(); unsigned long long g0 = gtime();
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) b[base + (size_t)j * blockDim.x] = a[base + (size_t)j * blockDim.x];
  stamp(S, c0, g0);
}
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
  stamp(S, c0, g0);
}
extern "C" __global__ void k_spinw(WS *S, long long spin) {
  long long c0 = clk(); unsigned long long g0 = gtime();
  while (clk() - c0 < spin) {}
  stamp(S, c0, g0);
}

// ---- fresh2 (held out) ----
// b[i] = a[i] over the block's B*L elements, i < n (the load of each iteration after the store before it:
// the pointers may alias, as in shortcopy).
extern "C" __global__ void g_copy(const float *a, float *b, unsigned n, unsigned L) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) b[i] = a[i];
  }
}
// b[i] = a[i] + 2 c[i]: two loads and a store an element.
extern "C" __global__ void g_triad(const float *a, const float *c, float *b, unsigned n, unsigned L) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) b[i] = a[i] + 2.0f * c[i];
  }
}
// out[thread] = the sum of the thread's L elements: loads only, one store a thread.
extern "C" __global__ void g_sum(const float *a, float *out, unsigned n, unsigned L) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  float s = 0;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) s += a[i];
  }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// b[i] = v: stores only.
extern "C" __global__ void g_fill(float *b, unsigned n, unsigned L, float v) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) b[i] = v;
  }
}
// a[i] *= s in place: a load and a store of the same element.
extern "C" __global__ void g_scale(float *a, unsigned n, unsigned L, float s) {
  size_t base = (size_t)blockIdx.x * blockDim.x * L + threadIdx.x;
  for (unsigned j = 0; j < L; j++) {
    size_t i = base + (size_t)j * blockDim.x;
    if (i < n) a[i] *= s;
  }
}

static WS *g_S;
static long long *g_T;
static float *g_A, *g_B, *g_C;
static const size_t MAXW = 1 << 18;   // warps stamped
static const size_t MAXT = 1 << 18;   // per-iteration stamps
static const size_t NMAX = 1u << 23;  // floats a buffer

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

template <class F> static void cfg(const char *name, const char *kernel, int grid, int block, const char *args, F launch) {
  float ms = time_median(launch);
  printf("cfg name=%s kernel=%s grid=%d block=%d args=%s event_ms=%.5f\n", name, kernel, grid, block, args, ms);
  fflush(stdout);
}

static void copyw(int B, unsigned L) {
  int grid = (1u << 22) / (B * L); char nm[32], a[64];
  snprintf(nm, 32, "m_w_b%d_l%u", B, L); snprintf(a, 64, "stamps,a,b,u32:%u", L);
  CK(cudaMemset(g_S, 0xff, MAXW * sizeof(WS)));
  cfg(nm, "k_cpw", grid, B, a, [&] { k_cpw<<<grid, B>>>(g_S, g_A, g_B, L); });
  dump(nm, grid * B / 32, 0);
}
static void copyi(int B, unsigned L, int grid) {
  char nm[32], a[64];
  snprintf(nm, 32, "m_i_b%d_l%u_g%d", B, L, grid); snprintf(a, 64, "stamps,iters,a,b,u32:%u", L);
  if ((size_t)grid * B / 32 * L > MAXT) { fprintf(stderr, "%s: too many stamps\n", nm); return; }
  CK(cudaMemset(g_S, 0xff, MAXW * sizeof(WS)));
  cfg(nm, "k_cpi", grid, B, a, [&] { k_cpi<<<grid, B>>>(g_S, g_T, g_A, g_B, L); });
  dump(nm, grid * B / 32, L);
}
static void spin(int B, int waves, long long cycles, int sms) {
  int grid = sms * (2048 / B < 32 ? 2048 / B : 32) * waves; char nm[32], a[64];
  snprintf(nm, 32, "m_%c%d_x%d", cycles ? 's' : 'e', B, waves); snprintf(a, 64, "stamps,s64:%lld", cycles);
  CK(cudaMemset(g_S, 0xff, MAXW * sizeof(WS)));
  cfg(nm, "k_spinw", grid, B, a, [&] { k_spinw<<<grid, B>>>(g_S, cycles); });
  dump(nm, grid * B / 32, 0);
}

static void fresh2() {
  struct C { const char *k; int B; unsigned L, n; };
  // FRESH2.md's table, in order.
  C cs[] = {
    {"g_copy", 96, 8, 1u << 22},  {"g_copy", 192, 4, 1u << 22}, {"g_copy", 384, 6, 1u << 22},
    {"g_copy", 32, 32, 1u << 22}, {"g_copy", 768, 2, 1u << 23}, {"g_copy", 128, 2, 1u << 21},
    {"g_copy", 64, 8, 1u << 23},  {"g_copy", 160, 10, 1u << 22},
    {"g_triad", 256, 4, 1u << 22}, {"g_triad", 64, 12, 3u << 20},
    {"g_sum", 128, 16, 1u << 22}, {"g_sum", 512, 4, 1u << 23},
    {"g_fill", 128, 8, 1u << 22}, {"g_scale", 256, 8, 1u << 22},
  };
  for (auto &c : cs) {
    int grid = (int)(((size_t)c.n + (size_t)c.B * c.L - 1) / ((size_t)c.B * c.L));
    char nm[48], a[96];
    snprintf(nm, 48, "%s_b%d_l%u_n%u", c.k, c.B, c.L, c.n);
    std::string k = c.k;
    if (k == "g_copy") {
      snprintf(a, 96, "a,b,u32:%u,u32:%u", c.n, c.L);
      cfg(nm, c.k, grid, c.B, a, [&] { g_copy<<<grid, c.B>>>(g_A, g_B, c.n, c.L); });
    } else if (k == "g_triad") {
      snprintf(a, 96, "a,c,b,u32:%u,u32:%u", c.n, c.L);
      cfg(nm, c.k, grid, c.B, a, [&] { g_triad<<<grid, c.B>>>(g_A, g_C, g_B, c.n, c.L); });
    } else if (k == "g_sum") {
      snprintf(a, 96, "a,b,u32:%u,u32:%u", c.n, c.L);
      cfg(nm, c.k, grid, c.B, a, [&] { g_sum<<<grid, c.B>>>(g_A, g_B, c.n, c.L); });
    } else if (k == "g_fill") {
      snprintf(a, 96, "b,u32:%u,u32:%u,f32:1.5", c.n, c.L);
      cfg(nm, c.k, grid, c.B, a, [&] { g_fill<<<grid, c.B>>>(g_B, c.n, c.L, 1.5f); });
    } else {
      snprintf(a, 96, "a,u32:%u,u32:%u,f32:1.0", c.n, c.L);
      cfg(nm, c.k, grid, c.B, a, [&] { g_scale<<<grid, c.B>>>(g_A, c.n, c.L, 1.0f); });
    }
  }
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  int sms = num_sms();
  if (sms != 132) fprintf(stderr, "warning: %d SMs, the configurations assume 132\n", sms);
  CK(cudaMalloc(&g_A, NMAX * 4)); CK(cudaMalloc(&g_B, NMAX * 4)); CK(cudaMalloc(&g_C, NMAX * 4));
  CK(cudaMalloc(&g_S, MAXW * sizeof(WS))); CK(cudaMalloc(&g_T, MAXT * 8));
  CK(cudaMemset(g_A, 0x3f, NMAX * 4)); CK(cudaMemset(g_B, 0, NMAX * 4)); CK(cudaMemset(g_C, 0x3e, NMAX * 4));
  CK(cudaDeviceSynchronize());
  const char *set = getenv("SHORTOCC_SET");
  bool all = !set || !*set;
  if (all || strcmp(set, "micro") == 0) {
    struct { int B; unsigned L; } w[] = {{64, 16}, {128, 8}, {128, 16}, {128, 4}, {512, 2}, {256, 16}};
    for (auto c : w) copyw(c.B, c.L);
    copyi(64, 16, 4096);
    for (int g : {132, 264, 528, 1024}) copyi(256, 16, g);
    spin(64, 1, 0, sms); spin(64, 6, 0, sms);
    spin(64, 1, 3000, sms); spin(64, 3, 3000, sms); spin(128, 3, 3000, sms); spin(32, 3, 3000, sms);
  }
  if (all || strcmp(set, "fresh2") == 0) fresh2();
  return 0;
}
