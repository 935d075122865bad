// FP64 pipe microbenchmarks for issue 19 (helper fp64x24, 2026-11-29): the
// latency and rate of DADD, DMUL and DFMA (1-8 independent chains a thread,
// 1-16 warps a sub-partition), DFMA beside FFMA and IMAD chains, f64 and f32
// loads feeding FMAs, and the naive f32/f64 matrix product (a thread an
// element, the sum in a register: testdata/timing/rowwalk's mm_reg_*) at
// three sizes and three block shapes.
//
// Each micro kernel reads clock64 around its loop and writes one warp's
// cycles (lane 0) to cyc[]; the host prints the warps' mean and max.
// Usage: fp64_mb <mode>; "plain" launches every configuration 5 times
// (CUDA events' median), "ncu" a subset once for Nsight Compute. Each launch
// prints one `cfg` line naming its arguments.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                          \
  do {                                                                    \
    cudaError_t e_ = (x);                                                 \
    if (e_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

// op: 0 DADD v+a, 1 DMUL v*a, 2 DFMA fma(v,a,b) with a, b parameters, 3 DFMA
// with immediates (rowwalk's dchain form).
template <int OP, int ILP>
__device__ void dops_body(double* out, long long* cyc, double a, double b, int n) {
  double v[ILP];
#pragma unroll
  for (int c = 0; c < ILP; c++) v[c] = threadIdx.x + c;
  long long t0 = clock64();
  for (int s = 0; s < n; s++) {
#pragma unroll
    for (int c = 0; c < ILP; c++) {
      if (OP == 0) v[c] = v[c] + a;
      else if (OP == 1) v[c] = v[c] * a;
      else if (OP == 2) v[c] = fma(v[c], a, b);
      else v[c] = fma(v[c], 1.0000001, 0.5);
    }
  }
  long long t1 = clock64();
  double t = 0;
#pragma unroll
  for (int c = 0; c < ILP; c++) t += v[c];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = t;
  if ((threadIdx.x & 31) == 0) cyc[g >> 5] = t1 - t0;
}
#define DOPS(name, op, ilp) \
  extern "C" __global__ void name(double* out, long long* cyc, double a, double b, int n) { dops_body<op, ilp>(out, cyc, a, b, n); }
DOPS(dadd1, 0, 1) DOPS(dadd2, 0, 2) DOPS(dadd4, 0, 4) DOPS(dadd8, 0, 8)
DOPS(dmul1, 1, 1) DOPS(dmul2, 1, 2) DOPS(dmul4, 1, 4) DOPS(dmul8, 1, 8)
DOPS(dfma1, 2, 1) DOPS(dfma2, 2, 2) DOPS(dfma4, 2, 4) DOPS(dfma8, 2, 8)
DOPS(dfmi1, 3, 1) DOPS(dfmi2, 3, 2) DOPS(dfmi4, 3, 4) DOPS(dfmi8, 3, 8)

// mode bits: 1 four DFMA chains, 2 four FFMA chains, 4 four IMAD chains.
template <int MODE>
__device__ void dmix_body(double* out, long long* cyc, double a, double b, float fa, float fb, int ia, int n) {
  double d[4];
  float f[4];
  int i[4];
#pragma unroll
  for (int c = 0; c < 4; c++) d[c] = threadIdx.x + c, f[c] = threadIdx.x + c, i[c] = threadIdx.x + c;
  long long t0 = clock64();
  for (int s = 0; s < n; s++) {
#pragma unroll
    for (int c = 0; c < 4; c++) {
      if (MODE & 1) d[c] = fma(d[c], a, b);
      if (MODE & 2) f[c] = fmaf(f[c], fa, fb);
      if (MODE & 4) i[c] = i[c] * ia + c + 7;
    }
  }
  long long t1 = clock64();
  double t = 0;
#pragma unroll
  for (int c = 0; c < 4; c++) t += d[c] + f[c] + i[c];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = t;
  if ((threadIdx.x & 31) == 0) cyc[g >> 5] = t1 - t0;
}
#define DMIX(name, m) \
  extern "C" __global__ void name(double* out, long long* cyc, double a, double b, float fa, float fb, int ia, int n) { dmix_body<m>(out, cyc, a, b, fa, fb, ia, n); }
DMIX(mix_d, 1) DMIX(mix_f, 2) DMIX(mix_i, 4) DMIX(mix_df, 3) DMIX(mix_di, 5) DMIX(mix_dfi, 7)

// Loads feeding FMAs: chain c of a lane sums X[((s*ILP+c)*32 + lane) & mask]
// * a; X (mask+1 elements) stays in the L1 after its first pass.
template <typename T, int ILP>
__device__ void ldfma_body(const T* __restrict__ X, T* out, long long* cyc, T a, int n, int mask) {
  T v[ILP];
#pragma unroll
  for (int c = 0; c < ILP; c++) v[c] = 0;
  unsigned lane = threadIdx.x & 31;
  long long t0 = clock64();
  for (int s = 0; s < n; s++) {
#pragma unroll
    for (int c = 0; c < ILP; c++) v[c] = fma(X[((s * ILP + c) * 32 + lane) & mask], a, v[c]);
  }
  long long t1 = clock64();
  T t = 0;
#pragma unroll
  for (int c = 0; c < ILP; c++) t += v[c];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = t;
  if ((threadIdx.x & 31) == 0) cyc[g >> 5] = t1 - t0;
}
extern "C" __global__ void ldd1(const double* __restrict__ X, double* out, long long* cyc, double a, int n, int mask) { ldfma_body<double, 1>(X, out, cyc, a, n, mask); }
extern "C" __global__ void ldd4(const double* __restrict__ X, double* out, long long* cyc, double a, int n, int mask) { ldfma_body<double, 4>(X, out, cyc, a, n, mask); }
extern "C" __global__ void ldf1(const float* __restrict__ X, float* out, long long* cyc, float a, int n, int mask) { ldfma_body<float, 1>(X, out, cyc, a, n, mask); }
extern "C" __global__ void ldf4(const float* __restrict__ X, float* out, long long* cyc, float a, int n, int mask) { ldfma_body<float, 4>(X, out, cyc, a, n, mask); }

// The naive product, the sum in a register (rowwalk_mb.cu's mm_reg_*).
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

static int reps = 1;
static cudaEvent_t e0, e1;
static long long* cyc;
static long long hcyc[264 * 32];

// timed launches f reps times and prints the cfg line with the events'
// median and, for warps > 0, the warps' mean and largest clock64 cycles.
template <typename F>
static void timed(const char* line, int warps, F launch) {
  std::vector<float> ms;
  for (int r = 0; r < reps; r++) {
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
  double mean = 0, mx = 0;
  if (warps > 0) {
    CHECK(cudaMemcpy(hcyc, cyc, warps * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; w++) mean += hcyc[w], mx = std::max(mx, (double)hcyc[w]);
    mean /= warps;
  }
  printf("cfg %s event_ms=%.5f cyc_mean=%.1f cyc_max=%.0f\n", line, ms[ms.size() / 2], mean, mx);
  fflush(stdout);
}

typedef void (*DopsK)(double*, long long*, double, double, int);
typedef void (*MixK)(double*, long long*, double, double, float, float, int, int);

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  bool ncu = strcmp(mode, "ncu") == 0;
  reps = ncu ? 1 : 5;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaMalloc(&cyc, sizeof hcyc));
  double* out;
  CHECK(cudaMalloc(&out, 264 * 1024 * 8));
  char line[256];
  const int n = 1024;
  struct { const char* name; DopsK k; } dops[] = {
      {"dadd1", dadd1}, {"dadd2", dadd2}, {"dadd4", dadd4}, {"dadd8", dadd8},
      {"dmul1", dmul1}, {"dmul2", dmul2}, {"dmul4", dmul4}, {"dmul8", dmul8},
      {"dfma1", dfma1}, {"dfma2", dfma2}, {"dfma4", dfma4}, {"dfma8", dfma8},
      {"dfmi1", dfmi1}, {"dfmi2", dfmi2}, {"dfmi4", dfmi4}, {"dfmi8", dfmi8},
  };
  // blocks x threads: 1, 4, 8, 16 warps on one SM (1 warp, then 1, 2, 4, 8
  // a sub-partition) and 264 blocks of 1024 (16 a sub-partition, every SM).
  int shapes[][2] = {{1, 32}, {1, 128}, {1, 256}, {1, 512}, {1, 1024}, {264, 1024}};
  for (auto& d : dops)
    for (auto& s : shapes) {
      bool pick = !ncu || (s[0] == 1 && (s[1] == 32 || s[1] == 1024) && (d.name[4] == '1' || d.name[4] == '4'));
      if (!pick) continue;
      snprintf(line, sizeof line, "kern=%s blocks=%d threads=%d n=%d", d.name, s[0], s[1], n);
      timed(line, s[0] * s[1] / 32, [&] { d.k<<<s[0], s[1]>>>(out, cyc, 1.0000001, 0.5, n); });
    }
  struct { const char* name; MixK k; } mix[] = {
      {"mix_d", mix_d}, {"mix_f", mix_f}, {"mix_i", mix_i}, {"mix_df", mix_df}, {"mix_di", mix_di}, {"mix_dfi", mix_dfi},
  };
  for (auto& m : mix)
    for (int th : {32, 128, 1024}) {
      if (ncu && th != 1024) continue;
      snprintf(line, sizeof line, "kern=%s blocks=1 threads=%d n=%d", m.name, th, n);
      timed(line, th / 32, [&] { m.k<<<1, th>>>(out, cyc, 1.0000001, 0.5, 1.0000001f, 0.5f, 3, n); });
    }
  double* X;
  CHECK(cudaMalloc(&X, 8192 * 8));
  CHECK(cudaMemset(X, 0, 8192 * 8));
  for (const char* k : {"ldd1", "ldd4", "ldf1", "ldf4"})
    for (int th : {32, 128, 1024}) {
      if (ncu && th == 128) continue;
      snprintf(line, sizeof line, "kern=%s blocks=1 threads=%d n=%d mask=%d", k, th, n, 4095);
      timed(line, th / 32, [&] {
        if (!strcmp(k, "ldd1")) ldd1<<<1, th>>>(X, out, cyc, 1.0000001, n, 4095);
        else if (!strcmp(k, "ldd4")) ldd4<<<1, th>>>(X, out, cyc, 1.0000001, n, 4095);
        else if (!strcmp(k, "ldf1")) ldf1<<<1, th>>>((float*)X, (float*)out, cyc, 1.0000001f, n, 4095);
        else ldf4<<<1, th>>>((float*)X, (float*)out, cyc, 1.0000001f, n, 4095);
      });
    }
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, 1024 * 1024 * 8));
  CHECK(cudaMalloc(&B, 1024 * 1024 * 8));
  CHECK(cudaMalloc(&C, 1024 * 1024 * 8));
  CHECK(cudaMemset(A, 0, 1024 * 1024 * 8));
  CHECK(cudaMemset(B, 0, 1024 * 1024 * 8));
  int blk[][2] = {{32, 8}, {16, 16}, {32, 32}};
  for (int N : {256, 512, 1024})
    for (auto& b : blk)
      for (const char* k : {"mm_reg_f64", "mm_reg_f32"}) {
        snprintf(line, sizeof line, "kern=%s N=%d bx=%d by=%d", k, N, b[0], b[1]);
        dim3 g(N / b[0], N / b[1]), bl(b[0], b[1]);
        timed(line, 0, [&] {
          if (!strcmp(k, "mm_reg_f64")) mm_reg_f64<<<g, bl>>>(A, B, C, N);
          else mm_reg_f32<<<g, bl>>>((float*)A, (float*)B, (float*)C, N);
        });
      }
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
