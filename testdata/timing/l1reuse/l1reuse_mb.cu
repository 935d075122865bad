// l1reuse_mb: what a global load costs an SM's L1 when its sectors hit, when they miss and are
// filled, and when hits and misses mix (issue 19; testdata/timing/mechanisms' rowreuse rows are 10-13%
// too fast in the model). One block of W warps on one SM, clock64 in the kernel; every warp issues
// ITERS iterations of 8 independent loads (immediate offsets u*S words, no address arithmetic between
// them), each lane reading the word
//     A + w*region + (lane & mask)*L + k*8*S + u*S        (k: the iteration, wrapping every `period`)
// so the request's lanes read:
//     rows  (mask 31, L 1056): 32 lines, every lane at the same offset in its line (32 wavefronts)
//     rowsx (mask 31, L 1057): 32 lines, 32 different offsets (one wavefront, 32 sectors)
//     line  (mask 31, L 1):    one line, 4 sectors;  half (mask 15): 2 sectors;  sector (mask 7): 1
//     bcast (mask 0):          one word for the warp
// S = 1: the 8 loads of an iteration read one sector a lane (the first misses, 7 hit: rowreuse's
// pattern); S = 8: each load a new sector (lines allocated sector by sector); S = 32: each a new line.
// period 1: the same 8 loads every iteration (after a warm-up iteration every sector hits).
// Lanes below `split` keep period 1 (hits), the others `period` (misses): a request whose lanes
// partly miss. l2warm: the warp reads its sectors once with ld.global.cg first (into the L2, not the
// L1), so misses are served by the L2. stream: each load also multiplies by a coalesced load of B
// (a new line each, the warp's own region: misses), as rowreuse streams B. chase 1: warp 0 instead
// chases a dependent load (its warp's first line, coalesced; value 0: the same address) ITERS*8
// times while the others load; chase 2: every warp chases. The cache operator is the kernel's: plain ld.global
// (LDG.E), .nc (LDG.E.CONSTANT), .ca, .cg (L2 only).
// Output, one line a configuration: `cfg name=... op=... S=... warps=... cyc=<median cycles a request
// an SM> chase=<warp 0's median cycles a dependent load> first=<first launch's cycles a request>`.
// The four rowreuse kernels are testdata/timing/mechanisms/mech.cu's, run on the full grid as there.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

template <int OP> __device__ __forceinline__ float ldg(const float *p) {
  float v;
  if (OP == 0) asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else if (OP == 1) asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else if (OP == 2) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// one iteration: 8 loads at a + u*S (times B's line u when STREAM), then the lane's pointer moves on
// (or wraps to a0 after `per` iterations).
template <int OP, int S, bool STREAM>
__device__ __forceinline__ void step(const float *&a, const float *a0, unsigned &k, unsigned per, const float *&b, float *acc) {
#pragma unroll
  for (int u = 0; u < 8; u++) {
    float v = ldg<OP>(a + u * S);
    if (STREAM) v *= ldg<0>(b + u * 32);
    acc[u] += v;
  }
  if (STREAM) b += 256;
  k++;
  bool wrap = k == per;
  k = wrap ? 0 : k;
  a = wrap ? a0 : a + 8 * S;
}

template <int OP, int S, bool STREAM>
__device__ void probe(const float *A, const float *B, unsigned mask, unsigned L, unsigned region, unsigned period,
                      unsigned split, int iters, int warm, int l2warm, int chase, long long *cyc, float *out) {
  unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const float *a0 = A + (size_t)w * region + (size_t)(lane & mask) * L;
  const float *b0 = B + (size_t)w * (size_t)(iters + warm) * 256 + lane;
  unsigned per = lane < split ? 1u : period;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const float *a = a0, *b = b0;
  unsigned k = 0;
  if (l2warm) {
    for (int it = 0; it < iters; it++) step<3, S, false>(a, a0, k, per, b, acc);
    a = a0; k = 0;
  }
  for (int it = 0; it < warm; it++) step<OP, S, STREAM>(a, a0, k, per, b, acc);
  const float *c0 = A + (size_t)w * region + lane; // a chase reads the warp's first line, coalesced
  bool chaser = chase == 2 || (chase == 1 && w == 0);
  if (chaser) acc[0] += ldg<OP>(c0);
  float s = acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7];
  if (s == 1.5f) out[threadIdx.x] = s; // waits for the warm-up's data
  __syncthreads();
  long long t0 = clock64();
  if (chaser) {
    unsigned x = 0;
    for (int i = 0; i < iters * 8; i++) x += __float_as_uint(ldg<OP>(c0 + x));
    acc[0] += (float)x;
  } else {
    for (int it = 0; it < iters; it++) step<OP, S, STREAM>(a, a0, k, per, b, acc);
  }
  s = acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7];
  if (s == 1.5f) out[threadIdx.x] = s; // waits for the timed loads' data
  long long t1 = clock64();
  if (lane == 0) { cyc[2 * w] = t0; cyc[2 * w + 1] = t1; }
}

