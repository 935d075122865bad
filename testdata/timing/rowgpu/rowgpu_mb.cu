// rowgpu_mb: why mech.cu's rowreuse (each lane re-reads its own row of A through the L1 while the warp
// streams B coalesced) takes the whole GPU 10% more cycles a load pair than one SM (issue 19;
// testdata/timing/l1reuse: 37.7 against 34.4). `rg` is rowreuse's loop, unchanged, run by a grid of n
// blocks of 512 threads (16 warps, rowreuse's warps an SM), one block an SM, n = 1 ... 132: every SM reads
// the rows and B's columns it would read on the whole GPU (N fixed at 132 * 512 rows), only the number of
// SMs reading changes. Before each launch the L2 is emptied (a 256 MiB read) and then, per `src`, A, B or
// both are read into it (ld.global.cg): DD (A and B from DRAM: rowreuse as mech.cu runs it), LD (A from the
// L2, B from DRAM: l1reuse's stream_mix_rows), DL, LL; D- and L- (A alone, no B). Each block stamps
// clock64 and %globaltimer after a __syncthreads at its start and end, and its %smid.
// Output, one line a configuration: `rg src=.. n=.. K=.. sms=<distinct SMs> cyc=<median over 5 launches of
// the median block's cycles> cycmax=<the slowest block's> ns=<median GPU-wide span, first start to last end>
// clk=<cycles/ns> event_ms=<event time>`; the plain rowreuse grid as mech.cu launches it:
// `grid src=.. K=.. event_ms=..`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

// rowreuse's loop (mech.cu's rowreuse_body, MODE 0), with B's load or without it.
template <bool STREAM> __device__ void rg_body(const float *A, const float *B, float *C, unsigned K, unsigned N, long long *st) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  long long t0 = clock64();
  unsigned long long g0 = gtimer();
  float acc = 0;
  for (unsigned k = 0; k < K; k++) acc += A[(size_t)r * K + k] * (STREAM ? B[(size_t)k * N + r] : 1.0f);
  C[r] = acc;
  __syncthreads();
  long long t1 = clock64();
  unsigned long long g1 = gtimer();
  if (threadIdx.x == 0) {
    long long *p = st + 5 * blockIdx.x;
    p[0] = smid(); p[1] = t0; p[2] = t1; p[3] = (long long)g0; p[4] = (long long)g1;
  }
}
extern "C" __global__ void rg(const float *A, const float *B, float *C, unsigned K, unsigned N, long long *st) { rg_body<true>(A, B, C, K, N, st); }
extern "C" __global__ void rg_nob(const float *A, const float *B, float *C, unsigned K, unsigned N, long long *st) { rg_body<false>(A, B, C, K, N, st); }

// mech.cu's rowreuse, unchanged.
extern "C" __global__ void rowreuse(const float *A, const float *B, float *C, unsigned K, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < K; k++) acc += A[(size_t)r * K + k] * B[(size_t)k * N + r];
  C[r] = acc;
}

// spin: one thread stamps clock64 and %globaltimer across `cycles` cycles (the SM clock, cycles a ns).
extern "C" __global__ void spin(long long cycles, long long *st) {
  long long t0 = clock64();
  unsigned long long g0 = gtimer();
  while (clock64() - t0 < cycles) {}
  long long t1 = clock64();
  unsigned long long g1 = gtimer();
  st[0] = t1 - t0; st[1] = (long long)(g1 - g0);
}

// warm reads n4 float4s into the L2 (.cg: not into the L1); flush does the same over a 256 MiB buffer.
extern "C" __global__ void warm(const float4 *p, size_t n4, float *out) {
  float s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    float4 v = __ldcg(p + i);
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1.5f) out[0] = s;
}

static float *gA, *gB, *gC, *gF;
static long long *gSt;
static const size_t FLUSH = 256u << 20;
static const unsigned NROWS = 132 * 512;

