// dramload.cu: the H100's DRAM latency under load below saturation (issue 19, helper dram5). One warp on SM 0
// (block 0's warp 0, lane 0) chases pointers over a 64 MiB table, one 128-byte line a step (its next index in the
// line's first word), stamping clock64 after each step's value is used; the other blocks (one an SM: each takes
// all but a block's share of shared memory) stream with W warps each, every warp with four 512-byte loads in
// flight an iteration, for `iters` iterations (twice the chase's steps: they outlast it). Modes (`mode` bits):
// 1 random chunks (else sequential), 2 copy (each chunk read is stored to b), 4 the chase walks sequential lines
// (else a random permutation). init_chain writes the table on the device (a bijective hash of the line index),
// so the timing model's launch builds the same one. SPLIT.md (written before the device call) says which rows
// are studied and which held out.
#include <string>
#include "../bench/bench.h"

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g) :: "memory"); return g; }

#define NLOG 19 // table lines: 2^19 of 128 bytes = 64 MiB
__host__ __device__ __forceinline__ unsigned perm(unsigned x) {
  const unsigned m = (1u << NLOG) - 1;
  x &= m;
  x ^= x >> 9; x = (x * 0x2c1b3c6du) & m;
  x ^= x >> 11; x = (x * 0x297a2d39u) & m;
  x ^= x >> 7; x = (x * 0x4f6cdd1du) & m;
  x ^= x >> 10;
  return x;
}
__device__ __forceinline__ unsigned mix(unsigned a, unsigned b) {
  unsigned x = a * 0x9e3779b1u ^ b * 0x85ebca77u;
  x ^= x >> 15; x *= 0x2c1b3c6du; x ^= x >> 12; x *= 0x297a2d39u; x ^= x >> 15;
  return x;
}

// init_chain: table line perm(k) holds perm(k+1) (seq = 0: a random cycle), or line k holds k+1 (seq = 1).
extern "C" __global__ void init_chain(unsigned *chain, unsigned seq) {
  unsigned k = blockIdx.x * blockDim.x + threadIdx.x, n = 1u << NLOG;
  if (k >= n) return;
  if (seq) chain[(size_t)k * 32] = (k + 1) & (n - 1);
  else chain[(size_t)perm(k) * 32] = perm(k + 1);
}

// S: per-step clocks of the chase (steps + 1), then per block: [gtime start, gtime end] at S[steps + 1 + 2*block].
extern "C" __global__ void ld_probe(const unsigned *chain, unsigned start, unsigned steps, long long *S,
                                    const float4 *a, float4 *b, unsigned mask, unsigned iters, unsigned mode) {
  unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  unsigned long long *G = (unsigned long long *)(S + steps + 1);
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0) return;
    long long t = clk();
    while (clk() - t < 4000) {}
    G[0] = gtime();
    unsigned p = start;
    volatile unsigned sink;
    S[0] = clk();
    for (unsigned s = 0; s < steps; s++) {
      p = __ldcg(chain + (size_t)p * 32);
      sink = p; // waits for the value before the clock is read
      S[s + 1] = clk();
    }
    G[1] = gtime();
    if (p == 0xffffffffu) S[0] = 0;
    return;
  }
  unsigned nw = blockDim.x >> 5, gw = (blockIdx.x - 1) * nw + warp, tw = (gridDim.x - 1) * nw;
  if (threadIdx.x == 0) G[2 * blockIdx.x] = gtime();
  float s = 0;
  for (unsigned it = 0; it < iters; it++) {
    unsigned c[4];
    float4 v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      c[j] = (mode & 1) ? mix(gw * 4 + j, it) & mask : ((it * tw + gw) * 4 + j) & mask;
      v[j] = __ldcg(a + (size_t)c[j] * 32 + lane);
    }
    if (mode & 2) {
#pragma unroll
      for (int j = 0; j < 4; j++) b[(size_t)c[j] * 32 + lane] = v[j];
    } else {
#pragma unroll
      for (int j = 0; j < 4; j++) s += v[j].x + v[j].y + v[j].z + v[j].w;
    }
  }
  if (s == -1.0f) b[gw * 32 + lane] = make_float4(s, s, s, s);
  __syncthreads();
  if (threadIdx.x == 0) G[2 * blockIdx.x + 1] = gtime();
}

