// Study microbenchmarks for issue 19's worst program misses (helper prog23,
// 2026-11-29): (a) a warp's lanes each walking its own row, rows S bytes
// apart (a matrix-vector product with a thread a row: the pattern named for
// nn's layer3, built here from scratch, not from its source); (b) a naive
// f64 matrix product, a thread an element, its sum in a register or in
// memory (PolyBench's `E[i*N+j] += A[i*N+k] * B[k*N+j]` form), beside the
// same in f32; (c) a DFMA chain's latency and rate; (d) distributed
// shared-memory atomics in clusters of 4 (cluster_hist's mechanism).
//
// Usage: rowwalk_mb <mode>; mode "ncu" launches every configuration once
// (Nsight Compute times them), "plain" launches each 5 times and prints CUDA
// events' median. Each launch prints one `cfg` line naming its arguments.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); exit(1); } } while (0)

// (a) loads: lane `row` sums row[k] * x[k] over k < K, reps times over the
// same K words; S is the row stride in floats.
extern "C" __global__ void rw_ld(const float* a, const float* x, float* out, int S, int K, int reps) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = a + (size_t)row * S;
  float acc = 0.f;
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < K; k++) acc = fmaf(p[k], x[k], acc);
  out[row] = acc;
}

// (a) stores: lane `row` writes its row's K words, reps times.
extern "C" __global__ void rw_st(float* a, int S, int K, int reps) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float* p = a + (size_t)row * S;
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < K; k++) p[k] = (float)(row + k + r);
}

// (b) naive products, thread (i, j) of a 2-D grid: the sum in a register.
extern "C" __global__ void mm_reg_f64(const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    double s = 0;
    for (int k = 0; k < N; k++) s += A[i * N + k] * B[k * N + j];
    C[i * N + j] = s;
  }
}
extern "C" __global__ void mm_reg_f32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    float s = 0;
    for (int k = 0; k < N; k++) s += A[i * N + k] * B[k * N + j];
    C[i * N + j] = s;
  }
}
// (b) the sum in memory, no __restrict__: a load-FMA-store a step.
extern "C" __global__ void mm_mem_f64(double* A, double* B, double* C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    C[i * N + j] = 0;
    for (int k = 0; k < N; k++) C[i * N + j] += A[i * N + k] * B[k * N + j];
  }
}
extern "C" __global__ void mm_mem_f32(float* A, float* B, float* C, int N) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    C[i * N + j] = 0;
    for (int k = 0; k < N; k++) C[i * N + j] += A[i * N + k] * B[k * N + j];
  }
}

// (c) `ilp` independent DFMA chains of n steps a thread.
template <int ILP>
__device__ void dchain_body(double* out, int n) {
  double v[ILP];
  for (int c = 0; c < ILP; c++) v[c] = threadIdx.x + c;
  for (int s = 0; s < n; s++)
#pragma unroll
    for (int c = 0; c < ILP; c++) v[c] = fma(v[c], 1.0000001, 0.5);
  double t = 0;
  for (int c = 0; c < ILP; c++) t += v[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}
extern "C" __global__ void dchain1(double* out, int n) { dchain_body<1>(out, n); }
extern "C" __global__ void dchain4(double* out, int n) { dchain_body<4>(out, n); }

// (d) distributed shared-memory atomics: each thread adds 1 M times to a bin
// of 128 in a block of its cluster of 4. dst: 0 its own block, 1 the next
// rank, 2 a rank from a hash; off: 0 a bin from a hash, 1 the lane's bin
// (no two lanes of a warp on one bin), 2 one bin a warp.
extern "C" __global__ void __cluster_dims__(4, 1, 1) dsm_atom(int* out, int M, int dst, int off) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  for (int i = threadIdx.x; i < 128; i += blockDim.x) smem[i] = 0;
  cluster.sync();
  unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  for (int m = 0; m < M; m++) {
    s = s * 1103515245u + 12345u;
    unsigned h = s >> 16;
    int d = dst == 0 ? rank : dst == 1 ? (rank + 1) & 3 : h & 3;
    int o = off == 0 ? (h >> 2) & 127 : off == 1 ? (threadIdx.x & 31) + 32 * ((threadIdx.x >> 5) & 3) : (threadIdx.x >> 5) & 127;
    int* p = cluster.map_shared_rank(smem, d);
    atomicAdd(p + o, 1);
  }
  cluster.sync();
  for (int i = threadIdx.x; i < 128; i += blockDim.x) atomicAdd(&out[(blockIdx.x & 3) * 128 + i], smem[i]);
}
// (d) the same with the block's own shared memory and no cluster (dst 0).
extern "C" __global__ void sm_atom(int* out, int M, int off) {
  __shared__ int smem[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) smem[i] = 0;
  __syncthreads();
  unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  for (int m = 0; m < M; m++) {
    s = s * 1103515245u + 12345u;
    unsigned h = s >> 16;
    int o = off == 0 ? (h >> 2) & 127 : off == 1 ? (threadIdx.x & 31) + 32 * ((threadIdx.x >> 5) & 3) : (threadIdx.x >> 5) & 127;
    atomicAdd(smem + o, 1);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 128; i += blockDim.x) atomicAdd(&out[(blockIdx.x & 3) * 128 + i], smem[i]);
}

static int reps_plain = 1;
static cudaEvent_t e0, e1;