static void warmUp(const float *p, size_t bytes) {
  warm<<<132 * 4, 1024>>>((const float4 *)p, bytes / 16, gC + (1 << 18));
  CK(cudaGetLastError());
}
// prepare empties the L2 and reads src's L2-resident matrices (A first letter, B second) into it.
static void prepare(const char *src, unsigned K) {
  warmUp(gF, FLUSH);
  if (src[0] == 'L') warmUp(gA, (size_t)NROWS * K * 4);
  if (src[1] == 'L') warmUp(gB, (size_t)NROWS * K * 4);
  CK(cudaDeviceSynchronize());
}

static int gReps = 5;
// persm: print every block's SM and cycles of each launch (which SMs are slow, and whether the same ones are).
static void rgcfg(const char *src, int n, unsigned K, unsigned N = NROWS, int block = 512, bool persm = false) {
  bool stream = src[1] != '-';
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<double> med, mx, span, clk, ev;
  int sms = 0;
  for (int r = 0; r < gReps; r++) {
    prepare(src, K);
    CK(cudaEventRecord(e0));
    if (stream) rg<<<n, block>>>(gA, gB, gC, K, N, gSt);
    else rg_nob<<<n, block>>>(gA, gB, gC, K, N, gSt);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    std::vector<long long> s(5 * n);
    CK(cudaMemcpy(s.data(), gSt, 8 * s.size(), cudaMemcpyDeviceToHost));
    std::vector<double> c;
    std::vector<int> ids;
    long long glo = s[3], ghi = s[4];
    double cs = 0, ns = 0;
    for (int b = 0; b < n; b++) {
      c.push_back((double)(s[5 * b + 2] - s[5 * b + 1]));
      ids.push_back((int)s[5 * b]);
      glo = std::min(glo, s[5 * b + 3]); ghi = std::max(ghi, s[5 * b + 4]);
      cs += (double)(s[5 * b + 2] - s[5 * b + 1]); ns += (double)(s[5 * b + 4] - s[5 * b + 3]);
    }
    if (persm)
      for (int b = 0; b < n; b++)
        printf("sm src=%s n=%d K=%u rep=%d block=%d smid=%lld cyc=%lld\n", src, n, K, r, b, s[5 * b], s[5 * b + 2] - s[5 * b + 1]);
    std::sort(c.begin(), c.end());
    std::sort(ids.begin(), ids.end());
    sms = (int)(std::unique(ids.begin(), ids.end()) - ids.begin());
    med.push_back(c[c.size() / 2]); mx.push_back(c.back()); span.push_back((double)(ghi - glo));
    clk.push_back(ns > 0 ? cs / ns : 0); ev.push_back(ms);
  }
  for (auto *v : {&med, &mx, &span, &clk, &ev}) std::sort(v->begin(), v->end());
  int m = gReps / 2;
  printf("rg src=%s n=%d K=%u N=%u block=%d sms=%d cyc=%.0f cycmax=%.0f ns=%.0f clk=%.4f event_ms=%.5f\n", src, n, K, N, block, sms, med[m], mx[m],
         span[m], clk[m], ev[m]);
  fflush(stdout);
}

static void clockcfg() {
  spin<<<1, 32>>>(20000000, gSt);
  CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  long long s[2];
  CK(cudaMemcpy(s, gSt, 16, cudaMemcpyDeviceToHost));
  printf("clock cycles=%lld ns=%lld clk=%.4f\n", s[0], s[1], (double)s[0] / (double)s[1]);
  fflush(stdout);
}