#define PROBE(NAME, OP, S, STREAM)                                                                                 \
  extern "C" __global__ void NAME(const float *A, const float *B, unsigned mask, unsigned L, unsigned region,      \
                                  unsigned period, unsigned split, int iters, int warm, int l2warm, int chase,    \
                                  long long *cyc, float *out) {                                                    \
    probe<OP, S, STREAM>(A, B, mask, L, region, period, split, iters, warm, l2warm, chase, cyc, out);              \
  }
PROBE(probe_plain_s1, 0, 1, false)
PROBE(probe_plain_s8, 0, 8, false)
PROBE(probe_plain_s32, 0, 32, false)
PROBE(probe_nc_s1, 1, 1, false)
PROBE(probe_nc_s8, 1, 8, false)
PROBE(probe_nc_s32, 1, 32, false)
PROBE(probe_ca_s1, 2, 1, false)
PROBE(probe_ca_s8, 2, 8, false)
PROBE(probe_ca_s32, 2, 32, false)
PROBE(probe_cg_s1, 3, 1, false)
PROBE(probe_cg_s8, 3, 8, false)
PROBE(probe_cg_s32, 3, 32, false)
PROBE(probe_plain_s1_stream, 0, 1, true)
PROBE(probe_nc_s1_stream, 1, 1, true)
PROBE(probe_cg_s1_stream, 3, 1, true)