static unsigned *g_chain[2];
static float4 *g_A, *g_B;
static long long *g_S;
static const unsigned MASK = (1u << 19) - 1; // 512-byte chunks of a 256 MiB buffer
static unsigned g_k[2] = {0, 0};             // the next unused place on each chain

static void cfg(const char *mname, int mode, int W, int steps) {
  int sms = num_sms(), grid = W ? sms : 1, block = 32 * (W ? W : 1), iters = 2 * steps;
  int smem = smem_for_resident(1);
  int seq = (mode & 4) ? 1 : 0;
  unsigned k0 = g_k[seq];
  g_k[seq] += steps + 8;
  unsigned start = seq ? k0 : perm(k0);
  char name[64];
  snprintf(name, sizeof name, "%s_w%d_s%d", mname, W, steps);
  int n = steps + 1 + 2 * grid;
  CK(cudaMemset(g_S, 0, sizeof(long long) * n));
  float ms = time_median([&] { ld_probe<<<grid, block, smem>>>(g_chain[seq], start, steps, g_S, g_A, g_B, MASK, iters, mode); }, 1);
  std::vector<long long> S(n);
  CK(cudaMemcpy(S.data(), g_S, sizeof(long long) * n, cudaMemcpyDeviceToHost));
  std::vector<long long> d;
  for (int s = 0; s < steps; s++) d.push_back(S[s + 1] - S[s]);
  std::vector<long long> q = d;
  std::sort(q.begin(), q.end());
  double mean = 0;
  for (long long x : d) mean += x;
  mean /= steps;
  unsigned long long *G = (unsigned long long *)(S.data() + steps + 1);
  unsigned long long s0 = ~0ull, s1 = 0, e0 = ~0ull;
  for (int b = 1; b < grid; b++) { s0 = std::min(s0, G[2 * b]); s1 = std::max(s1, G[2 * b + 1]); e0 = std::min(e0, G[2 * b + 1]); }
  double bytes = (double)(grid - 1) * W * iters * 2048 * ((mode & 2) ? 2 : 1);
  double rate = W ? bytes / (double)(s1 - s0) : 0; // GB/s over the streamers' span
  int cov = W ? (s0 <= G[0] && e0 >= G[1]) : 1;
  printf("%s mode=%d W=%d steps=%d grid=%d block=%d smem=%d iters=%d start=%u ms=%.4f mean=%.1f p10=%lld p50=%lld p90=%lld "
         "probe_ns=%llu stream_gbs=%.0f cover=%d\n",
         name, mode, W, steps, grid, block, smem, iters, start, ms, mean, q[steps / 10], q[steps / 2], q[steps * 9 / 10],
         G[1] - G[0], rate, cov);
  if (const char *dir = getenv("STAMPS")) {
    std::string f = std::string(dir) + "/" + name + ".csv";
    FILE *o = fopen(f.c_str(), "w");
    fprintf(o, "step,cycles\n");
    for (int s = 0; s < steps; s++) fprintf(o, "%d,%lld\n", s, d[s]);
    fprintf(o, "# probe gtime %llu %llu\n", G[0], G[1]);
    for (int b = 1; b < grid; b++) fprintf(o, "# block %d gtime %llu %llu\n", b, G[2 * b], G[2 * b + 1]);
    fclose(o);
  }
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  allow_smem(ld_probe);
  for (int i = 0; i < 2; i++) CK(cudaMalloc(&g_chain[i], (size_t)64 << 20));
  CK(cudaMalloc(&g_A, (size_t)256 << 20));
  CK(cudaMalloc(&g_B, (size_t)256 << 20));
  CK(cudaMemset(g_A, 0x3f, (size_t)256 << 20));
  CK(cudaMalloc(&g_S, sizeof(long long) * 4096));
  for (int i = 0; i < 2; i++) init_chain<<<(1 << NLOG) / 256, 256>>>(g_chain[i], i);
  CK(cudaDeviceSynchronize());
  const int Ws[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 32};
  const char *names[] = {"rseq", "rrand", "cseq", "crand"};
  for (int steps : {200, 48}) {
    for (int m = 0; m < 4; m++)
      for (int W : Ws) {
        if (W == 0 && m > 0) continue;
        cfg(names[m], m, W, steps);
      }
    for (int W : {0, 4, 8, 32}) cfg("pseq", 4, W, steps);
  }
  return 0;
}