static void gridcfg(const char *src, unsigned K, unsigned N = 1u << 16, int block = 256) {
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int r = 0; r < gReps; r++) {
    prepare(src, K);
    CK(cudaEventRecord(e0));
    rowreuse<<<N / block, block>>>(gA, gB, gC, K, N);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  printf("grid src=%s K=%u N=%u block=%d event_ms=%.5f\n", src, K, N, block, t[t.size() / 2]);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc > 1) gReps = atoi(argv[1]);
  // argv[2]: "plain" (default) every configuration; "ncudd" the DRAM ones Nsight Compute reads (its own
  // flush before each kernel); "ncull" the L2-resident ones (run with --cache-control none).
  const char *what = argc > 2 ? argv[2] : "plain";
  size_t mat = (size_t)NROWS * 128 * 4;
  CK(cudaMalloc(&gA, mat)); CK(cudaMalloc(&gB, mat)); CK(cudaMalloc(&gC, 4u << 20));
  CK(cudaMalloc(&gF, FLUSH)); CK(cudaMalloc(&gSt, 5 * 264 * 8));
  CK(cudaMemset(gA, 0, mat)); CK(cudaMemset(gB, 0, mat)); CK(cudaMemset(gC, 0, 4u << 20)); CK(cudaMemset(gF, 0, FLUSH));
  CK(cudaDeviceSynchronize());
  const int ns[] = {1, 2, 8, 33, 66, 132};
  if (!strcmp(what, "plain")) {
    clockcfg();
    for (int n : ns) {
      for (unsigned K : {32u, 64u, 128u}) rgcfg("DD", n, K);
      for (const char *src : {"LD", "DL", "LL", "D-", "L-"})
        for (unsigned K : {32u, 64u}) rgcfg(src, n, K);
    }
    for (unsigned K : {32u, 64u, 128u}) gridcfg("DD", K);
    for (unsigned K : {32u, 64u}) gridcfg("LD", K);
    for (unsigned K : {32u, 64u}) gridcfg("LL", K);
    clockcfg();
  } else if (!strcmp(what, "nsweep")) {
    // second call: B's row stride N (a power of two, 256 KiB, as mech.cu's grid has it; one line more;
    // 264 KiB as rg's first sweep), rg and the grid, DD and the other sources
    clockcfg();
    for (unsigned N : {65536u, 65568u, 67584u}) {
      for (int n : {1, 66, 132})
        for (unsigned K : {32u, 128u}) rgcfg("DD", n, K, N);
      for (const char *src : {"LD", "DL", "LL"})
        for (unsigned K : {32u, 64u}) rgcfg(src, 132, K, N);
      for (unsigned K : {32u, 128u}) gridcfg("DD", K, N == 65568u ? 65536u + 256u : N);
    }
    for (unsigned K : {32u, 64u}) gridcfg("LD", K, 67584u);
    for (unsigned K : {32u, 64u}) gridcfg("DL", K, 65536u);
    for (unsigned K : {32u, 64u}) gridcfg("DL", K, 67584u);
    clockcfg();
  } else if (!strcmp(what, "shape")) {
    // not run yet (README, "Next"): block shape against ptxas's load order, and which SMs are slow
    clockcfg();
    for (int rep = 0; rep < 2; rep++)
      for (unsigned K : {32u, 128u}) {
        rgcfg("DD", 132, K);                    // one block of 16 warps an SM
        rgcfg("DD", 264, K, NROWS, 256);        // two blocks of 8 warps an SM, rg's code
        gridcfg("DD", K, NROWS, 512);           // rowreuse's code, one block of 16 warps an SM
        gridcfg("DD", K, NROWS, 256);           // rowreuse's code, two blocks of 8 (264 blocks)
        rgcfg("LL", 264, K == 32 ? 32 : 64, NROWS, 256);
      }
    for (unsigned K : {32u, 128u}) rgcfg("DD", 132, K, NROWS, 512, true);
    for (unsigned K : {32u, 64u}) rgcfg("LL", 132, K, NROWS, 512, true);
    clockcfg();
  } else if (!strcmp(what, "ncun")) {
    for (unsigned N : {65536u, 67584u}) {
      rgcfg("DD", 132, 128, N);
      gridcfg("DD", 128, N);
    }
  } else if (!strcmp(what, "ncudd")) {
    for (int n : {1, 8, 33, 132})
      for (unsigned K : {32u, 128u}) rgcfg("DD", n, K);
    for (unsigned K : {32u, 128u}) gridcfg("DD", K);
  } else if (!strcmp(what, "ncull")) {
    for (int n : {1, 33, 132}) rgcfg("LL", n, 32);
    gridcfg("LL", 32);
  }
  return 0;
}