// testdata/timing/mechanisms/mech.cu's rowreuse kernels, unchanged.
template <int MODE> __device__ __forceinline__ float lda(const float *A, unsigned r, unsigned K, unsigned k) {
  if (MODE == 3) return A[(size_t)(r >> 5) * K + k];
  const float *q = A + (size_t)r * K + k;
  if (MODE == 1) return __ldg(q);
  if (MODE == 2) { float v; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(q)); return v; }
  return *q;
}
template <int MODE> __device__ void rowreuse_body(const float *A, const float *B, float *C, unsigned K, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < K; k++) acc += lda<MODE>(A, r, K, k) * B[(size_t)k * N + r];
  C[r] = acc;
}
extern "C" __global__ void rowreuse(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<0>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_nc(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<1>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_cg(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<2>(A, B, C, K, N); }
extern "C" __global__ void rowreuse_bc(const float *A, const float *B, float *C, unsigned K, unsigned N) { rowreuse_body<3>(A, B, C, K, N); }

typedef void (*probeK)(const float *, const float *, unsigned, unsigned, unsigned, unsigned, unsigned, int, int, int, int,
                       long long *, float *);
static probeK kernelOf(const char *op, int S, bool stream) {
  struct { const char *op; int S; bool stream; probeK k; } t[] = {
      {"plain", 1, false, probe_plain_s1}, {"plain", 8, false, probe_plain_s8}, {"plain", 32, false, probe_plain_s32},
      {"nc", 1, false, probe_nc_s1},       {"nc", 8, false, probe_nc_s8},       {"nc", 32, false, probe_nc_s32},
      {"ca", 1, false, probe_ca_s1},       {"ca", 8, false, probe_ca_s8},       {"ca", 32, false, probe_ca_s32},
      {"cg", 1, false, probe_cg_s1},       {"cg", 8, false, probe_cg_s8},       {"cg", 32, false, probe_cg_s32},
      {"plain", 1, true, probe_plain_s1_stream}, {"nc", 1, true, probe_nc_s1_stream}, {"cg", 1, true, probe_cg_s1_stream},
  };
  for (auto &e : t)
    if (!strcmp(e.op, op) && e.S == S && e.stream == stream) return e.k;
  fprintf(stderr, "no kernel %s S=%d stream=%d\n", op, S, stream);
  exit(1);
}

static float *gA, *gB, *gC;
static long long *gCyc;
static int gReps = 5;

struct Pat { const char *name; unsigned mask, L; };
static const Pat ROWS = {"rows", 31, 1056}, ROWSX = {"rowsx", 31, 1057}, LINE = {"line", 31, 1}, HALF = {"half", 15, 1},
                 SECTOR = {"sector", 7, 1}, BCAST = {"bcast", 0, 1};

// run one configuration: `kind` hit (period 1, warm-up iteration), miss (period = iters, L2 warmed
// with .cg), mix (S 1: 1 miss in 8), part (S 8, lanes < split hit).
static void cfg(const char *name, const char *op, Pat p, int S, const char *kind, int warps, bool stream = false,
                int chase = 0, unsigned split = 0) {
  int iters = 32;
  bool hit = !strcmp(kind, "hit");
  unsigned period = hit ? 1 : iters;
  int warm = hit ? 1 : 0;
  int l2warm = hit ? 0 : 1;
  if (!strcmp(kind, "part")) warm = 1; // the hitting lanes' sectors in L1 (the others' in L2)
  // a row of the rows patterns holds (iters+warm)*8*S words when it misses (then a spare line; rowsx
  // keeps its word past the line: 32 different offsets); 33 lines when it hits
  bool rows = p.mask == 31 && p.L > 1;
  unsigned L = p.L;
  if (rows && !hit) L = ((unsigned)(iters + warm) * 8 * S + 31) / 32 * 32 + 32 + (p.L & 1);
  unsigned region = rows ? 32 * L : (unsigned)(iters + warm) * 8 * S + 32;
  region = (region + 31) / 32 * 32;
  probeK k = kernelOf(op, S, stream);
  int block = 32 * warps;
  std::vector<double> c, ch;
  double first = 0;
  for (int r = 0; r < gReps; r++) {
    k<<<1, block>>>(gA, gB, p.mask, L, region, period, split, iters, warm, l2warm, chase, gCyc, gC);
    CK(cudaGetLastError());
    std::vector<long long> t(2 * warps);
    CK(cudaMemcpy(t.data(), gCyc, sizeof(long long) * t.size(), cudaMemcpyDeviceToHost));
    int w0 = chase == 1 && warps > 1 ? 1 : 0, loaders = warps - w0; // warp 0 chases: the others load
    long long lo = t[2 * w0], hi = t[2 * w0 + 1];
    for (int w = w0; w < warps; w++) { lo = std::min(lo, t[2 * w]); hi = std::max(hi, t[2 * w + 1]); }
    double per = chase == 2 ? 0 : (double)(hi - lo) / (std::max(loaders, 1) * iters * 8.0);
    if (r == 0) first = per;
    c.push_back(per);
    ch.push_back((double)(t[1] - t[0]) / (iters * 8.0));
  }
  std::sort(c.begin(), c.end());
  std::sort(ch.begin(), ch.end());
  printf("cfg name=%s op=%s pat=%s S=%d kind=%s warps=%d stream=%d chase=%d split=%u L=%u region=%u iters=%d cyc=%.2f chase_cyc=%.2f first=%.2f\n",
         name, op, p.name, S, kind, warps, stream, chase, split, L, region, iters, c[c.size() / 2], ch[ch.size() / 2], first);
  fflush(stdout);
}

static void rr(const char *name, int mode, unsigned K, unsigned N) {
  int block = 256, grid = N / block;
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int r = 0; r < gReps + 1; r++) {
    CK(cudaEventRecord(e0));
    switch (mode) {
    case 0: rowreuse<<<grid, block>>>(gA, gB, gC, K, N); break;
    case 1: rowreuse_nc<<<grid, block>>>(gA, gB, gC, K, N); break;
    case 2: rowreuse_cg<<<grid, block>>>(gA, gB, gC, K, N); break;
    default: rowreuse_bc<<<grid, block>>>(gA, gB, gC, K, N); break;
    }
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  printf("grid name=%s K=%u N=%u event_ms=%.5f\n", name, K, N, t[t.size() / 2]);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc > 1) gReps = atoi(argv[1]);
  // argv[2]: p the probes, n the probes Nsight Compute reads (a subset), g the grids; default pg
  bool probes = argc <= 2 || strchr(argv[2], 'p'), grids = argc <= 2 || strchr(argv[2], 'g');
  bool few = argc > 2 && strchr(argv[2], 'n');
  size_t big = 48u << 20; // 32 warps' longest rows (34 MB); the grids' A and B at K = 128 (32 MB)
  CK(cudaMalloc(&gA, big)); CK(cudaMalloc(&gB, big)); CK(cudaMalloc(&gC, 1u << 20));
  CK(cudaMalloc(&gCyc, 64 * 2 * sizeof(long long)));
  CK(cudaMemset(gA, 0, big)); CK(cudaMemset(gB, 0, big)); CK(cudaMemset(gC, 0, 1u << 20));
  CK(cudaDeviceSynchronize());
  if (probes) {
    // 1. hits, 16 warps (an SM's L1 data stage saturated): patterns x cache operators
    for (const char *op : {"plain", "nc", "ca"}) {
      cfg("hit_rows", op, ROWS, 1, "hit", 16);
      cfg("hit_rowsx", op, ROWSX, 1, "hit", 16);
      cfg("hit_line", op, LINE, 32, "hit", 16);
      cfg("hit_half", op, HALF, 32, "hit", 16);
      cfg("hit_sector", op, SECTOR, 32, "hit", 16);
      cfg("hit_bcast", op, BCAST, 32, "hit", 16);
    }
    // 2. misses served by the L2, 16 warps: a new line a request, a new sector of a line a request
    for (const char *op : {"plain", "nc", "ca", "cg"}) {
      cfg("miss_rows_s32", op, ROWS, 32, "miss", 16);
      cfg("miss_rows_s8", op, ROWS, 8, "miss", 16);
      cfg("miss_rowsx_s32", op, ROWSX, 32, "miss", 16);
      cfg("miss_line_s32", op, LINE, 32, "miss", 16);
    }
    cfg("miss_sector_s32", "plain", SECTOR, 32, "miss", 16);
    cfg("miss_half_s32", "plain", HALF, 32, "miss", 16);
    cfg("miss_line_s8", "plain", LINE, 8, "miss", 16);
    // 3. rowreuse's pattern: each lane's sector missed once, then hit 7 times (S 1)
    for (const char *op : {"plain", "nc", "cg"}) cfg("mix_rows", op, ROWS, 1, "mix", 16);
    // 4. a request whose lanes partly miss (S 8: lanes below split hit, the others miss)
    for (unsigned split : {16u, 24u, 28u, 31u}) cfg("part_rows", "plain", ROWS, 8, "part", 16, false, 0, split);
    // 5. hits with a coalesced stream of misses (B): rows hits, rowreuse's mix, one word
    for (const char *op : {"plain", "nc"}) {
      cfg("stream_hit_rows", op, ROWS, 1, "hit", 16, true);
      cfg("stream_mix_rows", op, ROWS, 1, "mix", 16, true);
    }
    cfg("stream_hit_bcast", "plain", BCAST, 1, "hit", 16, true);
    cfg("stream_mix_rows", "cg", ROWS, 1, "mix", 16, true);
    // 6. warps an SM: 1 to 32
    for (int w : {1, 2, 4, 8, 32}) {
      cfg("hit_rows", "plain", ROWS, 1, "hit", w);
      cfg("mix_rows", "plain", ROWS, 1, "mix", w);
      cfg("hit_line", "plain", LINE, 32, "hit", w);
      cfg("miss_rows_s32", "plain", ROWS, 32, "miss", w);
    }
    // 7. a dependent hit's latency: alone, behind 15 warps' 32-wavefront hits or misses, every warp chasing
    cfg("chase_line", "plain", LINE, 32, "hit", 1, false, 1);
    cfg("chase_under_hit_rows", "plain", ROWS, 1, "hit", 16, false, 1);
    cfg("chase_under_mix_rows", "plain", ROWS, 1, "mix", 16, false, 1);
    for (int w : {4, 16, 32}) cfg("chase_all_line", "plain", LINE, 32, "hit", w, false, 2);
  }
  if (few) {
    for (const Pat &p : {ROWS, ROWSX, LINE, SECTOR, BCAST}) {
      char nm[32]; snprintf(nm, sizeof nm, "hit_%s", p.name);
      cfg(nm, "plain", p, p.L > 1 ? 1 : 32, "hit", 16);
    }
    for (const char *op : {"plain", "nc", "cg"}) {
      cfg("miss_rows_s32", op, ROWS, 32, "miss", 16);
      cfg("miss_line_s32", op, LINE, 32, "miss", 16);
      cfg("mix_rows", op, ROWS, 1, "mix", 16);
      cfg("stream_mix_rows", op, ROWS, 1, "mix", 16, true);
    }
    cfg("hit_rows", "nc", ROWS, 1, "hit", 16);
    cfg("miss_rows_s8", "plain", ROWS, 8, "miss", 16);
    cfg("miss_rowsx_s32", "plain", ROWSX, 32, "miss", 16);
    cfg("miss_sector_s32", "plain", SECTOR, 32, "miss", 16);
    for (unsigned split : {16u, 28u}) cfg("part_rows", "plain", ROWS, 8, "part", 16, false, 0, split);
    cfg("stream_hit_rows", "plain", ROWS, 1, "hit", 16, true);
  }
  if (grids) {
    // 8. mech.cu's rowreuse rows on the whole GPU
    rr("l1_rowreuse_k32", 0, 32, 1u << 16);
    rr("l1_rowreuse_nc_k32", 1, 32, 1u << 16);
    rr("l1_rowreuse_cg_k32", 2, 32, 1u << 16);
    rr("l1_rowreuse_bc_k32", 3, 32, 1u << 16);
    rr("l1_rowreuse_k128", 0, 128, 1u << 16);
  }
  return 0;
}
