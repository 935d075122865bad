// printf.cu: what a device printf costs on the H100 (README.md).
//
// Every kernel takes (nthr, reps, out): the threads with threadIdx.x < nthr
// print, the others only stamp. Each thread reads %clock64 before and after
// its printing and writes the difference to out[global thread id]. Kernels
// differ in what one printf carries: no argument, 1/4/8 ints, 1/4/8 doubles,
// 1/4 strings, a long format (with 0 or 1 int argument); k_multi4 makes four
// separate printf calls, k_loop one call in a loop of reps iterations,
// k_skip has a printf no thread reaches, k_none none at all.
//
// The host runs a table of rows (kernel, grid, block, nthr, reps). Before
// each launch it prints "row=NAME ..." and after it (synchronized, flushed)
// "end=NAME ..." with the printing threads' stamp statistics, so each
// row's printed lines sit between its two markers.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)

__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__device__ const char *g_words[4] = {"alpha", "beta", "gamma", "delta-epsilon"};

#define KBEGIN(name) \
  __global__ void name(int nthr, int reps, long long *out) { \
    int tid = threadIdx.x, g = blockIdx.x * blockDim.x + threadIdx.x; \
    long long t0 = clk(); \
    if (tid < nthr) {
#define KEND \
    } \
    long long t1 = clk(); \
    out[g] = t1 - t0; \
  }

KBEGIN(k_none) out[g] = tid; KEND
KBEGIN(k_skip) if (reps < 0) printf("never %d\n", tid); KEND
KBEGIN(k_a0) printf("hi\n"); KEND
KBEGIN(k_a0long) printf("a long format string with no argument at all, to see whether its length costs anything: 0123456789abcdefghij\n"); KEND
KBEGIN(k_i1) printf("%d\n", g); KEND
KBEGIN(k_i1long) printf("a long format string with one integer argument, to see whether its length costs anything: 0123456789 %d\n", g); KEND
KBEGIN(k_i4) printf("%d %d %d %d\n", g, tid, blockIdx.x, g * 3); KEND
KBEGIN(k_i8) printf("%d %d %d %d %d %d %d %d\n", g, tid, blockIdx.x, g * 3, g + 1, g + 2, g + 3, g + 4); KEND
KBEGIN(k_d1) printf("%f\n", g * 0.5); KEND
KBEGIN(k_d4) printf("%f %f %f %f\n", g * 0.5, tid * 0.25, blockIdx.x * 1.5, g * 0.125); KEND
KBEGIN(k_d8) printf("%f %f %f %f %f %f %f %f\n", g * 0.5, tid * 0.25, blockIdx.x * 1.5, g * 0.125, g + 0.5, g + 1.5, g + 2.5, g + 3.5); KEND
KBEGIN(k_s1) printf("%s\n", g_words[g & 3]); KEND
KBEGIN(k_s4) printf("%s %s %s %s\n", g_words[g & 3], g_words[(g + 1) & 3], g_words[(g + 2) & 3], g_words[(g + 3) & 3]); KEND
KBEGIN(k_mix) printf("t%d b%d x=%f %s\n", tid, blockIdx.x, g * 0.5, g_words[g & 3]); KEND
KBEGIN(k_multi4) printf("a%d\n", g); printf("b%d\n", g); printf("c%d\n", g); printf("d%d\n", g); KEND
KBEGIN(k_loop) for (int i = 0; i < reps; i++) printf("%d %d\n", g, i); KEND

typedef void (*kfn)(int, int, long long *);
struct K { const char *name; kfn f; };
static K kernels[] = {
  {"none", k_none}, {"skip", k_skip}, {"a0", k_a0}, {"a0long", k_a0long}, {"i1", k_i1}, {"i1long", k_i1long},
  {"i4", k_i4}, {"i8", k_i8}, {"d1", k_d1}, {"d4", k_d4}, {"d8", k_d8}, {"s1", k_s1}, {"s4", k_s4},
  {"mix", k_mix}, {"multi4", k_multi4}, {"loop", k_loop},
};
static kfn lookup(const char *n) {
  for (auto &k : kernels) if (!strcmp(k.name, n)) return k.f;
  printf("no kernel %s\n", n); exit(1);
}

