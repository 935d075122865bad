// tlb_mb.cu (issues 18 and 19): address translation on the H100. One thread a block chases a random cycle of
// nodes, one 8-byte word each, node i at byte i*stride plus a line offset drawn from i (so the lines spread over
// the L2's sets); the word holds the next node's byte offset. Each step: t0 = clock64, ld.global.cg.u64 of the
// node, the value stored to shared memory (the clock read waits for the load), t1 = clock64; the first NREC
// steps' cycles are kept per block, and the sum of all of them.
//
// Usage: tlb_mb steady | cold.
//   steady: the reach of the TLBs. `warm` untimed steps (the whole cycle, twice) put every node's line in the L2
//     and its translation wherever it stays; then `steps` timed. The lines are few (at most 4096, 512 KiB): every
//     timed load hits the L2, and a stride of 2 MiB (a page a node) against 64 KiB (32 nodes a page) at the same
//     number of nodes isolates what translation adds. Also 132 blocks at once (one an SM), the same cycle from
//     spread starting nodes.
//   cold: a launch's first touch. No warm-up; the L2 flushed (a 256 MiB write by all SMs) or not before the
//     launch; the region `fresh` (written only by the copy engine since cudaMalloc), `touched` (every line read
//     by all SMs in an earlier launch) or `again` (the same chase launched before). Meant to be run plainly
//     and under Nsight Compute with --cache-control all and none (ncu -k regex:chase).
// Output lines: tlb set=<steady|cold> name=<..> stride=<bytes> n=<nodes> blocks=<b> prev=<..> flushed=<0|1>
//   steps=<s> mean=<block 0's mean cycles a step> allmean=<mean over blocks> first=<step 0> lat=<first 64, comma>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

typedef unsigned long long u64;
#define NREC 64

__global__ void init_chain(char *a, const u64 *offs, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) *(u64 *)(a + offs[i]) = offs[(i + 1) % n];
}
__global__ void init_touch(const char *a, u64 bytes, unsigned *sink) {
  unsigned s = 0;
  for (u64 i = (u64)(blockIdx.x * blockDim.x + threadIdx.x) * 128; i < bytes; i += (u64)gridDim.x * blockDim.x * 128)
    s += *(const unsigned *)(a + i);
  if (s == 0x12345678u) sink[0] = s;
}
__global__ void init_flush(unsigned *f, u64 words) {
  for (u64 i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (u64)gridDim.x * blockDim.x) f[i] = (unsigned)i;
}
// chase: block b starts at starts[b]; warm untimed steps, then steps timed.
__global__ void chase(const char *a, const u64 *starts, unsigned warm, unsigned steps, unsigned *lat, u64 *tot) {
  __shared__ u64 sj[1];
  if (threadIdx.x != 0) return;
  u64 j = starts[blockIdx.x];
  for (unsigned k = 0; k < warm; k++) {
    u64 nj;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(nj) : "l"(a + j) : "memory");
    j = nj;
  }
  u64 sum = 0;
  for (unsigned k = 0; k < steps; k++) {
    long long t0 = clock64();
    u64 nj;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(nj) : "l"(a + j) : "memory");
    sj[0] = nj;
    long long t1 = clock64();
    if (k < NREC) lat[blockIdx.x * NREC + k] = (unsigned)(t1 - t0);
    sum += (u64)(t1 - t0);
    j = sj[0];
  }
  tot[blockIdx.x] = sum;
}

static char *g_big;  // 8 GiB + 64 MiB: the steady cycles and the touched regions
static const u64 BIG = (8ull << 30) + (64ull << 20);
static unsigned *g_flush, *g_sink, *g_lat;
static u64 *g_offs, *g_starts, *g_tot;
static const u64 FLUSH_WORDS = (256ull << 20) / 4;

static u64 node_off(u64 i, u64 stride) {
  u64 lines = std::min<u64>(stride, 2ull << 20) / 128;
  return i * stride + ((i * 2654435761ull) % lines) * 128;
}
static void flush() { init_flush<<<264, 512>>>(g_flush, FLUSH_WORDS); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }

// build the cycle over n nodes of region a (random order, seed fixed); on the device by a kernel, or by the copy
// engine (host copies of each word) when fresh.
static std::vector<u64> build(char *a, u64 stride, unsigned n, bool fresh) {
  std::vector<u64> p(n);
  for (unsigned i = 0; i < n; i++) p[i] = i;
  srand(1234 + n);
  for (unsigned i = n - 1; i > 0; i--) { unsigned k = ((unsigned)rand() * 2654435761u + (unsigned)rand()) % (i + 1); std::swap(p[i], p[k]); }
  std::vector<u64> offs(n);
  for (unsigned i = 0; i < n; i++) offs[i] = node_off(p[i], stride);
  if (fresh) {
    for (unsigned i = 0; i < n; i++) CK(cudaMemcpy(a + offs[i], &offs[(i + 1) % n], 8, cudaMemcpyHostToDevice));
  } else {
    CK(cudaMemcpy(g_offs, offs.data(), n * 8, cudaMemcpyHostToDevice));
    init_chain<<<(n + 255) / 256, 256>>>(a, g_offs, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  }
  return offs;
}

static void chase_run(const char *set, const char *name, char *a, u64 stride, unsigned n, const std::vector<u64> &offs,
                      unsigned blocks, const char *prev, bool flushed, unsigned warm, unsigned steps) {
  std::vector<u64> st(blocks);
  for (unsigned b = 0; b < blocks; b++) st[b] = offs[(u64)b * n / blocks];
  CK(cudaMemcpy(g_starts, st.data(), blocks * 8, cudaMemcpyHostToDevice));
  CK(cudaMemset(g_lat, 0, blocks * NREC * 4));
  CK(cudaDeviceSynchronize());
  if (flushed) flush();
  chase<<<blocks, 32>>>(a, g_starts, warm, steps, g_lat, g_tot);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> L(blocks * NREC);
  std::vector<u64> T(blocks);
  CK(cudaMemcpy(L.data(), g_lat, blocks * NREC * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(T.data(), g_tot, blocks * 8, cudaMemcpyDeviceToHost));
  double all = 0;
  for (unsigned b = 0; b < blocks; b++) all += (double)T[b] / steps / blocks;
  printf("tlb set=%s name=%s stride=%llu n=%u blocks=%u prev=%s flushed=%d steps=%u mean=%.1f allmean=%.1f first=%u lat=",
         set, name, stride, n, blocks, prev, flushed ? 1 : 0, steps, (double)T[0] / steps, all, L[0]);
  for (unsigned k = 0; k < NREC && k < steps; k++) printf(k ? ",%u" : "%u", L[k]);
  printf("\n");
  fflush(stdout);
}

static void steady() {
  struct S { u64 stride; std::vector<unsigned> ns; };
  std::vector<S> sets = {
      {64ull << 10, {16, 64, 256, 512, 1024, 2048, 4096}},
      {2ull << 20, {8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096}},
      {32ull << 20, {8, 16, 32, 64, 128, 256}},
  };
  for (auto &s : sets)
    for (unsigned n : s.ns) {
      if (s.stride * n > BIG) continue;
      auto offs = build(g_big, s.stride, n, false);
      unsigned steps = std::max(1024u, 2 * n);
      chase_run("steady", "steady", g_big, s.stride, n, offs, 1, "self", false, 2 * n, steps);
    }
  for (unsigned n : {64u, 512u, 4096u}) {
    auto offs = build(g_big, 2ull << 20, n, false);
    chase_run("steady", "steady132", g_big, 2ull << 20, n, offs, 132, "self", false, 2 * n, std::max(1024u, 2 * n));
  }
}

static void cold() {
  const u64 P = 2ull << 20;
  // fresh regions: a new allocation each, its nodes written by the copy engine only
  struct F { const char *name; u64 stride; unsigned n; bool flushed; };
  for (F f : {F{"fresh_2m", P, 64, true}, F{"fresh_4k", 4096, 64, true}, F{"fresh_64k", 64ull << 10, 64, true},
              F{"fresh_2m_noflush", P, 64, false}}) {
    char *r; CK(cudaMalloc(&r, 160ull << 20));
    auto offs = build(r, f.stride, f.n, true);
    chase_run("cold", f.name, r, f.stride, f.n, offs, 1, "fresh", f.flushed, 0, f.n);
  }
  // touched regions: every line read by all SMs first (in g_big), then the L2 flushed or not
  struct T { const char *name; u64 stride; unsigned n; unsigned blocks; bool flushed; };
  for (T t : {T{"touched_2m", P, 64, 1, true}, T{"touched_4k", 4096, 64, 1, true}, T{"touched_64k", 64ull << 10, 64, 1, true},
              T{"touched_2m_noflush", P, 64, 1, false}, T{"touched_2m_132", P, 64, 132, true},
              T{"touched_2m_n512", P, 512, 1, true}, T{"touched_2m_n2048", P, 2048, 1, true}}) {
    auto offs = build(g_big, t.stride, t.n, false);
    init_touch<<<264, 512>>>(g_big, std::min<u64>(BIG, t.stride * t.n + (2ull << 20)), g_sink);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    chase_run("cold", t.name, g_big, t.stride, t.n, offs, t.blocks, "touched", t.flushed, 0, t.n);
    if (t.blocks == 1 && t.n == 64 && t.flushed)  // the same chase launched again right after, L2 flushed between
      chase_run("cold", (std::string(t.name) + "_again").c_str(), g_big, t.stride, t.n, offs, 1, "again", true, 0, t.n);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "steady";
  CK(cudaMalloc(&g_big, BIG));
  CK(cudaMalloc(&g_flush, FLUSH_WORDS * 4));
  CK(cudaMalloc(&g_sink, 4));
  CK(cudaMalloc(&g_lat, 132 * NREC * 4));
  CK(cudaMalloc(&g_offs, 4096 * 8));
  CK(cudaMalloc(&g_starts, 132 * 8));
  CK(cudaMalloc(&g_tot, 132 * 8));
  flush();
  if (strcmp(mode, "steady") == 0) steady();
  else if (strcmp(mode, "cold") == 0) cold();
  else { fprintf(stderr, "usage: tlb_mb steady|cold\n"); return 2; }
  return 0;
}