template <typename F>
static void timed(const char* line, F launch) {
  std::vector<float> ms;
  for (int r = 0; r < reps_plain; r++) {
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float t;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  printf("cfg %s event_ms=%.5f\n", line, ms[ms.size() / 2]);
  fflush(stdout);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  reps_plain = strcmp(mode, "plain") == 0 ? 5 : 1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  // (a): up to 132*512 rows of 8 KB: 528 MiB.
  const size_t rowsMax = 132 * 512, aBytes = rowsMax * 8192;
  float *a, *x, *out;
  CHECK(cudaMalloc(&a, aBytes));
  CHECK(cudaMemset(a, 0, aBytes));
  CHECK(cudaMalloc(&x, 8192 * 4));
  CHECK(cudaMemset(x, 0, 8192 * 4));
  CHECK(cudaMalloc(&out, rowsMax * 4));
  char line[256];
  struct RW { int blocks, threads, sbytes, K, reps; };
  std::vector<RW> rws;
  // One SM, 8 warps: stride sweep at K = 128 words (512 B a row), one pass
  // and four (128 KB touched: fits the L1), and K = 512 (512 KB: does not).
  for (int sb : {512, 1024, 2048, 4096, 5120, 8192}) {
    rws.push_back({1, 256, sb, 128, 1});
    rws.push_back({1, 256, sb, 128, 4});
  }
  for (int sb : {2048, 4096, 5120, 8192}) rws.push_back({1, 256, sb, 512, 2});
  // One SM, 32 warps (a block of 1024): 512 KB touched at K = 128.
  for (int sb : {1024, 4096, 5120}) rws.push_back({1, 1024, sb, 128, 2});
  // The whole GPU: 132 and 264 blocks of 256 (one and two an SM), from DRAM.
  for (int sb : {1024, 4096, 5120, 8192}) {
    rws.push_back({132, 256, sb, 128, 1});
    rws.push_back({264, 256, sb, 128, 2});
  }
  for (auto& c : rws)
    for (int st = 0; st < 2; st++) {
      snprintf(line, sizeof line, "kern=%s blocks=%d threads=%d S=%d K=%d reps=%d", st ? "rw_st" : "rw_ld", c.blocks, c.threads, c.sbytes, c.K, c.reps);
      timed(line, [&] {
        if (st) rw_st<<<c.blocks, c.threads>>>(a, c.sbytes / 4, c.K, c.reps);
        else rw_ld<<<c.blocks, c.threads>>>(a, x, out, c.sbytes / 4, c.K, c.reps);
      });
    }
  // (b): N = 256, 512, 1024 in blocks of 32 x 8.
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, 1024 * 1024 * 8));
  CHECK(cudaMalloc(&B, 1024 * 1024 * 8));
  CHECK(cudaMalloc(&C, 1024 * 1024 * 8));
  CHECK(cudaMemset(A, 0, 1024 * 1024 * 8));
  CHECK(cudaMemset(B, 0, 1024 * 1024 * 8));
  for (int N : {256, 512, 1024})
    for (const char* k : {"mm_reg_f64", "mm_reg_f32", "mm_mem_f64", "mm_mem_f32"}) {
      snprintf(line, sizeof line, "kern=%s N=%d bx=32 by=8", k, N);
      dim3 g(N / 32, N / 8), b(32, 8);
      timed(line, [&] {
        if (!strcmp(k, "mm_reg_f64")) mm_reg_f64<<<g, b>>>(A, B, C, N);
        else if (!strcmp(k, "mm_reg_f32")) mm_reg_f32<<<g, b>>>((float*)A, (float*)B, (float*)C, N);
        else if (!strcmp(k, "mm_mem_f64")) mm_mem_f64<<<g, b>>>(A, B, C, N);
        else mm_mem_f32<<<g, b>>>((float*)A, (float*)B, (float*)C, N);
      });
    }
  // (c): one SM, 1 to 32 warps; and the whole GPU at 32 warps an SM.
  for (int ilp : {1, 4})
    for (int bl : {1, 132})
      for (int th : {32, 128, 512, 1024}) {
        if (bl == 132 && th != 1024) continue;
        snprintf(line, sizeof line, "kern=dchain%d blocks=%d threads=%d n=%d", ilp, bl, th, 1024);
        timed(line, [&] {
          if (ilp == 1) dchain1<<<bl, th>>>((double*)C, 1024);
          else dchain4<<<bl, th>>>((double*)C, 1024);
        });
      }
  // (d): 3 clusters (cluster_hist's 12 blocks of 256) and 33 (132 blocks).
  int* bins;
  CHECK(cudaMalloc(&bins, 4 * 128 * 4));
  for (int bl : {12, 132})
    for (int dst : {0, 1, 2})
      for (int off : {0, 1, 2}) {
        if (bl == 132 && off == 2) continue;
        snprintf(line, sizeof line, "kern=dsm_atom blocks=%d threads=256 M=%d dst=%d off=%d", bl, 64, dst, off);
        timed(line, [&] { dsm_atom<<<bl, 256, 128 * 4>>>(bins, 64, dst, off); });
      }
  for (int off : {0, 1, 2}) {
    snprintf(line, sizeof line, "kern=sm_atom blocks=12 threads=256 M=64 off=%d", off);
    timed(line, [&] { sm_atom<<<12, 256>>>(bins, 64, off); });
  }
  snprintf(line, sizeof line, "kern=dsm_atom blocks=12 threads=256 M=%d dst=2 off=0", 8);
  timed(line, [&] { dsm_atom<<<12, 256, 128 * 4>>>(bins, 8, 2, 0); });
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