struct Row { const char *k; int grid, block, nthr, reps; };
// The rows (SPLIT.md says which are fitted and which held out).
static Row rows[] = {
  // who prints: one thread, a warp, a few warps, a whole block, one SM vs many
  {"i1", 1, 32, 1, 1}, {"i1", 1, 32, 32, 1}, {"i1", 1, 64, 64, 1}, {"i1", 1, 128, 128, 1}, {"i1", 1, 256, 256, 1},
  {"i1", 1, 1024, 1024, 1}, {"i1", 4, 32, 32, 1}, {"i1", 4, 128, 128, 1}, {"i1", 132, 32, 1, 1}, {"i1", 132, 32, 32, 1},
  {"i1", 132, 256, 256, 1}, {"i1", 264, 128, 128, 1}, {"i1", 1, 256, 1, 1}, {"i1", 8, 32, 16, 1},
  // baselines
  {"none", 1, 32, 32, 1}, {"none", 132, 256, 256, 1}, {"skip", 1, 32, 32, 1}, {"skip", 132, 256, 256, 1},
  // what one printf carries: one thread, one warp, four warps
  {"a0", 1, 32, 1, 1}, {"a0", 1, 32, 32, 1}, {"a0", 1, 128, 128, 1}, {"a0", 132, 32, 32, 1},
  {"a0long", 1, 32, 1, 1}, {"a0long", 1, 32, 32, 1}, {"a0long", 1, 128, 128, 1},
  {"i1long", 1, 32, 1, 1}, {"i1long", 1, 32, 32, 1}, {"i1long", 1, 128, 128, 1},
  {"i4", 1, 32, 1, 1}, {"i4", 1, 32, 32, 1}, {"i4", 1, 128, 128, 1}, {"i4", 132, 32, 32, 1},
  {"i8", 1, 32, 1, 1}, {"i8", 1, 32, 32, 1}, {"i8", 1, 128, 128, 1}, {"i8", 132, 128, 128, 1},
  {"d1", 1, 32, 1, 1}, {"d1", 1, 32, 32, 1}, {"d1", 1, 128, 128, 1},
  {"d4", 1, 32, 1, 1}, {"d4", 1, 32, 32, 1}, {"d4", 1, 128, 128, 1},
  {"d8", 1, 32, 1, 1}, {"d8", 1, 32, 32, 1}, {"d8", 1, 128, 128, 1}, {"d8", 132, 32, 32, 1},
  {"s1", 1, 32, 1, 1}, {"s1", 1, 32, 32, 1}, {"s1", 1, 128, 128, 1},
  {"s4", 1, 32, 1, 1}, {"s4", 1, 32, 32, 1}, {"s4", 1, 128, 128, 1},
  {"mix", 1, 32, 1, 1}, {"mix", 1, 32, 32, 1}, {"mix", 1, 256, 256, 1}, {"mix", 132, 64, 64, 1},
  // several calls a thread, and a loop
  {"multi4", 1, 32, 1, 1}, {"multi4", 1, 32, 32, 1}, {"multi4", 1, 128, 128, 1}, {"multi4", 132, 32, 32, 1},
  {"loop", 1, 32, 1, 8}, {"loop", 1, 32, 32, 1}, {"loop", 1, 32, 32, 4}, {"loop", 1, 32, 32, 16},
  {"loop", 1, 128, 128, 8}, {"loop", 132, 32, 32, 8}, {"loop", 132, 32, 1, 32},
};

int main(int argc, char **argv) {
  CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64 << 20));
  size_t fifo = 0;
  CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  int launches = argc > 1 ? atoi(argv[1]) : 1;
  int maxThreads = 0;
  for (auto &r : rows) maxThreads = std::max(maxThreads, r.grid * r.block);
  long long *out;
  CK(cudaMalloc(&out, sizeof(long long) * maxThreads));
  std::vector<long long> h(maxThreads);
  printf("fifo=%zu rows=%d launches=%d\n", fifo, (int)(sizeof(rows) / sizeof(rows[0])), launches);
  fflush(stdout);
  for (auto &r : rows) {
    kfn f = lookup(r.k);
    for (int l = 0; l < launches; l++) {
      printf("row=%s grid=%d block=%d nthr=%d reps=%d launch=%d\n", r.k, r.grid, r.block, r.nthr, r.reps, l);
      fflush(stdout);
      f<<<r.grid, r.block>>>(r.nthr, r.reps, out);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      fflush(stdout);
      int n = r.grid * r.block;
      CK(cudaMemcpy(h.data(), out, sizeof(long long) * n, cudaMemcpyDeviceToHost));
      // the printing threads' cycles: median, max, and warp 0's lanes 0 and 31 (or its last printer)
      std::vector<long long> p;
      for (int i = 0; i < n; i++) if (i % r.block < r.nthr) p.push_back(h[i]);
      std::sort(p.begin(), p.end());
      int last = std::min(r.nthr, std::min(r.block, 32)) - 1;
      printf("end=%s grid=%d block=%d nthr=%d reps=%d launch=%d cyc_med=%lld cyc_max=%lld cyc_min=%lld lane0=%lld lanelast=%lld\n",
             r.k, r.grid, r.block, r.nthr, r.reps, l, p[p.size() / 2], p.back(), p.front(), h[0], h[last]);
      fflush(stdout);
    }
  }
  return 0;
}
